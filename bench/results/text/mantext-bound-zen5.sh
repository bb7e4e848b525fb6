#!/bin/sh
# bench/results/text/mantext-bound-zen5.sh: what bounds the averaged OvR fit's scoring passes on the
# manual-page NAME lines (bench/textset): perceptron's BenchmarkTextOvRBound (its doc says what each
# sub-benchmark changes) and BenchmarkTextOvRParts' pass-pairs, interleaved: each round runs every
# sub-benchmark once (-count 1), 15 rounds. Recorded at commit 9372f70, which had a four-sample
# kernel.ScoreBlock4 (the "quads" and "pass-quads" lines: epochSparseOvR scoring four visits at once);
# it measured no faster than pairs and was removed in the next commit (where "visits" and
# "pass-visits" run the pairs without prefetch instead). From the repo root:
#   go test -c -o /tmp/avg2.test ./perceptron
#   sh bench/results/text/mantext-bound-zen5.sh > bench/results/text/mantext-bound-zen5.txt
for i in $(seq 15); do
  for re in 'TextOvRBound' 'TextOvRParts/(pass-pairs|pass-quads)$'; do
    ROSENBLATT_TEXTSET=/tmp/mantext/mantext-name /tmp/avg2.test -test.run XXX \
      -test.bench "$re" -test.count 1 -test.benchtime 10x 2>&1 | grep ns/op
  done
done
