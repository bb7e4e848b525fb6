#!/bin/sh
# Dot, SqDist, Axpy, MatVec and Dots on the AVX2 path against vek, with each
# one's fraction of the L1 roof: the bench module's TestVecCPUTime (thread
# CPU time, the fastest of ROUNDS interleaved rounds), run by two test
# binaries in turn, PASSES times each, with the load average before each
# run: BEFORE (a commit, built in a temporary tree) and the working tree.
# Both are built with the working tree's bench/vec_cputime_linux_test.go,
# so both sides take the same measurement (its L1 roof on a written
# buffer, SqDist, ROSENBLATT_VEC_SIZES). SIZES is a space-separated list of
# size sets (ROSENBLATT_VEC_SIZES values), each run by both binaries in
# every pass: by default the test's own n = 16 … 4096 and a set of
# multiples of 32 between them (the lengths at which vek has no scalar
# tail). KERNEL caps the implementation (ROSENBLATT_KERNEL; on an AVX-512
# machine, avx2 is a proxy for an AVX2-only CPU). Run from the repository
# root:
#
#	sh bench/results/kernels/avx2-vec-zen3.sh [BEFORE] [PASSES] [ROUNDS] [KERNEL] [SIZES] > OUT.txt
set -eu
before=${1:-main} passes=${2:-3} rounds=${3:-40} kernel=${4:-avx2}
sizes=${5:-16,64,256,1024,4096 32,96,128,320,640,896,1536,3072}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive "$before" | tar -x -C "$tmp"
cp bench/vec_cputime_linux_test.go "$tmp/bench/"
go -C "$tmp/bench" test -c -o "$tmp/before.test" .
go -C bench test -c -o "$tmp/after.test" .
echo "# sh bench/results/kernels/avx2-vec-zen3.sh $before $passes $rounds $kernel '$sizes'"
echo "# $(go run ./cmd/rosenblatt cpu | head -2 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); before: $(git log -1 --format='%h' "$before"), after: $(git log -1 --format='%h') (working tree$(git diff --quiet HEAD -- . || echo ', modified'))"
echo "# ROSENBLATT_KERNEL=$kernel ROSENBLATT_CPUTIME_ROUNDS=$rounds"
p=1
while [ "$p" -le "$passes" ]; do
	for set in $sizes; do
		for side in before after; do
			echo "## pass $p, n = $set, $side, load average $(cut -d' ' -f1-3 /proc/loadavg)"
			(cd bench && ROSENBLATT_VEC_SIZES=$set ROSENBLATT_KERNEL=$kernel ROSENBLATT_CPUTIME_ROUNDS=$rounds "$tmp/$side.test" -test.run TestVecCPUTime | grep -v '^PASS')
		done
	done
	p=$((p + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
