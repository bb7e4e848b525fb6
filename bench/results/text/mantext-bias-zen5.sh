#!/bin/sh
# The averaged one-vs-rest fit on the manual-page text sets with a bias on
# the feature B = 0.1 (Options.BiasFeature, textfit -B 0.1: a mistake moves
# the bias by 0.01·η·y, as scikit-learn's SGD damps its intercept's steps
# on sparse data), against scikit-learn's Perceptron(max_iter=10), which
# fits an intercept, interleaved round by round (one BLAS/OpenMP thread;
# one goroutine): on the NAME lines ROUNDS rounds of 20 fits per process,
# with and without -noeval (SkipEvaluation: no final pass for the
# training diagnostics, which scikit-learn's fit has no counterpart of); on
# the whole pages 3 rounds of 5. Then the test accuracy of 8 seeds of each
# (textfit -seeds, mantext.py seeds; one fit's accuracy moves by a few
# test pages with the shuffling), and of our fit without a bias.
#
#	go -C bench build -o /tmp/tf-B ./textfit
#	sh bench/results/text/mantext-bias-zen5.sh /tmp/mantext 5 > bench/results/text/mantext-bias-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
git log -1 --format='commit %h %s'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for r in $(seq "$2"); do
	echo "== mantext-name round $r: after"
	/tmp/tf-B -B 0.1 -workers 1 "$dir/mantext-name" 20
	echo "== mantext-name round $r: after-noeval"
	/tmp/tf-B -B 0.1 -workers 1 -noeval "$dir/mantext-name" 20
	echo "== mantext-name round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext-name" 8
done
for r in 1 2 3; do
	echo "== mantext round $r: after"
	/tmp/tf-B -B 0.1 -workers 1 "$dir/mantext" 5
	echo "== mantext round $r: after-noeval"
	/tmp/tf-B -B 0.1 -workers 1 -noeval "$dir/mantext" 5
	echo "== mantext round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext" 3
done
for set in mantext-name mantext; do
	echo "== $set: accuracy of 8 seeds"
	/tmp/tf-B -B 0.1 -seeds 8 "$dir/$set"
	/tmp/tf-B -seeds 8 "$dir/$set"
	/usr/bin/python3 bench/peers/mantext.py "$dir/$set" seeds 8
done
uptime
