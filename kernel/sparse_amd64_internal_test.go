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

// dotSparseAsm runs the sparse-dot assembly (avx2 and avx512 share it).
func dotSparseAsm[T Float](idx []int32, val, w []T) (T, bool) {
	if is32[T]() {
		s, ok := dotSparseAVX2F32(idx, f32s(val), f32s(w))
		return T(s), ok
	}
	s, ok := dotSparseAVX2F64(idx, f64s(val), f64s(w))
	return T(s), ok
}

// needAVX2 skips the test where the CPU cannot run the assembly.
func needAVX2(t *testing.T) {
	for _, im := range archImpls() {
		if im.id == IDAVX2 && !im.available {
			t.Skip("the CPU lacks AVX2+FMA")
		}
	}
}

// The tests below drive the sparse assembly directly, the dot against a
// float64 reference under the γₙ bound and exactly for integers, invalid
// indices at every position, and every slice fenced by inaccessible pages.

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
	needAVX2(t)
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
				what := fmt.Sprintf("nnz=%d d=%d sorted=%v", nnz, d, sorted)
				got, ok := dotSparseAsm(idx, val, w)
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
				got, _ = dotSparseAsm(idx, val, w)
				if want := plainSparse(idx, val, w); got != want {
					t.Fatalf("%s integers: got %v, want exactly %v", what, got, want)
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
// negative) at every position of inputs of every length up to 40: the dot
// reports it (ok false), and the axpy stops before it, having updated
// exactly the non-zeros before it.
func TestSparseLoopsBadIndex(t *testing.T) {
	const d = 50
	needAVX2(t)
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
				if _, ok := dotSparseAsm(idx, val, w); ok {
					t.Fatalf("nnz=%d: index %d at %d not reported", nnz, bad, p)
				}
				if _, ok := dotSparseAsm(idx, make([]float64, nnz), make([]float64, d)); ok {
					t.Fatalf("float64 nnz=%d: index %d at %d not reported", nnz, bad, p)
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
			if done := axpySparseAVX2F32(2, idx, val, y); done != p {
				t.Fatalf("axpy nnz=%d bad at %d: done %d", nnz, p, done)
			}
			for i := range y {
				want := float32(0)
				if i < p {
					want = 2
				}
				if y[i] != want {
					t.Fatalf("axpy nnz=%d bad at %d: y = %v", nnz, p, y)
				}
			}
		}
	}
}

// TestSparseLoopsFenced runs the dot and the axpy on
// indices, values and weights that end (or start) at a page followed (or
// preceded) by an inaccessible one, with the last weight (or the first)
// among the indices: a read past any slice would fault.
func TestSparseLoopsFenced(t *testing.T) {
	needAVX2(t)
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
			got, ok := dotSparseAsm(idx, val, w)
			if want := plainSparse(idx, val, w); !ok || got != want {
				t.Fatalf("nnz=%d end=%v: %v, %v; want %v", nnz, end, got, ok, want)
			}
			axpySparseAVX2F32(1, idx, val, w)
		}
	}
}
