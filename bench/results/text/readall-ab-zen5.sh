#!/bin/bash
# ReadAll on GOMAXPROCS goroutines (text/readall.go) and the one-pass idf
# (text.FitReadAll), A/B: `rosenblatt train -algo averaged -epochs 10` on
# the manual pages' fastText file (bench/textset -fasttext), the build
# before (BASE, a commit) against this tree, rounds interleaved, with
# GOMAXPROCS 1 and 2, default features and -idf. Each line: the summary's
# wall and CPU time of each phase (the process's user + system time while
# it featurizes, trains, saves) and /usr/bin/time's whole process. Both
# builds write the same model file (cmp). Run from the repository root:
#
#	BASE=4e96bc1 bash bench/results/text/readall-ab-zen5.sh /tmp/htext/man > bench/results/text/readall-ab-zen5.txt 2>&1
set -euo pipefail
dir=${1:-/tmp/text-man}
base=${BASE:-4e96bc1}
rounds=${ROUNDS:-4}
tmp=$(mktemp -d)
git archive "$base" | tar -x -C "$tmp"
(cd "$tmp" && go build -o "$dir/rb-a" ./cmd/rosenblatt)
go build -o "$dir/rb-b" ./cmd/rosenblatt
rm -rf "$tmp"
echo "# CPU"; "$dir/rb-b" cpu | head -3 || true
echo "# a: $base ($(git log -1 --format=%s "$base" | cut -c1-60)); b: this tree, $(git log -1 --format='%h') + working tree"
sha256sum "$dir/mantext.train.txt"
for r in $(seq "$rounds"); do
  echo; echo "######## round $r: $(uptime)"
  for flags in "" "-idf"; do
    for p in 1 2; do
      for b in a b; do
        out=$( { /usr/bin/time -f "process: wall %e s, user %U s, sys %S s, max RSS %M kB" env GOMAXPROCS=$p "$dir/rb-$b" train -algo averaged -epochs 10 $flags -f -o "$dir/ab-$b.model" "$dir/mantext.train.txt"; } 2>&1 | grep -E '^time|^cpu time|process')
        echo "$b GOMAXPROCS=$p ${flags:-default}: $(echo "$out" | tr '\n' ' ' | sed 's/  */ /g')"
      done
      cmp "$dir/ab-a.model" "$dir/ab-b.model" && echo "   the same model file"
    done
  done
done
echo; echo "# load: $(uptime)"
