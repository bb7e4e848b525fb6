#!/bin/sh
# What the final evaluation pass (the training diagnostics, which
# scikit-learn's fit has no counterpart of) costs in the averaged
# one-vs-rest fit on the NAME lines: textfit after the compact averaging
# state and ScoreBlock2, as it is and with -noeval (SkipEvaluation), one
# goroutine, 15 fits per process, interleaved with scikit-learn's
# Perceptron(max_iter=10) (one BLAS/OpenMP thread). The rounds label the
# default run "before" and the -noeval run "after".
#
#	go -C bench build -o /tmp/avg-tf-after ./textfit
#	flock /work/wt/bench.lock sh bench/results/text/mantext-compact-noeval-zen5.sh /tmp/mantext 4 > bench/results/text/mantext-compact-noeval-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext-name.train.libsvm mantext-name.test.libsvm)
for r in $(seq "$2"); do
	echo "== mantext-name round $r: before"
	/tmp/avg-tf-after -workers 1 "$dir/mantext-name" 15
	echo "== mantext-name round $r: after"
	/tmp/avg-tf-after -workers 1 -noeval "$dir/mantext-name" 15
	echo "== mantext-name round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext-name" 8
done
uptime
