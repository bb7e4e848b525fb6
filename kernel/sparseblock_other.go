//go:build purego || !(amd64 || arm64)

package kernel

// scoreBlockAsm reports false: no assembly for ScoreBlock on this build:
// the Go loop runs.
func scoreBlockAsm[T Float](id ID, dst, blk []T, idx []int32, val []T) bool {
	return false
}
