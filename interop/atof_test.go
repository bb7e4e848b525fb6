package interop

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestPow10Table checks entries of the Eisel–Lemire table against Go's
// strconv table (internal/strconv/pow10tab.go, the same floor(10^e·2^k)).
func TestPow10Table(t *testing.T) {
	for _, tt := range []struct {
		e      int
		hi, lo uint64
	}{
		{-80, 0x97c560ba6b0919a5, 0xdccd879fc967d41a},
		{-17, 0xb877aa3236a4b449, 0x09befeb9fad487c2},
		{-1, 0xcccccccccccccccc, 0xcccccccccccccccc},
		{5, 0xc350000000000000, 0x0000000000000000},
		{40, 0xeb194f8e1ae525fd, 0x5dcfab0800000000},
	} {
		if got := pow10Table()[tt.e-pow10Min]; got != [2]uint64{tt.hi, tt.lo} {
			t.Errorf("10^%d: %#x, want %#x %#x", tt.e, got, tt.hi, tt.lo)
		}
	}
}

// checkParseFloat fails unless parseFloat(s) is strconv.ParseFloat(s, 64)
// bit for bit, error or not.
func checkParseFloat(t *testing.T, s string) {
	t.Helper()
	got, gerr := parseFloat([]byte(s))
	want, werr := strconv.ParseFloat(s, 64)
	if (gerr == nil) != (werr == nil) || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseFloat(%q) = %v (%#x), %v; strconv: %v (%#x), %v", s, got, math.Float64bits(got), gerr, want, math.Float64bits(want), werr)
	}
}

// TestParseFloat compares parseFloat with strconv.ParseFloat on the forms
// model files hold (%.17g of random values over many magnitudes, as
// svm-train prints them, and shorter ones), on halfway and boundary cases,
// and on what only strconv reads or nobody reads.
func TestParseFloat(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "0.0", "-0.0", "00", "1", "-1", ".5", "5.", "-.5e1", "1e0", "1E+2", "1e-2",
		"9007199254740993", "9007199254740992", "9007199254740991", "1e22", "1e23", "123456789012345678901",
		"1234567890123456789", "12345678901234567890", "0.000000000000000000001", "2.2250738585072014e-308",
		"4.9e-324", "1.7976931348623157e308", "1.7976931348623159e308", "1e400", "1e-400",
		"0.1", "0.30000000000000004", "-0.12345678901234567", "1_000", "0x1p-3", "inf", "-Inf", "NaN",
		"", "-", ".", "e5", "1e", "1e+", "1.2.3", "1 ", " 1", "1:2", "+-1", "00000000000000000000000001.5",
		"1.00000000000000000000000000001", "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
		"4.4501477170144023e-308", "9.9999999999999999e22", "7.2057594037927933e16"} {
		checkParseFloat(t, s)
	}
	r := rand.New(rand.NewPCG(3, 4))
	fast := 0
	const n = 200000
	for range n {
		v := math.Float64frombits(r.Uint64())
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		checkParseFloat(t, strconv.FormatFloat(v, 'g', 17, 64))
		checkParseFloat(t, strconv.FormatFloat(v, 'g', -1, 64))
		w := r.NormFloat64() * math.Pow(10, float64(r.IntN(60)-40))
		s := strconv.FormatFloat(w, 'g', 17, 64)
		checkParseFloat(t, s)
		if _, ok := fastFloat([]byte(s)); ok {
			fast++
		}
		checkParseFloat(t, strconv.FormatFloat(w, 'e', r.IntN(20), 64))
		checkParseFloat(t, strconv.FormatFloat(w, 'f', r.IntN(25), 64))
	}
	// The fast path is the one taken: strconv decides only the rare
	// undecided products (numbers whose decimal form is exact in binary,
	// such as 123543262984278.75, are among them).
	if fast < n*99/100 {
		t.Errorf("the fast path read %d of %d numbers of 17 digits", fast, n)
	}
}

// FuzzParseFloat holds parseFloat to strconv.ParseFloat on any input.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0.12345678901234567", "-1.2345678901234567e-05", "1e23", "9007199254740993", "0x1p3", "1_0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkParseFloat(t, s) })
}
