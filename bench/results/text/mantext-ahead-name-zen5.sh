#!/bin/sh
# The sparse one-vs-rest epochs' prefetch riding on the scoring call
# (kernel.ScoreBlock2Ahead: each pair scored asks for the rows of the pair
# after next) on the NAME lines of the manual pages: textfit before it
# (4634fc3, the commit before) and after (c6e6748),
# one goroutine, 20 fits per process, interleaved round by round with
# scikit-learn's Perceptron(max_iter=10) (one BLAS/OpenMP thread).
#
#	go -C bench build -o /tmp/avg-tf-ahead ./textfit      # this commit
#	git worktree add /tmp/wt-pool 4634fc3 && go -C /tmp/wt-pool/bench build -o /tmp/avg-tf-pool ./textfit
#	sh bench/results/text/mantext-ahead-name-zen5.sh /tmp/mantext 5 > bench/results/text/mantext-ahead-name-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext-name.train.libsvm mantext-name.test.libsvm)
for r in $(seq "$2"); do
	echo "== mantext-name round $r: before"
	/tmp/avg-tf-pool -workers 1 "$dir/mantext-name" 20
	echo "== mantext-name round $r: after"
	/tmp/avg-tf-ahead -workers 1 "$dir/mantext-name" 20
	echo "== mantext-name round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext-name" 8
done
uptime
