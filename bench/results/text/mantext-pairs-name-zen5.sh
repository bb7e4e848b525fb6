#!/bin/sh
# The averaged one-vs-rest fit scoring its visits in pairs without the
# row prefetch (perceptron's epochSparseOvR, scoreVisits; the prefetch of
# the rows 2 visits ahead measured slower: mantext-bound-zen5.txt) on the
# manual-page NAME lines: textfit before (ed97f7d) and after, one
# goroutine, 15 fits per process, interleaved round by round with
# scikit-learn's Perceptron(max_iter=10, tol=None) (one BLAS/OpenMP thread),
# as mantext-compact-name-zen5.sh.
#
#	mkdir /tmp/avg2-base && git archive ed97f7d | tar -x -C /tmp/avg2-base
#	go -C /tmp/avg2-base/bench build -o /tmp/avg2-tf-before ./textfit
#	go -C bench build -o /tmp/avg2-tf-after ./textfit
#	flock /work/wt/bench.lock sh bench/results/text/mantext-pairs-name-zen5.sh /tmp/mantext 5 > bench/results/text/mantext-pairs-name-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext-name.train.libsvm mantext-name.test.libsvm)
for r in $(seq "$2"); do
	echo "== mantext-name round $r: before"
	/tmp/avg2-tf-before -workers 1 "$dir/mantext-name" 15
	echo "== mantext-name round $r: after"
	/tmp/avg2-tf-after -workers 1 "$dir/mantext-name" 15
	echo "== mantext-name round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext-name" 8
done
uptime
