package dataset

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// wantParseError checks that err is a *ParseError wrapping kind at line:col.
func wantParseError(t *testing.T, err error, kind error, line, col int) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v at %d:%d", kind, line, col)
	}
	if !errors.Is(err, kind) {
		t.Fatalf("error %q does not wrap %v", err, kind)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %q (%T) is not a *ParseError", err, err)
	}
	if pe.Line != line || pe.Col != col {
		t.Fatalf("error %q at %d:%d, want %d:%d", err, pe.Line, pe.Col, line, col)
	}
}

// libsvmErrorCases are malformed LIBSVM inputs and the error each gives,
// for the dense and the sparse reader.
var libsvmErrorCases = []struct {
	name      string
	in        string
	opts      LIBSVMOptions
	f32       bool // read as float32 instead of float64
	kind      error
	line, col int
	msg       string // substring of the message, if not empty
}{
	{"decreasing index", "1 3:1 2:1\n", LIBSVMOptions{}, false, ErrIndex, 1, 7, "1:7: index 2 not increasing (previous 3)"},
	{"duplicate index", "1 3:1 3:2\n", LIBSVMOptions{}, false, ErrIndex, 1, 7, "index 3 not increasing (previous 3)"},
	{"index zero", "1 0:1\n", LIBSVMOptions{}, false, ErrIndex, 1, 3, "indices start at 1"},
	{"index not a number", "1 a:1\n", LIBSVMOptions{}, false, ErrIndex, 1, 3, `index "a"`},
	{"negative index", "1 -1:1\n", LIBSVMOptions{}, false, ErrIndex, 1, 3, ""},
	{"empty index", "1 :1\n", LIBSVMOptions{}, false, ErrIndex, 1, 3, ""},
	{"label not a number", "x 1:1\n", LIBSVMOptions{}, false, ErrLabel, 1, 1, `label "x" is not an integer`},
	{"fractional label", "1.5 1:1\n", LIBSVMOptions{}, false, ErrLabel, 1, 1, ""},
	{"NaN label", "nan 1:1\n", LIBSVMOptions{}, false, ErrLabel, 1, 1, ""},
	{"label is a feature", "1:1 2:1\n", LIBSVMOptions{}, false, ErrLabel, 1, 1, ""},
	{"bad value", "1 1:abc\n", LIBSVMOptions{}, false, ErrSyntax, 1, 5, `value "abc" is not a number`},
	{"missing value", "1 1:\n", LIBSVMOptions{}, false, ErrSyntax, 1, 5, "missing value"},
	{"missing colon", "1 1\n", LIBSVMOptions{}, false, ErrSyntax, 1, 3, "expected index:value"},
	{"two colons", "1 1:2:3\n", LIBSVMOptions{}, false, ErrSyntax, 1, 5, ""},
	{"NaN value", "1 1:nan\n", LIBSVMOptions{}, false, ErrNonFinite, 1, 5, "not finite"},
	{"Inf value", "1 1:1 2:-Inf\n", LIBSVMOptions{}, false, ErrNonFinite, 1, 9, ""},
	{"float64 overflow", "1 1:1e309\n", LIBSVMOptions{}, false, ErrNonFinite, 1, 5, "overflows float64"},
	{"float32 overflow", "1 1:1e39\n", LIBSVMOptions{}, true, ErrNonFinite, 1, 5, "overflows float32"},
	{"index above Cols", "1 3:1\n", LIBSVMOptions{Cols: 2}, false, ErrTooManyFeatures, 1, 3, "exceeds the feature count 2"},
	{"huge index above Cols", "1 99999999999999999999999:1\n", LIBSVMOptions{Cols: 2}, false, ErrTooManyFeatures, 1, 3, ""},
	{"huge index", "1 3000000000:1\n", LIBSVMOptions{}, false, ErrTooLarge, 1, 3, ""},
	{"MaxValues by index", "1 11:1\n", LIBSVMOptions{MaxValues: 10}, false, ErrTooLarge, 1, 3, ""},
	{"MaxValues by rows", "1 5:1\n-1 5:1\n1 5:1\n", LIBSVMOptions{MaxValues: 10}, false, ErrTooLarge, 3, 1, ""},
	{"MaxValues by rows with Cols", "1\n1\n1\n", LIBSVMOptions{Cols: 5, MaxValues: 10}, false, ErrTooLarge, 3, 1, ""},
	{"bad qid", "1 qid:x 1:1\n", LIBSVMOptions{}, false, ErrSyntax, 1, 7, "qid"},
	{"CRLF keeps columns", "1 1:1\r\n2 2:x\r\n", LIBSVMOptions{}, false, ErrSyntax, 2, 5, ""},
	{"stray CR", "1 1:1\r 2:1\n", LIBSVMOptions{}, false, ErrSyntax, 1, 5, ""},
	{"tabs", "1\t2:x\n", LIBSVMOptions{}, false, ErrSyntax, 1, 5, ""},
	{"blank and comment lines count", "\n# c\n1 1:1\n1 1:q", LIBSVMOptions{}, false, ErrSyntax, 4, 5, ""},
	{"file name", "1 3:1 2:1\n", LIBSVMOptions{File: "heart.libsvm"}, false, ErrIndex, 1, 7, "heart.libsvm:1:7: index 2 not increasing (previous 3)"},
	{"empty", "", LIBSVMOptions{}, false, ErrEmpty, 0, 0, "no data rows"},
	{"only comments", "# a\n\n  \n#b 1:2\n", LIBSVMOptions{File: "f"}, false, ErrEmpty, 0, 0, "f: no data rows"},
	{"negative Cols", "1 1:1\n", LIBSVMOptions{Cols: -1}, false, ErrInvalid, 0, 0, ""},
	{"negative MaxValues", "1 1:1\n", LIBSVMOptions{MaxValues: -1}, false, ErrInvalid, 0, 0, ""},
}

func TestReadLIBSVMErrors(t *testing.T) {
	tests := libsvmErrorCases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.f32 {
				_, err = ReadLIBSVM[float32](strings.NewReader(tt.in), tt.opts)
			} else {
				_, err = ReadLIBSVM[float64](strings.NewReader(tt.in), tt.opts)
			}
			wantParseError(t, err, tt.kind, tt.line, tt.col)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
		})
	}
}

func TestReadLIBSVMValid(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opts LIBSVMOptions
		want Data[float64]
	}{
		{"basic", "+1 1:0.5 3:-2\n-1 2:1e-3\n", LIBSVMOptions{},
			Data[float64]{X: []float64{0.5, 0, -2, 0, 1e-3, 0}, Y: []int{1, -1}, Rows: 2, Cols: 3}},
		{"Cols pads", "1 1:1\n2 2:2\n", LIBSVMOptions{Cols: 4},
			Data[float64]{X: []float64{1, 0, 0, 0, 0, 2, 0, 0}, Y: []int{1, 2}, Rows: 2, Cols: 4}},
		{"trailing spaces and no final newline", "1 1:1 \n0 2:2 \t ", LIBSVMOptions{},
			Data[float64]{X: []float64{1, 0, 0, 2}, Y: []int{1, 0}, Rows: 2, Cols: 2}},
		{"CRLF", "1 1:1\r\n0 2:2\r\n", LIBSVMOptions{},
			Data[float64]{X: []float64{1, 0, 0, 2}, Y: []int{1, 0}, Rows: 2, Cols: 2}},
		{"comments and blank lines", "# header\n\n1 1:1 # note 5:x\n   \n0 2:2#c\n", LIBSVMOptions{},
			Data[float64]{X: []float64{1, 0, 0, 2}, Y: []int{1, 0}, Rows: 2, Cols: 2}},
		{"qid skipped", "3 qid:1 1:1\n1 qid:2 2:2\n", LIBSVMOptions{},
			Data[float64]{X: []float64{1, 0, 0, 2}, Y: []int{3, 1}, Rows: 2, Cols: 2}},
		{"row without features", "7\n-3 2:4\n", LIBSVMOptions{},
			Data[float64]{X: []float64{0, 0, 0, 4}, Y: []int{7, -3}, Rows: 2, Cols: 2}},
		{"integral float labels", "1.0 1:1\n-2e0 1:2\n", LIBSVMOptions{},
			Data[float64]{X: []float64{1, 2}, Y: []int{1, -2}, Rows: 2, Cols: 1}},
		{"explicit zero and signs", "1 1:0 2:+3 3:-0.25 4:.5 5:1E2\n", LIBSVMOptions{},
			Data[float64]{X: []float64{0, 3, -0.25, 0.5, 100}, Y: []int{1}, Rows: 1, Cols: 5}},
		{"underflow is zero", "1 1:1e-400\n", LIBSVMOptions{},
			Data[float64]{X: []float64{0}, Y: []int{1}, Rows: 1, Cols: 1}},
		{"MaxValues exactly", "1 5:1\n1 5:1\n", LIBSVMOptions{MaxValues: 10},
			Data[float64]{X: []float64{0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, Y: []int{1, 1}, Rows: 2, Cols: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadLIBSVM[float64](strings.NewReader(tt.in), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Rows != tt.want.Rows || got.Cols != tt.want.Cols ||
				!slices.Equal(got.X, tt.want.X) || !slices.Equal(got.Y, tt.want.Y) {
				t.Fatalf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// TestReadLIBSVMFloat32Rounding checks that float32 values are rounded once,
// from the decimal, not via float64 (double rounding).
func TestReadLIBSVMFloat32Rounding(t *testing.T) {
	// 1.00000005960464477550 is just above the midpoint 1+2^-24 between
	// float32 1 and its successor; rounded to float64 first it lands exactly on
	// the midpoint and then rounds to even (1).
	const s = "1.00000005960464477550"
	d, err := ReadLIBSVM[float32](strings.NewReader("1 1:"+s+"\n"), LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := math.Nextafter32(1, 2)
	if float32(float64(must(strconv.ParseFloat(s, 64)))) != 1 {
		t.Fatal("test value does not show double rounding")
	}
	if d.X[0] != want {
		t.Fatalf("got %v, want %v", d.X[0], want)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestReadLIBSVMLongLine(t *testing.T) {
	const n = 30000 // ~300 kB line, well past the 64 kB read buffer
	var b strings.Builder
	b.WriteString("1")
	for j := 1; j <= n; j++ {
		b.WriteString(" " + strconv.Itoa(j) + ":" + strconv.Itoa(j%7))
	}
	b.WriteString("\n2 7:1\n")
	d, err := ReadLIBSVM[float32](strings.NewReader(b.String()), LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows != 2 || d.Cols != n {
		t.Fatalf("shape %dx%d", d.Rows, d.Cols)
	}
	for j, v := range d.Row(0) {
		if v != float32((j+1)%7) {
			t.Fatalf("X[0][%d] = %v", j, v)
		}
	}
	if d.Row(1)[6] != 1 || d.Y[1] != 2 {
		t.Fatal("second row wrong")
	}
}

func TestReadLIBSVMReaderError(t *testing.T) {
	boom := errors.New("boom")
	_, err := ReadLIBSVM[float64](iotest.ErrReader(boom), LIBSVMOptions{File: "x"})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want it to wrap %v", err, boom)
	}
	// A reader error after some data is reported too, not taken as EOF.
	r := iotestDataThenErr("1 1:1\n", boom)
	if _, err := ReadLIBSVM[float64](r, LIBSVMOptions{}); !errors.Is(err, boom) {
		t.Fatalf("got %v, want it to wrap %v", err, boom)
	}
}

type dataThenErr struct {
	data []byte
	err  error
}

func (r *dataThenErr) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func iotestDataThenErr(s string, err error) *dataThenErr {
	return &dataThenErr{data: []byte(s), err: err}
}

// realFiles lists the copies of /work/shared/data in testdata with their
// shapes, label counts and number of stored (non-zero-index) entries, all
// counted independently with awk and Python.
var realFiles = []struct {
	name       string
	rows, cols int
	counts     map[int]int
	nnz        int
	sum        float64 // sum of all values, computed in float64 by Python
}{
	{"breast_cancer.train.libsvm", 455, 30, map[int]int{-1: 170, 1: 285}, 13596, 847684.122223499},
	{"breast_cancer.test.libsvm", 114, 30, map[int]int{-1: 42, 1: 72}, 3396, 208790.3374121002},
	{"breast_cancer_std.train.libsvm", 455, 30, map[int]int{-1: 170, 1: 285}, 13650, 2.8332891588433995e-13},
	{"breast_cancer_std.test.libsvm", 114, 30, map[int]int{-1: 42, 1: 72}, 3420, 39.198626889320174},
	{"digits.train.libsvm", 1437, 64, map[int]int{0: 142, 1: 146, 2: 142, 3: 146, 4: 145, 5: 145, 6: 145, 7: 143, 8: 139, 9: 144}, 46989, 449368},
	{"digits.test.libsvm", 360, 64, map[int]int{0: 36, 1: 36, 2: 35, 3: 37, 4: 36, 5: 37, 6: 36, 7: 36, 8: 35, 9: 36}, 11747, 112350},
	{"iris.train.libsvm", 120, 4, map[int]int{0: 40, 1: 40, 2: 40}, 480, 1664.8000000000002},
	{"iris.test.libsvm", 30, 4, map[int]int{0: 10, 1: 10, 2: 10}, 120, 413.9000000000002},
	{"heart_scale.libsvm", 270, 13, map[int]int{1: 120, -1: 150}, 3378, -666.4008602999996},
}

func TestRealLIBSVMFiles(t *testing.T) {
	for _, f := range realFiles {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join("testdata", f.name)
			d, err := LoadLIBSVM[float64](path, LIBSVMOptions{Cols: f.cols})
			if err != nil {
				t.Fatal(err)
			}
			if d.Rows != f.rows || d.Cols != f.cols || len(d.X) != f.rows*f.cols || len(d.Y) != f.rows {
				t.Fatalf("shape %dx%d, len(X) %d, len(Y) %d", d.Rows, d.Cols, len(d.X), len(d.Y))
			}
			if got := d.ClassCounts(); !mapsEqual(got, f.counts) {
				t.Errorf("class counts %v, want %v", got, f.counts)
			}
			if err := d.Validate(); err != nil {
				t.Error(err)
			}
			// The sum is order-dependent in the last bits: allow n*eps*sum|x|.
			var sum, abs float64
			for _, v := range d.X {
				sum += v
				abs += math.Abs(v)
			}
			if bound := float64(len(d.X)) * 0x1p-52 * abs; math.Abs(sum-f.sum) > bound {
				t.Errorf("sum %v, want %v ± %g", sum, f.sum, bound)
			}
			// Inferring Cols gives the same here: every file uses its last feature.
			d2, err := LoadLIBSVM[float64](path, LIBSVMOptions{})
			if err != nil || d2.Cols != f.cols || !slices.Equal(d2.X, d.X) {
				t.Errorf("inferred Cols: %v, cols %d", err, d2.Cols)
			}
			// float32 reading rounds each value to float32 once.
			d32, err := LoadLIBSVM[float32](path, LIBSVMOptions{Cols: f.cols})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range d32.X {
				if v != float32(d.X[i]) {
					t.Fatalf("float32 X[%d] = %v, want %v", i, v, float32(d.X[i]))
				}
			}
		})
	}
}

// TestRealLIBSVMNonzeros counts the stored entries by writing the data back:
// WriteLIBSVM leaves zeros out, like the original writer did, except where
// the original stored explicit zeros.
func TestRealLIBSVMNonzeros(t *testing.T) {
	for _, f := range realFiles {
		d, err := LoadLIBSVM[float64](filepath.Join("testdata", f.name), LIBSVMOptions{Cols: f.cols})
		if err != nil {
			t.Fatal(err)
		}
		nz := 0
		for _, v := range d.X {
			if v != 0 {
				nz++
			}
		}
		if nz > f.nnz {
			t.Errorf("%s: %d non-zero values but only %d stored entries", f.name, nz, f.nnz)
		}
	}
}

func TestIrisFirstRow(t *testing.T) {
	d, err := LoadLIBSVM[float32]("testdata/iris.train.libsvm", LIBSVMOptions{Cols: 4})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{4.8, 3, 1.4, 0.3}; !slices.Equal(d.Row(0), want) || d.Y[0] != 0 {
		t.Fatalf("row 0 = %v label %d, want %v label 0", d.Row(0), d.Y[0], want)
	}
}

func TestHeartScaleErrorPosition(t *testing.T) {
	// Corrupt line 12 of heart_scale ("-1 2:1 3:1 ..."): make its first index 5.
	raw := readTestdata(t, "heart_scale.libsvm")
	lines := strings.SplitAfter(string(raw), "\n")
	lines[11] = strings.Replace(lines[11], " 2:", " 5:", 1)
	_, err := ReadLIBSVM[float64](strings.NewReader(strings.Join(lines, "")), LIBSVMOptions{File: "heart.libsvm", Cols: 13})
	col := strings.Index(lines[11], " 3:") + 2 // 1-based column of "3:"
	wantParseError(t, err, ErrIndex, 12, col)
	want := "heart.libsvm:12:" + strconv.Itoa(col) + ": index 3 not increasing (previous 5)"
	if err.Error() != want {
		t.Fatalf("got %q, want %q", err, want)
	}
}

func TestLoadLIBSVMMissing(t *testing.T) {
	_, err := LoadLIBSVM[float64]("testdata/no-such-file.libsvm", LIBSVMOptions{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want fs.ErrNotExist", err)
	}
}

func TestLoadLIBSVMGzip(t *testing.T) {
	raw := readTestdata(t, "iris.test.libsvm")
	path := filepath.Join(t.TempDir(), "iris.libsvm.gz")
	writeGzip(t, path, raw)
	got, err := LoadLIBSVM[float64](path, LIBSVMOptions{Cols: 4})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadLIBSVM[float64](bytes.NewReader(raw), LIBSVMOptions{Cols: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.X, want.X) || !slices.Equal(got.Y, want.Y) {
		t.Fatal("gzip and raw differ")
	}
}

// randomData returns a data set with a mix of zeros, tiny, huge, negative
// and ordinary values.
func randomData[T float32 | float64](rng *rand.Rand, rows, cols int) *Data[T] {
	d := &Data[T]{X: make([]T, rows*cols), Y: make([]int, rows), Rows: rows, Cols: cols}
	for i := range d.X {
		switch rng.IntN(6) {
		case 0: // zero
		case 1:
			d.X[i] = T(rng.NormFloat64())
		case 2:
			d.X[i] = T(rng.NormFloat64() * 1e30)
		case 3:
			d.X[i] = T(rng.NormFloat64() * 1e-30)
		case 4:
			d.X[i] = T(rng.IntN(256))
		case 5:
			d.X[i] = T(math.Float64frombits(rng.Uint64()))
			if !isFinite(d.X[i]) {
				d.X[i] = 1
			}
		}
		if d.X[i] == 0 {
			d.X[i] = 0 // no -0: LIBSVM leaves zeros out, so -0 reads back as +0
		}
	}
	for i := range d.Y {
		d.Y[i] = rng.IntN(21) - 10
	}
	return d
}

func TestLIBSVMRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	t.Run("float32", func(t *testing.T) { roundTripLIBSVM(t, randomData[float32](rng, 50, 17)) })
	t.Run("float64", func(t *testing.T) { roundTripLIBSVM(t, randomData[float64](rng, 50, 17)) })
	for _, f := range realFiles {
		d, err := LoadLIBSVM[float64](filepath.Join("testdata", f.name), LIBSVMOptions{Cols: f.cols})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f.name, func(t *testing.T) { roundTripLIBSVM(t, d) })
	}
}

func roundTripLIBSVM[T float32 | float64](t *testing.T, d *Data[T]) {
	t.Helper()
	orig := d.Clone()
	var buf bytes.Buffer
	if err := WriteLIBSVM(&buf, d); err != nil {
		t.Fatal(err)
	}
	if !dataEqual(d, orig) {
		t.Fatal("WriteLIBSVM modified its input")
	}
	got, err := ReadLIBSVM[T](&buf, LIBSVMOptions{Cols: d.Cols})
	if err != nil {
		t.Fatal(err)
	}
	if !dataEqual(got, d) {
		t.Fatal("round trip changed the data")
	}
}

// dataEqual compares shapes, labels and the bits of every value (so -0 and
// +0 differ, as they would after a lossy round trip).
func dataEqual[T float32 | float64](a, b *Data[T]) bool {
	if a.Rows != b.Rows || a.Cols != b.Cols || !slices.Equal(a.Y, b.Y) || len(a.X) != len(b.X) {
		return false
	}
	for i := range a.X {
		if math.Float64bits(float64(a.X[i])) != math.Float64bits(float64(b.X[i])) {
			return false
		}
	}
	return true
}

func TestWriteLIBSVMInvalid(t *testing.T) {
	tests := []struct {
		name string
		d    *Data[float64]
		kind error
	}{
		{"short X", &Data[float64]{X: []float64{1}, Y: []int{1}, Rows: 1, Cols: 2}, ErrMismatch},
		{"short Y", &Data[float64]{X: []float64{1, 2}, Y: nil, Rows: 1, Cols: 2}, ErrMismatch},
		{"NaN", &Data[float64]{X: []float64{1, math.NaN()}, Y: []int{1}, Rows: 1, Cols: 2}, ErrNonFinite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteLIBSVM(&buf, tt.d); !errors.Is(err, tt.kind) {
				t.Fatalf("got %v, want %v", err, tt.kind)
			}
			if buf.Len() != 0 {
				t.Fatal("wrote output for invalid data")
			}
		})
	}
}
