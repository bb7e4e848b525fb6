#!/bin/sh
# An ONNX-ML LinearClassifier (scikit-learn's LinearSVC on digits, 10
# classes, 64 features) predicting 100 590 rows in one batch: rosenblatt's
# PredictBatch on the model read from the ONNX file (Go benchmark, the
# process's CPU time per row, on one and on two threads) against scikit-learn's predict of the same
# fitted model on the same rows (process CPU time per row):
#
#	sh bench/results/interop/sklearn-linear.sh > bench/results/interop/sklearn-linear-zen5.txt 2>&1
#
# scikit-learn runs with OPENBLAS_NUM_THREADS=1. Needs Debian's
# python3-sklearn and python3-onnx.
set -eu
dir=$(mktemp -d)
go run ./cmd/rosenblatt cpu | grep -E '^(brand|kernel )'
uptime
OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/results/interop/sklearn-linear.py "$dir"
go run ./cmd/rosenblatt predict "$dir/model.onnx" "$dir/rows.libsvm" >"$dir/ours.pred"
cmp "$dir/ours.pred" "$dir/sklearn.pred" && echo "labels: identical on every row"
ROSENBLATT_ONNX_BENCH="$dir" nice -n 5 go test ./interop -run '^$' -bench 'ONNXLinearPredictBatch' -cpu 1,2 -count 5
uptime
rm -r "$dir"
