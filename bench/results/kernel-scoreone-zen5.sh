#!/bin/sh
# KernelModel.Scores and ScoresSparse before (old: commit $1, with this
# branch's kernel_bench_test.go copied in) and after they share
# KernelModel.scoring, interleaved 30 times on the shared guest:
#
#	sh bench/results/kernel-scoreone-zen5.sh 7871583 > bench/results/kernel-scoreone-zen5.txt 2>&1
set -eu
old=/tmp/scoreone-old
rm -rf $old && mkdir -p $old && git archive "$1" | tar -x -C $old
cp perceptron/kernel_bench_test.go $old/perceptron/
(cd $old && go test -c -o $old/p.test ./perceptron)
go test -c -o /tmp/scoreone-new.test ./perceptron
go run ./cmd/rosenblatt cpu | head -3
echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
cd perceptron
for i in $(seq 1 30); do
	$old/p.test -test.run '^$' -test.bench 'KernelScoreOne/Scores' -test.benchtime 100000x >> $old/old.txt
	/tmp/scoreone-new.test -test.run '^$' -test.bench 'KernelScoreOne/Scores' -test.benchtime 100000x >> $old/new.txt
done
echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## old"; cat $old/old.txt
echo "## new"; cat $old/new.txt
echo "## benchstat old new"
benchstat old=$old/old.txt new=$old/new.txt
