// Package memtest measures what a piece of code allocates, for the tests
// that hold readers and trainers to the memory their input justifies.
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
