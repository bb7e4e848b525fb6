// Package pages has the pages of a fresh slice filled in by the kernel
// with one system call instead of one page fault per page.
//
// Memory the Go runtime takes fresh from the system is mapped but not
// backed: the first write to each page faults, and the kernel backs it
// then. A fault costs a fraction of a microsecond on bare metal, but tens
// of times that in some virtual machines: on the 2-vCPU AMD Zen 5 KVM guest
// of docs/benchmarks 64 MiB written a byte a page took 190 ms of faults (about 12 µs
// a page), and 52 ms when one madvise(MADV_POPULATE_WRITE) had backed it
// first (about 0.8 µs a page for the call, and 2.4 for the first write,
// which the host still backs; bench/results/text/populate-zen5.{sh,txt}). A
// fit that writes a few megabytes of fresh arrays pays that first
// (bench/textfit counts each fit's page faults).
package pages

import "unsafe"

// minBytes is the size from which Populate asks the kernel: below a few
// pages the system call costs about what the faults do.
const minBytes = 64 << 10

// Make returns make([]E, n) with its pages populated (Populate). E should
// hold no pointers: it is meant for large arrays of numbers. It panics if
// n is negative, as make does.
func Make[E any](n int) []E {
	x := make([]E, n)
	Populate(x)
	return x
}

// Populate asks the kernel to back now the whole pages of x's memory (of
// 64 KiB or more) that are not backed yet, as the first write to each
// would; their contents do not change. It is only a hint: on another
// system, a Linux before 5.14 (no MADV_POPULATE_WRITE), or memory the
// runtime has already touched, it changes nothing.
func Populate[E any](x []E) {
	size := uintptr(len(x)) * unsafe.Sizeof(*new(E))
	if size < minBytes {
		return
	}
	populate(unsafe.Pointer(unsafe.SliceData(x)), size)
}

// Append is append(s, v), except that when s is full it moves to a new
// array from Make (its pages populated) with room to grow: for the slices a
// reader builds value by value, whose fresh arrays would otherwise fault
// in page by page as the values arrive. It grows as append does for large
// slices (by a quarter, doubling below 256 elements).
func Append[E any](s []E, v E) []E {
	if len(s) == cap(s) {
		s = grow(s)
	}
	return append(s, v)
}

// grow returns s in a new array of a larger capacity, from Make.
func grow[E any](s []E) []E {
	c := cap(s)
	n := 2 * c
	if c >= 256 {
		n = c + (c+3*256)/4
	}
	x := Make[E](max(n, 8))[:len(s)]
	copy(x, s)
	return x
}
