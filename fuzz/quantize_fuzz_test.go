package fuzz

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// FuzzQuantizeU8 holds the int8 models' input quantiser, on every int8
// implementation this CPU can run, to the plain loops of kerneltest:
// QuantRange's range and non-finite report bit for bit, QuantizeU8's bytes
// exactly, for any float32 bits (the fuzz bytes, little-endian, from an
// element offset of 0..3 inside a buffer of NaNs, so that a read outside x
// changes the range) and any inv and off; x is left unchanged and nothing
// outside dst is written.
func FuzzQuantizeU8(f *testing.F) {
	le := func(vs ...float32) []byte {
		b := make([]byte, 4*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	f.Add([]byte{}, float32(1), float32(0.5), uint8(0))
	f.Add(le(0.5, 1.5, -0.5, 254.5, 255, 300), float32(1), float32(0.5), uint8(1))
	f.Add(le(float32(math.NaN()), 1, float32(math.Inf(-1))), float32(2), float32(0.5), uint8(2))
	long := make([]float32, 97)
	for i := range long {
		long[i] = float32(i)*1.37 - 40
	}
	f.Add(le(long...), float32(255/172.9), float32(29.5), uint8(3))
	f.Add(le(long...), float32(math.Inf(1)), float32(math.NaN()), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, inv, off float32, align uint8) {
		n := len(data) / 4
		a := int(align % 4)
		buf := make([]float32, n+8)
		for i := range buf {
			buf[i] = float32(math.NaN())
		}
		x := buf[a : a+n : a+n]
		for i := range x {
			x[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		x0 := slices.Clone(x)
		rlo, rhi, rok := kerneltest.QuantRange(x)
		want := make([]uint8, n)
		kerneltest.QuantizeU8(want, x, inv, off)
		for _, v := range int8Impls(t) {
			k := modelkern.OnInt8(v)
			lo, hi, ok := k.QuantRange(x)
			if ok != rok || math.Float32bits(lo) != math.Float32bits(rlo) || math.Float32bits(hi) != math.Float32bits(rhi) {
				t.Fatalf("%s: QuantRange(n=%d) = (%v, %v, %v), want (%v, %v, %v)", v, n, lo, hi, ok, rlo, rhi, rok)
			}
			out := make([]uint8, n+2*32)
			for i := range out {
				out[i] = 0x5a
			}
			dst := out[32 : 32+n : 32+n]
			k.QuantizeU8(dst, x, inv, off)
			for i := range want {
				if dst[i] != want[i] {
					t.Fatalf("%s: n=%d inv %v off %v: dst[%d] = %d for x = %v, want %d", v, n, inv, off, i, dst[i], x[i], want[i])
				}
			}
			for i, b := range out {
				if (i < 32 || i >= 32+n) && b != 0x5a {
					t.Fatalf("%s: byte %d outside dst written", v, i-32)
				}
			}
			if !parity.SameBits(x, x0) {
				t.Fatalf("%s: x modified", v)
			}
		}
	})
}
