#!/bin/sh
# The review's changes to the scan (commit 9c22414 and later: at most 512
# visits a ScanBlock2 call, so that the call stays preemptible, and one
# visit list per worker) against the scan as first measured (d7ec818,
# mantext-scan-zen5), interleaved, ROUNDS rounds of 20 fits per process on
# the NAME lines, B = 0.1, one goroutine; the median of fits 2..20 per
# round is what to compare.
#
#	git worktree add /tmp/wt-d7ec818 d7ec818 && go -C /tmp/wt-d7ec818/bench build -o /tmp/tf-scan ./textfit
#	go -C bench build -o /tmp/tf-now ./textfit
#	sh bench/results/text/mantext-scan-chunk-zen5.sh /tmp/mantext 4 > bench/results/text/mantext-scan-chunk-zen5.txt 2>&1
set -eu
dir=$1
uptime
go run ./cmd/rosenblatt cpu | head -3; go version; git log -1 --format='commit %h %s'
for r in $(seq "$2"); do
	for b in scan now; do
		echo "== mantext-name round $r: $b"
		/tmp/tf-$b -B 0.1 -workers 1 "$dir/mantext-name" 20
	done
done
uptime
