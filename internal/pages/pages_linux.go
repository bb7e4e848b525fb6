package pages

import (
	"sync/atomic"
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

// unsupported is set once the kernel refuses MADV_POPULATE_WRITE as an
// unknown advice (EINVAL: Linux before 5.14), so that later calls do not
// ask again.
var unsupported atomic.Bool

// populate applies MADV_POPULATE_WRITE to the whole pages inside the size
// bytes at p, ignoring any error (the advice is only a hint).
func populate(p unsafe.Pointer, size uintptr) {
	if unsupported.Load() {
		return
	}
	a := uintptr(p)
	lo := (a + pageSize - 1) &^ (pageSize - 1)
	hi := (a + size) &^ (pageSize - 1)
	if hi <= lo {
		return
	}
	// The range lies inside the caller's slice, which stays alive
	// until this call returns.
	if err := madvise(unsafe.Slice((*byte)(unsafe.Add(p, lo-a)), hi-lo), madvPopulateWrite); err == syscall.EINVAL {
		unsupported.Store(true)
	}
}
