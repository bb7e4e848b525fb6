#!/bin/sh
# dataset.Alloc remembering the ranges it advised (commit 639f8f3) on the
# manual-page text sets: textfit of the commit before it against textfit
# after it, interleaved with scikit-learn's Perceptron(max_iter=10), 6 fits
# per process (mantext-ab.sh). scikit-learn runs with one BLAS/OpenMP
# thread so that its CPU seconds count only its own work (with the
# default threads its process CPU time ran about twice its wall time).
#
#	git worktree add /tmp/wt-before 639f8f3~1
#	go -C /tmp/wt-before/bench build -o /tmp/tf-before ./textfit
#	go -C bench build -o /tmp/tf-after ./textfit
#	flock /work/wt/bench.lock sh bench/results/text/mantext-alloc-zen5.sh /tmp/mantext 3 > bench/results/text/mantext-alloc-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
uptime
sh bench/results/text/mantext-ab.sh "$1" "$2" /tmp/tf-before /tmp/tf-after 6
uptime
