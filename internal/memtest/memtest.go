// Package memtest measures what a piece of code allocates, for the tests
// that hold readers and trainers to the memory their input justifies, and
// (on Linux) gives the assembly tests memory fenced by inaccessible pages,
// so that a kernel reading or writing past a slice faults.
package memtest

import "runtime"

// Allocated returns the bytes the heap handed out while f ran (all
// goroutines' allocations, freed or not: run it where nothing else
// allocates).
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
