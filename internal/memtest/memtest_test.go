package memtest

import "testing"

var sink []byte

func TestAllocated(t *testing.T) {
	if got := Allocated(func() { sink = make([]byte, 1<<20) }); got < 1<<20 || got > 2<<20 {
		t.Fatalf("Allocated of a 1 MiB slice = %d bytes", got)
	}
	// Allocated counts every goroutine's allocations, so a runtime or
	// testing background allocation can land inside one window (CI saw
	// 5320 bytes once under qemu-aarch64). Allocated itself adds nothing:
	// at least one of several windows around an empty function must be
	// empty.
	least := ^uint64(0)
	for range 20 {
		least = min(least, Allocated(func() {}))
	}
	if least != 0 {
		t.Fatalf("Allocated of nothing = %d bytes in the best of 20 windows", least)
	}
}
