package cputime

import (
	"syscall"
	"unsafe"
)

// Thread returns the CPU time the calling thread has used, in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID). Lock the goroutine to its thread
// (runtime.LockOSThread) around what it measures.
func Thread() int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0) // 3: CLOCK_THREAD_CPUTIME_ID
	return ts.Nano()
}
