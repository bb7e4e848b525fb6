package dataset

import (
	"errors"
	"runtime"
	"syscall"
	"testing"
)

func TestAlloc(t *testing.T) {
	for _, n := range []int{0, 1, 1000, hugeMin / 4, hugeMin/4 + 12345, 3 * hugeMin / 4} {
		x := Alloc[float32](n)
		if len(x) != n {
			t.Fatalf("Alloc(%d): len %d", n, len(x))
		}
		for i, v := range x {
			if v != 0 {
				t.Fatalf("Alloc(%d)[%d] = %v, want 0", n, i, v)
			}
		}
		for i := range x {
			x[i] = float32(i)
		}
		for i, v := range x {
			if v != float32(i) {
				t.Fatalf("Alloc(%d)[%d] = %v after writing %d", n, i, v, i)
			}
		}
		y := Alloc[float64](n)
		if len(y) != n {
			t.Fatalf("Alloc[float64](%d): len %d", n, len(y))
		}
	}
	// Memory the heap reuses after it held other values still reads as
	// zeros (adviseHuge releases touched pages).
	for range 3 {
		x := Alloc[float64](hugeMin / 2)
		for i, v := range x {
			if v != 0 {
				t.Fatalf("reused Alloc: [%d] = %v", i, v)
			}
			x[i] = 1
		}
		runtime.GC()
	}
}

// TestAdviseHuge checks that the kernel accepts the advice for a large
// slice: EINVAL only where the kernel has no transparent huge pages.
func TestAdviseHuge(t *testing.T) {
	x := make([]float64, hugeMin) // 8× hugeMin bytes
	err := adviseHuge(x)
	if err != nil && !errors.Is(err, syscall.EINVAL) {
		t.Fatalf("adviseHuge: %v", err)
	}
	if err := adviseHuge(make([]float32, 100)); err != nil {
		t.Fatalf("adviseHuge of a small slice: %v", err)
	}
}
