#!/bin/sh
# Reading a LIBSVM model file of about 100 MB (generated in the benchmark:
# a binary RBF C-SVC, 44 000 support vectors of 100 features, every value
# with 17 significant digits as svm-train prints them):
#
#	sh bench/results/interop/read-libsvm-100mb.sh > bench/results/interop/read-libsvm-100mb-zen5.txt 2>&1
#
# MB/s is of wall time; cpu-MB/s of the benchmark thread's CPU time;
# proc-cpu-MB/s of the whole process's CPU time (garbage collector and the
# other parsing goroutines included). With -cpu 1 (GOMAXPROCS=1) the
# support vectors are parsed in one pass on the benchmark thread; with
# -cpu 2 in two parts at once, and cpu-MB/s then counts only the calling
# thread's share: quote proc-cpu-MB/s. On a loaded machine quote the CPU
# figures; wall MB/s is meaningful only on an idle one.
set -eu
go run ./cmd/rosenblatt cpu | grep -E '^(brand|kernel )'
uptime
nice -n 5 go test ./interop -run '^$' -bench 'ReadLIBSVM100MB' -benchtime 3x -count 4 -cpu 1,2
uptime
