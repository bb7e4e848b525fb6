//go:build amd64 && linux && !purego

package kernel

import (
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
)

// These tests drive the amd64 assembly directly (not through Kernels), on
// memory fenced by inaccessible pages on both sides: a kernel that reads or
// writes even one byte before or after a slice dies with SIGSEGV instead of
// passing by luck. This is what the tail handling must guarantee.

// fencedPage, atEnd and atStart are memtest's FencedPage, AtEnd and
// AtStart.
func fencedPage(t *testing.T) []byte { return memtest.FencedPage(t) }

func atEnd[T float32 | float64](page []byte, n int) []T { return memtest.AtEnd[T](page, n) }

func atStart[T float32 | float64](page []byte, n int) []T { return memtest.AtStart[T](page, n) }

func asmImpls(t *testing.T) []*Impl {
	t.Helper()
	var list []*Impl
	for _, im := range archImpls() {
		if im.available {
			list = append(list, im)
		} else {
			t.Logf("%s: not available on this CPU, not tested here", im.name)
		}
	}
	return list
}

func TestArchImplsOrder(t *testing.T) {
	want := []struct {
		name string
		rank int
	}{{"avx2", 1}, {"avx512", 2}}
	got := archImpls()
	if len(got) != len(want) {
		t.Fatalf("archImpls: %d implementations, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].name != w.name || got[i].rank != w.rank {
			t.Errorf("archImpls()[%d] = %s rank %d, want %s rank %d", i, got[i].name, got[i].rank, w.name, w.rank)
		}
	}
	if got[1].available && !got[0].available {
		t.Errorf("avx512 available without avx2")
	}
}

func TestPageBoundary(t *testing.T) {
	for _, im := range asmImpls(t) {
		t.Run(im.name+"/f32", func(t *testing.T) { testPageBoundary(t, tablePtr[float32](im)) })
		t.Run(im.name+"/f64", func(t *testing.T) { testPageBoundary(t, tablePtr[float64](im)) })
	}
}

// fillSmall sets s[i] to small integers, so every result is exact.
func fillSmall[T float32 | float64](s []T, seed int) {
	for i := range s {
		s[i] = T((i*7+seed*3)%11 - 5)
	}
}

func testPageBoundary[T float32 | float64](t *testing.T, f *funcs[T]) {
	px, py, pm := fencedPage(t), fencedPage(t), fencedPage(t)
	for _, place := range []struct {
		name string
		at   func(page []byte, n int) []T
	}{{"end", atEnd[T]}, {"start", atStart[T]}} {
		t.Run(place.name, func(t *testing.T) { testFenced(t, f, place.at, px, py, pm) })
	}
}

func testFenced[T float32 | float64](t *testing.T, f *funcs[T], at func([]byte, int) []T, px, py, pm []byte) {
	var z T
	size := int(unsafe.Sizeof(z))
	for n := 0; n <= 160; n++ {
		what := fmt.Sprintf("n=%d", n)
		x, y := at(px, n), at(py, n)
		fillSmall(x, 1)
		fillSmall(y, 2)
		var dot, sq float64
		for i := range x {
			dot += float64(x[i]) * float64(y[i])
			d := float64(x[i]) - float64(y[i])
			sq += d * d
		}
		if got := f.dot(x, y); float64(got) != dot {
			t.Fatalf("dot %s: got %v, want %v", what, got, dot)
		}
		if got := f.sqdist(x, y); float64(got) != sq {
			t.Fatalf("sqdist %s: got %v, want %v", what, got, sq)
		}
		f.axpy(2, x, y)
		for i := range y {
			if want := T((i*7+2*3)%11-5) + 2*x[i]; y[i] != want {
				t.Fatalf("axpy %s: y[%d] = %v, want %v", what, i, y[i], want)
			}
		}
		f.scale(-3, x)
		for i := range x {
			if want := -3 * T((i*7+1*3)%11-5); x[i] != want {
				t.Fatalf("scale %s: x[%d] = %v, want %v", what, i, x[i], want)
			}
		}
	}
	// matvec: the matrix, w and dst all touch a fence.
	for _, d := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65, 100} {
		for rows := 0; rows <= 9; rows++ {
			if rows*d*size > len(pm) {
				continue
			}
			what := fmt.Sprintf("rows=%d d=%d", rows, d)
			m, w, dst := at(pm, rows*d), at(px, d), at(py, rows)
			fillSmall(m, 3)
			fillSmall(w, 4)
			f.matvec(dst, m, w)
			for i := range dst {
				var want float64
				for j := range w {
					want += float64(m[i*d+j]) * float64(w[j])
				}
				if float64(dst[i]) != want {
					t.Fatalf("matvec %s: dst[%d] = %v, want %v", what, i, dst[i], want)
				}
			}
		}
	}
}

// TestSpecialEverywhere puts +Inf, and then NaN, at every position in turn,
// with all other values positive, so the exact answer is +Inf (or NaN). A
// tail that counted an element twice, or multiplied an Inf it should have
// discarded by zero, would give NaN instead of +Inf.
func TestSpecialEverywhere(t *testing.T) {
	for _, im := range asmImpls(t) {
		t.Run(im.name+"/f32", func(t *testing.T) { testSpecialEverywhere(t, tablePtr[float32](im)) })
		t.Run(im.name+"/f64", func(t *testing.T) { testSpecialEverywhere(t, tablePtr[float64](im)) })
	}
}

func testSpecialEverywhere[T float32 | float64](t *testing.T, f *funcs[T]) {
	for _, special := range []float64{math.Inf(1), math.NaN()} {
		check := func(what string, got T) {
			t.Helper()
			g := float64(got)
			if math.IsNaN(special) != math.IsNaN(g) || (!math.IsNaN(g) && !math.IsInf(g, 1)) {
				t.Fatalf("%s: got %v, want %v", what, g, special)
			}
		}
		for n := 1; n <= 80; n++ {
			x, y := make([]T, n), make([]T, n)
			for i := range x {
				x[i], y[i] = T(i%5+1), T(i%3+1)
			}
			for p := range n {
				x[p] = T(special)
				check(fmt.Sprintf("dot n=%d x[%d]=%v", n, p, special), f.dot(x, y))
				check(fmt.Sprintf("sqdist n=%d x[%d]=%v", n, p, special), f.sqdist(x, y))
				check(fmt.Sprintf("dot n=%d y[%d]=%v", n, p, special), f.dot(y, x))
				x[p] = T(p%5 + 1)
			}
		}
		// matvec: the special value at every position of every row in turn;
		// only that row's result is special.
		for _, d := range []int{1, 3, 5, 8, 9, 13, 17, 33, 40} {
			const rows = 9
			m, w := make([]T, rows*d), make([]T, d)
			for i := range m {
				m[i] = T(i%4 + 1)
			}
			for j := range w {
				w[j] = T(j%3 + 1)
			}
			dst := make([]T, rows)
			for p := range m {
				m[p] = T(special)
				f.matvec(dst, m, w)
				for r := range dst {
					what := fmt.Sprintf("matvec d=%d m[%d]=%v row %d", d, p, special, r)
					if r == p/d {
						check(what, dst[r])
					} else if math.IsInf(float64(dst[r]), 0) || math.IsNaN(float64(dst[r])) {
						t.Fatalf("%s: got %v, want a finite value", what, dst[r])
					}
				}
				m[p] = T(p%4 + 1)
			}
			w[d-1] = T(special) // in w: every row is special
			f.matvec(dst, m, w)
			for r := range dst {
				check(fmt.Sprintf("matvec d=%d w[%d]=%v row %d", d, d-1, special, r), dst[r])
			}
		}
	}
}

// TestTailLanesIgnored checks that the masked-off lanes of the tail never
// reach a result: the elements just past len(x) are NaN (in the same
// allocation, so the memory is readable), and every result must still be
// finite and exact.
func TestTailLanesIgnored(t *testing.T) {
	for _, im := range asmImpls(t) {
		t.Run(im.name+"/f32", func(t *testing.T) { testTailLanes(t, tablePtr[float32](im)) })
		t.Run(im.name+"/f64", func(t *testing.T) { testTailLanes(t, tablePtr[float64](im)) })
	}
}

func testTailLanes[T float32 | float64](t *testing.T, f *funcs[T]) {
	nan := T(math.NaN())
	for n := 0; n <= 100; n++ {
		bx, by := make([]T, n+64), make([]T, n+64)
		for i := range bx {
			bx[i], by[i] = nan, nan
		}
		x, y := bx[:n], by[:n]
		fillSmall(x, 5)
		fillSmall(y, 6)
		var dot float64
		for i := range x {
			dot += float64(x[i]) * float64(y[i])
		}
		if got := f.dot(x, y); float64(got) != dot {
			t.Fatalf("dot n=%d: got %v, want %v", n, got, dot)
		}
		if got := f.sqdist(x, y); math.IsNaN(float64(got)) {
			t.Fatalf("sqdist n=%d: NaN from beyond the slice", n)
		}
		f.axpy(1, x, y)
		f.scale(2, x)
		for i := n; i < len(bx); i++ {
			if !math.IsNaN(float64(bx[i])) || !math.IsNaN(float64(by[i])) {
				t.Fatalf("n=%d: element %d past the end was written", n, i)
			}
		}
		// matvec with 5 rows of d = n: the last row's tail is followed by NaN.
		if n > 0 && n <= 40 {
			bm := make([]T, 5*n+64)
			for i := range bm {
				bm[i] = nan
			}
			m := bm[:5*n]
			fillSmall(m, 7)
			dst := make([]T, 5)
			f.matvec(dst, m, y)
			for i := range dst {
				var want float64
				for j := range y {
					want += float64(m[i*n+j]) * float64(y[j])
				}
				if float64(dst[i]) != want {
					t.Fatalf("matvec d=%d: dst[%d] = %v, want %v", n, i, dst[i], want)
				}
			}
		}
	}
}

// tablePtr returns im's kernels as function values.
func tablePtr[T float32 | float64](im *Impl) *funcs[T] {
	t := tableOf[T](im)
	return &t
}
