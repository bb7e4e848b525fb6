#!/bin/sh
# Learning while serving on a quiet machine: the in-process and loopback
# benchmarks of run.sh, alone. From the repository root:
# sh bench/results/learning/quiet.sh > bench/results/learning/zen5-quiet.txt 2>&1
set -e
go run ./cmd/rosenblatt cpu | head -3
uptime
echo "## in process: samples learnt per second at each sync policy (online.BenchmarkLearn)"
go test ./online -run "^$" -bench "BenchmarkLearn$" -benchtime 2s -count 2
uptime
echo "## over loopback: single-sample POST /learn from 256 connections (client and server in one process)"
go test ./serve -run "^$" -bench "BenchmarkLearnLoopback" -benchtime 3s -count 2
uptime
