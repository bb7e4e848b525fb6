#!/bin/sh
# The averaged one-vs-rest perceptron on the manual-page text sets before
# and after the fit wrote the model straight from its blocks (perceptron:
# fromBlocks, no K×D trainer W and U) and prefetched its shuffled rows
# (kernel.PrefetchRow), against scikit-learn, 6 fits per process
# (mantext-ab.sh). Output: bench/results/text/mantext-zen5-r3.txt.
#
#	git checkout <the commit before "perceptron: a sparse one-vs-rest fit from zero weights makes no K×D trainer W and U">
#	go -C bench build -o /tmp/ovr-textfit-base ./textfit
#	git checkout <the commit "perceptron: fromBlocks checks the served weights' finiteness as it writes them" or later>
#	go -C bench build -o /tmp/ovr-textfit-after ./textfit
#	flock /work/wt/bench.lock sh bench/results/text/mantext-zen5-r3.sh /tmp/mantext 3 > bench/results/text/mantext-zen5-r3.txt 2>&1
set -eu
exec sh bench/results/text/mantext-ab.sh "$1" "${2:-1}" /tmp/ovr-textfit-base /tmp/ovr-textfit-after 6
