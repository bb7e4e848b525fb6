#!/bin/bash
# usedcols.RenumberByCount (the one-vs-rest trainer's renumbering of the
# used columns, most frequent first) with a count per column (this tree)
# against the bitmap's three passes (BASE), BenchmarkRenumberByCount: 8 M
# Zipf-distributed values over 2^20 columns, one thread, thread CPU time
# (cpu-ms/op), rounds interleaved. Run from the repository root:
#
#	BASE=c88a2e0 bash bench/results/text/usedcols-ab-zen5.sh > bench/results/text/usedcols-ab-zen5.txt 2>&1
set -euo pipefail
base=${BASE:-c88a2e0}
tmp=$(mktemp -d)
go test -c -o "$tmp/b.test" ./internal/usedcols
cp internal/usedcols/usedcols.go "$tmp/new.go"
git show "$base:internal/usedcols/usedcols.go" > internal/usedcols/usedcols.go
go test -c -o "$tmp/a.test" ./internal/usedcols
cp "$tmp/new.go" internal/usedcols/usedcols.go
echo "# CPU"; go run ./cmd/rosenblatt cpu | head -3 || true
echo "# a: $base (bitmap, three passes); b: this tree (counts per column)"
for r in 1 2 3 4 5; do
  echo "## round $r: $(uptime)"
  for b in a b; do
    echo "$b $("$tmp/$b.test" -test.run '^$' -test.bench RenumberByCount -test.benchtime 3x -test.cpu 1 | grep Benchmark)"
  done
done
rm -rf "$tmp"
