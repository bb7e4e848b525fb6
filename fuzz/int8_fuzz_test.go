package fuzz

import (
	"bytes"
	"slices"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// The int8 kernels: every implementation this CPU can run must return
// exactly the plain int32 loop's value (kerneltest.DotU8I8, DotI8), for any
// bytes, and leave its inputs unchanged. The fuzz bytes are the vectors
// themselves, so every value from 0 to 255 (−128 to 127) is reachable.

func int8Impls(t *testing.T) []*kernel.Int8Impl {
	list := kerneltest.AvailableInt8()
	if len(list) == 0 {
		t.Fatal("no int8 implementation available")
	}
	return list
}

// asInt8 views bytes as signed bytes.
func asInt8(b []byte) []int8 {
	if len(b) == 0 {
		return []int8{}
	}
	return unsafe.Slice((*int8)(unsafe.Pointer(&b[0])), len(b))
}

var int8Seeds = [][]byte{
	{},
	{1, 2},
	{255, 0x80},
	bytes.Repeat([]byte{255}, 64), // x = 255 (−1), w = −1
	append(bytes.Repeat([]byte{255}, 97), bytes.Repeat([]byte{0x80}, 97)...), // the largest products of one sign, a tail
	append(bytes.Repeat([]byte{0x80}, 300), bytes.Repeat([]byte{0x7f}, 300)...),
	[]byte("the quick brown fox jumps over the lazy dog, 0123456789 times over and over"),
}

func addInt8Seeds(f *testing.F) {
	for _, s := range int8Seeds {
		f.Add(s)
	}
	long := make([]byte, 2*1031)
	for i := range long {
		long[i] = byte(i*151 + 7)
	}
	f.Add(long)
}

// fuzzInt8Dot checks DotU8I8 (signed false) or DotI8 of the two halves of
// data.
func fuzzInt8Dot(t *testing.T, data []byte, signed bool) {
	n := len(data) / 2
	data0 := slices.Clone(data)
	x, w := data[:n:n], asInt8(data[n:2*n:2*n])
	xs := asInt8(x)
	want, _ := kerneltest.DotU8I8(x, w)
	if signed {
		want, _ = kerneltest.DotI8(xs, w)
	}
	for _, v := range int8Impls(t) {
		k := modelkern.OnInt8(v)
		var got int32
		if signed {
			got = k.DotI8(xs, w)
		} else {
			got = k.DotU8I8(x, w)
		}
		if got != want {
			t.Fatalf("%s n=%d signed=%v: got %d, want %d", v, n, signed, got, want)
		}
		if !bytes.Equal(data, data0) {
			t.Fatalf("%s modified its inputs", v)
		}
	}
}

// fuzzInt8Dots checks DotsU8I8 (signed false) or DotsI8: rows picks the
// row count, data is x followed by the rows of W.
func fuzzInt8Dots(t *testing.T, rows uint8, data []byte, signed bool) {
	r := int(rows % 12)
	d := len(data) / (r + 1)
	data0 := slices.Clone(data)
	x, W := data[:d:d], asInt8(data[d:d+r*d:d+r*d])
	xs := asInt8(x)
	for _, v := range int8Impls(t) {
		k := modelkern.OnInt8(v)
		dst := make([]int32, r+1) // one element past the rows: must stay untouched
		dst[r] = 0x1234567
		if signed {
			k.DotsI8(dst[:r], W, xs)
		} else {
			k.DotsU8I8(dst[:r], W, x)
		}
		for i := range r {
			want, _ := kerneltest.DotU8I8(x, W[i*d:(i+1)*d])
			if signed {
				want, _ = kerneltest.DotI8(xs, W[i*d:(i+1)*d])
			}
			if dst[i] != want {
				t.Fatalf("%s rows=%d d=%d signed=%v: row %d: got %d, want %d", v, r, d, signed, i, dst[i], want)
			}
		}
		if dst[r] != 0x1234567 {
			t.Fatalf("%s wrote past dst", v)
		}
		if !bytes.Equal(data, data0) {
			t.Fatalf("%s modified its inputs", v)
		}
	}
}

func FuzzDotU8I8(f *testing.F) {
	addInt8Seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInt8Dot(t, data, false) })
}

func FuzzDotI8(f *testing.F) {
	addInt8Seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInt8Dot(t, data, true) })
}

func addInt8DotsSeeds(f *testing.F) {
	for i, s := range int8Seeds {
		f.Add(uint8(i*3), s)
	}
	f.Add(uint8(10), bytes.Repeat([]byte{0x80, 255, 0x7f, 1}, 11*197))
}

func FuzzDotsU8I8(f *testing.F) {
	addInt8DotsSeeds(f)
	f.Fuzz(func(t *testing.T, rows uint8, data []byte) { fuzzInt8Dots(t, rows, data, false) })
}

func FuzzDotsI8(f *testing.F) {
	addInt8DotsSeeds(f)
	f.Fuzz(func(t *testing.T, rows uint8, data []byte) { fuzzInt8Dots(t, rows, data, true) })
}

// fuzzInt8MatVec checks MatVecU8I8: rows picks the row count, data is w
// followed by the rows of X.
func fuzzInt8MatVec(t *testing.T, rows uint8, data []byte) {
	r := int(rows % 12)
	d := len(data) / (r + 1)
	data0 := slices.Clone(data)
	w, X := asInt8(data[:d:d]), data[d:d+r*d:d+r*d]
	for _, v := range int8Impls(t) {
		dst := make([]int32, r+1)
		dst[r] = 0x1234567
		modelkern.OnInt8(v).MatVecU8I8(dst[:r], X, w)
		for i := range r {
			if want, _ := kerneltest.DotU8I8(X[i*d:(i+1)*d], w); dst[i] != want {
				t.Fatalf("%s MatVecU8I8 rows=%d d=%d: row %d: got %d, want %d", v, r, d, i, dst[i], want)
			}
		}
		if dst[r] != 0x1234567 {
			t.Fatalf("%s wrote past dst", v)
		}
		if !bytes.Equal(data, data0) {
			t.Fatalf("%s modified its inputs", v)
		}
	}
}

func FuzzMatVecU8I8(f *testing.F) {
	addInt8DotsSeeds(f)
	f.Fuzz(fuzzInt8MatVec)
}

// fuzzFused10 checks the fused 10-class prediction (modelkern.Fused10:
// Predict and PredictI8) wherever an implementation has it (avx512vnni's
// and avxvnni's assembly; ready on both, checked), bit for bit
// against the plain loops: the rows' dots (kerneltest.DotU8I8 less
// z·Σ w, or DotI8 of the sample's bytes read as signed), then the generic
// implementation's RescaleArgmax. data is the sample (d = len(data)/11
// bytes) then the 10 rows; the scales and biases come from the rows'
// first bytes, so that scores tie, are ±0 or negative as the bytes say.
func fuzzFused10(t *testing.T, z uint8, data []byte) {
	d := len(data) / 11
	data0 := slices.Clone(data)
	x, W := data[:d:d], asInt8(data[d:11*d:11*d])
	var generic modelkern.Int8Kernels
	for _, v := range kerneltest.Int8Impls() {
		if v.Name() == "generic" {
			generic = modelkern.OnInt8(v)
		}
	}
	sum := make([]int32, 10)
	s, b := make([]float64, 10), make([]float64, 10)
	for r := range 10 {
		for _, w := range W[r*d : (r+1)*d] {
			sum[r] += int32(w)
		}
		if d > 0 {
			s[r] = float64(W[r*d]&7) * 1e-4
			b[r] = float64(W[r*d]>>3) * 0.25
		}
	}
	const sx = 1.0 / 255
	v := asInt8(x)
	accU, accI := make([]int32, 10), make([]int32, 10)
	for r := range 10 {
		du, _ := kerneltest.DotU8I8(x, W[r*d:(r+1)*d])
		accU[r] = du - int32(z)*sum[r]
		accI[r], _ = kerneltest.DotI8(v, W[r*d:(r+1)*d])
	}
	wantU, wantI := make([]float32, 10), make([]float32, 10)
	bu, fu := generic.RescaleArgmax(wantU, accU, s, b, sx)
	bi, fi := generic.RescaleArgmax(wantI, accI, s, b, sx)
	for _, im := range int8Impls(t) {
		k := modelkern.OnInt8(im)
		f, ok := k.Fused10(W, sum, s, b)
		if !ok {
			if k.RescaleAsm() || im.Name() == "avxvnni" {
				t.Fatalf("%s: Fused10 not ready", im)
			}
			continue
		}
		var got [10]float32
		if gb, gf := f.Predict(&got, x, z, sx); gb != bu || gf != fu || !parity.SameBits(got[:], wantU) {
			t.Fatalf("%s Predict d=%d z=%d: (%d, %v) %v, want (%d, %v) %v", im, d, z, gb, gf, got, bu, fu, wantU)
		}
		if gb, gf := f.PredictI8(&got, v, sx); gb != bi || gf != fi || !parity.SameBits(got[:], wantI) {
			t.Fatalf("%s PredictI8 d=%d: (%d, %v) %v, want (%d, %v) %v", im, d, gb, gf, got, bi, fi, wantI)
		}
		if !bytes.Equal(data, data0) {
			t.Fatalf("%s modified its inputs", im)
		}
	}
}

func FuzzFused10(f *testing.F) {
	addInt8DotsSeeds(f)
	f.Fuzz(fuzzFused10)
}
