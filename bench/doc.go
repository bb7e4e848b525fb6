// Package bench holds the benchmarks that compare rosenblatt's kernels and
// Gram matrices with the pure-Go reference, a plain Go loop, vek and gonum,
// measured in the same run. It is a module of its own (bench/go.mod, with a
// replace directive to the checkout), so that gonum and vek, which only
// these comparisons use, are no dependencies of the library. It has no
// non-test code: run it from the repository root with
//
//	go -C bench test -run '^$' -bench . -count 5 | tee new.txt
//	benchstat -col /impl new.txt
//
// Benchmark names follow BenchmarkKernel/impl=X/type=T/n=N, where impl is
// "auto" (the dispatched package-level function), an implementation name
// ("avx512", "avx2", "neon", "generic"), "vek", "gonum" or "plain", so
// benchstat can put the implementations side by side. Each reports GFLOP/s.
// BenchmarkGram (gram_bench_test.go) puts gram.ComputeInto next to gonum's
// Syrk and Gemm and vek32.MatMul; gram's own BenchmarkGram walks every
// implementation.
package bench
