//go:build linux

package memtest

import (
	"syscall"
	"testing"
	"unsafe"
)

// Tests that drive assembly directly use memory fenced by inaccessible
// pages on both sides: a kernel that reads or writes even one byte before
// or after a slice dies with SIGSEGV instead of passing by luck.

// FencedPage returns a writable page with a PROT_NONE page on each side. The
// mapping is released when the test ends.
func FencedPage(t *testing.T) []byte {
	t.Helper()
	ps := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	for _, fence := range [][]byte{mem[:ps], mem[2*ps:]} {
		if err := syscall.Mprotect(fence, syscall.PROT_NONE); err != nil {
			t.Fatalf("mprotect: %v", err)
		}
	}
	return mem[ps : 2*ps : 2*ps]
}

// AtEnd returns an n-element slice of T whose last element is the last one
// of page;
// AtStart one whose first element is the first of page.
func AtEnd[T float32 | float64](page []byte, n int) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&page[len(page)-n*size])), n)
}

func AtStart[T float32 | float64](page []byte, n int) []T {
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&page[0])), n)
}
