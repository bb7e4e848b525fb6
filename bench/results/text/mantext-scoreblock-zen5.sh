#!/bin/sh
# The averaged one-vs-rest perceptron on the manual-page text sets
# (bench/textset) before and after kernel.ScoreBlock (the AVX block-scoring
# kernel) replaced perceptron's Go scoreBlock loop, against scikit-learn,
# one fit per process (mantext-ab.sh). Output:
# bench/results/text/mantext-scoreblock-zen5.txt.
#
#	git checkout <commit before perceptron: scoreBlock calls kernel.ScoreBlock>
#	go -C bench build -o /tmp/ovrsimd-textfit-before ./textfit
#	git checkout <that commit>
#	go -C bench build -o /tmp/ovrsimd-textfit-after ./textfit
#	flock /work/wt/bench.lock sh bench/results/text/mantext-scoreblock-zen5.sh /tmp/mantext 3 > bench/results/text/mantext-scoreblock-zen5.txt 2>&1
set -eu
exec sh bench/results/text/mantext-ab.sh "$1" "${2:-1}" /tmp/ovrsimd-textfit-before /tmp/ovrsimd-textfit-after 1
