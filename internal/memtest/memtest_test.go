package memtest

import "testing"

var sink []byte

func TestAllocated(t *testing.T) {
	if got := Allocated(func() { sink = make([]byte, 1<<20) }); got < 1<<20 || got > 2<<20 {
		t.Fatalf("Allocated of a 1 MiB slice = %d bytes", got)
	}
	if got := Allocated(func() {}); got > 4<<10 {
		t.Fatalf("Allocated of nothing = %d bytes", got)
	}
}
