package pages

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14; the same value on
// every architecture; the syscall package does not name it).
const madvPopulateWrite = 23

// madvise is syscall.Madvise; the tests replace it.
var madvise = syscall.Madvise

// pageSize is the system's page size.
var pageSize = uintptr(syscall.Getpagesize())

// populate applies MADV_POPULATE_WRITE to the whole pages inside the size
// bytes at p, ignoring any error (the advice is only a hint).
func populate(p unsafe.Pointer, size uintptr) {
	a := uintptr(p)
	lo := (a + pageSize - 1) &^ (pageSize - 1)
	hi := (a + size) &^ (pageSize - 1)
	if hi <= lo {
		return
	}
	// The range lies inside the caller's slice, which stays alive
	// until this call returns.
	_ = madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-a)), hi-lo), madvPopulateWrite)
}
