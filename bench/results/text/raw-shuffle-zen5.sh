#!/bin/bash
# rosenblatt train -shuffle on the set of raw-three-zen5.sh (same files, same
# sums; run right after it): the training file lists its pages by section
# (14 234 of section 1 first, then 2, 3, 5, 7, 8), which a perceptron that
# sweeps in file order learns badly; fastText and scikit-learn shuffle.
# Run from the repository root:
#
#	bash bench/results/text/raw-shuffle-zen5.sh /tmp/mantext > bench/results/text/raw-shuffle-zen5.txt 2>&1
set -euo pipefail
dir=${1:-/tmp/mantext}
go build -o "$dir/rosenblatt" ./cmd/rosenblatt
echo "# CPU"; "$dir/rosenblatt" cpu | head -3
echo "# load"; uptime
sha256sum "$dir"/mantext.train.txt "$dir"/mantext.test.txt
echo "# labels of the training file in file order"; cut -d' ' -f1 "$dir/mantext.train.txt" | uniq -c
t() { /usr/bin/time -f "  wall %e s, user %U s, sys %S s, max RSS %M kB" "$@"; }
for p in 1 2; do
  for e in 10 100; do
    echo; echo "## rosenblatt, GOMAXPROCS=$p: train -algo averaged -shuffle -epochs $e"
    t env GOMAXPROCS=$p "$dir/rosenblatt" train -algo averaged -shuffle -epochs $e -f -o "$dir/rbs$p-$e.model" "$dir/mantext.train.txt"
  done
done
for e in 10 100; do
  echo; echo "# rosenblatt eval rbs1-$e.model"
  t "$dir/rosenblatt" eval "$dir/rbs1-$e.model" "$dir/mantext.test.txt" | head -4
done
echo "# load"; uptime
