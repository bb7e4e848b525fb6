//go:build amd64 && linux && !purego

package modelkern

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
		if im.ID() != IDAVX2 && im.ID() != IDAVX512 {
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
		for lo := 0; lo < nnz; {
			hi := min(nnz, lo+rng.IntN(13))
			vis = append(vis, Visit{Lo: lo, Hi: hi, Class: int32(rng.IntN(w * 3))})
			lo = hi
		}
		bias := []float32{-1, -1, -1, -1, -1, -1}
		k := On[float32](im)
		// From every start, and with an empty visit after the last, so
		// that the visit ending at the page's end is scanned as the first
		// and the second of a pair and alone.
		for first := range vis {
			for _, list := range [][]Visit{vis[first:], append(vis[first:len(vis):len(vis)], Visit{})} {
				for start := 0; start < len(list); {
					a0, a1 := make([]float32, w), make([]float32, w)
					j, n, ok := scanBlock2Asm(im.ID(), a0, a1, blk, idx, val, list[start:], bias, 0)
					if !ok {
						t.Fatalf("%s: the scan refused valid visits from %d", im.Name(), first+start)
					}
					b0, b1 := make([]float32, w), make([]float32, w)
					gj, gn := k.scanBlock2Go(b0, b1, blk, idx, val, list[start:], bias, 0)
					if j != gj || n != gn || n > 0 && !sameBits(a0, b0) || n == 2 && !sameBits(a1, b1) {
						t.Fatalf("%s from %d: (%d, %d) %v %v; the Go loop's (%d, %d) %v %v", im.Name(), first+start, j, n, a0, a1, gj, gn, b0, b1)
					}
					start += j + 1
				}
			}
		}
	}
}
