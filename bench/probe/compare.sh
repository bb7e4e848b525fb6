#!/bin/sh
# Runs `rosenblatt bench` and the C probe (probe.c) in turn, ROUNDS times
# (default 3), the probe on the working sets the bench run just before it
# chose and with PROBE_TRIALS trials per figure (default 30, as many as
# bench's first measurement; a bench roof at L3 and DRAM is the maximum of
# some 80 to 130), then compares their figures (compare.py): the maximum
# over the rounds of each, and round by round. Run from the repository root:
#
#	sh bench/probe/compare.sh bench/results/roofline/roofline-zen5
#
# It writes PREFIX-N.json, PREFIX-N.txt and PREFIX-N.svg (the bench report,
# table and roofline plot of round N), PREFIX-probe-N.txt (the probe's
# output) and PREFIX-compare.txt; with rsvg-convert (Debian: librsvg2-bin)
# also PREFIX-N.png, the last round's plot as an image.
set -eu
prefix=${1:?usage: compare.sh OUTPUT-PREFIX [ROUNDS]}
rounds=${2:-3}
probe_trials=${PROBE_TRIALS:-30}
gcc -O2 -Wall -o /tmp/rosenblatt-probe bench/probe/probe.c
go build -o /tmp/rosenblatt-bench ./cmd/rosenblatt
load=""
i=1
while [ "$i" -le "$rounds" ]; do
	load="$load round $i: $(cut -d' ' -f1-3 /proc/loadavg);"
	/tmp/rosenblatt-bench bench -q -f -json "$prefix-$i.json" -plot "$prefix-$i.svg" >"$prefix-$i.txt"
	sizes=$(python3 -c 'import json,sys; print(" ".join(str(l["bytes"]) for l in json.load(open(sys.argv[1]))["roofline"]["levels"]))' "$prefix-$i.json")
	/tmp/rosenblatt-probe -trials "$probe_trials" $sizes >"$prefix-probe-$i.txt"
	i=$((i + 1))
done
{
	echo "command: PROBE_TRIALS=$probe_trials sh bench/probe/compare.sh $prefix $rounds ($(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(gcc --version | head -1))"
	echo "CPU: $(/tmp/rosenblatt-bench cpu | sed -n 's/^brand: *//p'), $(nproc) CPUs usable"
	echo "load average (1, 5, 15 min) before each round:$load"
	echo
	python3 bench/probe/compare.py "$prefix" "$rounds"
} | tee "$prefix-compare.txt"
if command -v rsvg-convert >/dev/null; then
	rsvg-convert -w 2400 -b white "$prefix-$rounds.svg" -o "$prefix-$rounds.png"
fi
