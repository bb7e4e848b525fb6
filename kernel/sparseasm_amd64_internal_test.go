//go:build amd64 && linux && !purego

package kernel

import (
	"math/rand/v2"
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
		// visits of 0..12 values, consecutive, the last ending at nnz;
		// classes mostly outside the block, biases −1: most are right
		var vis []Visit
		ptr := []int{0}
		for lo := 0; lo < nnz; {
			hi := min(nnz, lo+rng.IntN(13))
			vis = append(vis, Visit{Lo: lo, Hi: hi, Class: int32(rng.IntN(w * 3))})
			ptr = append(ptr, hi)
			lo = hi
		}
		bias := []float32{-1, -1, -1, -1, -1, -1}
		k := Kernels[float32]{im: im}
		// From every start, and with an empty visit after the last, so
		// that the visit ending at the page's end is scanned as the first
		// and the second of a pair and alone.
		for first := range vis {
			for _, list := range [][]Visit{vis[first:], append(vis[first:len(vis):len(vis)], Visit{})} {
				for start := 0; start < len(list); {
					a0, a1 := make([]float32, w), make([]float32, w)
					j, n, ok := scanBlock2Asm(im.id, a0, a1, blk, idx, val, list[start:], bias, 0)
					if !ok {
						t.Fatalf("%s: the scan refused valid visits from %d", im.name, first+start)
					}
					b0, b1 := make([]float32, w), make([]float32, w)
					gj, gn := k.scanBlock2Go(b0, b1, blk, idx, val, list[start:], bias, 0)
					if j != gj || n != gn || n > 0 && !sameBits(a0, b0) || n == 2 && !sameBits(a1, b1) {
						t.Fatalf("%s from %d: (%d, %d) %v %v; the Go loop's (%d, %d) %v %v", im.name, first+start, j, n, a0, a1, gj, gn, b0, b1)
					}
					start += j + 1
				}
			}
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
