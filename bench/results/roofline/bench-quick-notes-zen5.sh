#!/bin/sh
# rosenblatt bench -quick, run RUNS times (5 by default) from the
# repository root: the load average before each run, the generic and SIMD
# roofline rows, and every note that says a case reached or passed its
# roof (at the roof, within roofNoise: one "at the roof" note; beyond it:
# "MEASUREMENT ERROR"), and the cases whose roof was measured again
# because they passed it (roof_rechecks in the JSON report; python3 reads
# it). BIN=path runs that binary instead of building ./cmd/rosenblatt.
set -eu
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${BIN:-$tmp/rosenblatt}
[ -n "${BIN:-}" ] || go build -o "$bin" ./cmd/rosenblatt
"$bin" cpu | head -1
i=1
while [ "$i" -le "$runs" ]; do
	echo "== run $i: $(uptime)"
	out=$("$bin" bench -quick -q -f -json "$tmp/report.json")
	echo "$out" | grep -E '^(impl|generic|avx2|avx512|neon) ' || true
	echo "$out" | grep -E '^note: (MEASUREMENT ERROR|at the roof)' || echo "(no case at or above its roof)"
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
x = ["%s %s: %d" % (c["case"], c["path"], c["roof_rechecks"]) for c in r["results"] if c.get("roof_rechecks")]
print("roof measured again after: " + (", ".join(x) if x else "none"))' "$tmp/report.json"
	i=$((i + 1))
done
