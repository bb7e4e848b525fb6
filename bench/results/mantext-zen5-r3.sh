#!/bin/sh
# The averaged one-vs-rest perceptron (bench/textfit) on the manual-page
# text sets (bench/textset: NAME lines, then whole pages) before and after
# the fit wrote the model straight from its blocks (perceptron: fromBlocks,
# no K×D trainer W and U) and prefetched its shuffled rows
# (kernel.PrefetchRow), interleaved round by round with scikit-learn's
# Perceptron(max_iter=10) (bench/peers/mantext.py), textfit fitting 6
# times per Workers value in one process and the peer 6 times per setting
# (the first fit of a process also faults in the model's fresh pages). Output: bench/results/mantext-zen5-r3.txt. Compare
# CPU seconds (the machine is shared).
#
#	git checkout <commit before "perceptron: a sparse one-vs-rest fit from zero weights makes no K×D trainer W and U">
#	go -C bench build -o /tmp/ovr-textfit-base ./textfit
#	git checkout <the commit "perceptron: BenchmarkTextOvRParts's doc, its command as a code block" or later>
#	go -C bench build -o /tmp/ovr-textfit-after ./textfit
#	flock /work/wt/bench.lock sh bench/results/mantext-zen5-r3.sh /tmp/mantext 3 > bench/results/mantext-zen5-r3.txt 2>&1
set -eu
dir=$1
rounds=${2:-1}
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for set in mantext-name mantext; do
	for r in $(seq "$rounds"); do
		echo "== $set round $r: before"
		/tmp/ovr-textfit-base "$dir/$set" 6
		echo "== $set round $r: after"
		/tmp/ovr-textfit-after "$dir/$set" 6
		echo "== $set round $r: sklearn"
		/usr/bin/python3 bench/peers/mantext.py "$dir/$set" 6
	done
done
