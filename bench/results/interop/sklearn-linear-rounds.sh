#!/bin/sh
# An ONNX-ML LinearClassifier (scikit-learn's LinearSVC on digits, 10
# classes, 64 features) predicting 100 590 rows in one batch, in
# interleaved rounds: each round times scikit-learn's predict of the fitted
# model (sklearn-linear.py, process CPU time per row, 7 calls) and then
# rosenblatt's PredictBatch (BenchmarkONNXLinearPredictBatch, the process's
# CPU time per row, 2 runs each on one and on two threads) of the model
# read from the ONNX file (model=read) and of a linear.Model of the same
# weights (model=linear, modelkern.Dots2 two rows a call):
#
#	sh bench/results/interop/sklearn-linear-rounds.sh > bench/results/interop/sklearn-linear-rounds-zen5.txt 2>&1
#
# scikit-learn runs with OPENBLAS_NUM_THREADS=1. Needs Debian's
# python3-sklearn and python3-onnx.
set -eu
dir=$(mktemp -d)
go run ./cmd/rosenblatt cpu | grep -E '^(brand|kernel )'
go test -c -o "$dir/interop.test" ./interop
uptime
for round in 1 2 3; do
	echo "== round $round"
	OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/results/interop/sklearn-linear.py "$dir"
	if [ "$round" = 1 ]; then
		go run ./cmd/rosenblatt predict "$dir/model.onnx" "$dir/rows.libsvm" >"$dir/ours.pred"
		cmp "$dir/ours.pred" "$dir/sklearn.pred" && echo "labels: identical on every row"
	fi
	(cd interop && ROSENBLATT_ONNX_BENCH="$dir" nice -n 5 "$dir/interop.test" -test.run '^$' -test.bench 'ONNXLinearPredictBatch' -test.cpu 1,2 -test.count 2)
	uptime
done
rm -r "$dir"
