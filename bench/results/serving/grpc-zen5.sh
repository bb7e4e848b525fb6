#!/bin/sh
# How bench/results/serving/grpc-zen5.txt was made (from the repository root):
# rosenblatt-server serving a 10-class linear perceptron of 784 features
# (rosenblatt train -epochs 3 on Fashion-MNIST's test images, Debian's
# dataset-fashion-mnist), driven over gRPC on 127.0.0.1 by server/cmd/oip-load
# (a closed loop: each worker sends its next request when the last is
# answered) with 1 and 64 samples a request, FP32 fp32_contents (and once
# raw_input_contents), labels only; first ServerLive, the gRPC round trip
# without payload or model: the ceiling of this machine, client and gRPC
# stack.
# Server and load generator share the 2 vCPUs, with each other and with the
# other jobs on the machine (their builds and tests are not under the
# benchmark lock): see the load averages printed before and after each run,
# and the CPU time a request took in the server and in the load generator,
# which the load changes less than it changes the rates.
set -e
out=${OUT:-bench/results/serving/grpc-zen5.txt}
tmp=$(mktemp -d)
go build -o "$tmp/rosenblatt" ./cmd/rosenblatt
go -C server build -o "$tmp/rosenblatt-server" ./cmd/rosenblatt-server
go -C server build -o "$tmp/oip-load" ./cmd/oip-load
"$tmp/rosenblatt" train -epochs 3 -o "$tmp/fmnist.model" /usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz >/dev/null
"$tmp/rosenblatt-server" -model "$tmp/fmnist.model" -addr 127.0.0.1:18480 -grpc-addr 127.0.0.1:18481 -poll 0 2>"$tmp/server.log" &
server=$!
trap 'kill $server; rm -rf "$tmp"' EXIT
sleep 1
# The server's CPU time (user + system, clock ticks of /proc/PID/stat).
ticks() { awk '{print $14 + $15}' /proc/$server/stat; }
hz=$(getconf CLK_TCK)
"$tmp/oip-load" -addr 127.0.0.1:18481 -model fmnist -d 2s -warmup 0 >/dev/null # warm-up, unrecorded
{
	go run ./cmd/rosenblatt cpu | head -12
	echo
	for args in "-live -c 4 -conns 1" "-rows 1 -c 4 -conns 1" "-rows 1 -c 16 -conns 4" "-rows 64 -c 4 -conns 1" "-rows 64 -c 4 -conns 1 -raw" "-rows 64 -c 16 -conns 4"; do
		echo "load before: $(uptime)"
		echo "\$ flock /work/wt/bench.lock oip-load -addr 127.0.0.1:18481 -model fmnist $args -d 8s -warmup 0"
		t0=$(ticks)
		flock /work/wt/bench.lock "$tmp/oip-load" -addr 127.0.0.1:18481 -model fmnist $args -d 8s -warmup 0 | tee "$tmp/run.txt"
		t1=$(ticks)
		n=$(awk '/^requests/ {gsub(",", ""); print $2 + $4}' "$tmp/run.txt")
		awk -v t=$((t1 - t0)) -v hz=$hz -v n=$n 'BEGIN { printf "server CPU (user+system) %.2f s, %.1f µs a request\n", t / hz, 1e6 * t / hz / n }'
		echo "load after: $(uptime)"
		echo
	done
	echo "the server's metrics after the runs:"
	curl -s 127.0.0.1:18480/metrics | grep -E '^rosenblatt_requests_total|^rosenblatt_request_duration_seconds_(sum|count)'
} > $out 2>&1
