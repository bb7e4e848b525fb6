#!/bin/sh
# bench/results/text/mantext-pairs-zen5.sh: BenchmarkTextOvRParts/epochs (the 10 epochs of the averaged
# one-vs-rest fit, Workers 1, on the manual-page NAME lines), before (base: ed97f7d, pairs with a row
# prefetch 2 visits ahead) and after (new: this branch, pairs without the prefetch), interleaved,
# 15 rounds of -count 1. From the repo root:
#   git stash -u; git checkout ed97f7d; go test -c -o /tmp/base.test ./perceptron; git checkout -; git stash pop
#   go test -c -o /tmp/new.test ./perceptron
#   sh bench/results/text/mantext-pairs-zen5.sh > bench/results/text/mantext-pairs-zen5.txt
for i in $(seq 15); do
  for b in base new; do
    ROSENBLATT_TEXTSET=/tmp/mantext/mantext-name /tmp/$b.test -test.run XXX \
      -test.bench 'TextOvRParts/(epochs|pass-pairs)$' -test.count 1 -test.benchtime 10x 2>&1 |
      grep ns/op | sed "s/TextOvRParts/TextOvRParts-$b/"
  done
done
