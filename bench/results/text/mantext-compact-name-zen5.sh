#!/bin/sh
# mantext-compact-zen5.sh on the NAME lines only, with more fits per
# process (15) and more rounds, as the shared machine's load (4 or more on
# 2 vCPUs) moves single fits by 2×: textfit before (2b7c854) and after,
# one goroutine, interleaved round by round with scikit-learn's
# Perceptron(max_iter=10) (one BLAS/OpenMP thread). Same builds as
# mantext-compact-zen5.sh.
#
#	flock /work/wt/bench.lock sh bench/results/text/mantext-compact-name-zen5.sh /tmp/mantext 5 > bench/results/text/mantext-compact-name-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext-name.train.libsvm mantext-name.test.libsvm)
for r in $(seq "$2"); do
	echo "== mantext-name round $r: before"
	/tmp/avg-tf-before -workers 1 "$dir/mantext-name" 15
	echo "== mantext-name round $r: after"
	/tmp/avg-tf-after -workers 1 "$dir/mantext-name" 15
	echo "== mantext-name round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext-name" 8
done
uptime
