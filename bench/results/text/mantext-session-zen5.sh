#!/bin/sh
# The averaged one-vs-rest fit on the manual-page text sets after this
# session's changes (compact served weights, the visits looked up once per
# epoch, the evaluation by pairs, the short rows' norms, pooled scratch,
# the prefetch riding on the scoring call; textfit built at c6e6748)
# against the commit before them (4be382b), interleaved round by round with scikit-learn's
# Perceptron(max_iter=10) (one BLAS/OpenMP thread): on the NAME lines
# ROUNDS rounds of 20 fits per process (and the after build with
# -noeval, SkipEvaluation: no final pass for the training diagnostics,
# which scikit-learn's fit has no counterpart of), on the whole pages 3
# rounds of 5; one goroutine. Then the test accuracy of 8 seeds of each
# (textfit -seeds, mantext.py seeds): one fit's accuracy moves by a few
# test pages with the shuffling. Both textfit builds print times to 0.1 ms
# (the before build with that one line changed).
#
#	git worktree add /tmp/wt-before 4be382b
#	sed -i 's/fit %.3f s wall %.3f s cpu  test accuracy/fit %.4f s wall %.4f s cpu  test accuracy/' /tmp/wt-before/bench/textfit/main.go
#	go -C /tmp/wt-before/bench build -o /tmp/avg-tf-before ./textfit
#	go -C bench build -o /tmp/avg-tf-after ./textfit
#	sh bench/results/text/mantext-session-zen5.sh /tmp/mantext 5 > bench/results/text/mantext-session-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for r in $(seq "$2"); do
	echo "== mantext-name round $r: before"
	/tmp/avg-tf-before -workers 1 "$dir/mantext-name" 20
	echo "== mantext-name round $r: after"
	/tmp/avg-tf-after -workers 1 "$dir/mantext-name" 20
	echo "== mantext-name round $r: after-noeval"
	/tmp/avg-tf-after -workers 1 -noeval "$dir/mantext-name" 20
	echo "== mantext-name round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext-name" 8
done
for r in 1 2 3; do
	echo "== mantext round $r: before"
	/tmp/avg-tf-before -workers 1 "$dir/mantext" 5
	echo "== mantext round $r: after"
	/tmp/avg-tf-after -workers 1 "$dir/mantext" 5
	echo "== mantext round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext" 3
done
for set in mantext-name mantext; do
	echo "== $set: accuracy of 8 seeds"
	/tmp/avg-tf-after -seeds 8 "$dir/$set"
	/usr/bin/python3 bench/peers/mantext.py "$dir/$set" seeds 8
done
uptime
