//go:build !purego

package kernel

// scoreBlockAsm runs ScoreBlock's assembly on implementation id, if it has
// one, and reports whether it did: false (dst unwritten) on a path without
// assembly or on an index whose nv vectors of weights are not inside blk,
// for the Go loop to run (and panic at that index, or score the sample if
// only lanes past len(dst) were outside).
func scoreBlockAsm[T Float](id ID, dst, blk []T, idx []int32, val []T) bool {
	if id != IDNEON {
		return false
	}
	w := len(dst)
	var buf [scoreBlockMax]T
	ok := false
	if is32[T]() {
		b, bl, v := f32s(buf[:]), f32s(blk), f32s(val)
		if w <= 4 {
			ok = scoreBlockNEONF32x1(b, bl, idx, v, scoreBlockBound(4, w, len(blk)), w)
		} else {
			ok = scoreBlockNEONF32x2(b, bl, idx, v, scoreBlockBound(8, w, len(blk)), w)
		}
	} else {
		b, bl, v := f64s(buf[:]), f64s(blk), f64s(val)
		switch {
		case w <= 2:
			ok = scoreBlockNEONF64x1(b, bl, idx, v, scoreBlockBound(2, w, len(blk)), w)
		case w <= 4:
			ok = scoreBlockNEONF64x2(b, bl, idx, v, scoreBlockBound(4, w, len(blk)), w)
		default:
			ok = scoreBlockNEONF64x4(b, bl, idx, v, scoreBlockBound(8, w, len(blk)), w)
		}
	}
	if ok {
		copy(dst, buf[:w])
	}
	return ok
}

// scoreBlockNEONF32x1 sets dst[0:4] to the sums of ScoreBlock at width w
// reading four lanes per feature (NEON), with ok = false, nothing read
// outside blk, if an index is not below bound; len(dst) ≥ 4 and
// len(val) == len(idx) are the caller's.
//
//go:noescape
func scoreBlockNEONF32x1(dst, blk []float32, idx []int32, val []float32, bound, w int) (ok bool)

// scoreBlockNEONF32x2 is scoreBlockNEONF32x1 reading eight lanes.
//
//go:noescape
func scoreBlockNEONF32x2(dst, blk []float32, idx []int32, val []float32, bound, w int) (ok bool)

// scoreBlockNEONF64x1 is scoreBlockNEONF32x1 for float64 reading two lanes.
//
//go:noescape
func scoreBlockNEONF64x1(dst, blk []float64, idx []int32, val []float64, bound, w int) (ok bool)

// scoreBlockNEONF64x2 is scoreBlockNEONF64x1 reading four lanes.
//
//go:noescape
func scoreBlockNEONF64x2(dst, blk []float64, idx []int32, val []float64, bound, w int) (ok bool)

// scoreBlockNEONF64x4 is scoreBlockNEONF64x1 reading eight lanes.
//
//go:noescape
func scoreBlockNEONF64x4(dst, blk []float64, idx []int32, val []float64, bound, w int) (ok bool)
