// Package bench holds the benchmarks that compare rosenblatt's kernels with
// the pure-Go reference, a plain Go loop, vek and gonum, measured in the same
// run. It has no non-test code: run it with
//
//	go test ./bench -run '^$' -bench . -count 5 | tee new.txt
//	benchstat -col /impl new.txt
//
// Benchmark names follow BenchmarkKernel/impl=X/type=T/n=N, where impl is
// "auto" (the dispatched package-level function), an implementation name
// ("avx512", "avx2", "neon", "generic"), "vek", "gonum" or "plain", so
// benchstat can put the implementations side by side. Each reports GFLOP/s.
package bench
