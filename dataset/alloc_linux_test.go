package dataset

import (
	"runtime"
	"testing"
)

// TestAllocIgnoredAdvice runs Alloc where madvise succeeds but does
// nothing (as under some emulators): memory the heap reuses must still
// read as zeros.
func TestAllocIgnoredAdvice(t *testing.T) {
	saved := madvise
	defer func() { madvise = saved }()
	madvise = func(b []byte, advice int) error { return nil }
	for range 4 {
		x := Alloc[float32](hugeMin)
		for i, v := range x {
			if v != 0 {
				t.Fatalf("Alloc with ignored advice: [%d] = %v", i, v)
			}
			x[i] = 7
		}
		runtime.GC()
	}
}
