#!/bin/sh
# The averaged one-vs-rest fit keeping its running weights and sums compact
# (perceptron's compactAvg: one K×D array written, not three) and scoring
# the visits two at a time (kernel.ScoreBlock2) on the manual-page text
# sets: textfit of the commit before both (2b7c854) against textfit after
# them, interleaved with scikit-learn's Perceptron(max_iter=10), 6 fits per
# process (mantext-ab.sh). scikit-learn runs with one BLAS/OpenMP thread.
#
#	git worktree add /tmp/wt-before 2b7c854
#	go -C /tmp/wt-before/bench build -o /tmp/avg-tf-before ./textfit
#	go -C bench build -o /tmp/avg-tf-after ./textfit
#	flock /work/wt/bench.lock sh bench/results/text/mantext-compact-zen5.sh /tmp/mantext 3 > bench/results/text/mantext-compact-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
uptime
sh bench/results/text/mantext-ab.sh "$1" "$2" /tmp/avg-tf-before /tmp/avg-tf-after 6
uptime
