package modelfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/gram"
)

var (
	errCorrupt  = errors.New("test: corrupt")
	errVersion  = errors.New("test: version")
	errMismatch = errors.New("test: mismatch")
	testErrs    = Errors{Corrupt: errCorrupt, Version: errVersion, Mismatch: errMismatch}
)

// machines is a model kind defined here with only its body code, as a
// package adding a kind (the SVM's kernel machines) would write it: Count
// support vectors of Dims values, then one coefficient per support vector
// and one bias for each of Algorithm machines, after a kernel section.
type machines struct {
	kern   gram.Kernel
	labels []int
	d, k   int
	sv     []float32
	coef   []float32 // k rows of len(sv)/d
	bias   []float32 // k
}

var machineFamily = &Family{Name: "test machines", Kinds: []byte{200, 201}, BodySize: machineBodySize}

var otherFamily = &Family{Name: "other", Kinds: []byte{202}, BodySize: func(Errors, *Header, []byte, *Sizer) (uint64, error) { return 0, nil }}

func init() {
	Register(machineFamily)
	Register(otherFamily)
}

func machineBodySize(e Errors, h *Header, _ []byte, sz *Sizer) (uint64, error) {
	if h.Algorithm < 1 {
		return 0, e.Corruptf("%d machines", h.Algorithm)
	}
	s, k := uint64(h.Count), uint64(h.Algorithm)
	sz.Add(KernelSize, 1)
	sz.Add(sz.Mul(s, uint64(h.Dims)), uint64(h.ElemSize))
	sz.Add(sz.Mul(k, s+1), uint64(h.ElemSize))
	return 0, nil
}

func (m *machines) marshal() []byte {
	s := len(m.sv) / m.d
	w := New(Header{ElemSize: 4, Kind: 200, Algorithm: byte(m.k), Dims: m.d, Count: s, Param: 1}, m.labels, KernelSize+4*(len(m.sv)+len(m.coef)+len(m.bias)))
	w.WriteKernel(m.kern)
	Elems(w, m.sv)
	Elems(w, m.coef)
	Elems(w, m.bias)
	return w.Finish()
}

func unmarshalMachines(data []byte) (*machines, error) {
	h, r, err := testErrs.Open(data)
	if err != nil {
		return nil, err
	}
	if Lookup(h.Kind) != machineFamily {
		return nil, testErrs.Otherwise(machineFamily, h.Kind)
	}
	m := &machines{d: h.Dims, k: int(h.Algorithm)}
	m.labels = r.Labels(h.Labels)
	spec := r.Take(1, KernelSize, "kernel bytes")
	s := uint64(h.Count)
	sv := r.Take(s*uint64(h.Dims), 4, "support vector values")
	coef := r.Take(uint64(m.k)*s, 4, "coefficients")
	bias := r.Take(uint64(m.k), 4, "biases")
	if err := r.Close(); err != nil {
		return nil, err
	}
	if m.kern, err = testErrs.ParseKernel(spec); err != nil {
		return nil, err
	}
	m.sv, m.coef, m.bias = Decode[float32](sv, 4), Decode[float32](coef, 4), Decode[float32](bias, 4)
	return m, nil
}

// A kind written with only its body code round-trips, EncodedSize knows
// its size, and the envelope rejects what it should with the caller's
// sentinels.
func TestNewKindBodyOnly(t *testing.T) {
	m := &machines{kern: gram.Polynomial{Gamma: 0.5, Coef0: 1, Degree: 3}, labels: []int{-3, 4, 9}, d: 2, k: 3,
		sv: []float32{1, 2, 3, 4}, coef: []float32{1, -1, 0.5, -0.5, 2, -2}, bias: []float32{0.1, 0.2, 0.3}}
	data := m.marshal()
	back, err := unmarshalMachines(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.kern != m.kern || !slices.Equal(back.labels, m.labels) || !slices.Equal(back.sv, m.sv) ||
		!slices.Equal(back.coef, m.coef) || !slices.Equal(back.bias, m.bias) {
		t.Fatalf("round trip: %+v, want %+v", back, m)
	}
	if size, need, err := testErrs.EncodedSize(data[:HeaderSize]); err != nil || need != 0 || size != int64(len(data)) {
		t.Fatalf("EncodedSize = %d, %d, %v; want %d", size, need, err, len(data))
	}
	for n := range len(data) {
		if _, err := unmarshalMachines(data[:n]); !errors.Is(err, errCorrupt) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	reseal := func(b []byte) []byte {
		le.PutUint32(b[len(b)-SumSize:], Checksum(b[:len(b)-SumSize]))
		return b
	}
	edit := func(f func(b []byte)) []byte {
		b := slices.Clone(data)
		f(b)
		return reseal(b)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"checksum", func() []byte { b := slices.Clone(data); b[50] ^= 1; return b }(), errCorrupt},
		{"version", edit(func(b []byte) { b[8] = 9 }), errVersion},
		{"magic", edit(func(b []byte) { b[0] = 'X' }), errCorrupt},
		{"elem-size", edit(func(b []byte) { b[10] = 2 }), errCorrupt},
		{"reserved", edit(func(b []byte) { b[29] = 1 }), errCorrupt},
		{"dims", edit(func(b []byte) { le.PutUint32(b[16:], 0) }), errCorrupt},
		{"labels", edit(func(b []byte) { le.PutUint32(b[20:], 1) }), errCorrupt},
		{"other-family", edit(func(b []byte) { b[11] = 202 }), errMismatch},
		{"unknown-kind", edit(func(b []byte) { b[11] = 203 }), errCorrupt},
		{"kernel", edit(func(b []byte) { b[HeaderSize+8*3] = 9 }), errCorrupt},
		{"padded", reseal(append(slices.Clone(data), 0, 0, 0, 0)), errCorrupt},
	} {
		if _, err := unmarshalMachines(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// EncodedSize of a kind no family registered is corrupt; a header that
// asks for more than an int64 of bytes is corrupt, not an overflow.
func TestEncodedSizeErrors(t *testing.T) {
	head := func(kind, algo byte, d, l, m uint32) []byte {
		w := New(Header{ElemSize: 8, Kind: kind, Algorithm: algo, Dims: int(d), Count: int(m)}, nil, 0)
		le.PutUint32(w.b[20:], l)
		return w.b
	}
	for _, tc := range []struct {
		name string
		head []byte
		want error
	}{
		{"unknown kind", head(203, 1, 1, 2, 1), errCorrupt},
		{"family rejects", head(200, 0, 1, 2, 1), errCorrupt},
		{"huge", head(200, 255, MaxDims, MaxLabels, math.MaxUint32), errCorrupt},
		{"version", func() []byte { b := head(200, 1, 1, 2, 1); b[8] = Newest + 1; return b }(), errVersion},
	} {
		if _, _, err := testErrs.EncodedSize(tc.head); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, need, err := testErrs.EncodedSize([]byte("RBLT")); err != nil || need != HeaderSize {
		t.Errorf("short prefix: need %d, %v", need, err)
	}
	if _, _, err := testErrs.EncodedSize([]byte("NOTAMODEL")); !errors.Is(err, errCorrupt) {
		t.Errorf("bad magic: %v", err)
	}
}

// Registering a kind twice panics: kinds are one namespace.
func TestRegisterTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	Register(&Family{Name: "dup", Kinds: []byte{201}, BodySize: machineBodySize})
}

// The Sizer flags products and sums past math.MaxInt64.
func TestSizer(t *testing.T) {
	var s Sizer
	s.Add(1<<31, 1<<31)
	if s.Over || s.N != 1<<62 {
		t.Fatalf("2^62: %+v", s)
	}
	s.Add(1<<62, 1)
	if !s.Over {
		t.Fatal("2^63 not flagged")
	}
	var p Sizer
	p.Mul(1<<32, 1<<32)
	if !p.Over {
		t.Fatal("2^64 product not flagged")
	}
}

// TestElemsBytes: Elems writes each value's little-endian bits, the
// bytes of the value-by-value encoding, for both element types and for
// values whose bits matter (−0, NaN payloads, infinities, subnormals),
// after bytes already written at an odd offset.
func TestElemsBytes(t *testing.T) {
	f64 := []float64{0, math.Copysign(0, -1), 1.5, -3e300, math.Inf(1), math.Inf(-1), math.Float64frombits(0x7ff8000000000123),
		math.Float64frombits(0xfff0000000000001), 5e-324, math.Pi}
	f32 := make([]float32, len(f64))
	for i, v := range f64 {
		f32[i] = float32(v)
	}
	f32[6] = math.Float32frombits(0x7fc00123)
	elemsCase(t, f32)
	elemsCase(t, f64)
}

func elemsCase[T Float](t *testing.T, v []T) {
	t.Helper()
	fast, slow := &Writer{b: []byte{1, 2, 3}}, &Writer{b: []byte{1, 2, 3}}
	Elems(fast, v)
	elemsLE(slow, v)
	if !bytes.Equal(fast.b, slow.b) {
		t.Fatalf("%T: Elems wrote % x, value by value % x", v, fast.b, slow.b)
	}
	for i, x := range v {
		off := 3 + i*ElemSize[T]()
		var bits uint64
		if ElemSize[T]() == 4 {
			bits = uint64(binary.LittleEndian.Uint32(fast.b[off:]))
			if bits != uint64(math.Float32bits(float32(x))) {
				t.Fatalf("%T[%d]: bits %#x", v, i, bits)
			}
		} else if bits = binary.LittleEndian.Uint64(fast.b[off:]); bits != math.Float64bits(float64(x)) {
			t.Fatalf("%T[%d]: bits %#x", v, i, bits)
		}
	}
}
