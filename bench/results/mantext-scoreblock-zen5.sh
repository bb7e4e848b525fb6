#!/bin/sh
# The averaged one-vs-rest perceptron on the manual-page text sets
# (bench/textset) before and after kernel.ScoreBlock (the AVX block-scoring
# kernel) replaced perceptron's Go scoreBlock loop, interleaved round by
# round with scikit-learn's Perceptron(max_iter=10) (bench/peers/mantext.py).
# Output: bench/results/mantext-scoreblock-zen5.txt. Compare CPU seconds
# (the machine is shared).
#
#	git checkout <commit before perceptron: scoreBlock calls kernel.ScoreBlock>
#	go -C bench build -o /tmp/ovrsimd-textfit-before ./textfit
#	git checkout <that commit>
#	go -C bench build -o /tmp/ovrsimd-textfit-after ./textfit
#	flock /work/wt/bench.lock sh bench/results/mantext-scoreblock-zen5.sh /tmp/mantext 3 > bench/results/mantext-scoreblock-zen5.txt 2>&1
set -eu
dir=$1
rounds=${2:-1}
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for set in mantext-name mantext; do
	for r in $(seq "$rounds"); do
		echo "== $set round $r: before"
		/tmp/ovrsimd-textfit-before "$dir/$set" 1
		echo "== $set round $r: after"
		/tmp/ovrsimd-textfit-after "$dir/$set" 1
		echo "== $set round $r: sklearn"
		/usr/bin/python3 bench/peers/mantext.py "$dir/$set" 1
	done
done
