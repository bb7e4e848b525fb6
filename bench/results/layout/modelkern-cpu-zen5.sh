#!/bin/sh
# CPU time, not wall time (the machine is shared: load 15-30 on 2 vCPUs),
# of the sparse one-vs-rest perceptron's 10 epochs
# (BenchmarkTextOvRParts/epochs: ScanBlock2 and ScoreBlock2Ahead on the
# manual pages' NAME lines) before and after moving the kernels to
# internal/modelkern: each build's test binary (see modelkern-zen5.sh)
# runs the benchmark at -benchtime 10x and 60x, GOMAXPROCS=1, and the
# difference of the process's user + system time over the 50 extra
# iterations is the CPU time of one (the set's loading and the trainer's
# set-up cancel out). Rounds alternate the builds.
#
#	sh bench/results/layout/modelkern-cpu-zen5.sh /tmp/kerntrim-bench /tmp/kerntrim-mantext 6 > bench/results/layout/modelkern-cpu-zen5.txt 2>&1
set -eu
bin=$1 set=$2 rounds=$3
uptime
cpu() { # build benchtime → user+sys seconds
	(cd perceptron && GOMAXPROCS=1 ROSENBLATT_TEXTSET=$set/mantext-name /usr/bin/time -f '%U %S' \
		"$bin/$1.test" -test.run XXX -test.bench 'TextOvRParts/epochs$' -test.benchtime "$2" -test.count 1 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}')
}
for r in $(seq "$rounds"); do
	for b in before after; do
		lo=$(cpu "$b" 10x) hi=$(cpu "$b" 60x)
		echo "round $r $b: 10x $lo s, 60x $hi s, epochs $(echo "$lo $hi" | awk '{printf "%.1f", ($2 - $1) / 50 * 1000}') ms CPU"
	done
done
uptime
