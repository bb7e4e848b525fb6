package dataset

import "github.com/rosenblatt-go/rosenblatt/kernel"

// hugeMin is the size in bytes from which Alloc asks for huge pages: below
// a few huge pages the request buys nothing.
const hugeMin = 8 << 20

// Alloc returns a zeroed slice of n values for a data matrix, as
// make([]T, n) does. On Linux, for slices of 8 MiB or more, it first asks
// the kernel to back the slice with transparent huge pages
// (madvise(MADV_HUGEPAGE) on the 2 MiB-aligned part of it, before any of it
// is touched). A training epoch streams the whole matrix from memory, and
// with 4 KiB pages the processor's prefetchers stop at every page boundary
// and every shuffled row costs a TLB miss, so a core reads a huge-page
// matrix faster. The rest of the slice (all of a smaller one, the ends of
// a larger one, all of it where transparent huge pages are off) it has the
// kernel back at once (madvise(MADV_POPULATE_WRITE), Linux 5.14), instead
// of a page fault per page as the slice is first written, which costs
// several times as much in some virtual machines. docs/packages.md and
// bench/results/text/populate-zen5.txt give measured figures.
//
// The readers of this package allocate their matrices with Alloc; use it
// for matrices you build yourself. Where the kernel offers neither
// (another OS, an older kernel, memory the Go runtime reuses and has
// already touched) Alloc is plain make, and nothing else changes. It
// panics if n is negative, as make does.
func Alloc[T kernel.Float](n int) []T {
	x := make([]T, n)
	if n > 0 {
		adviseHuge(x)
		populateRest(x)
	}
	return x
}
