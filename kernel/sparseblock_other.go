//go:build purego || !amd64

package kernel

// scoreBlockAsm reports false: no assembly for ScoreBlock on this build
// (NEON is not written yet), the Go loop runs.
func scoreBlockAsm[T Float](id ID, dst, blk []T, idx []int32, val []T, bound int) bool {
	return false
}
