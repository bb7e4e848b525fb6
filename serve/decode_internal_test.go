package serve

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDecodeFloat32 holds decodeFloat32 to the plain per-value loop: every
// value's bits, and the index of the first NaN or ±Inf wherever it falls
// (each position of the first blocks, block ends, the last value), on both
// of its paths (the copy with block checks, and the byte-order loop).
func TestDecodeFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	want := func(raw []byte, n int) ([]float32, int) {
		x := make([]float32, n)
		for i := range x {
			u := binary.LittleEndian.Uint32(raw[4*i:])
			if u&0x7f800000 == 0x7f800000 {
				return x, i
			}
			x[i] = math.Float32frombits(u)
		}
		return x, -1
	}
	for _, little := range []bool{true, false} {
		saved := littleEndian
		littleEndian = little && saved
		for _, n := range []int{0, 1, 63, 64, 65, 200} {
			for bad := -1; bad < n; bad++ {
				raw := make([]byte, 4*n)
				for i := range n {
					u := math.Float32bits(float32(rng.NormFloat64() * 1e30))
					if rng.IntN(8) == 0 {
						u = uint32(rng.IntN(1 << 23)) // subnormal
					}
					binary.LittleEndian.PutUint32(raw[4*i:], u)
				}
				if bad >= 0 {
					specials := []uint32{0x7f800000, 0xff800000, 0x7fc00000, 0xffffffff, 0x7f800001}
					binary.LittleEndian.PutUint32(raw[4*bad:], specials[bad%len(specials)])
					if bad+3 < n {
						binary.LittleEndian.PutUint32(raw[4*(bad+3):], 0x7f800000)
					}
				}
				x := make([]float32, n)
				got := decodeFloat32(x, raw)
				wx, wi := want(raw, n)
				if got != wi {
					t.Fatalf("little %v n %d bad %d: index %d, want %d", littleEndian, n, bad, got, wi)
				}
				if wi < 0 {
					for i := range x {
						if math.Float32bits(x[i]) != math.Float32bits(wx[i]) {
							t.Fatalf("little %v n %d: value %d is %v, want %v", littleEndian, n, i, x[i], wx[i])
						}
					}
				}
			}
		}
		littleEndian = saved
	}
}
