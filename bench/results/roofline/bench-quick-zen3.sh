#!/bin/sh
# rosenblatt bench -quick before and after the generic read roof's loops
# lost their register spills, RUNS rounds (5 by default) from the
# repository root, the two binaries alternating (before, then after, in
# each round): the load average before each run, the generic roofline row,
# the generic cases' lines (%roof is the last column), every note that says
# a case reached or passed its roof (within roofNoise: one "at the roof"
# note; beyond it: "MEASUREMENT ERROR"), and the cases whose roof was
# measured again because they passed it (roof_rechecks in the JSON report;
# python3 reads it). BEFORE is the commit of the "before" binary (default
# 6819f09, the loops with the spills), AFTER a commit for the other
# (default: the work tree); FLAGS are added to every run (e.g.
# FLAGS="-paths generic"; QUICK= for a full run).
set -eu
runs=${RUNS:-5}
before=${BEFORE:-6819f09}
quick=${QUICK--quick}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git archive "$before" | tar -x -C "$tmp/src"
go -C "$tmp/src" build -o "$tmp/before" ./cmd/rosenblatt
if [ -n "${AFTER:-}" ]; then
	rm -rf "$tmp/src" && mkdir "$tmp/src"
	git archive "$AFTER" | tar -x -C "$tmp/src"
	go -C "$tmp/src" build -o "$tmp/after" ./cmd/rosenblatt
else
	go build -o "$tmp/after" ./cmd/rosenblatt
fi
echo "before: $before; after: ${AFTER:-$(git rev-parse --short HEAD) and the work tree}; flags: $quick ${FLAGS:-}"
"$tmp/after" cpu | grep -E "^(brand|family/model):"
i=1
while [ "$i" -le "$runs" ]; do
	for side in before after; do
		echo "== round $i, $side: load $(cut -d' ' -f1-3 /proc/loadavg)"
		# shellcheck disable=SC2086 # FLAGS is a list of flags
		out=$("$tmp/$side" bench $quick ${FLAGS:-} -q -f -json "$tmp/report.json")
		echo "$out" | grep -E '^(impl|generic) ' || true
		echo "$out" | grep -E '^(dot|axpy|matvec) .* generic ' || true
		echo "$out" | grep -E '^note: (MEASUREMENT ERROR|at the roof)' || true
		echo "$out" | grep -qE '^note: (MEASUREMENT ERROR|at the roof)' || echo "(no case at or above its roof)"
		python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
x = ["%s %s: %d" % (c["case"], c["path"], c["roof_rechecks"]) for c in r["results"] if c.get("roof_rechecks")]
print("roof measured again after: " + (", ".join(x) if x else "none"))' "$tmp/report.json"
	done
	i=$((i + 1))
done
