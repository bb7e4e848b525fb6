package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// sparseIndices returns nnz indices below d: distinct and increasing (as a
// CSR row stores them), or, if any, in random order with repeats.
func sparseIndices(rng *rand.Rand, nnz, d int, any bool) []int32 {
	if any {
		idx := make([]int32, nnz)
		for i := range idx {
			idx[i] = int32(rng.IntN(d))
		}
		return idx
	}
	perm := rng.Perm(d)[:nnz]
	slices.Sort(perm)
	idx := make([]int32, nnz)
	for i, j := range perm {
		idx[i] = int32(j)
	}
	return idx
}

// sparseShapes are (nnz, d) pairs: every nnz around the unroll of four,
// into vectors from barely larger to much larger than nnz.
var sparseShapes = func() [][2]int {
	var s [][2]int
	for nnz := 0; nnz <= 40; nnz++ {
		s = append(s, [2]int{nnz, max(nnz, 1)}, [2]int{nnz, nnz + 3}, [2]int{nnz, 1000})
	}
	return append(s, [2]int{100, 1 << 16}, [2]int{257, 300}, [2]int{1000, 4096})
}()

func testDotSparse[T kernel.Float](t *testing.T, im *kernel.Impl) {
	k := kernel.On[T](im)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, kind := range []valueKind{mixed, integer} {
		for _, sh := range sparseShapes {
			for i, off := range offsets {
				nnz, d := sh[0], sh[1]
				// Every other offset: indices in any order, with repeats.
				anyOrder := i%2 == 1
				what := fmt.Sprintf("nnz=%d d=%d off=%d kind=%d anyOrder=%v", nnz, d, off, kind, anyOrder)
				idx := sparseIndices(rng, nnz, d, anyOrder)
				idx0 := slices.Clone(idx)
				val, val0, vok := input[T](rng, nnz, off, kind)
				w, w0, wok := input[T](rng, d, (off+1)%4, kind)

				got := k.DotSparse(idx, val, w)
				if err := kerneltest.CheckDotSparse(got, idx, val, w); err != nil {
					t.Fatalf("DotSparse %s: %v", what, err)
				}
				if kind == integer {
					// Integers below 2^24 in every partial sum: exact on
					// every path, whatever the order.
					ref, _ := parity.Dot(val, kerneltest.Gather(idx, w))
					if float64(got) != ref {
						t.Fatalf("DotSparse %s: got %v, want exactly %v", what, got, ref)
					}
				}
				if im == kernel.ActiveImpl() {
					if pkg := kernel.DotSparse(idx, val, w); !parity.SameBits([]T{pkg}, []T{got}) {
						t.Fatalf("DotSparse %s: package-level %v, Kernels %v", what, pkg, got)
					}
				}
				checkUnchanged(t, "DotSparse val "+what, val, val0, vok)
				checkUnchanged(t, "DotSparse w "+what, w, w0, wok)
				if !slices.Equal(idx, idx0) {
					t.Fatalf("DotSparse %s: idx was modified", what)
				}
			}
		}
	}
}

func testAxpySparse[T kernel.Float](t *testing.T, im *kernel.Impl) {
	k := kernel.On[T](im)
	rng := rand.New(rand.NewPCG(13, 14))
	for _, kind := range []valueKind{mixed, integer} {
		for _, sh := range sparseShapes {
			for _, off := range offsets {
				nnz, d := sh[0], sh[1]
				what := fmt.Sprintf("nnz=%d d=%d off=%d kind=%d", nnz, d, off, kind)
				a := T(rng.IntN(7) - 3)
				if kind == mixed {
					a = T(rng.Float64()*4 - 2)
				}
				idx := sparseIndices(rng, nnz, d, false)
				if off%2 == 1 {
					// distinct but unsorted
					rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
				}
				val, val0, vok := input[T](rng, nnz, off, kind)
				y, y0, yok := input[T](rng, d, (off+3)%4, kind)

				k.AxpySparse(a, idx, val, y)
				if err := kerneltest.CheckAxpySparse(y, a, idx, val, y0); err != nil {
					t.Fatalf("AxpySparse %s: %v", what, err)
				}
				if kind == integer {
					for i, j := range idx {
						if want := y0[j] + a*val[i]; y[j] != want {
							t.Fatalf("AxpySparse %s: index %d: got %v, want exactly %v", what, j, y[j], want)
						}
					}
				}
				checkUnchanged(t, "AxpySparse val "+what, val, val0, vok)
				if err := yok(); err != nil {
					t.Fatalf("AxpySparse %s: %v", what, err)
				}
			}
		}
	}
	// Repeated indices add in turn, as the plain loop does.
	y := []T{1, 2, 3}
	k.AxpySparse(2, []int32{2, 0, 2, 2, 0}, []T{1, 1, 1, 1, 1}, y)
	if !slices.Equal(y, []T{5, 2, 9}) {
		t.Fatalf("AxpySparse with repeated indices: %v, want [5 2 9]", y)
	}
}

// randomCSR returns a rows×d CSR matrix (some rows empty) as its parts.
func randomCSR[T kernel.Float](rng *rand.Rand, rows, d int, kind valueKind) (ptr []int, idx []int32, val []T) {
	ptr = []int{0}
	for range rows {
		nnz := 0
		if rng.IntN(5) > 0 {
			nnz = rng.IntN(min(d, 40) + 1)
		}
		idx = append(idx, sparseIndices(rng, nnz, d, false)...)
		ptr = append(ptr, len(idx))
	}
	val = make([]T, len(idx))
	fill(rng, val, kind)
	return ptr, idx, val
}

func testMatVecSparse[T kernel.Float](t *testing.T, im *kernel.Impl) {
	k := kernel.On[T](im)
	rng := rand.New(rand.NewPCG(15, 16))
	for _, kind := range []valueKind{mixed, integer} {
		for _, rows := range []int{0, 1, 2, 3, 4, 5, 9, 33, 2500} { // 2500: MatVecSparse's assembly takes 1024 rows a call
			for _, d := range []int{1, 7, 64, 1000} {
				what := fmt.Sprintf("rows=%d d=%d kind=%d", rows, d, kind)
				ptr, idx, val := randomCSR[T](rng, rows, d, kind)
				val0 := slices.Clone(val)
				w, w0, wok := input[T](rng, d, rows%4, kind)
				dst, dok := kerneltest.Guarded[T](rows, (rows+1)%4)
				k.MatVecSparse(dst, ptr, idx, val, w)
				for i := range dst {
					ri, rv := idx[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]]
					if err := kerneltest.CheckDotSparse(dst[i], ri, rv, w); err != nil {
						t.Fatalf("MatVecSparse %s row %d: %v", what, i, err)
					}
					if one := k.DotSparse(ri, rv, w); !parity.SameBits(dst[i:i+1], []T{one}) {
						t.Fatalf("MatVecSparse %s row %d: %v, DotSparse %v", what, i, dst[i], one)
					}
				}
				if err := dok(); err != nil {
					t.Fatalf("MatVecSparse %s: %v", what, err)
				}
				checkUnchanged(t, "MatVecSparse w "+what, w, w0, wok)
				if !parity.SameBits(val, val0) {
					t.Fatalf("MatVecSparse %s: val was modified", what)
				}

				// DotsSparse: one sparse row against the rows×d matrix.
				W, W0, Wok := input[T](rng, rows*d, 1, kind)
				ri := sparseIndices(rng, rng.IntN(min(d, 50)+1), d, false)
				rv := make([]T, len(ri))
				fill(rng, rv, kind)
				dst2, dok2 := kerneltest.Guarded[T](rows, 2)
				k.DotsSparse(dst2, W, ri, rv)
				for r := range dst2 {
					if err := kerneltest.CheckDotSparse(dst2[r], ri, rv, W[r*d:(r+1)*d]); err != nil {
						t.Fatalf("DotsSparse %s row %d: %v", what, r, err)
					}
					if kind == integer {
						ref, _ := parity.Dot(rv, kerneltest.Gather(ri, W[r*d:(r+1)*d]))
						if float64(dst2[r]) != ref {
							t.Fatalf("DotsSparse %s row %d: got %v, want exactly %v", what, r, dst2[r], ref)
						}
					}
				}
				if err := dok2(); err != nil {
					t.Fatalf("DotsSparse %s: %v", what, err)
				}
				checkUnchanged(t, "DotsSparse W "+what, W, W0, Wok)
			}
		}
	}
}

func TestDotSparse(t *testing.T)    { forEach(t, testDotSparse[float32], testDotSparse[float64]) }
func TestAxpySparse(t *testing.T)   { forEach(t, testAxpySparse[float32], testAxpySparse[float64]) }
func TestMatVecSparse(t *testing.T) { forEach(t, testMatVecSparse[float32], testMatVecSparse[float64]) }

// wantPanic checks that f panics with a message containing want.
func wantPanic(t *testing.T, name, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", name)
			return
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Errorf("%s: panic %q, want one containing %q", name, msg, want)
		}
	}()
	f()
}

// TestSparsePanics checks the contract: mismatched lengths panic naming the
// kernel, and an index outside the dense vector panics as a slice index
// does, on every implementation, and before anything is written past the
// vector.
func TestSparsePanics(t *testing.T) {
	for _, im := range implsUnderTest(t) {
		k := kernel.On[float32](im)
		w := []float32{1, 2, 3, 4}
		two := []float32{1, 1}
		const oob = "index out of range"
		wantPanic(t, im.Name()+" DotSparse lengths", "kernel.DotSparse: length mismatch", func() { k.DotSparse([]int32{0}, two, w) })
		wantPanic(t, im.Name()+" AxpySparse lengths", "kernel.AxpySparse: length mismatch", func() { k.AxpySparse(1, []int32{0}, two, w) })
		wantPanic(t, im.Name()+" MatVecSparse ptr", "kernel.MatVecSparse: length mismatch", func() {
			k.MatVecSparse(make([]float32, 2), []int{0, 1}, []int32{0}, two[:1], w)
		})
		wantPanic(t, im.Name()+" MatVecSparse lengths", "kernel.MatVecSparse: length mismatch", func() {
			k.MatVecSparse(make([]float32, 1), []int{0, 1}, []int32{0}, two, w)
		})
		wantPanic(t, im.Name()+" DotsSparse lengths", "kernel.DotsSparse: length mismatch", func() {
			k.DotsSparse(make([]float32, 3), w, []int32{0}, two[:1])
		})
		wantPanic(t, im.Name()+" MatVecSparse ptr range", "slice bounds out of range", func() {
			k.MatVecSparse(make([]float32, 1), []int{0, 5}, []int32{0}, two[:1], w)
		})
		// A bad row past the first 1024 (the assembly's calls): every row
		// before it is written.
		{
			const n = 1500
			ptr, idx, val := make([]int, n+1), make([]int32, n), make([]float32, n)
			for i := range ptr {
				ptr[i] = i // rows of one value: w[3]·1
			}
			for i := range idx {
				idx[i], val[i] = 3, 1
			}
			ptr[1201] = 1199 // row 1200 decreasing
			dst := make([]float32, n)
			wantPanic(t, im.Name()+" MatVecSparse bad row 1200", "slice bounds out of range", func() {
				k.MatVecSparse(dst, ptr, idx, val, w)
			})
			for i := range 1200 {
				if want := float32(4); dst[i] != want {
					t.Fatalf("%s MatVecSparse bad row 1200: row %d = %v, want %v", im.Name(), i, dst[i], want)
				}
			}
		}
		// A bad row after good ones (offsets decreasing, negative, past the
		// end): the rows before it are written, as the loop writes them,
		// and it panics as slicing does.
		for _, ptr := range [][]int{{0, 1, 2, 1}, {0, 1, 2, -1}, {0, 1, 2, 4}, {0, 1, -1, 2}} {
			dst := []float32{9, 9, 9}
			wantPanic(t, fmt.Sprintf("%s MatVecSparse ptr %v", im.Name(), ptr), "slice bounds out of range", func() {
				k.MatVecSparse(dst, ptr, []int32{1, 2, 3}, []float32{1, 1, 1}, w)
			})
			if want := float32(2); dst[0] != want || ptr[2] == 2 && dst[1] != 3 {
				t.Errorf("%s MatVecSparse ptr %v: rows before the bad one %v, want %v, 3", im.Name(), ptr, dst, want)
			}
		}
		for _, j := range []int32{4, 5, 1 << 30, -1} {
			for _, nnz := range []int{1, 4, 5, 9} { // in the unrolled part and the tail
				idx := make([]int32, nnz)
				idx[nnz-1] = j
				val := make([]float32, nnz)
				name := fmt.Sprintf("%s index %d of %d", im.Name(), j, nnz)
				wantPanic(t, name+" DotSparse", oob, func() { k.DotSparse(idx, val, w) })
				y, ok := kerneltest.Guarded[float32](4, 1)
				wantPanic(t, name+" AxpySparse", oob, func() { k.AxpySparse(1, idx, val, y) })
				if err := ok(); err != nil {
					t.Errorf("%s AxpySparse: %v", name, err)
				}
				wantPanic(t, name+" MatVecSparse", oob, func() {
					k.MatVecSparse(make([]float32, 1), []int{0, nnz}, idx, val, w)
				})
				// W holds two rows of 4: index 4 is inside W but not a row.
				wantPanic(t, name+" DotsSparse", oob, func() {
					k.DotsSparse(make([]float32, 2), make([]float32, 8), idx, val)
				})
			}
		}
	}
	// Empty input is valid.
	if s := kernel.DotSparse[float64](nil, nil, nil); s != 0 {
		t.Fatalf("DotSparse of nothing = %v", s)
	}
	kernel.AxpySparse[float64](1, nil, nil, nil)
	kernel.MatVecSparse[float64](nil, []int{0}, nil, nil, nil)
	kernel.DotsSparse[float64](nil, nil, []int32{5}, []float64{1})
}
