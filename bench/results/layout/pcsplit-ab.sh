#!/bin/sh
# A/B of perceptron's reorganisation (one internal entry point for the
# dense/sparse and binary/multiclass fits, one for the kernel fits, one
# continuation, one data preparation; the helpers shared with package
# linear in internal/linmodel): the fits of package perceptron on the base
# commit (BASE) and on the work tree, interleaved round by round (ROUNDS,
# default 4) so that the shared machine's load falls on both alike.
#
# What runs: BenchmarkTrain on synth256 (binary Online and Averaged,
# dense), breast-cancer (binary, every rule, and the RBF kernel perceptron)
# and digits (10 classes one-vs-rest, every rule, and the RBF kernel
# perceptron); BenchmarkTextOvRParts/fit (sparse one-vs-rest Averaged on
# the manual pages' text set, made by bench/textset) when TEXTSET names it.
# Every benchmark runs a fixed number of fits (-benchtime Nx), and the whole
# test process's CPU time (user + system, /usr/bin/time) is recorded as a
# …/process line in cpu-s/run: under load, compare those and the medians.
#
#   TEXTSET=/tmp/mantext/mantext sh bench/results/layout/pcsplit-ab.sh > bench/results/layout/pcsplit-ab.txt
set -e
BASE=${BASE:-4e96bc1}
ROUNDS=${ROUNDS:-4}
W=$(mktemp -d)
git archive "$BASE" | tar -x -C "$W"
(cd "$W" && go test -c -o "$W/p.base" ./perceptron)
go test -c -o "$W/p.head" ./perceptron
echo "# base $BASE, head $(git rev-parse --short HEAD)"
go run ./cmd/rosenblatt cpu 2>/dev/null | head -3 || true
uptime
run() { # tag pattern benchtime [env]
	v=$1
	(cd perceptron && env $4 /usr/bin/time -f '%U %S' -o "$W/cpu" "$W/p.$v" -test.run '^$' -test.bench "$2" -test.benchtime "$3" -test.count 1) |
		sed "s/^Benchmark/$v:Benchmark/" | grep "^$v:" || true
	awk -v v="$v" -v n="$2" 'NF == 2 { printf "%s:cpu %s %.2f cpu-s/run\n", v, n, $1 + $2 }' "$W/cpu"
}
for r in $(seq "$ROUNDS"); do
	for v in base head; do
		echo "## round $r $v"
		run $v 'BenchmarkTrain/data=(synth256|breast-cancer|digits)/' 5x
		if [ -n "${TEXTSET:-}" ]; then
			run $v 'BenchmarkTextOvRParts/fit$' 5x "ROSENBLATT_TEXTSET=$TEXTSET"
		fi
	done
	uptime
done
rm -rf "$W"
