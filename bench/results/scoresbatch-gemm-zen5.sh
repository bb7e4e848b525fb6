#!/bin/sh
# ScoresBatch on the matrix-product path before (old: commit $1, with this
# branch's scoresbatch_bench_test.go copied in) and after it finishes its
# rows with finishBatch, interleaved 10 times on the shared guest:
#
#	sh bench/results/scoresbatch-gemm-zen5.sh 2d1bc39 > bench/results/scoresbatch-gemm-zen5.txt 2>&1
set -eu
old=/tmp/scoresbatch-old
rm -rf $old && mkdir -p $old && git archive "$1" | tar -x -C $old
cp perceptron/scoresbatch_bench_test.go $old/perceptron/
(cd $old && go test -c -o $old/p.test ./perceptron)
go test -c -o /tmp/scoresbatch-new.test ./perceptron
go run ./cmd/rosenblatt cpu | head -3
echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
cd perceptron
for i in $(seq 1 10); do
	$old/p.test -test.run '^$' -test.bench '^BenchmarkScoresBatchGEMM$' -test.benchtime 200x >> $old/old.txt
	/tmp/scoresbatch-new.test -test.run '^$' -test.bench '^BenchmarkScoresBatchGEMM$' -test.benchtime 200x >> $old/new.txt
done
echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## old"; cat $old/old.txt
echo "## new"; cat $old/new.txt
echo "## benchstat old new"
benchstat old=$old/old.txt new=$old/new.txt
