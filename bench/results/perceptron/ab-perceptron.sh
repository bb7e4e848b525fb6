#!/bin/sh
# A/B of a perceptron benchmark: commit OLD (with this branch's benchmark
# file FILE copied in) against the working tree, interleaved ROUNDS times
# on the shared guest, then benchstat. Made with
#
#	sh bench/results/perceptron/ab-perceptron.sh 7871583 kernel_bench_test.go 'KernelScoreOne/Scores' 100000x 30 > bench/results/perceptron/kernel-scoreone-zen5.txt 2>&1
#	sh bench/results/perceptron/ab-perceptron.sh 2d1bc39 scoresbatch_bench_test.go '^BenchmarkScoresBatchGEMM$' 200x 10 > bench/results/perceptron/scoresbatch-gemm-zen5.txt 2>&1
set -eu
[ $# -eq 5 ] || { echo "usage: $0 OLD FILE PATTERN BENCHTIME ROUNDS" >&2; exit 2; }
old=/tmp/ab-perceptron-old
rm -rf $old && mkdir -p $old && git archive "$1" | tar -x -C $old
cp "perceptron/$2" $old/perceptron/
(cd $old && nice -n 15 go test -c -o $old/p.test ./perceptron)
nice -n 15 go test -c -o $old/new.test ./perceptron
nice -n 15 go run ./cmd/rosenblatt cpu | head -3
echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
cd perceptron
for i in $(seq 1 "$5"); do
	$old/p.test -test.run '^$' -test.bench "$3" -test.benchtime "$4" >> $old/old.txt
	$old/new.test -test.run '^$' -test.bench "$3" -test.benchtime "$4" >> $old/new.txt
done
echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## old"; cat $old/old.txt
echo "## new"; cat $old/new.txt
echo "## benchstat old new"
benchstat old=$old/old.txt new=$old/new.txt
