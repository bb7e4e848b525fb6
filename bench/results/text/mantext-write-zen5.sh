#!/bin/sh
# BenchmarkTextOvRParts/write (writing the compact model from the class
# blocks) on the whole manual pages, before (commit 1815e2f: class by
# class over all the used columns) and after (writeBlocks in chunks of
# 4096 columns), interleaved, count 5 each, three rounds.
#
#	git worktree add /tmp/wt-before 1815e2f
#	sh bench/results/text/mantext-write-zen5.sh /tmp/mantext /tmp/wt-before > bench/results/text/mantext-write-zen5.txt 2>&1
set -eu
dir=$1 before=$2
uptime
go run ./cmd/rosenblatt cpu 2>/dev/null | head -3; go version
git log -1 --format='after: commit %h'; git -C "$before" log -1 --format='before: commit %h'
sha256sum "$dir/mantext.train.libsvm"
go test -c -o /tmp/write-after.test ./perceptron
(cd "$before" && go test -c -o /tmp/write-before.test ./perceptron)
for r in 1 2 3; do
	for v in before after; do
		echo "== round $r: $v"
		ROSENBLATT_TEXTSET="$dir/mantext" /tmp/write-$v.test -test.run XXX -test.bench 'TextOvRParts/write$' -test.count 5 | grep Benchmark
	done
done
uptime
