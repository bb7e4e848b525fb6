#!/bin/sh
# Before and after moving the trainers' and int8 models' kernels from
# package kernel to internal/modelkern (no change to any kernel's code is
# intended): the sparse one-vs-rest perceptron's epochs (ScanBlock2,
# ScoreBlock2Ahead; BenchmarkTextOvRParts/epochs and pass-visits on the
# manual pages' NAME lines, bench/textset -short) and the int8 model's
# prediction parts (RescaleArgmax, Fused10.Predict; TestPredictPartsCPUTime,
# thread CPU time), the two builds' test binaries run in alternation.
#
#	git archive <before> | tar -x -C /tmp/kerntrim-before
#	(cd /tmp/kerntrim-before && go test -c -o /tmp/kerntrim-bench/before.test ./perceptron && go test -c -o /tmp/kerntrim-bench/before-quant.test ./quant)
#	go test -c -o /tmp/kerntrim-bench/after.test ./perceptron && go test -c -o /tmp/kerntrim-bench/after-quant.test ./quant
#	go -C bench run ./textset -short -o /tmp/kerntrim-mantext
#	sh bench/results/layout/modelkern-zen5.sh /tmp/kerntrim-bench /tmp/kerntrim-mantext 8 > bench/results/layout/modelkern-zen5.txt 2>&1
#	benchstat -col /build bench/results/layout/modelkern-zen5.bench
set -eu
bin=$1 set=$2 rounds=$3
out=$(dirname "$0")/modelkern-zen5.bench
uptime
go run ./cmd/rosenblatt cpu 2>/dev/null | head -3
go version
: > "$out"
for r in $(seq "$rounds"); do
	for b in before after; do
		echo "== round $r $b"
		(cd perceptron && ROSENBLATT_TEXTSET=$set/mantext-name /usr/bin/time -f "$b process user %U s sys %S s" \
			"$bin/$b.test" -test.run XXX -test.bench 'TextOvRParts/(epochs|pass-visits)$' -test.benchtime 20x -test.count 1) >/tmp/modelkern-round.txt 2>&1
		cat /tmp/modelkern-round.txt
		grep '^Benchmark' /tmp/modelkern-round.txt | sed "s/^BenchmarkTextOvRParts/BenchmarkTextOvRParts\/build=$b/" >>"$out"
	done
done
for b in before after; do
	echo "== $b: TestPredictPartsCPUTime"
	(cd quant && ROSENBLATT_CPUTIME_ROUNDS=20 "$bin/$b-quant.test" -test.run TestPredictPartsCPUTime -test.v 2>&1 | grep -v '^=== RUN\|^--- PASS\|^PASS')
done
uptime
