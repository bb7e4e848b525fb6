package modelkern_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
)

// quantSpecials are the edge values of the quantiser's tests: signed zeros,
// the smallest and largest magnitudes, ±Inf, NaNs of both signs (quiet and
// signalling payloads), and values whose t = x·inv + off lands on or next
// to an integer, 0 and 255 for the usual inv = 1, off = ½.
var quantSpecials = func() []float32 {
	bits := func(b uint32) float32 { return math.Float32frombits(b) }
	s := []float32{
		0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 1.5, 2.5, -0.49999997, -0.50000006,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)),
		bits(0x7fc00000), bits(0xffc00000), bits(0x7f800001), bits(0xff800001), bits(0x7fffffff),
		254, 254.5, 254.49998, 255, 255.5, 256, 1e9, 2147483648, 4294967296, -2147483648, -1e9,
	}
	for k := float32(0); k < 256; k += 37 {
		s = append(s, k+0.5, math.Nextafter32(k+0.5, 0), math.Nextafter32(k+0.5, 512), k, math.Nextafter32(k, -1))
	}
	return s
}()

// quantParams are (inv, off) pairs: the usual ones (off = zero + ½), a
// scale from a real range, extreme and non-finite ones.
var quantParams = [][2]float32{
	{1, 0.5}, {1, 0}, {1, 128.5}, {255 / 6.5, 97.5}, {0.001, 0.5}, {3.7e4, 12.5}, {0, 0.5}, {0, 300},
	{-1, 0.5}, {1e30, 0.5}, {float32(math.Inf(1)), 0.5}, {float32(math.NaN()), 0.5}, {1, float32(math.NaN())},
	{1, float32(math.Inf(-1))}, {1, -0.5}, {math.SmallestNonzeroFloat32, 254.99998},
}

// quantInputs returns inputs of length n: special values only, random
// finite values of varied magnitude, those with one special value at
// position p (walking the whole vector, the tails included), and random
// bit patterns.
func quantInputs(rng *rand.Rand, n int) [][]float32 {
	var out [][]float32
	sp := make([]float32, n)
	for i := range sp {
		sp[i] = quantSpecials[rng.IntN(len(quantSpecials))]
	}
	out = append(out, sp)
	fin := make([]float32, n)
	for i := range fin {
		fin[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3)))
	}
	out = append(out, fin)
	for p := 0; p < n; p += 1 + n/23 {
		for _, v := range []float32{float32(math.NaN()), float32(math.Inf(-1)), -math.MaxFloat32, float32(math.Copysign(0, -1))} {
			x := append([]float32(nil), fin...)
			for i := range x {
				x[i] = float32(math.Abs(float64(x[i])))
			}
			x[p] = v
			out = append(out, x)
		}
	}
	raw := make([]float32, n)
	for i := range raw {
		raw[i] = math.Float32frombits(rng.Uint32())
	}
	return append(out, raw)
}

func quantLengths() []int {
	n := make([]int, 0, 80)
	for i := 0; i <= 70; i++ {
		n = append(n, i)
	}
	n = append(n, 127, 128, 129, 768, 784, 1000)
	if !smalltest.Small() { // in a small run (package smalltest), up to 1000
		n = append(n, 4099)
	}
	return n
}

// guardedBytes returns n bytes at offset off inside a buffer of 0xA5
// sentinels, and a check that no sentinel was overwritten.
func guardedBytes(n, off int) ([]uint8, func() error) {
	buf := make([]uint8, off+n+64)
	for i := range buf {
		buf[i] = 0xA5
	}
	s := buf[32+off : 32+off+n : 32+off+n]
	return s, func() error {
		for i, b := range buf {
			if (i < 32+off || i >= 32+off+n) && b != 0xA5 {
				return fmt.Errorf("byte %d outside dst (at %d..%d) written", i, 32+off, 32+off+n)
			}
		}
		return nil
	}
}

// TestQuantRange: on every int8 implementation the CPU runs, QuantRange
// returns the plain float loop's range bit for bit (−0 included) and
// reports a NaN or ±Inf wherever it is, for lengths 0..70 and long ones,
// at every start alignment; the elements around x are NaNs, so a read
// outside x shows as a non-finite result.
func TestQuantRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for _, v := range kerneltest.AvailableInt8() {
		k := modelkern.OnInt8(v)
		for _, n := range quantLengths() {
			for ci, x := range quantInputs(rng, n) {
				for off := range 4 {
					fenced := fence(x, off)
					lo, hi, ok := k.QuantRange(fenced)
					rlo, rhi, rok := kerneltest.QuantRange(x)
					if ok != rok || math.Float32bits(lo) != math.Float32bits(rlo) || math.Float32bits(hi) != math.Float32bits(rhi) {
						t.Fatalf("%s: n=%d case %d off %d: got (%v, %v, %v), want (%v, %v, %v)", v, n, ci, off, lo, hi, ok, rlo, rhi, rok)
					}
				}
			}
		}
	}
}

// fence returns a copy of x at element offset off in a buffer whose other
// elements are NaN.
func fence(x []float32, off int) []float32 {
	buf := make([]float32, off+len(x)+32)
	for i := range buf {
		buf[i] = float32(math.NaN())
	}
	s := buf[16+off : 16+off+len(x) : 16+off+len(x)]
	copy(s, x)
	return s
}

// TestQuantizeU8: on every int8 implementation the CPU runs, QuantizeU8
// writes the plain loop's bytes exactly (NaN, ±Inf, halfway and boundary
// values of t, extreme and non-finite inv and off), for lengths 0..70 and
// long ones, at two alignments of x and dst per case (every alignment
// over the cases), and nothing outside dst.
func TestQuantizeU8(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2))
	for _, v := range kerneltest.AvailableInt8() {
		k := modelkern.OnInt8(v)
		for _, n := range quantLengths() {
			want := make([]uint8, n)
			for ci, x := range quantInputs(rng, n) {
				for pi, p := range quantParams {
					kerneltest.QuantizeU8(want, x, p[0], p[1])
					for _, off := range []int{(ci + pi) % 4, 3 - (ci+pi)%4} {
						dst, intact := guardedBytes(n, (off*3)%4)
						k.QuantizeU8(dst, fence(x, off), p[0], p[1])
						for i := range want {
							if dst[i] != want[i] {
								t.Fatalf("%s: n=%d case %d params %d (inv %v, off %v) align %d: dst[%d] = %d for x = %v (%#x), want %d",
									v, n, ci, pi, p[0], p[1], off, i, dst[i], x[i], math.Float32bits(x[i]), want[i])
							}
						}
						if err := intact(); err != nil {
							t.Fatalf("%s: n=%d: %v", v, n, err)
						}
					}
				}
			}
		}
	}
}

// TestQuantizeU8Panics: mismatched lengths panic on every implementation.
func TestQuantizeU8Panics(t *testing.T) {
	for _, v := range kerneltest.AvailableInt8() {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: QuantizeU8 with len(dst) = 3, len(x) = 4 did not panic", v)
				}
			}()
			modelkern.OnInt8(v).QuantizeU8(make([]uint8, 3), make([]float32, 4), 1, 0.5)
		}()
	}
}
