#!/bin/sh
# Dot and SqDist on the AVX2 path: ROSENBLATT_KERNEL=avx2 caps the
# package-level kernels ("auto") at AVX2 on this AVX-512 host (Zen 5), a
# proxy for an AVX2-only CPU, not a Zen 3 measurement. Before and after the
# AVX2 short paths (midBodyAVX2) and sqdistAuto, against vek in the same
# runs. Two test binaries of the bench module:
#
#   before: git archive c117b44 (the branch before the kernel changes) with
#           bench/cputime_linux_test.go of the change copied in (so that
#           both have TestDotCPUTime with float64 and TestSqDistCPUTime);
#           go -C bench test -c -o /tmp/avx2-before.test .
#   after:  go -C bench test -c -o /tmp/avx2-after.test .
#
# Part 1: TestDotCPUTime and TestSqDistCPUTime (thread CPU time: robust to a
# shared machine), 4 interleaved passes of 5 rounds of each binary; the
# summary is the fastest round of all passes. Part 2: BenchmarkDot (wall
# time), 6 interleaved rounds of both binaries, compared with benchstat.
# The load average is printed after every pass and round.
set -e
out=${1:-.}
for p in 1 2 3 4; do
	for v in before after; do
		ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=5 /tmp/avx2-$v.test -test.run '^Test(Dot|SqDist)CPUTime$' -test.v |
			grep -E '^(Dot|SqDist) .* (auto|vek) ' | sed "s/^/$v pass$p /" >>"$out/cputime.txt"
	done
	echo "pass $p: $(uptime)"
done
for r in 1 2 3 4 5 6; do
	for v in before after; do
		ROSENBLATT_KERNEL=avx2 /tmp/avx2-$v.test -test.run '^$' -test.benchtime 100ms \
			-test.bench '^BenchmarkDot$/^impl=(auto|vek)$/^type=f(32|64)$/^n=(16|64|256|1024|4096)$' >>"$out/bench-$v.txt"
	done
	echo "round $r: $(uptime)"
done
echo "fastest round of all passes, thread CPU time (ns per call):"
awk '{for (i = 3; $i != "min"; i++) k = (i == 3 ? "" : k " ") $i; k = k " " $1; if (!(k in m) || $(i+1) + 0 < m[k]) m[k] = $(i+1) + 0}
	END {for (k in m) print k ": " m[k]}' "$out/cputime.txt" | sort -k1,1 -k2,2 -k3,3V -k4,4 -k5,5r
benchstat "$out/bench-before.txt" "$out/bench-after.txt"
