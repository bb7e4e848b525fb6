//go:build amd64 && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

const gatherNeverTest = 1 << 62

// dotSparseAsm runs the sparse-dot assembly of implementation id with
// gather threshold gmin.
func dotSparseAsm[T Float](id ID, idx []int32, val, w []T, gmin int) (T, bool) {
	if is32[T]() {
		v, x := f32s(val), f32s(w)
		switch id {
		case IDAVX512:
			s, ok := dotSparseAVX512F32(idx, v, x, gmin)
			return T(s), ok
		case IDAVX2:
			s, ok := dotSparseAVX2F32(idx, v, x, gmin)
			return T(s), ok
		}
		panic("no sparse assembly")
	}
	v, x := f64s(val), f64s(w)
	switch id {
	case IDAVX512:
		s, ok := dotSparseAVX512F64(idx, v, x, gmin)
		return T(s), ok
	case IDAVX2:
		s, ok := dotSparseAVX2F64(idx, v, x, gmin)
		return T(s), ok
	}
	panic("no sparse assembly")
}

// The tests below drive both loops of the sparse assembly directly (the
// gathers with gmin 0, the scalar loop with a gmin no length reaches), on
// every available amd64 path, so that both are tested whichever threshold
// the dispatch uses.

func sparseLoops() []int { return []int{0, gatherNeverTest} }

func asmSparseImpls(t *testing.T) []*Impl {
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

// checkSparseDot checks got against Σ val[i]·w[idx[i]] in float64 within
// γₙ·Σ|val[i]·w[idx[i]]| (n = len(idx)), and exactly when want is exact.
func checkSparseDot[T Float](got T, idx []int32, val, w []T) error {
	var ref, abs float64
	for i, j := range idx {
		p := float64(val[i]) * float64(w[j])
		ref += p
		abs += math.Abs(p)
	}
	var z T
	u := 0x1p-24
	if unsafe.Sizeof(z) == 8 {
		u = 0x1p-53
	}
	n := float64(len(idx))
	bound := n * u / (1 - n*u) * abs * (1 + 1e-6)
	if math.Abs(float64(got)-ref) > bound {
		return fmt.Errorf("got %v, want %v within %g", got, ref, bound)
	}
	return nil
}

func testDotSparseLoops[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, im := range asmSparseImpls(t) {
		for _, gmin := range sparseLoops() {
			for nnz := 0; nnz <= 100; nnz++ {
				for _, d := range []int{max(nnz, 1), nnz + 17, 5000} {
					for _, sorted := range []bool{true, false} {
						idx := make([]int32, nnz)
						val := make([]T, nnz)
						w := make([]T, d)
						for i := range w {
							w[i] = T(rng.Float64()*2 - 1)
						}
						for i := range idx {
							idx[i] = int32(rng.IntN(d))
							val[i] = T(rng.Float64()*2 - 1)
						}
						if sorted {
							slices.Sort(idx)
						}
						what := fmt.Sprintf("%s gmin=%d nnz=%d d=%d sorted=%v", im.name, gmin, nnz, d, sorted)
						got, ok := dotSparseAsm(im.id, idx, val, w, gmin)
						if !ok {
							t.Fatalf("%s: not ok", what)
						}
						if err := checkSparseDot(got, idx, val, w); err != nil {
							t.Fatalf("%s: %v", what, err)
						}
						// Integers: exact whatever the order.
						for i := range val {
							val[i] = T(rng.IntN(9) - 4)
						}
						for i := range w {
							w[i] = T(rng.IntN(9) - 4)
						}
						got, _ = dotSparseAsm(im.id, idx, val, w, gmin)
						if want := plainSparse(idx, val, w); got != want {
							t.Fatalf("%s integers: got %v, want exactly %v", what, got, want)
						}
					}
				}
			}
		}
	}
}

func plainSparse[T Float](idx []int32, val, w []T) T {
	var s T
	for i, j := range idx {
		s += val[i] * w[j]
	}
	return s
}

func TestDotSparseLoops(t *testing.T) {
	t.Run("f32", testDotSparseLoops[float32])
	t.Run("f64", testDotSparseLoops[float64])
}

// TestSparseLoopsBadIndex puts an invalid index (len(w), far beyond it,
// negative) at every position of inputs of every length up to 40: both
// loops of the dot report it (ok false), and the axpy stops before it,
// having updated exactly the non-zeros before it.
func TestSparseLoopsBadIndex(t *testing.T) {
	const d = 50
	for _, im := range asmSparseImpls(t) {
		for _, gmin := range sparseLoops() {
			for nnz := 1; nnz <= 40; nnz++ {
				for p := range nnz {
					for _, bad := range []int32{d, d + 1, 1 << 30, math.MaxInt32, -1, math.MinInt32} {
						idx := make([]int32, nnz)
						val := make([]float32, nnz)
						for i := range idx {
							idx[i] = int32(i % d)
							val[i] = 1
						}
						idx[p] = bad
						w := make([]float32, d)
						if _, ok := dotSparseAsm(im.id, idx, val, w, gmin); ok {
							t.Fatalf("%s gmin=%d nnz=%d: index %d at %d not reported", im.name, gmin, nnz, bad, p)
						}
						w64 := make([]float64, d)
						if _, ok := dotSparseAsm(im.id, idx, f64s(make([]float64, nnz)), w64, gmin); ok {
							t.Fatalf("%s float64 gmin=%d nnz=%d: index %d at %d not reported", im.name, gmin, nnz, bad, p)
						}
					}
				}
			}
		}
		for nnz := 1; nnz <= 12; nnz++ {
			for p := range nnz {
				idx := make([]int32, nnz)
				val := make([]float32, nnz)
				for i := range idx {
					idx[i] = int32(i)
					val[i] = 1
				}
				idx[p] = -5
				y := make([]float32, 20)
				var done int
				if im.id == IDAVX512 {
					done = axpySparseAVX512F32(2, idx, val, y)
				} else {
					done = axpySparseAVX2F32(2, idx, val, y)
				}
				if done != p {
					t.Fatalf("%s axpy nnz=%d bad at %d: done %d", im.name, nnz, p, done)
				}
				for i := range y {
					want := float32(0)
					if i < p {
						want = 2
					}
					if y[i] != want {
						t.Fatalf("%s axpy nnz=%d bad at %d: y = %v", im.name, nnz, p, y)
					}
				}
			}
		}
	}
}

// TestSparseLoopsFenced runs both loops of the dot, and the axpy, on
// indices, values and weights that end (or start) at a page followed (or
// preceded) by an inaccessible one, with the last weight (or the first)
// among the indices: a read past any slice would fault.
func TestSparseLoopsFenced(t *testing.T) {
	for _, im := range asmSparseImpls(t) {
		for _, gmin := range sparseLoops() {
			pi, pv, pw := fencedPage(t), fencedPage(t), fencedPage(t)
			for nnz := 0; nnz <= 70; nnz++ {
				for _, end := range []bool{true, false} {
					const d = 64
					idx := []int32{}
					var val, w []float32
					if end {
						if nnz > 0 {
							idx = unsafe.Slice((*int32)(unsafe.Pointer(&pi[len(pi)-4*nnz])), nnz)
						}
						val, w = atEnd[float32](pv, nnz), atEnd[float32](pw, d)
					} else {
						if nnz > 0 {
							idx = unsafe.Slice((*int32)(unsafe.Pointer(&pi[0])), nnz)
						}
						val, w = atStart[float32](pv, nnz), atStart[float32](pw, d)
					}
					for i := range idx {
						idx[i] = int32((i * 7) % d)
						val[i] = float32(i%5) - 2
					}
					if nnz > 0 {
						idx[nnz-1] = d - 1
						idx[0] = 0
					}
					for i := range w {
						w[i] = float32(i%9) - 4
					}
					got, ok := dotSparseAsm(im.id, idx, val, w, gmin)
					if want := plainSparse(idx, val, w); !ok || got != want {
						t.Fatalf("%s gmin=%d nnz=%d end=%v: %v, %v; want %v", im.name, gmin, nnz, end, got, ok, want)
					}
					if im.id == IDAVX512 {
						axpySparseAVX512F32(1, idx, val, w)
					} else {
						axpySparseAVX2F32(1, idx, val, w)
					}
				}
			}
		}
	}
}
