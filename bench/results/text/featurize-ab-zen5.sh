#!/bin/bash
# BenchmarkFeaturize (20-word documents, one core, cpu-MB/s: MB of text per
# second of the thread's CPU time) of this tree and of the commit before
# the fused hashing (4a4baaa, "before"), rounds interleaved, so that both
# see the same load. Run from the repository root:
#
#	bash bench/results/text/featurize-ab-zen5.sh > bench/results/text/featurize-ab-zen5.txt 2>&1
set -euo pipefail
before=${BEFORE:-/tmp/rosenblatt-before}
rm -rf "$before" && mkdir -p "$before"
git archive 4a4baaa | tar -x -C "$before"
echo "# CPU"; go run ./cmd/rosenblatt cpu | head -3 || true
for r in 1 2 3; do
  echo; echo "######## round $r"; uptime
  echo "## this tree"
  go test -run '^$' -bench Featurize -benchtime 1s -cpu 1 ./text | grep Benchmark
  echo "## before (4a4baaa)"
  (cd "$before" && go test -run '^$' -bench Featurize -benchtime 1s -cpu 1 ./text | grep Benchmark)
done
echo "# load"; uptime
