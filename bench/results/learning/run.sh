#!/bin/sh
# Benchmarks of learning while serving (docs/learning.md). Run from the
# repository's root: sh bench/results/learning/run.sh > bench/results/learning/zen5.txt 2>&1
# PARTS picks some of them (default: learn predict replay loopback); the
# quiet machine's zen5-quiet.txt is PARTS="learn loopback".
set -e
parts=${PARTS:-learn predict replay loopback}
has() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
go run ./cmd/rosenblatt cpu
echo "## parts: $parts"
uptime
if has learn; then
	echo '## in process: samples learnt per second at each sync policy (online.BenchmarkLearn)'
	go test ./online -run '^$' -bench 'BenchmarkLearn$' -benchtime 2s -count 2
	uptime
fi
if has predict; then
	echo '## in process: dense 784-feature predictions while learning at 0, 1000 and the most updates/s'
	go test ./online -run '^$' -bench 'BenchmarkPredictWhileLearning' -benchtime 2s -count 3
	uptime
fi
if has replay; then
	echo '## replay time per million logged samples'
	go test ./online -run '^$' -bench 'BenchmarkReplay' -benchtime 200000x -count 3
	uptime
fi
if has loopback; then
	echo '## over loopback: single-sample POST /learn from 256 connections (client and server in one process)'
	go test ./serve -run '^$' -bench 'BenchmarkLearnLoopback' -benchtime 3s -count 2
	uptime
fi
