#!/bin/sh
# A/B of the linear model's move (perceptron.Model and svm.LinearModel to
# linear.Model): perceptron fit and predict, linear SVM predict, on the
# base commit (BASE, default 12801f6) and on the work tree, interleaved
# round by round (ROUNDS, default 6) so that the shared machine's load
# falls on both alike. Run from the repository root:
#   sh bench/results/layout/linear-ab.sh > bench/results/layout/linear-ab.txt
set -e
BASE=${BASE:-12801f6}
ROUNDS=${ROUNDS:-6}
W=$(mktemp -d)
git archive "$BASE" | tar -x -C "$W"
for t in "$W" .; do
	cp bench/results/layout/linpredict_bench_test.go.txt "$t/svm/zz_linpredict_bench_test.go"
done
(cd "$W" && go test -c -o "$W/p.base" ./perceptron && go test -c -o "$W/s.base" ./svm)
go test -c -o "$W/p.head" ./perceptron
go test -c -o "$W/s.head" ./svm
rm -f svm/zz_linpredict_bench_test.go
echo "# base $BASE, head $(git rev-parse --short HEAD)+worktree"
go run ./cmd/rosenblatt cpu 2>/dev/null | head -3 || true
uptime
PB='BenchmarkPredict$|BenchmarkPredictSparse|BenchmarkTrain/data=(synth256|breast-cancer|digits)/'
SB='BenchmarkLinearSVMPredict'
for r in $(seq "$ROUNDS"); do
	for v in base head; do
		echo "## round $r $v"
		(cd perceptron && "$W/p.$v" -test.run '^$' -test.bench "$PB" -test.benchtime 200ms -test.count 1) | sed "s/^Benchmark/$v:Benchmark/" | grep "^$v:" || true
		(cd svm && "$W/s.$v" -test.run '^$' -test.bench "$SB" -test.benchtime 200ms -test.count 1) | sed "s/^Benchmark/$v:Benchmark/" | grep "^$v:" || true
	done
	uptime
done
rm -rf "$W"
