//go:build !purego

package kernel

// scoreBlockAsm runs ScoreBlock's assembly on implementation id, if it has
// one, and reports whether it did: false (dst unwritten) on a path without
// assembly or on an index whose feature's lanes are not inside blk,
// for the Go loop to run (and panic at that index).
func scoreBlockAsm[T Float](id ID, dst, blk []T, idx []int32, val []T) bool {
	switch id {
	case IDAVX512, IDAVX2:
		bound := scoreBlockBound(scoreBlockLanes(len(dst)), len(dst), len(blk))
		if is32[T]() {
			return scoreBlockAVX2F32(f32s(dst), f32s(blk), idx, f32s(val), bound)
		}
		return scoreBlockAVX2F64(f64s(dst), f64s(blk), idx, f64s(val), bound)
	}
	return false
}

// scoreBlockAVX2F32 is ScoreBlock for 1 ≤ len(dst) ≤ 8 (AVX on YMM: avx2,
// avx512), with ok = false, nothing read outside blk and dst unwritten, if
// an index is not below bound; len(val) == len(idx) is the caller's check.
//
//go:noescape
func scoreBlockAVX2F32(dst, blk []float32, idx []int32, val []float32, bound int) (ok bool)

// scoreBlockAVX2F64 is scoreBlockAVX2F32 for float64.
//
//go:noescape
func scoreBlockAVX2F64(dst, blk []float64, idx []int32, val []float64, bound int) (ok bool)
