package server

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// TestFromRaw: raw FP32 and FP64 contents read the same values whether
// they are aliased (aligned, on a little-endian machine) or copied
// (misaligned), and an aligned slice is aliased.
func TestFromRaw(t *testing.T) {
	want32 := []float32{1.5, -2.25, 3e-8, math.MaxFloat32, 0, -0.125}
	want64 := []float64{1.5, -2.25, 3e-300, math.MaxFloat64, 0, -0.125}
	buf := make([]byte, 1+8*len(want64)) // buf[1:] is misaligned
	for _, off := range []int{0, 1} {
		b := buf[off : off+4*len(want32)]
		for i, v := range want32 {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		x, err := fromRaw("FP32", b, 2, 3)
		if err != nil || !slices.Equal(x.([]float32), want32) {
			t.Errorf("FP32 at offset %d: %v, %v", off, x, err)
		}
		_, aliased := alias[float32](b)
		if aliased != (off == 0 && littleEndianHost) {
			t.Errorf("FP32 at offset %d: aliased %v", off, aliased)
		}
		b = buf[off : off+8*len(want64)]
		for i, v := range want64 {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
		y, err := fromRaw("FP64", b, 3, 2)
		if err != nil || !slices.Equal(y.([]float64), want64) {
			t.Errorf("FP64 at offset %d: %v, %v", off, y, err)
		}
	}
}
