package parity

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// bytesOf returns a fuzz input of the given mode and n pseudo-random
// bytes (deterministic).
func bytesOf(mode byte, n int, seed uint32) []byte {
	b := []byte{mode}
	x := seed*2654435761 + 1
	for range n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b = append(b, byte(x>>7))
	}
	return b
}

func TestFloatsModes(t *testing.T) {
	for _, m := range []byte{0, 8, 16} {
		if got := len(Floats[float64](bytesOf(m, 80, 1))); got != 10 {
			t.Errorf("mode byte %d (raw bits): %d float64s from 80 bytes, want 10", m, got)
		}
	}
	if got := len(Floats[float32](bytesOf(0, 81, 1))); got != 20 {
		t.Errorf("raw bits: %d float32s from 81 bytes, want 20", got)
	}
	if len(Floats[float32](nil)) != 0 || !Integers(nil) {
		t.Errorf("empty data: values or not integers")
	}

	ints := Floats[float32](bytesOf(1, 64, 2))
	if !Integers(bytesOf(1, 64, 2)) || Integers(bytesOf(0, 64, 2)) || len(ints) != 64 {
		t.Errorf("Integers: mode 1 %v, mode 0 %v, %d values", Integers(bytesOf(1, 64, 2)), Integers(bytesOf(0, 64, 2)), len(ints))
	}
	for _, v := range ints {
		if v != float32(math.Trunc(float64(v))) || v < -128 || v > 127 {
			t.Fatalf("mode 1 value %v is not an int8", v)
		}
	}

	sub := Floats[float64](bytesOf(3, 800, 3))
	nonzero := 0
	for _, v := range sub {
		if math.Abs(v) >= 0x1p-1022 || math.IsNaN(v) {
			t.Fatalf("mode 3 value %v is not subnormal or zero", v)
		}
		if v != 0 {
			nonzero++
		}
	}
	if nonzero < len(sub)-1 || len(sub) != 100 {
		t.Errorf("mode 3: %d of %d values non-zero", nonzero, len(sub))
	}
	for _, v := range Floats[float32](bytesOf(3, 400, 3)) {
		if math.Abs(float64(v)) >= 0x1p-126 {
			t.Fatalf("mode 3 float32 value %v is not subnormal or zero", v)
		}
	}

	for _, f32 := range []bool{false, true} {
		var vals []float64
		payloads := map[uint64]bool{}
		if f32 {
			for _, v := range Floats[float32](bytesOf(4, 1000, 4)) {
				if v != v {
					payloads[uint64(math.Float32bits(v))] = true
				}
				vals = append(vals, float64(v))
			}
		} else {
			for _, v := range Floats[float64](bytesOf(4, 1800, 4)) {
				if v != v {
					payloads[math.Float64bits(v)] = true
				}
				vals = append(vals, v)
			}
		}
		nans := slices.IndexFunc(vals, math.IsNaN) >= 0
		finite := slices.IndexFunc(vals, func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }) >= 0
		if !nans || !finite || len(payloads) < 20 {
			t.Errorf("mode 4 (float32 %v): NaNs %v, finite values %v, %d distinct NaN encodings", f32, nans, finite, len(payloads))
		}
	}

	// Cancellation: the dot product's large terms cancel exactly.
	for seed := range uint32(40) {
		x, y := Split(Floats[float64](bytesOf(5, 30, seed)))
		if seed%2 == 1 {
			x32, y32 := Split(Floats[float32](bytesOf(5, 30, seed)))
			x, y = make([]float64, len(x32)), make([]float64, len(y32))
			for i := range x32 {
				x[i], y[i] = float64(x32[i]), float64(y32[i])
			}
		}
		if len(x) != 30 {
			t.Fatalf("mode 5: %d pairs from 30 bytes, want 30", len(x))
		}
		for i := 0; i < len(x); i += 3 {
			big, small := x[i]*y[i], x[i+2]*y[i+2]
			if big+x[i+1]*y[i+1] != 0 || math.Abs(big) < 100*max(math.Abs(small), 1) {
				t.Errorf("mode 5 seed %d: terms %v, %v, %v: no cancellation", seed, big, x[i+1]*y[i+1], small)
			}
		}
	}

	// The whole exponent range, subnormal to overflow.
	lo, hi := math.Inf(1), 0.0
	inf := false
	for _, v := range Floats[float64](bytesOf(6, 4000, 6)) {
		if a := math.Abs(v); a != 0 && !math.IsInf(v, 0) {
			lo, hi = min(lo, a), max(hi, a)
		}
		inf = inf || math.IsInf(v, 0)
	}
	if lo > 1e-300 || hi < 1e300 || !inf {
		t.Errorf("mode 6: magnitudes %g to %g, an infinity %v; want the whole range", lo, hi, inf)
	}

	specials := map[string]bool{}
	for _, v := range Floats[float32](bytesOf(7, 400, 7)) {
		specials[fmt.Sprintf("%x", math.Float32bits(v))] = true
	}
	for _, w := range []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1)),
		math.MaxFloat32, -math.MaxFloat32, 0x1p-126, math.SmallestNonzeroFloat32, 1 + 0x1p-23, 1 - 0x1p-24,
		math.Float32frombits(0x7fc00001), math.Float32frombits(0x7f800001)} {
		if !specials[fmt.Sprintf("%x", math.Float32bits(w))] {
			t.Errorf("mode 7 never gave %v (%#x)", w, math.Float32bits(w))
		}
	}
}

func TestCheckDot(t *testing.T) {
	x := []float64{1e8, 1, -1e8, 3}
	y := []float64{1, 1, 1, 2}
	if err := CheckDot(7.0, x, y); err != nil {
		t.Errorf("the exact value: %v", err)
	}
	if err := CheckDot(6.0, x, y); err == nil {
		t.Errorf("6 accepted for 7")
	}
	// Any order is within the bound; the float32 rounding of a float64
	// sum is not.
	big := Floats[float64](bytesOf(2, 2000, 9))
	a, b := Split(big)
	var rev float64
	for i := len(a) - 1; i >= 0; i-- {
		rev += a[i] * b[i]
	}
	if err := CheckDot(rev, a, b); err != nil {
		t.Errorf("reverse order: %v", err)
	}
	ref, s := Dot(a, b)
	if err := CheckDot(ref+2*Bound[float64](len(a), s), a, b); err == nil {
		t.Errorf("twice the bound away accepted")
	}
	// float32: its own, larger bound.
	a32, b32 := Split(Floats[float32](bytesOf(2, 2000, 9)))
	ref, s = Dot(a32, b32)
	if err := CheckDot(float32(ref)+float32(0.5*Gamma[float32](len(a32))*s), a32, b32); err != nil {
		t.Errorf("float32 within γₙ·S: %v", err)
	}

	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name     string
		got      float64
		x, y     []float64
		accepted bool
	}{
		{"NaN input, NaN result", nan, []float64{1, nan}, []float64{1, 1}, true},
		{"NaN input, finite result", 1, []float64{1, nan}, []float64{1, 1}, false},
		{"Inf·0", 0, []float64{inf, 1}, []float64{0, 1}, false},
		{"Inf − Inf", inf, []float64{inf, inf}, []float64{1, -1}, false},
		{"Inf − Inf, NaN", nan, []float64{inf, inf}, []float64{1, -1}, true},
		{"Inf", inf, []float64{inf, 1}, []float64{2, 1}, true},
		{"overflow may give Inf", inf, []float64{math.MaxFloat64, math.MaxFloat64}, []float64{1, 1}, true},
		{"overflow may give NaN", nan, []float64{math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64}, []float64{2, 1, 2}, true},
		{"no overflow, NaN", nan, []float64{1, 2}, []float64{3, 4}, false},
		{"subnormal", 0, []float64{0x1p-1074}, []float64{0.5}, true},
	} {
		if err := CheckDot(c.got, c.x, c.y); (err == nil) != c.accepted {
			t.Errorf("%s: error %v, want accepted %v", c.name, err, c.accepted)
		}
	}
}

func TestCheckSum(t *testing.T) {
	x := []float32{1 << 24, 1, -(1 << 24), 1}
	// Left to right in float32: 2²⁴ + 1 rounds to 2²⁴, so the sum is 1;
	// exactly it is 2. Both are within γ₄·S.
	for _, got := range []float32{1, 2} {
		if err := CheckSum(got, x); err != nil {
			t.Errorf("sum %v: %v", got, err)
		}
	}
	if err := CheckSum(float32(20), x); err == nil || !strings.Contains(err.Error(), "bound") {
		t.Errorf("20 for 2: %v", err)
	}
	if err := CheckSum(float32(math.Inf(1)), []float32{float32(math.Inf(1)), float32(math.Inf(-1))}); err == nil {
		t.Errorf("Inf accepted for Inf − Inf")
	}
	if err := CheckSum(float32(math.NaN()), []float32{float32(math.Inf(1)), float32(math.Inf(-1))}); err != nil {
		t.Errorf("NaN for Inf − Inf: %v", err)
	}
}

func TestBitEqual(t *testing.T) {
	nan1, nan2 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff0000000000002)
	if err := BitEqual([]float64{1, nan1}, []float64{1, nan2}); err != nil {
		t.Errorf("NaNs of two payloads: %v", err)
	}
	if err := BitEqual([]float64{0}, []float64{math.Copysign(0, -1)}); err == nil || !strings.Contains(err.Error(), "index 0") {
		t.Errorf("+0 and −0: %v", err)
	}
	if err := BitEqual([]float32{1, 2}, []float32{1, 2.0000002}); err == nil || !strings.Contains(err.Error(), "index 1") {
		t.Errorf("an ulp apart: %v", err)
	}
	if err := BitEqual([]float32{1}, []float32{1, 2}); err == nil {
		t.Errorf("lengths 1 and 2 equal")
	}
	if err := BitEqual([]float64{nan1}, []float64{1}); err == nil {
		t.Errorf("NaN equal to 1")
	}
	if SameBits([]float64{nan1}, []float64{nan2}) || !SameBits([]float64{nan1, 3}, []float64{nan1, 3}) {
		t.Errorf("SameBits does not compare NaN payloads")
	}
}

// recorder is a testing.TB that records what EveryImpl reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestEveryImpl(t *testing.T) {
	var ran []string
	r := &recorder{}
	EveryImpl(r, func(im *kernel.Impl) error {
		ran = append(ran, im.Name())
		if im.Name() == "generic" {
			return fmt.Errorf("wrong")
		}
		return nil
	})
	var want []string
	for _, im := range kernel.Impls() {
		if im.Available() {
			want = append(want, im.Name())
		}
	}
	if !slices.Equal(ran, want) || len(want) == 0 {
		t.Errorf("ran on %v, want every available implementation %v", ran, want)
	}
	if len(r.errs) != 1 || r.errs[0] != "generic: wrong" {
		t.Errorf("reported %q, want the generic path's error alone", r.errs)
	}
	// Every path's Dot passes on the adversarial inputs.
	for mode := range byte(8) {
		x, y := Split(Floats[float32](bytesOf(mode, 400, uint32(mode))))
		EveryImpl(t, func(im *kernel.Impl) error {
			return CheckDot(kernel.On[float32](im).Dot(x, y), x, y)
		})
	}
}
