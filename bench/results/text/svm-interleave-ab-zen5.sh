#!/bin/bash
# The linear SVM's fit on the Debian package synopses (bench/debtext; 20
# classes, 12.7 stored values a row) before (352d62a: class-by-class
# weights) and after the interleaved weights of dual coordinate descent
# (this checkout), interleaved rounds, one thread; the train phase's CPU
# time from the summary, and cmp of the two model files (the same bits).
# Run from the repository root:
#
#	bash bench/results/text/svm-interleave-ab-zen5.sh /tmp/debtext > bench/results/text/svm-interleave-ab-zen5.txt 2>&1
set -euo pipefail
dir=${1:-/tmp/debtext}
go build -o "$dir/rb-after" ./cmd/rosenblatt
rm -rf "$dir/before-src"; mkdir -p "$dir/before-src"
git archive 352d62a | tar -x -C "$dir/before-src"
(cd "$dir/before-src" && go build -o "$dir/rb-before" ./cmd/rosenblatt)
echo "# CPU"; "$dir/rb-after" cpu | head -3 || true
git log -1 --format='# after: %h %s'
sha256sum "$dir/debtext.train.txt"
for r in 1 2 3 4; do
  echo "## round $r: $(uptime)"
  for v in before after; do
    echo -n "$v: "
    GOMAXPROCS=1 "$dir/rb-$v" train -algo svm -loss squared-hinge -f -o "$dir/svm-$v.model" "$dir/debtext.train.txt" | grep "cpu time"
  done
  cmp "$dir/svm-before.model" "$dir/svm-after.model" && echo "the same model file ($(stat -c %s "$dir/svm-after.model") bytes)"
done
