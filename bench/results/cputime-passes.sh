#!/bin/sh
# One of the bench module's *CPUTime tests (thread CPU time, the fastest
# and the median of interleaved rounds; see bench/*_cputime_linux_test.go),
# in PASSES passes with the load average before each, on this machine's
# own path unless ROSENBLATT_KERNEL caps it (say so when it does: on an
# AVX-512 CPU, ROSENBLATT_KERNEL=avx2 is a proxy for an AVX2-only one).
# Run from the repository root:
#
#	sh bench/results/cputime-passes.sh TEST [PASSES] [ROUNDS] > OUT.txt
#
# TEST is the test's name (TestQuantPredictCPUTime, TestVecCPUTime, ...).
set -eu
test=${1:?usage: TEST [PASSES] [ROUNDS]} passes=${2:-3} rounds=${3:-40}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
go -C bench test -c -o "$bin" .
echo "# $(go run ./cmd/rosenblatt cpu | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); $(git log -1 --format='commit %h'); ROSENBLATT_KERNEL=${ROSENBLATT_KERNEL:-(unset)} ROSENBLATT_CPUTIME_ROUNDS=$rounds"
echo "# sh bench/results/cputime-passes.sh $test $passes $rounds"
p=1
while [ "$p" -le "$passes" ]; do
	echo "## pass $p, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	(cd bench && ROSENBLATT_CPUTIME_ROUNDS=$rounds "$bin" -test.run "^$test\$" -test.v | grep -v -e '^PASS' -e '^=== RUN')
	p=$((p + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
