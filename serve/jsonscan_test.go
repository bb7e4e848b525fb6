package serve

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
)

// scanNumber parses text as feature 0 of row 0 with the scanner, as the
// handler does, through a buffer that holds it whole (TestNumberAcrossBuffers
// cuts one).
func scanNumber(text string, bits int) (float64, *httpError) {
	var s scanner
	s.reset(strings.NewReader(text), make([]byte, len(text)+64))
	s.fill()
	return s.number(0, 0, bits)
}

// checkNumber fails if the scanner's value of text differs, in any bit,
// from strconv.ParseFloat's, or if one refuses it and the other not.
func checkNumber(t *testing.T, text string, bits int) {
	t.Helper()
	want, werr := strconv.ParseFloat(text, bits)
	got, e := scanNumber(text, bits)
	if (werr != nil) != (e != nil) {
		t.Fatalf("%q (%d bits): strconv %v, scanner %v", text, bits, werr, e)
	}
	if e == nil && math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("%q (%d bits): %v (%#x), strconv %v (%#x)", text, bits, got, math.Float64bits(got), want, math.Float64bits(want))
	}
	// Followed by more of a body (parseShort's path, which needs 18
	// bytes in the buffer): the same.
	// (One of three bodies, chosen by the text's length.)
	{
		more := []string{",12345678901234567890", "]                   ", " ,0.5,0.25,0.125,1"}[len(text)%3]
		got2, e2 := scanNumber(text+more, bits)
		if (e2 != nil) != (e != nil) || e == nil && math.Float64bits(got2) != math.Float64bits(got) {
			t.Fatalf("%q followed by %q (%d bits): %v %v, alone %v %v", text, more, bits, got2, e2, got, e)
		}
	}
}

// TestParseShort: parseShort's numbers are strconv.ParseFloat's, for
// every length of integer and fraction part it takes and the lengths
// next to them, with the byte after the number of every kind.
func TestParseShort(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	digits := func(n int, lead bool) string {
		var b []byte
		for k := range n {
			c := byte('0' + rng.IntN(10))
			if k == 0 && lead && n > 1 && c == '0' {
				c = '1'
			}
			b = append(b, c)
		}
		return string(b)
	}
	short := 0
	for range 20000 {
		text := digits(1+rng.IntN(9), true)
		if rng.IntN(2) == 0 {
			text += "." + digits(1+rng.IntN(9), false)
		}
		if rng.IntN(3) == 0 {
			text = "-" + text
		}
		for _, bits := range []int{32, 64} {
			checkNumber(t, text, bits)
			p := []byte(text + ",1234567890123456789")
			if k, _, ok := parseShort(p, bits); ok {
				short++
				if k != len(text) {
					t.Fatalf("%q: length %d", text, k)
				}
			}
		}
	}
	if short < 10000 {
		t.Fatalf("parseShort took %d of 40000 numbers", short)
	}
	for _, text := range []string{"01", "00.5", "1.", ".5", "1.5e3", "1e3", "1.2.3", "-", "--1", "1.5E+1", "12345678", "0.12345678", "1.-1"} {
		if _, _, ok := parseShort([]byte(text+"]                  "), 32); ok {
			t.Errorf("parseShort took %q", text)
		}
	}
}

// TestNumberExact: the scanner's numbers are strconv.ParseFloat's, bit
// for bit, for float32 and float64 models: random floats printed
// shortest and at every precision, random decimals of up to 20 digits and
// exponents, float32 halfway points (where rounding a float64 again
// would be wrong), subnormals, and numbers that overflow (refused by
// both). A tenth of the random cases in a small run (package smalltest).
func TestNumberExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	for range smalltest.N(20000, 2000) {
		v32 := math.Float32frombits(rng.Uint32())
		v64 := math.Float64frombits(rng.Uint64())
		for _, text := range []string{
			strconv.FormatFloat(float64(v32), 'g', -1, 32),
			strconv.FormatFloat(float64(v32), 'e', rng.IntN(12), 32),
			strconv.FormatFloat(v64, 'g', -1, 64),
			strconv.FormatFloat(rng.NormFloat64(), 'f', rng.IntN(20), 64),
			strconv.FormatFloat(rng.Float64()*1e6, 'g', 1+rng.IntN(17), 64),
			strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10) + "e" + strconv.Itoa(rng.IntN(60)-30),
		} {
			if strings.ContainsAny(text, "NI") { // NaN, Inf: no JSON number
				continue
			}
			checkNumber(t, text, 32)
			checkNumber(t, text, 64)
		}
	}
	// float32 halfway points, written exactly: a float64 rounding of them
	// lands on the midpoint, and float32(f) would round to even.
	for range smalltest.N(2000, 200) {
		a := math.Float32frombits(rng.Uint32()&0x3fffffff | 0x30000000)
		b := math.Nextafter32(a, float32(math.Inf(1)))
		mid := (float64(a) + float64(b)) / 2
		for _, p := range []int{-1, 9, 12, 15, 17} {
			checkNumber(t, strconv.FormatFloat(mid, 'g', p, 64), 32)
		}
	}
	for _, text := range []string{"0", "-0", "1e39", "-1e39", "3.4028235e38", "3.4028236e38", "1e-46", "1e-40", "1.4e-45",
		"1e308", "1e309", "4.9e-324", "0.000000000000000000000000000001", "123456789012345678901234567890",
		"9007199254740993", "0.1", "1E+2", "1e-22", "1e22", "1e23"} {
		checkNumber(t, text, 32)
		checkNumber(t, text, 64)
	}
}

// TestNumberAcrossBuffers: a number cut by the end of the scanner's buffer
// is read whole.
func TestNumberAcrossBuffers(t *testing.T) {
	text := "[" + strings.Repeat(" ", scanBuffer-5) + "0.123456789,2]"
	var s scanner
	s.reset(strings.NewReader(text), make([]byte, scanBuffer))
	row := make([]float64, 2)
	if e := scanRow(nil, &s, row, 0, false); e != nil {
		t.Fatal(e.msg)
	}
	if row[0] != 0.123456789 || row[1] != 2 {
		t.Fatalf("row %v", row)
	}
}

// FuzzNumber: for any text, the scanner refuses or accepts a number as
// strconv.ParseFloat does on a JSON number, with the same value.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-1.5e3", "1e39", "0.6046603", "01", "1.", "-", "1e", "2.5e-45"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) == 0 || len(text) > 100 || !validNumber([]byte(text)) {
			return
		}
		checkNumber(t, text, 32)
		checkNumber(t, text, 64)
	})
}
