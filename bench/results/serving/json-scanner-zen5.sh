#!/bin/sh
# The in-process /predict handler, binary and JSON bodies of one
# 784-value float32 sample, before (encoding/json, main at 09711c7) and
# after (the strict scanner of serve/jsonscan.go) on the same host.
# CPU: go run ./cmd/rosenblatt cpu (AMD Zen 5 "Oxide Virtual Turin-like
# Processor", 2 vCPUs, shared with other jobs while this ran).
go run ./cmd/rosenblatt cpu | head -1
# before: in a copy of 09711c7 (git archive 09711c7 | tar -x -C DIR), then here:
go test ./serve -run '^$' -bench 'BenchmarkHandler/enc' -benchtime 1s -count 3
