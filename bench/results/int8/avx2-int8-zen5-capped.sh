#!/bin/sh
# 10-class one-vs-rest Predict at d = 768 and 784: float32 on the AVX2 path
# (ROSENBLATT_KERNEL=avx2 on this AVX-512 host, Zen 5: a proxy for an
# AVX2-only CPU, not a Zen 3 measurement) against the int8 model on
# int8=avx2, the path of an AVX2 CPU without VNNI (quant.Model.OnInt8
# selects it: no environment value caps the int8 kernels below avxvnni on a
# CPU that has AVX-VNNI), before and after avx2's fused 10-class prediction
# (Fused10 on rows widened to int16). Two test binaries of the bench module:
#
#   before: git archive c117b44 (the branch before the kernel changes) with
#           bench/cputime_linux_test.go of the change copied in;
#           go -C bench test -c -o /tmp/avx2-before.test .
#   after:  go -C bench test -c -o /tmp/avx2-after.test .
#
# Part 1: TestQuantPredictCPUTime (thread CPU time), 4 interleaved passes of
# 40 rounds of each binary; the summary is the fastest round of all passes.
# Part 2: BenchmarkQuantPredict (wall time), 6 interleaved rounds of both
# binaries, compared with benchstat. The load average is printed after
# every pass and round.
set -e
out=${1:-.}
for p in 1 2 3 4; do
	for v in before after; do
		ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=40 /tmp/avx2-$v.test -test.run '^TestQuantPredictCPUTime$' -test.v |
			grep -E '^d=.* avx2 ' | sed "s/^/$v pass$p /" >>"$out/quant-cputime.txt"
	done
	echo "pass $p: $(uptime)"
done
for r in 1 2 3 4 5 6; do
	for v in before after; do
		ROSENBLATT_KERNEL=avx2 /tmp/avx2-$v.test -test.run '^$' -test.benchtime 100ms \
			-test.bench '^BenchmarkQuantPredict$/^d=(768|784)$/^(float32=avx2|int8=avx2)$' >>"$out/quant-bench-$v.txt"
	done
	echo "round $r: $(uptime)"
done
echo "fastest round of all passes, thread CPU time (ns per call):"
awk '{for (i = 3; $i != "min"; i++) k = (i == 3 ? "" : k " ") $i; k = k " " $1; if (!(k in m) || $(i+1) + 0 < m[k]) m[k] = $(i+1) + 0}
	END {for (k in m) print k ": " m[k]}' "$out/quant-cputime.txt" | sort
benchstat "$out/quant-bench-before.txt" "$out/quant-bench-after.txt"
