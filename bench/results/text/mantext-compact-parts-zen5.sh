#!/bin/sh
# The parts of the averaged one-vs-rest fit on the NAME lines of the
# manual pages after the compact averaging state and ScoreBlock2
# (perceptron's BenchmarkTextOvRParts: the 10 epochs alone; 10 scoring
# passes with no update, one visit at a time without and with
# kernel.PrefetchRow and two at a time with kernel.ScoreBlock2; the model
# write as the fit does it, fromBlocksCompact: the K×D average allocated
# and written, the running weights and sums compact), Workers 1, float32.
#
#	flock /work/wt/bench.lock sh bench/results/text/mantext-compact-parts-zen5.sh /tmp/mantext > bench/results/text/mantext-compact-parts-zen5.txt 2>&1
set -eu
dir=$1
uptime
go run ./cmd/rosenblatt cpu | head -3; go version
ROSENBLATT_TEXTSET=$dir/mantext-name go test -run XXX -bench TextOvRParts -count 6 -benchtime 10x ./perceptron
uptime
