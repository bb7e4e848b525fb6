//go:build amd64 && linux && !purego

package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestSparseAsmTakesValidInput: the amd64 scan and row loop (float32 and
// float64) accept valid input themselves (ok, every row done) rather than leave it to the Go
// loops, which would give the same results and hide a check that refuses
// what it should take; and their results are the Go loops'. The rows'
// indices and values end at a page that cannot be read (fencedPage), and
// the last visit and row end there, so reading one element past a row
// faults.
func TestSparseAsmTakesValidInput(t *testing.T) {
	for _, im := range asmImpls(t) {
		if im.id != IDAVX2 && im.id != IDAVX512 {
			continue
		}
		rng := rand.New(rand.NewPCG(5, 6))
		const d, w, nnz = 50, 6, 700
		idxPage, valPage := fencedPage(t), fencedPage(t)
		idx := unsafe.Slice((*int32)(unsafe.Pointer(&idxPage[len(idxPage)-4*nnz])), nnz)
		val := atEnd[float32](valPage, nnz)
		for k := range idx {
			idx[k], val[k] = int32(rng.IntN(d)), float32(rng.Float64())
		}
		blk := make([]float32, d*w+2)
		for i := range blk {
			blk[i] = float32(rng.Float64()-0.5) / 8
		}
		// rows of 0..12 values, consecutive, the last ending at nnz
		ptr := []int{0}
		for lo := 0; lo < nnz; {
			hi := min(nnz, lo+rng.IntN(13))
			ptr = append(ptr, hi)
			lo = hi
		}
		wv := make([]float32, d)
		for i := range wv {
			wv[i] = float32(rng.Float64())
		}
		checkRowLoop(t, im, ptr, idx, val, wv)
		// float64: the same rows, values and weights widened
		val64, wv64 := make([]float64, nnz), make([]float64, d)
		for i, v := range val {
			val64[i] = float64(v)
		}
		for i, v := range wv {
			wv64[i] = float64(v)
		}
		checkRowLoop(t, im, ptr, idx, val64, wv64)
	}
}

// checkRowLoop checks that MatVecSparse's assembly row loop does every
// (valid) row itself, each DotSparse's bits.
func checkRowLoop[T Float](t *testing.T, im *Impl, ptr []int, idx []int32, val, w []T) {
	t.Helper()
	dst := make([]T, len(ptr)-1)
	if done := matVecSparseAsm(im.id, dst, ptr, idx, val, w); done != len(dst) {
		t.Fatalf("%s %T: the row loop did %d of %d valid rows", im.name, dst[0], done, len(dst))
	}
	k := Kernels[T]{im: im}
	for i := range dst {
		want := k.DotSparse(idx[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]], w)
		if !sameBits(dst[i:i+1], []T{want}) {
			t.Fatalf("%s %T row %d: %v, DotSparse %v", im.name, dst[0], i, dst[i], want)
		}
	}
}

func sameBits[T Float](a, b []T) bool {
	return slices.EqualFunc(a, b, func(x, y T) bool { return math.Float64bits(float64(x)) == math.Float64bits(float64(y)) })
}
