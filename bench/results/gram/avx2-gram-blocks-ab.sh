#!/bin/sh
# The float32 4096×784 Gram matrix before and after a change of the block
# sizes, in interleaved rounds, with OpenBLAS's cblas_ssyrk (AVX2 kernels,
# OPENBLAS_CORETYPE=Haswell; bench/results/gram/ssyrk.c) in every round:
#   - the AVX2 path (ROSENBLATT_KERNEL=avx2: on an AVX-512 machine a proxy
#     for an AVX2-only CPU) with the engine's blocks for this machine's
#     caches and with the blocks each revision derives for Zen 3's
#     (32 KiB L1, 512 KiB L2, 32 MiB L3; ZEN3_BEFORE and ZEN3_AFTER,
#     kc:mc:nc as TestGramCPUTime's ROSENBLATT_GRAM_BLOCKS takes them);
#   - the active path (AVX-512 here) with the engine's blocks, to see that
#     it does not regress;
#   - ssyrk on one OpenBLAS thread (CPU time of the process, fastest of 3).
# gram's TestGramCPUTime: one goroutine, CPU time of the thread, fastest of
# 3 per round. Run from the repository root:
#
#	sh bench/results/gram/avx2-gram-blocks-ab.sh BEFORE AFTER [ROUNDS] > OUT.txt
set -eu
before=${1:?usage: BEFORE AFTER [ROUNDS]} after=${2:?} rounds=${3:-8}
ZEN3_BEFORE=${ZEN3_BEFORE:-256:252:8192} ZEN3_AFTER=${ZEN3_AFTER:-288:222:7280}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for rev in "$before" "$after"; do
	mkdir "$tmp/src"
	git archive "$rev" | tar -x -C "$tmp/src"
	(cd "$tmp/src" && go test -c -o "$tmp/gram-$rev.test" ./gram)
	rm -rf "$tmp/src"
done
gcc -O2 -o "$tmp/ssyrk" bench/results/gram/ssyrk.c -lopenblas
echo "# $(go run ./cmd/rosenblatt cpu | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# $(go version); before $before ($(git rev-parse --short "$before")), after $after ($(git rev-parse --short "$after")); Zen 3 blocks before $ZEN3_BEFORE, after $ZEN3_AFTER; OPENBLAS_CORETYPE=Haswell; $(nproc) CPUs"
r=1
while [ "$r" -le "$rounds" ]; do
	echo "## round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	for rev in "$before" "$after"; do
		z=$ZEN3_BEFORE
		[ "$rev" = "$after" ] && z=$ZEN3_AFTER
		echo "### $rev, ROSENBLATT_KERNEL=avx2"
		(cd gram && ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=3 ROSENBLATT_GRAM_BLOCKS=$z "$tmp/gram-$rev.test" -test.run '^TestGramCPUTime$' | grep -v '^PASS')
		echo "### $rev, active path"
		(cd gram && ROSENBLATT_CPUTIME_ROUNDS=3 "$tmp/gram-$rev.test" -test.run '^TestGramCPUTime$' | grep -v '^PASS')
	done
	OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=Haswell "$tmp/ssyrk" 3
	r=$((r + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
