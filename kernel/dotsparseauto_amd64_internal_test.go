//go:build amd64 && linux && !purego

package kernel

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The package-level DotSparse on amd64 is the assembly dotSparseAuto, which
// checks the lengths and picks the implementation and element type itself
// (activeID), with dotSparseGo behind it. These tests set activeID to
// every implementation this CPU runs (and to generic), so both of its
// bodies and each of its ways out to Go are checked in one process.

// TestDotSparseAutoExact checks DotSparse on every implementation against
// the plain loop on small integers (every partial sum exact), for every
// number of non-zeros from 0 to 70 (the unrolled blocks of 8 and 4 and the
// single non-zeros), with repeated indices and the first and last weight.
func TestDotSparseAutoExact(t *testing.T) {
	for _, im := range dotAutoImpls(t) {
		t.Run(im.name+"/f32", func(t *testing.T) { withActiveID(t, im.id, func() { testDotSparseAutoExact[float32](t) }) })
		t.Run(im.name+"/f64", func(t *testing.T) { withActiveID(t, im.id, func() { testDotSparseAutoExact[float64](t) }) })
	}
}

func testDotSparseAutoExact[T Float](t *testing.T) {
	const d = 97
	w := make([]T, d)
	for i := range w {
		w[i] = T(i%11) - 5
	}
	for nnz := 0; nnz <= 70; nnz++ {
		idx := make([]int32, nnz)
		val := make([]T, nnz)
		for i := range idx {
			idx[i] = int32((i * 13) % d)
			val[i] = T(i%7) - 3
		}
		if nnz > 1 {
			idx[0], idx[nnz-1] = 0, d-1
		}
		if got, want := DotSparse(idx, val, w), plainSparse(idx, val, w); got != want {
			t.Fatalf("nnz=%d: got %v, want exactly %v", nnz, got, want)
		}
	}
}

// TestDotSparseAutoPanics checks that on every implementation an index
// outside w at any position (len(w), far beyond, negative) panics as
// indexing does, and unequal lengths panic naming both.
func TestDotSparseAutoPanics(t *testing.T) {
	const d = 20
	for _, im := range dotAutoImpls(t) {
		withActiveID(t, im.id, func() {
			for nnz := 1; nnz <= 20; nnz++ {
				for p := range nnz {
					for _, bad := range []int32{d, 1 << 30, math.MaxInt32, -1, math.MinInt32} {
						idx := make([]int32, nnz)
						for i := range idx {
							idx[i] = int32(i % d)
						}
						idx[p] = bad
						msg := recovered(func() { DotSparse(idx, make([]float32, nnz), make([]float32, d)) })
						msg64 := recovered(func() { DotSparse(idx, make([]float64, nnz), make([]float64, d)) })
						if !strings.Contains(msg, "index out of range") || !strings.Contains(msg64, "index out of range") {
							t.Fatalf("%s nnz=%d index %d at %d: panics %q, %q", im.name, nnz, bad, p, msg, msg64)
						}
					}
				}
			}
			for _, c := range []struct{ ni, nv int }{{1, 0}, {3, 4}, {17, 16}} {
				msg := recovered(func() { DotSparse(make([]int32, c.ni), make([]float32, c.nv), make([]float32, d)) })
				want := fmt.Sprintf("kernel.DotSparse: length mismatch: len(idx) = %d, len(val) = %d", c.ni, c.nv)
				if !strings.Contains(msg, want) {
					t.Errorf("%s: got %q, want %q", im.name, msg, want)
				}
			}
		})
	}
}

// recovered runs f and returns what it panicked with ("no panic" if none).
func recovered(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return "no panic"
}
