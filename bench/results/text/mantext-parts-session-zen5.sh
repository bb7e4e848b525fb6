#!/bin/sh
# BenchmarkTextOvRParts on the NAME lines (ROSENBLATT_TEXTSET) for the
# commit before the prefetch riding on the scoring call (4634fc3) and
# after it (this commit's perceptron test binary), interleaved, 5 rounds:
# the whole fit (and -noeval), the 10 epochs, the 10 scoring passes as
# the epochs score (pass-visits), the model write and forming a compact
# model's dense weights (form).
#
#	git worktree add /tmp/wt-pool 4634fc3 && (cd /tmp/wt-pool && go test -c -o /tmp/parts-pool.test ./perceptron)
#	go test -c -o /tmp/parts-ahead.test ./perceptron
#	sh bench/results/text/mantext-parts-session-zen5.sh /tmp/mantext > bench/results/text/mantext-parts-session-zen5.txt 2>&1
set -eu
export ROSENBLATT_TEXTSET="$1/mantext-name"
go run ./cmd/rosenblatt cpu | head -1
(cd "$1" && sha256sum mantext-name.train.libsvm)
for r in 1 2 3 4 5; do
	for b in pool ahead; do
		echo "== round $r: $b"
		(cd perceptron && /tmp/parts-$b.test -test.run XXX -test.bench 'TextOvRParts/(fit|fit-noeval|epochs|pass-visits|write|form)$' -test.count 1)
	done
done
