package gram

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestKBlocks checks the feature blocks: they cover d exactly, there are
// as many as blocks of at most kc need, and each is at most kc rounded up
// to the micro-kernels' 4 k steps.
func TestKBlocks(t *testing.T) {
	for d := 1; d <= 300; d++ {
		for kc := 1; kc <= d+5; kc++ {
			nblk, klen := kBlocks(d, kc)
			if want := (d + kc - 1) / kc; nblk != want {
				t.Fatalf("d=%d kc=%d: %d blocks, want %d", d, kc, nblk, want)
			}
			if klen > (kc+3)&^3 || (nblk-1)*klen >= d || nblk*klen < d {
				t.Fatalf("d=%d kc=%d: %d blocks of %d do not split d", d, kc, nblk, klen)
			}
			// Whole 4-step groups wherever they give the same number of
			// blocks; otherwise the even split ⌈d/nblk⌉.
			even := (d + nblk - 1) / nblk
			k4 := (even + 3) &^ 3
			if want := map[bool]int{true: k4, false: even}[(d+k4-1)/k4 == nblk]; klen != want {
				t.Fatalf("d=%d kc=%d: blocks of %d, want %d", d, kc, klen, want)
			}
		}
	}
}

// TestBlockingBitIdentical checks that the block sizes do not change a
// single bit of the result on any path: every value is one chain of
// multiply-adds in k order, continued across feature blocks through the
// stored tile.
func TestBlockingBitIdentical(t *testing.T) {
	t.Run("f32", testBlockingBits[float32])
	t.Run("f64", testBlockingBits[float64])
}

func testBlockingBits[T kernel.Float](t *testing.T) {
	const n, d = 61, 301
	X := randData[T](rand.New(rand.NewPCG(5, 6)), n, d)
	for _, path := range availablePaths() {
		for _, k := range []Kernel{Linear{}, RBF{Gamma: 1.0 / d}} {
			var ref []T
			for _, b := range [][3]int{{0, 0, 0}, {5, 20, 40}, {64, 12, 32}, {100, 60, 64}, {151, 0, 0}, {300, 6, 16}, {d, 0, 0}} {
				m, err := Compute(X, d, k, &Options{Impl: path, Threads: 2, kc: b[0], mc: b[1], nc: b[2]})
				if err != nil {
					t.Fatal(err)
				}
				if ref == nil {
					ref = m.Data
					continue
				}
				for i := range ref {
					if math.Float64bits(float64(ref[i])) != math.Float64bits(float64(m.Data[i])) {
						t.Fatalf("%s %v blocks %v: value %d is %v, %v with the engine's blocks", path, k, b, i, m.Data[i], ref[i])
					}
				}
			}
		}
	}
}
