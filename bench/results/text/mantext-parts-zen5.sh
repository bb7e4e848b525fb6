#!/bin/sh
# The parts of the averaged one-vs-rest fit on the manual-page text sets
# (perceptron's BenchmarkTextOvRParts: the 10 epochs alone, 10 scoring
# passes with no update with and without kernel.PrefetchRow, the model
# write alone), Workers 1, float32. Output:
# bench/results/text/mantext-parts-zen5.txt.
#
#	flock /work/wt/bench.lock sh bench/results/text/mantext-parts-zen5.sh /tmp/mantext > bench/results/text/mantext-parts-zen5.txt 2>&1
set -eu
dir=$1
go run ./cmd/rosenblatt cpu | head -3; go version
ROSENBLATT_TEXTSET=$dir/mantext-name go test -run XXX -bench TextOvRParts -count 8 -benchtime 10x ./perceptron
ROSENBLATT_TEXTSET=$dir/mantext go test -run XXX -bench TextOvRParts -count 4 -benchtime 2x ./perceptron
