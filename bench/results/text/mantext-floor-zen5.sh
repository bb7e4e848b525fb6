#!/bin/sh
# The averaged one-vs-rest fit on the manual-page text sets with the bias
# feature B = 0.1 against scikit-learn's Perceptron(max_iter=10), as in
# mantext-scan-zen5.sh, after this session's changes (the epochs after a
# clean sweep counted, not run; the model written in column chunks; fresh
# arrays populated at once), interleaved round by round (one BLAS/OpenMP
# thread; one goroutine): on the NAME lines ROUNDS rounds of 20 fits per
# process, with and without -noeval; on the whole pages 3 rounds of 5.
# Then, in the same run, the floor of the whole pages' epochs:
# BenchmarkTextOvRParts' pass-visits (10 passes scoring every visit, in a
# fresh shuffled order each, with the trained weights and no update: what
# 10 epochs cost if no visit needed an update) and epochs (10 epochs run
# one by one, every update), count 5; and the test accuracy of 8 seeds of
# each fit.
#
#	go -C bench build -o /tmp/tf-floor ./textfit
#	sh bench/results/text/mantext-floor-zen5.sh /tmp/mantext 5 > bench/results/text/mantext-floor-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
uname -m; go run ./cmd/rosenblatt cpu 2>/dev/null | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
git log -1 --format='commit %h %s'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for r in $(seq "$2"); do
	echo "== mantext-name round $r: ours"
	/tmp/tf-floor -B 0.1 -workers 1 "$dir/mantext-name" 20
	echo "== mantext-name round $r: ours-noeval"
	/tmp/tf-floor -B 0.1 -workers 1 -noeval "$dir/mantext-name" 20
	echo "== mantext-name round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext-name" 8
done
for r in 1 2 3; do
	echo "== mantext round $r: ours"
	/tmp/tf-floor -B 0.1 -workers 1 "$dir/mantext" 5
	echo "== mantext round $r: ours-noeval"
	/tmp/tf-floor -B 0.1 -workers 1 -noeval "$dir/mantext" 5
	echo "== mantext round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext" 3
done
echo "== mantext: the epochs' floor"
ROSENBLATT_TEXTSET="$dir/mantext" go test -run XXX -bench 'TextOvRParts/(epochs|pass-visits)$' -count 5 ./perceptron
for set in mantext-name mantext; do
	echo "== $set: accuracy of 8 seeds"
	/tmp/tf-floor -B 0.1 -seeds 8 "$dir/$set"
	/usr/bin/python3 bench/peers/mantext.py "$dir/$set" seeds 8
done
uptime
