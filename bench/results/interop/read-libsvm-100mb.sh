#!/bin/sh
# Reading a LIBSVM model file of about 100 MB (generated in the benchmark:
# a binary RBF C-SVC, 44 000 support vectors of 100 features, every value
# with 17 significant digits as svm-train prints them):
#
#	sh bench/results/interop/read-libsvm-100mb.sh > bench/results/interop/read-libsvm-100mb-zen5.txt 2>&1
#
# MB/s is of wall time; cpu-MB/s of the benchmark thread's CPU time;
# proc-cpu-MB/s of the whole process's CPU time (garbage collector
# included). On a loaded machine quote the CPU figures.
set -eu
go run ./cmd/rosenblatt cpu | grep -E '^(brand|kernel )'
uptime
nice -n 5 go test ./interop -run '^$' -bench 'ReadLIBSVM100MB' -benchtime 3x -count 4
uptime
