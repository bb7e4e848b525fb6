package fuzz

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// sparseOf splits fuzz values into the stored values of a sparse vector
// and a dense vector w, and turns ix into its indices into w: nnz =
// min(len(val), len(ix)); with distinct set, each byte adds a step of
// 1 + byte to the previous index (increasing, as a CSR row stores them,
// which AxpySparse's check needs), otherwise the indices are the bytes
// modulo len(w), in any order, with repeats. It returns nils when w would
// be empty.
func sparseOf[T kernel.Float](v []T, ix []byte, distinct bool) (idx []int32, val, w []T) {
	half := (len(v) + 1) / 2
	val, w = v[:half:half], v[half:]
	if len(w) == 0 {
		return nil, nil, nil
	}
	nnz := min(len(val), len(ix))
	idx = make([]int32, 0, nnz)
	j := -1
	for _, b := range ix[:nnz] {
		if distinct {
			j += 1 + int(b)%4
			if j >= len(w) {
				break
			}
		} else {
			j = int(b) % len(w)
		}
		idx = append(idx, int32(j))
	}
	return idx, val[:len(idx)], w
}

// fuzzDotSparse checks DotSparse, and MatVecSparse and DotsSparse on the
// same sparse vector, on every implementation against the plain loop
// under the γₙ bound, exactly for integers.
func fuzzDotSparse[T kernel.Float](t *testing.T, data, ix []byte) {
	v, exact := parity.Floats[T](data), parity.Integers(data)
	idx, val, w := sparseOf(v, ix, false)
	if w == nil {
		return
	}
	ref, _ := parity.Dot(val, kerneltest.Gather(idx, w))
	exact = exact && exactSums[T](len(idx), func(i int) float64 { return float64(val[i]) * float64(w[idx[i]]) })
	for _, im := range impls(t) {
		k := kernel.On[T](im)
		got := k.DotSparse(idx, val, w)
		if err := kerneltest.CheckDotSparse(got, idx, val, w); err != nil {
			t.Fatalf("%s DotSparse nnz=%d: %v", im, len(idx), err)
		}
		if exact && float64(got) != ref {
			t.Fatalf("%s DotSparse of integers nnz=%d: got %v, want exactly %v", im, len(idx), got, ref)
		}
		// The same vector as a one-row CSR block and against two rows.
		dst := make([]T, 2)
		k.MatVecSparse(dst[:1], []int{0, len(idx)}, idx, val, w)
		W := append(append([]T(nil), w...), w...)
		k.DotsSparse(dst, W, idx, val)
		if !parity.SameBits(dst, []T{got, got}) {
			t.Fatalf("%s MatVecSparse and DotsSparse %v, DotSparse %v", im, dst, got)
		}
		// The vector cut into three rows (the cuts from ix, rows may be
		// empty): each row's entry is DotSparse of the row, bit for bit.
		var c1, c2 int
		if len(ix) > 0 {
			c1, c2 = int(ix[0]), int(ix[len(ix)-1])
		}
		p1 := c1 % (len(idx) + 1)
		p2 := p1 + c2%(len(idx)-p1+1)
		ptr := []int{0, p1, p2, len(idx)}
		rows := make([]T, 3)
		k.MatVecSparse(rows, ptr, idx, val, w)
		for r := range rows {
			one := k.DotSparse(idx[ptr[r]:ptr[r+1]], val[ptr[r]:ptr[r+1]], w)
			if !parity.SameBits(rows[r:r+1], []T{one}) {
				t.Fatalf("%s MatVecSparse rows %v: row %d %v, DotSparse %v", im, ptr, r, rows[r], one)
			}
		}
		// One index moved out of w (past its end, or negative): a panic as
		// a slice index out of range, on every path, wherever it is.
		if len(idx) > 0 {
			bad := append([]int32(nil), idx...)
			p := int(ix[0]) % len(bad)
			bad[p] = int32(len(w)) + int32(ix[len(ix)-1])
			if ix[0]&1 != 0 {
				bad[p] = -1 - int32(ix[len(ix)-1])
			}
			if msg := panicOf(func() { k.DotSparse(bad, val, w) }); !strings.Contains(msg, "index out of range") {
				t.Fatalf("%s DotSparse with index %d of %d at %d: panic %q", im, bad[p], len(w), p, msg)
			}
		}
	}
}

// panicOf returns the panic f raises, as text ("" if none).
func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func fuzzAxpySparse[T kernel.Float](t *testing.T, data, ix []byte) {
	v := parity.Floats[T](data)
	if len(v) == 0 {
		return
	}
	a := v[0]
	idx, val, y0 := sparseOf(v[1:], ix, true)
	if y0 == nil {
		return
	}
	val0 := append([]T(nil), val...)
	for _, im := range impls(t) {
		y := append([]T(nil), y0...)
		kernel.On[T](im).AxpySparse(a, idx, val, y)
		if err := kerneltest.CheckAxpySparse(y, a, idx, val, y0); err != nil {
			t.Fatalf("%s AxpySparse nnz=%d: %v", im, len(idx), err)
		}
		if !parity.SameBits(val, val0) {
			t.Fatalf("%s AxpySparse modified val", im)
		}
	}
}

func addSparseSeeds(f *testing.F) {
	for i, s := range seeds {
		f.Add(s, []byte{byte(i), 3, 0, 7, 1, 200, 5, 9, 2})
	}
}

func FuzzDotSparseF32(f *testing.F)  { addSparseSeeds(f); f.Fuzz(fuzzDotSparse[float32]) }
func FuzzDotSparseF64(f *testing.F)  { addSparseSeeds(f); f.Fuzz(fuzzDotSparse[float64]) }
func FuzzAxpySparseF32(f *testing.F) { addSparseSeeds(f); f.Fuzz(fuzzAxpySparse[float32]) }
func FuzzAxpySparseF64(f *testing.F) { addSparseSeeds(f); f.Fuzz(fuzzAxpySparse[float64]) }
