package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
)

// TestLIBSVMDenseBound checks the default rule of LIBSVMOptions.MaxValues:
// without Cols or MaxValues, a file too sparse for its size fails with
// ErrTooLarge at the index that set the width, and Cols or MaxValues lift
// the bound.
func TestLIBSVMDenseBound(t *testing.T) {
	// Many short rows after one wide one: 40001 rows of 100 float64 take
	// 32 MB for 80 kB of input.
	manyRows := "1 100:1\n" + strings.Repeat("1\n", 40000)
	tests := []struct {
		name      string
		in        string
		opts      LIBSVMOptions
		f32       bool
		line, col int // position of the error, 0:0 for none
	}{
		{"one wide row", "1 300000:1\n", LIBSVMOptions{}, false, 1, 3},
		{"one wide row, float32", "1 300000:1\n", LIBSVMOptions{}, true, 1, 3},
		{"wide row on line 2", "1 1:1\n-1 2:1 300000:1\n", LIBSVMOptions{}, false, 2, 8},
		{"many short rows", manyRows, LIBSVMOptions{}, false, 1, 3},
		// 11 bytes allow 64×11 + 1 MiB = 1049280 bytes: 262320 float32.
		{"float32 at the bound", "1 262320:1\n", LIBSVMOptions{}, true, 0, 0},
		{"float32 one past the bound", "1 262321:1\n", LIBSVMOptions{}, true, 1, 3},
		{"Cols lifts the bound", "1 300000:1\n", LIBSVMOptions{Cols: 300000}, false, 0, 0},
		{"MaxValues lifts the bound", "1 300000:1\n", LIBSVMOptions{MaxValues: 300000}, false, 0, 0},
		{"Cols lifts it for many rows", manyRows, LIBSVMOptions{Cols: 100}, false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.f32 {
				_, err = ReadLIBSVM[float32](strings.NewReader(tt.in), tt.opts)
			} else {
				_, err = ReadLIBSVM[float64](strings.NewReader(tt.in), tt.opts)
			}
			if tt.line == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantParseError(t, err, ErrTooLarge, tt.line, tt.col)
			for _, s := range []string{"Cols", "MaxValues"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say that %s allows it", err, s)
				}
			}
		})
	}
}

// TestLIBSVMDenseBoundBeforeAllocating checks that a few bytes announcing a
// matrix of gigabytes fail without allocating it.
func TestLIBSVMDenseBoundBeforeAllocating(t *testing.T) {
	for _, in := range []string{"1 1000000000:1\n", "1 1000000000:1\n" + strings.Repeat("-1\n", 1000)} {
		var err error
		got := memtest.Allocated(func() { _, err = ReadLIBSVM[float32](strings.NewReader(in), LIBSVMOptions{}) })
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("%.20q: got %v, want ErrTooLarge", in, err)
		}
		if got > 1<<20 {
			t.Fatalf("%.20q: allocated %d bytes for %d bytes of input", in, got, len(in))
		}
	}
}

// endless is a reader of the same byte forever that fails the test once
// more than limit bytes have been read from it.
type endless struct {
	t     *testing.T
	c     byte
	n     int
	limit int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n > e.limit {
		return 0, errors.New("read too far: the line was not bounded")
	}
	for i := range p {
		p[i] = e.c
	}
	e.n += len(p)
	return len(p), nil
}

// TestMaxLineBytesDefault reads input without a newline: it must fail with
// ErrLineTooLong once the line passes DefaultMaxLineBytes, not buffer on.
func TestMaxLineBytesDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB")
	}
	limit := DefaultMaxLineBytes + 1<<20
	var err error
	got := memtest.Allocated(func() {
		_, err = ReadLIBSVM[float32](&endless{t: t, c: '1', limit: limit}, LIBSVMOptions{File: "zero"})
	})
	wantParseError(t, err, ErrLineTooLong, 1, 0)
	// The line is gathered in chunks: about the limit in all, and the
	// 64 KiB read buffer.
	if got > DefaultMaxLineBytes+1<<20 {
		t.Errorf("LIBSVM: allocated %d bytes for a line limit of %d", got, DefaultMaxLineBytes)
	}
	got = memtest.Allocated(func() {
		_, err = ReadCSV[float32](&endless{t: t, c: '1', limit: limit}, CSVOptions{File: "zero"})
	})
	wantParseError(t, err, ErrLineTooLong, 1, 0)
	// encoding/csv buffers what it gets of the line (by append: some five
	// times that in all), but gets only its first 64 KiB: the rest is held
	// back in chunks, about the limit in all.
	if got > DefaultMaxLineBytes+1<<20 {
		t.Errorf("CSV: allocated %d bytes for a line limit of %d", got, DefaultMaxLineBytes)
	}
}

func TestMaxLineBytes(t *testing.T) {
	long := "1 1:" + strings.Repeat("0", 200000) // longer than the 64 KiB read buffer
	tests := []struct {
		name string
		in   string
		max  int
		line int // line of the ErrLineTooLong error, 0 for none
	}{
		{"exactly the limit", "1 1:1\n12 1:10\n", 7, 0},
		{"exactly the limit with CRLF", "1 1:1\r\n12 1:10\r\n", 7, 0},
		{"exactly the limit at EOF", "12 1:10", 7, 0},
		{"one past", "1 1:1\n12 1:100\n", 7, 2},
		{"one past at EOF", "1 1:1\n12 1:100", 7, 2},
		{"one past with CRLF", "12 1:100\r\n", 7, 1},
		{"one past with CR at EOF", "12 1:100\r", 7, 1},
		{"no newline at all", strings.Repeat("1", 1000), 100, 1},
		{"long line past the read buffer", "1 1:1\n" + long + "\n", len(long) - 1, 2},
		{"long line within the limit", "1 1:1\n" + long + "\n", len(long), 0},
		{"long line within the limit with CRLF", "1 1:1\n" + long + "\r\n", len(long), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadLIBSVM[float64](strings.NewReader(tt.in), LIBSVMOptions{MaxLineBytes: tt.max, File: "f"})
			if tt.line == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantParseError(t, err, ErrLineTooLong, tt.line, 0)
			if want := "f:" + strconv.Itoa(tt.line) + ": line longer than " + strconv.Itoa(tt.max) + " bytes"; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q, want it to start with %q", err, want)
			}
		})
	}
	if _, err := ReadLIBSVM[float64](strings.NewReader("1 1:1\n"), LIBSVMOptions{MaxLineBytes: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("MaxLineBytes -1: got %v, want ErrInvalid", err)
	}
}

func TestCSVMaxLineBytes(t *testing.T) {
	long := "1," + strings.Repeat("0", 100000)
	tests := []struct {
		name    string
		in      string
		max     int
		comment rune
		line    int // line of the ErrLineTooLong error, 0 for none
		msg     string
	}{
		{"exactly the limit", "1,2\n10,2\n", 4, 0, 0, ""},
		{"exactly the limit with CRLF", "1,2\r\n10,2\r\n", 4, 0, 0, ""},
		{"exactly the limit at EOF", "1,2\n10,2", 4, 0, 0, ""},
		{"one past", "1,2\n10,20\n", 4, 0, 2, "2: line longer than 4 bytes"},
		{"one past with CRLF", "1,2\n10,20\r\n", 4, 0, 2, ""},
		{"one past at EOF", "1,2\n10,20", 4, 0, 2, ""},
		{"no newline at all", strings.Repeat("1", 1000), 100, 0, 1, ""},
		{"long line", "1,2\n" + long + "\n", len(long) - 1, 0, 2, ""},
		{"long line within the limit", "1,2\n" + long + "\n", len(long), 0, 0, ""},
		// A record spanning lines inside quotes counts as a whole,
		// its inner newlines included.
		{"quoted newlines within the limit", "1,\"\n\n2\"\n3,4\n", 7, 0, 0, ""},
		{"quoted CRLF within the limit", "1,\"\r\n2\"\r\n3,4\r\n", 7, 0, 0, ""},
		{"quoted newlines past the limit", "1,\"\n\n2\"\n", 6, 0, 3, "record quoted across lines 1 to 3 longer than 6 bytes"},
		{"endless quoted field", "1,\"" + strings.Repeat("\n", 1000), 100, 0, 98, "lines 1 to 98"},
		// Records longer than the 64 KiB passed on before their end: the
		// rest is held back until the record ends.
		{"long quoted record within the limit", "1,\"" + strings.Repeat("\n", 100000) + "2\"\n3,4\n", 100005, 0, 0, ""},
		{"long quoted record past the limit", "1,\"" + strings.Repeat("\n", 100000) + "2\"\n3,4\n", 100004, 0, 100001, "lines 1 to 100001"},
		{"long line within the limit at EOF", "1,2\n" + long, len(long), 0, 0, ""},
		// Doubled quotes stay inside the field, and a new record starts
		// after the closing quote.
		{"doubled quotes", "\"a\"\"\",b\n1,2\n3,4\n5,6\n", 7, 0, 0, ""},
		// Quotes in comment lines do not open a field.
		{"quote in a comment", "# \"\n1,2\n3,4\n5,6\n", 4, '#', 0, ""},
		{"quote in a two-byte comment", "é \"\n1,2\n3,4\n5,6\n", 4, 'é', 0, ""},
		// But a line inside a quoted field is no comment, whatever it
		// starts with: here its quote closes the field.
		{"comment character inside a field", "1,2\n3,\"\n4\"\n5,6\n7,8\n", 6, '4', 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := strings.HasPrefix(tt.in, "\"a")
			opts := CSVOptions{MaxLineBytes: tt.max, Comment: tt.comment, Header: header}
			// Whole, and a byte at a time: the state carries across reads.
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				_, err := ReadCSV[float64](r, opts)
				if tt.line == 0 {
					if err != nil {
						t.Fatal(err)
					}
					continue
				}
				wantParseError(t, err, ErrLineTooLong, tt.line, 0)
				if !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("error %q does not contain %q", err, tt.msg)
				}
			}
		})
	}
	if _, err := ReadCSV[float64](strings.NewReader("1\n"), CSVOptions{MaxLineBytes: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("MaxLineBytes -1: got %v, want ErrInvalid", err)
	}
}

// TestCSVLongRecordHeldBack reads records longer than the part passed on
// to encoding/csv before their end, through readers that split the input
// every way: the held-back bytes must come out whole and in order.
func TestCSVLongRecordHeldBack(t *testing.T) {
	in := "1," + strings.Repeat("0", 3*passBytes) + "5\n2,\"" + strings.Repeat(" ", passBytes) + "\n3\"\n" +
		"4," + strings.Repeat("0", passBytes) + "6"
	for name, r := range map[string]io.Reader{
		"whole":    strings.NewReader(in),
		"one byte": iotest.OneByteReader(strings.NewReader(in)),
		"half":     iotest.HalfReader(strings.NewReader(in)),
		"data+EOF": iotest.DataErrReader(strings.NewReader(in)),
	} {
		d, err := ReadCSV[float64](r, CSVOptions{LabelColumn: 0, MaxLineBytes: 4 * passBytes})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := []float64{5, 3, 6}; !slices.Equal(d.X, want) || !slices.Equal(d.Y, []int{1, 2, 4}) {
			t.Errorf("%s: X %v, Y %v; want %v, [1 2 4]", name, d.X, d.Y, want)
		}
	}
}

// TestCSVErrorBeforeLongLine checks that a syntax error on a line before a
// line that is too long is reported, although the reader has already met
// the long line when it reads ahead.
func TestCSVErrorBeforeLongLine(t *testing.T) {
	in := "1,2\n3,4\"5\n" + strings.Repeat("6", 200) + "\n"
	_, err := ReadCSV[float64](strings.NewReader(in), CSVOptions{MaxLineBytes: 100})
	wantParseError(t, err, ErrSyntax, 2, 4)
}

// decimalRE is the number syntax of the LIBSVM and CSV formats.
var decimalRE = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// TestIsDecimal compares isDecimal with decimalRE on every string of up to
// five characters over an alphabet that reaches every branch, and checks
// that strconv.ParseFloat reads whatever isDecimal accepts.
func TestIsDecimal(t *testing.T) {
	const alphabet = "09+-.eExp_i"
	var rec func(s []byte)
	n := 0
	rec = func(s []byte) {
		n++
		want := decimalRE.Match(s)
		if got := isDecimal(s); got != want {
			t.Fatalf("isDecimal(%q) = %v, want %v", s, got, want)
		}
		if want {
			if _, err := strconv.ParseFloat(string(s), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
				t.Fatalf("isDecimal accepts %q, which ParseFloat rejects: %v", s, err)
			}
		}
		if len(s) == 5 {
			return
		}
		for i := range len(alphabet) {
			rec(append(s, alphabet[i]))
		}
	}
	rec(nil)
	if n < 100000 {
		t.Fatalf("only %d strings tried", n)
	}
}

// TestParseFloatExact compares parseFloat with strconv.ParseFloat, bit for
// bit, on numbers around the limits of its fast paths (mantissas near 2^53,
// 10^19 and 2^24, exponents near ±22, points halfway between two float32
// values) and on random decimals (a tenth of them in a small run:
// package smalltest).
func TestParseFloatExact(t *testing.T) {
	cases := []string{"0", "-0", "+0.0", "-0.0e5", "0e-400", "-0e400", "1", "-1", "0.1", "0.3", "1e22", "1e23",
		"1e-22", "1e-23", "9007199254740991", "9007199254740992", "9007199254740993", "900719925474099.3",
		"16777216", "16777217", "1677721.7", "1e10", "1e11", "1e-10", "1e-11", "123456789012345678901234567890",
		"4.9e-324", "2.5e-324", "1.7976931348623157e308", "3.4028235e38", "3.4028236e38", "1.4e-45",
		"0.000000000000000000000000000001", "1.00000005960464477550", "7.038531e-26", "5e-1"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range smalltest.N(200000, 20000) {
		var b []byte
		if rng.IntN(2) == 0 {
			b = append(b, "+-"[rng.IntN(2)])
		}
		for range rng.IntN(20) {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		if rng.IntN(2) == 0 {
			b = append(b, '.')
			for range rng.IntN(20) {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
		if rng.IntN(3) == 0 {
			b = append(b, 'e')
			b = strconv.AppendInt(b, int64(rng.IntN(80)-40), 10)
		}
		cases = append(cases, string(b))
	}
	// Points halfway between two float32 values, and decimals close to them
	// on either side (rounded to k significant digits): where the float32
	// fast path must give way to strconv.
	for range smalltest.N(20000, 2000) {
		a := math.Float32frombits(uint32(rng.IntN(0x7f000000-0x00800000) + 0x00800000))
		mid := (float64(a) + float64(math.Nextafter32(a, float32(math.Inf(1))))) / 2
		for _, k := range []int{6, 8, 9, 15, 16, 17, 18, 19, 20, 24, 30, 60} {
			cases = append(cases, strconv.FormatFloat(mid, 'e', k, 64))
		}
	}
	for _, c := range cases {
		sameAsStrconv(t, c)
	}
}

// sameAsStrconv fails unless parseFloat reads s as strconv.ParseFloat does,
// bit for bit, for float32 and float64, where s is a decimal number; for
// anything else parseFloat must fail.
func sameAsStrconv(t *testing.T, s string) {
	t.Helper()
	b := []byte(s)
	for _, bits := range []int{32, 64} {
		want, werr := strconv.ParseFloat(s, bits)
		var got float64
		var err error
		if bits == 32 {
			var g float32
			g, err = parseFloat[float32](b, bits)
			got = float64(g)
		} else {
			got, err = parseFloat[float64](b, bits)
		}
		switch {
		case !decimalRE.MatchString(s):
			if err == nil {
				t.Fatalf("float%d %q: got %v, want an error", bits, s, got)
			}
		case werr != nil && !errors.Is(werr, strconv.ErrRange):
			t.Fatalf("float%d %q: strconv rejects a decimal: %v", bits, s, werr)
		case errors.Is(werr, strconv.ErrRange) && math.IsInf(want, 0):
			if !errors.Is(err, ErrNonFinite) {
				t.Fatalf("float%d %q: got %v, %v; want ErrNonFinite", bits, s, got, err)
			}
		case err != nil:
			t.Fatalf("float%d %q: %v", bits, s, err)
		case math.Float64bits(got) != math.Float64bits(want):
			t.Fatalf("float%d %q: got %v (%#x), want %v (%#x)", bits, s, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// FuzzParseFloat compares parseFloat with strconv.ParseFloat on any string.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0", "-0.5", "1e22", "1.5070602148292787e+23", "9007199254740993",
		"1.000000059604644775390625", "0x1p-3", "1_000", ".5", "5.", "1e", "inf", "3.4028235e38", "7e-46"} {
		f.Add(s)
	}
	f.Fuzz(sameAsStrconv)
}

// TestNumberSyntax checks that the readers take decimal numbers only:
// the Go-only forms strconv.ParseFloat accepts are syntax errors in
// values and labels, NaN and Inf stay non-finite, and strtod's decimal
// forms are read.
func TestNumberSyntax(t *testing.T) {
	tests := []struct {
		value string
		kind  error // nil: valid
		want  float64
	}{
		{"1_000", ErrSyntax, 0},
		{"1_0", ErrSyntax, 0},
		{"0_1", ErrSyntax, 0},
		{"0x1p-3", ErrSyntax, 0},
		{"0X1P0", ErrSyntax, 0},
		{"-0x1.8p1", ErrSyntax, 0},
		{"0x10", ErrSyntax, 0},
		{"1e", ErrSyntax, 0},
		{"1e+", ErrSyntax, 0},
		{".", ErrSyntax, 0},
		{"+", ErrSyntax, 0},
		{"1.2.3", ErrSyntax, 0},
		{"１", ErrSyntax, 0}, // a full-width digit
		{"+nan", ErrNonFinite, 0},
		{"nan", ErrNonFinite, 0},
		{"NaN", ErrNonFinite, 0},
		{"-inf", ErrNonFinite, 0},
		{"+Infinity", ErrNonFinite, 0},
		{"INF", ErrNonFinite, 0},
		{"5", nil, 5},
		{".5", nil, 0.5},
		{"5.", nil, 5},
		{"+1", nil, 1},
		{"-0.25", nil, -0.25},
		{"+.5e-3", nil, 0.5e-3},
		{"1E+2", nil, 100},
		{"007", nil, 7},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			d, err := ReadLIBSVM[float64](strings.NewReader("1 1:"+tt.value+"\n"), LIBSVMOptions{})
			c, cerr := ReadCSV[float64](strings.NewReader("1,"+tt.value+"\n"), CSVOptions{})
			if tt.kind != nil {
				wantParseError(t, err, tt.kind, 1, 5)
				wantParseError(t, cerr, tt.kind, 1, 3)
				return
			}
			if err != nil || cerr != nil {
				t.Fatalf("LIBSVM: %v; CSV: %v", err, cerr)
			}
			if d.X[0] != tt.want || c.X[0] != tt.want {
				t.Fatalf("LIBSVM %v, CSV %v, want %v", d.X[0], c.X[0], tt.want)
			}
		})
	}
}

func TestLabelSyntax(t *testing.T) {
	tests := []struct {
		label string
		ok    bool
		want  int
	}{
		{"+1", true, 1},
		{"-1", true, -1},
		{"3", true, 3},
		{"1.0", true, 1},
		{"-2e0", true, -2},
		{"2.", true, 2},
		{"1_0", false, 0},
		{"0x1p0", false, 0},
		{"0x1p1", false, 0},
		{"1e", false, 0},
		{"inf", false, 0},
		{"nan", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			d, err := ReadLIBSVM[float64](strings.NewReader(tt.label+" 1:1\n"), LIBSVMOptions{})
			c, cerr := ReadCSV[float64](strings.NewReader(tt.label+",1\n"), CSVOptions{})
			if !tt.ok {
				wantParseError(t, err, ErrLabel, 1, 1)
				wantParseError(t, cerr, ErrLabel, 1, 1)
				return
			}
			if err != nil || cerr != nil {
				t.Fatalf("LIBSVM: %v; CSV: %v", err, cerr)
			}
			if d.Y[0] != tt.want || c.Y[0] != tt.want {
				t.Fatalf("LIBSVM %d, CSV %d, want %d", d.Y[0], c.Y[0], tt.want)
			}
		})
	}
}

// unsized hides the Len and Size methods of a reader, as a pipe would.
type unsized struct{ r io.Reader }

func (u unsized) Read(p []byte) (int, error) { return u.r.Read(p) }

// counting counts the bytes read through it, and fails once it has passed
// 1 MiB.
type counting struct {
	r io.Reader
	n int
}

func (c *counting) Read(p []byte) (int, error) {
	if c.n > 1<<20 {
		return 0, errors.New("read too far: the header was not checked")
	}
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestIDXHeaderBounds checks that IDX headers are checked against what the
// input can hold, and against MaxIDXBytes, before the data is read.
func TestIDXHeaderBounds(t *testing.T) {
	// 64 MB of zeros compress to about 64 kB: the header claims 2 GiB,
	// more than 1032 times the compressed size.
	bomb := gzipBytes(t, append(makeIDX(0x08, []uint32{1 << 31}, nil), make([]byte, 64<<20)...))
	honest := gzipBytes(t, append(makeIDX(0x08, []uint32{8 << 20}, nil), make([]byte, 8<<20)...))
	dir := t.TempDir()
	bombPath := filepath.Join(dir, "bomb-idx1-ubyte.gz")
	if err := os.WriteFile(bombPath, bomb, 0o644); err != nil {
		t.Fatal(err)
	}
	hugeHeader := makeIDX(0x08, []uint32{1 << 17, 1 << 17}, nil) // 16 GiB
	tests := []struct {
		name  string
		in    io.Reader
		kind  error
		limit int // bytes it may read from the input
	}{
		{"gzip claiming more than it can hold", bytes.NewReader(bomb), ErrTruncated, 64 << 10},
		{"unsized plain stream over MaxIDXBytes", io.MultiReader(bytes.NewReader(hugeHeader), zeros{}), ErrTooLarge, 64 << 10},
		{"unsized gzip over MaxIDXBytes", unsized{bytes.NewReader(gzipBytes(t, hugeHeader))}, ErrTooLarge, 64 << 10},
		// Stored, not compressed: 10 MB of gzip could decompress to 10.8 GB,
		// so the 9 GiB the header claims passes that check, not MaxIDXBytes.
		{"sized gzip over MaxIDXBytes", bytes.NewReader(gzipStored(t, append(makeIDX(0x08, []uint32{9, 1 << 30}, nil), make([]byte, 10<<20)...))),
			ErrTooLarge, 64 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.in
			read := func() int { return 0 }
			switch in := tt.in.(type) {
			case *bytes.Reader: // count without hiding its size
				n := in.Len()
				read = func() int { return n - in.Len() }
			default:
				c := &counting{r: in}
				r, read = c, func() int { return c.n }
			}
			var err error
			got := memtest.Allocated(func() { _, err = ReadIDX(r) })
			if !errors.Is(err, tt.kind) {
				t.Fatalf("got %v, want %v", err, tt.kind)
			}
			if read() > tt.limit {
				t.Errorf("read %d bytes of input before failing", read())
			}
			if got > 1<<20 {
				t.Errorf("allocated %d bytes before failing", got)
			}
		})
	}
	// LoadIDX knows the file's size too.
	var err error
	if got := memtest.Allocated(func() { _, err = LoadIDX(bombPath) }); !errors.Is(err, ErrTruncated) || got > 1<<20 {
		t.Errorf("LoadIDX: %v after allocating %d bytes, want ErrTruncated after a few", err, got)
	}
	// An honest gzip file, sized or not, still reads.
	for _, r := range []io.Reader{bytes.NewReader(honest), unsized{bytes.NewReader(honest)}} {
		m, err := ReadIDX(r)
		if err != nil || len(m.Data) != 8<<20 {
			t.Fatalf("honest gzip: %v", err)
		}
	}
}

// gzipStored returns b gzip-compressed at level 0 (stored blocks).
func gzipStored(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestIDXPipe checks that a pipe counts as input of unknown size.
func TestIDXPipe(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	go func() {
		pw.Write(makeIDX(0x08, []uint32{1 << 17, 1 << 17}, nil))
		pw.Close()
	}()
	if _, err := ReadIDX(pr); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	if size, ok := inputSize(pr); ok {
		t.Fatalf("inputSize of a pipe = %d, true", size)
	}
}

// TestIDXPlainFileSize checks that a plain file is bounded by its size.
func TestIDXPlainFileSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x-idx1-ubyte")
	if err := os.WriteFile(path, makeIDX(0x08, []uint32{1 << 30}, seq(1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadIDX(path)
	if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "the input holds 1000") {
		t.Fatalf("got %v, want ErrTruncated saying the input holds 1000 bytes", err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(6, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if size, ok := inputSize(f); !ok || size != 8+1000-6 {
		t.Fatalf("inputSize = %d, %v; want %d", size, ok, 8+1000-6)
	}
}
