#!/bin/sh
# How bench/results/serving/handler-cpu-zen5.txt was made (from the
# repository root): BenchmarkHandlerCPU, the /predict and Open Inference
# Protocol handlers in process on bodies of the shape wrk-zen5.sh sends
# over loopback (1 and 64 samples of 784 six-decimal features), 5 rounds, with
# the CPU time of the benchmark's thread a request (cpu-ns/op), which the
# load of the shared machine changes least. Under the benchmark lock; the
# load averages are printed before and after.
set -e
out=bench/results/serving/handler-cpu-zen5.txt
go test -c -o /tmp/serve-cpu.test ./serve
{
	go run ./cmd/rosenblatt cpu | sed -n 1,3p
	echo "load before: $(uptime)"
	echo "\$ flock /work/wt/bench.lock serve.test -test.run '^\$' -test.bench BenchmarkHandlerCPU -test.count 5"
	flock /work/wt/bench.lock /tmp/serve-cpu.test -test.run '^$' -test.bench BenchmarkHandlerCPU -test.count 5
	echo "load after: $(uptime)"
} > $out 2>&1
