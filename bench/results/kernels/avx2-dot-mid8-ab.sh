#!/bin/sh
# Dot and SqDist on the AVX2 path (ROSENBLATT_KERNEL=avx2: on an AVX-512
# machine a proxy for an AVX2-only CPU) before and after a change, against
# vek, in thread CPU time: the bench module's TestDotCPUTime and
# TestSqDistCPUTime of both revisions in alternating runs (each run: ROUNDS
# interleaved rounds of every candidate, fastest and median of each), at
# the lengths in SIZES. BEFORE's bench test file is replaced by the
# working tree's (it reads ROSENBLATT_DOT_SIZES). Run from the repository
# root:
#
#	sh bench/results/kernels/avx2-dot-mid8-ab.sh BEFORE RUNS > OUT.txt
set -eu
before=${1:?usage: BEFORE [RUNS]} runs=${2:-3}
sizes=${SIZES:-16,32,40,48,56,60,64,65,80,128,256,1024}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git archive "$before" | tar -x -C "$tmp/src"
cp bench/cputime_linux_test.go "$tmp/src/bench/"
(cd "$tmp/src/bench" && go test -c -o "$tmp/before.test" .)
go -C bench test -c -o "$tmp/after.test" .
export ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=${ROUNDS:-10} ROSENBLATT_DOT_SIZES=$sizes
echo "# $(go run ./cmd/rosenblatt cpu | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# $(go version); before $before ($(git rev-parse --short "$before")), after $(git log -1 --format=%h)$(git diff --quiet HEAD -- kernel _asm || echo ' (with uncommitted changes)'); ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=$ROSENBLATT_CPUTIME_ROUNDS sizes $sizes; $(nproc) CPUs"
i=1
while [ "$i" -le "$runs" ]; do
	for rev in before after; do
		echo "## run $i, $rev, load average $(cut -d' ' -f1-3 /proc/loadavg)"
		(cd bench && "$tmp/$rev.test" -test.run '^Test(Dot|SqDist)CPUTime$' | grep -E ' (auto|vek) ')
	done
	i=$((i + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
