#!/bin/sh
# rosenblatt bench -quick, run RUNS times (5 by default) from the
# repository root: the load average before each run, the generic and SIMD
# roofline rows, and every note that says a case reached or passed its
# roof (at the roof, within roofNoise: one "at the roof" note; beyond it:
# "MEASUREMENT ERROR").
set -eu
runs=${RUNS:-5}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
go build -o "$bin" ./cmd/rosenblatt
"$bin" cpu | head -1
i=1
while [ "$i" -le "$runs" ]; do
	echo "== run $i: $(uptime)"
	out=$("$bin" bench -quick -q)
	echo "$out" | grep -E '^(impl|generic|avx2|avx512|neon) ' || true
	echo "$out" | grep -E '^note: (MEASUREMENT ERROR|at the roof)' || echo "(no case at or above its roof)"
	i=$((i + 1))
done
