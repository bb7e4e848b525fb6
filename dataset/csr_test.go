package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
)

// sameDense reports whether a and b have the same shape, labels and value
// bits.
func sameDense[T float32 | float64](a, b *Data[T]) bool {
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

func TestReadLIBSVMSparseErrors(t *testing.T) {
	for _, tt := range libsvmErrorCases {
		if strings.HasPrefix(tt.name, "MaxValues") {
			continue // a sparse read's MaxValues counts stored values: below
		}
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.f32 {
				_, err = ReadLIBSVMSparse[float32](strings.NewReader(tt.in), tt.opts)
			} else {
				_, err = ReadLIBSVMSparse[float64](strings.NewReader(tt.in), tt.opts)
			}
			wantParseError(t, err, tt.kind, tt.line, tt.col)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
		})
	}
	// MaxValues bounds the stored values of a sparse read.
	_, err := ReadLIBSVMSparse[float64](strings.NewReader("1 1:1 7:1\n1 qid:3 3:1\n"), LIBSVMOptions{MaxValues: 2})
	wantParseError(t, err, ErrTooLarge, 2, 9)
	if c, err := ReadLIBSVMSparse[float64](strings.NewReader("1 1:1 7:1\n1 qid:3\n"), LIBSVMOptions{MaxValues: 2}); err != nil || c.NNZ() != 2 {
		t.Fatalf("two stored values with MaxValues 2: %v", err)
	}
}

// sparseInputs are valid LIBSVM texts, with the options to read them.
var sparseInputs = []struct {
	in   string
	opts LIBSVMOptions
}{
	{"+1 1:0.5 3:-2\n-1 2:1e-3\n", LIBSVMOptions{}},
	{"1 1:1\n2 2:2\n", LIBSVMOptions{Cols: 4}},
	{"1 1:1 \n0 2:2 \t ", LIBSVMOptions{}},
	{"# header\n\n1 1:1 # note 5:x\n   \n0 2:2#c\n", LIBSVMOptions{}},
	{"3 qid:1 1:1\n1 qid:2 2:2\n", LIBSVMOptions{}},
	{"7\n-3 2:4\n", LIBSVMOptions{}},
	{"7\n-3\n", LIBSVMOptions{}},
	{"1 1:0 2:+3 3:-0.25 4:.5 5:1E2\n", LIBSVMOptions{}},
	{"1 1:-0 2:1e-400\n", LIBSVMOptions{}},
	{"1 5:1\n1 5:1\n", LIBSVMOptions{MaxValues: 10}},
}

// TestReadLIBSVMSparseMatchesDense reads every input both ways: the CSR,
// made dense, is the dense read bit for bit, and stores exactly the values
// the text does.
func TestReadLIBSVMSparseMatchesDense(t *testing.T) {
	check := func(t *testing.T, in []byte, opts LIBSVMOptions) {
		t.Helper()
		d, err := ReadLIBSVM[float64](bytes.NewReader(in), opts)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ReadLIBSVMSparse[float64](bytes.NewReader(in), opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		stored := 0
		for _, line := range strings.Split(string(in), "\n") {
			line, _, _ = strings.Cut(line, "#")
			stored += strings.Count(line, ":") - strings.Count(line, "qid:")
		}
		if c.NNZ() != stored {
			t.Errorf("NNZ = %d, the text stores %d", c.NNZ(), stored)
		}
		back, err := c.ToDense(0)
		if err != nil {
			t.Fatal(err)
		}
		if !sameDense(back, d) {
			t.Fatalf("ToDense of the sparse read differs from the dense read:\n%+v\n%+v", back, d)
		}
		c32, err := ReadLIBSVMSparse[float32](bytes.NewReader(in), opts)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c32.Val {
			if v != float32(c.Val[k]) {
				t.Fatalf("float32 value %d = %v, want %v", k, v, float32(c.Val[k]))
			}
		}
	}
	for i, tt := range sparseInputs {
		t.Run(fmt.Sprint(i), func(t *testing.T) { check(t, []byte(tt.in), tt.opts) })
	}
	for _, f := range realFiles {
		t.Run(f.name, func(t *testing.T) {
			in := readTestdata(t, f.name)
			check(t, in, LIBSVMOptions{})
			check(t, in, LIBSVMOptions{Cols: f.cols + 3})
		})
	}
}

// TestReadLIBSVMSparseWide reads what the dense reader refuses: rows of a
// billion features, a few values each, in memory the size of the input.
func TestReadLIBSVMSparseWide(t *testing.T) {
	in := "1 1000000000:1\n-1 3:2 70000000:-1\n"
	if _, err := ReadLIBSVM[float32](strings.NewReader(in), LIBSVMOptions{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("dense read: %v, want ErrTooLarge", err)
	}
	var c *CSR[float32]
	var err error
	alloc := memtest.Allocated(func() { c, err = ReadLIBSVMSparse[float32](strings.NewReader(in), LIBSVMOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if alloc > 256<<10 {
		t.Errorf("allocated %d bytes for %d bytes of input", alloc, len(in))
	}
	if c.Rows != 2 || c.Cols != 1000000000 || c.NNZ() != 3 ||
		!slices.Equal(c.Ptr, []int{0, 1, 3}) || !slices.Equal(c.Idx, []int32{999999999, 2, 69999999}) ||
		!slices.Equal(c.Val, []float32{1, 2, -1}) || !slices.Equal(c.Y, []int{1, -1}) {
		t.Fatalf("got %+v", *c)
	}
	if _, err := c.ToDense(0); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ToDense: %v, want ErrTooLarge", err)
	}
	// The largest index CSR can hold.
	c, err = ReadLIBSVMSparse[float32](strings.NewReader("1 2147483647:1\n"), LIBSVMOptions{})
	if err != nil || c.Cols != math.MaxInt32 || c.Idx[0] != math.MaxInt32-1 {
		t.Fatalf("index 2³¹−1: %v", err)
	}
}

// TestReadLIBSVMSparseMemory reads a text-like file (2²⁰ features, 12
// values a row) and checks the documented bounds: the matrix holds at most
// 8 bytes per byte of input, and the read allocates at most 40 per byte
// plus the line buffer.
func TestReadLIBSVMSparseMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "%d", i%20)
		j := 0
		for range 12 {
			j += 1 + rng.IntN(1<<16)
			fmt.Fprintf(&b, " %d:%.4g", j, rng.Float64())
		}
		b.WriteByte('\n')
	}
	b.WriteString("1\n1\n1\n1\n") // rows without values: the densest case
	in := b.String()
	var c *CSR[float64]
	var err error
	alloc := memtest.Allocated(func() { c, err = ReadLIBSVMSparse[float64](strings.NewReader(in), LIBSVMOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if c.Rows != 20004 || c.NNZ() != 240000 {
		t.Fatalf("%d rows, %d values", c.Rows, c.NNZ())
	}
	if got, bound := c.Bytes(), int64(8*len(in)); got > bound {
		t.Errorf("the matrix holds %d bytes, more than 8 per byte of input (%d)", got, bound)
	}
	if bound := uint64(40*len(in) + 256<<10); alloc > bound {
		t.Errorf("allocated %d bytes for %d bytes of input, more than %d", alloc, len(in), bound)
	}
	t.Logf("%d bytes of input: matrix %d bytes, %d allocated", len(in), c.Bytes(), alloc)
}

func TestCSRDenseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shape := range [][2]int{{1, 1}, {3, 7}, {50, 33}, {10, 1}} {
		rows, cols := shape[0], shape[1]
		d := &Data[float32]{X: make([]float32, rows*cols), Y: make([]int, rows), Rows: rows, Cols: cols}
		nz := 0
		for i := range d.X {
			switch rng.IntN(4) {
			case 0:
				d.X[i] = float32(rng.NormFloat64())
				nz++
			case 1:
				d.X[i] = float32(math.Copysign(0, -1)) // −0 is a zero: not stored
			}
		}
		for i := range d.Y {
			d.Y[i] = rng.IntN(5) - 2
		}
		c, err := FromDense(d)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		if c.NNZ() != nz {
			t.Fatalf("%dx%d: NNZ %d, want %d", rows, cols, c.NNZ(), nz)
		}
		back, err := c.ToDense(0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range d.X {
			if back.X[i] != d.X[i] { // −0 comes back as +0, which compares equal
				t.Fatalf("%dx%d: value %d is %v, want %v", rows, cols, i, back.X[i], d.X[i])
			}
		}
		if !slices.Equal(back.Y, d.Y) || back.Rows != rows || back.Cols != cols {
			t.Fatalf("%dx%d: shape or labels changed", rows, cols)
		}
		back.Y[0]++ // ToDense copies the labels
		if c.Y[0] == back.Y[0] {
			t.Fatal("ToDense shares its labels with the CSR")
		}
		c64 := ConvertCSR[float64](c)
		for k, v := range c64.Val {
			if float32(v) != c.Val[k] {
				t.Fatal("ConvertCSR changed a value")
			}
		}
	}
	if _, err := FromDense(&Data[float64]{X: []float64{math.NaN()}, Y: []int{1}, Rows: 1, Cols: 1}); !errors.Is(err, ErrNonFinite) {
		t.Fatalf("FromDense of a NaN: %v", err)
	}
}

func TestCSRToDenseLimit(t *testing.T) {
	c := &CSR[float64]{Ptr: []int{0, 1, 1}, Idx: []int32{4}, Val: []float64{2}, Y: []int{1, 2}, Rows: 2, Cols: 5}
	if _, err := c.ToDense(9); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ToDense(9) of 2×5: %v", err)
	}
	d, err := c.ToDense(10)
	if err != nil || !slices.Equal(d.X, []float64{0, 0, 0, 0, 2, 0, 0, 0, 0, 0}) {
		t.Fatalf("ToDense(10): %v %v", d, err)
	}
	if _, err := c.ToDense(-1); err != nil {
		t.Fatalf("ToDense(-1): %v", err)
	}
	huge := &CSR[float64]{Ptr: []int{0, 0, 0}, Y: []int{1, 2}, Rows: 2, Cols: math.MaxInt32}
	if _, err := huge.ToDense(0); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ToDense of 2×(2³¹−1): %v", err)
	}
}

func TestCSRValidate(t *testing.T) {
	ok := func() *CSR[float64] {
		return &CSR[float64]{Ptr: []int{0, 2, 3}, Idx: []int32{0, 2, 1}, Val: []float64{1, 2, 3}, Y: []int{1, -1}, Rows: 2, Cols: 3}
	}
	if err := ok().Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(c *CSR[float64])
		kind   error
	}{
		{"negative rows", func(c *CSR[float64]) { c.Rows = -1 }, ErrMismatch},
		{"short Ptr", func(c *CSR[float64]) { c.Ptr = c.Ptr[:2] }, ErrMismatch},
		{"Ptr not from 0", func(c *CSR[float64]) { c.Ptr[0] = 1 }, ErrMismatch},
		{"Ptr end", func(c *CSR[float64]) { c.Ptr[2] = 2 }, ErrMismatch},
		{"Ptr decreasing", func(c *CSR[float64]) { c.Ptr[1] = 4 }, ErrMismatch},
		{"Idx and Val", func(c *CSR[float64]) { c.Val = c.Val[:2] }, ErrMismatch},
		{"labels", func(c *CSR[float64]) { c.Y = c.Y[:1] }, ErrMismatch},
		{"index not increasing", func(c *CSR[float64]) { c.Idx[1] = 0 }, ErrIndex},
		{"index at Cols", func(c *CSR[float64]) { c.Idx[1] = 3 }, ErrIndex},
		{"negative index", func(c *CSR[float64]) { c.Idx[2] = -1 }, ErrIndex},
		{"NaN", func(c *CSR[float64]) { c.Val[2] = math.NaN() }, ErrNonFinite},
		{"Inf", func(c *CSR[float64]) { c.Val[0] = math.Inf(-1) }, ErrNonFinite},
	}
	for _, tt := range tests {
		c := ok()
		tt.change(c)
		if err := c.Validate(); !errors.Is(err, tt.kind) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.kind)
		}
		var buf bytes.Buffer
		if err := WriteLIBSVMSparse(&buf, c); !errors.Is(err, tt.kind) {
			t.Errorf("%s: WriteLIBSVMSparse: %v, want %v", tt.name, err, tt.kind)
		}
	}
}

func TestCSRRowAndSlice(t *testing.T) {
	c, err := ReadLIBSVMSparse[float64](strings.NewReader("1 1:1 3:3\n2\n3 2:5\n4 1:7 2:8 3:9\n"), LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Row(0)
	if !slices.Equal(r.Idx, []int32{0, 2}) || !slices.Equal(r.Val, []float64{1, 3}) || r.NNZ() != 2 {
		t.Fatalf("row 0: %+v", r)
	}
	_ = append(r.Val, 99) // capacity capped: the next row is untouched
	if c.Val[2] != 5 {
		t.Fatal("appending to a row overwrote the next one")
	}
	if r := c.Row(1); r.NNZ() != 0 {
		t.Fatalf("row 1: %+v", r)
	}
	s := c.Slice(1, 4)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Rows != 3 || !slices.Equal(s.Ptr, []int{0, 0, 1, 4}) || !slices.Equal(s.Y, []int{2, 3, 4}) ||
		!slices.Equal(s.Row(2).Val, []float64{7, 8, 9}) {
		t.Fatalf("Slice(1, 4): %+v", *s)
	}
	for _, f := range []func(){func() { c.Row(4) }, func() { c.Row(-1) }, func() { c.Slice(2, 1) }, func() { c.Slice(0, 5) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic on a bad row range")
				}
			}()
			f()
		}()
	}
}

func TestWriteLIBSVMSparseRoundTrip(t *testing.T) {
	inputs := map[string][]byte{"explicit zeros": []byte("1 1:0 4:2.5\n-1 2:0\n")}
	for _, f := range realFiles {
		inputs[f.name] = readTestdata(t, f.name)
	}
	for name, in := range inputs {
		c, err := ReadLIBSVMSparse[float32](bytes.NewReader(in), LIBSVMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteLIBSVMSparse(&buf, c); err != nil {
			t.Fatal(err)
		}
		c2, err := ReadLIBSVMSparse[float32](&buf, LIBSVMOptions{Cols: c.Cols})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.Ptr, c2.Ptr) || !slices.Equal(c.Idx, c2.Idx) || !slices.Equal(c.Val, c2.Val) ||
			!slices.Equal(c.Y, c2.Y) || c.Rows != c2.Rows || c.Cols != c2.Cols {
			t.Fatalf("%s: the round trip changed the matrix", name)
		}
	}
}

func TestLoadLIBSVMSparse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "h.libsvm.gz")
	writeGzip(t, path, readTestdata(t, "heart_scale.libsvm"))
	c, err := LoadLIBSVMSparse[float64](path, LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Rows != 270 || c.Cols != 13 || c.NNZ() != 3378 {
		t.Fatalf("%dx%d, %d values", c.Rows, c.Cols, c.NNZ())
	}
	_, err = LoadLIBSVMSparse[float64](filepath.Join(dir, "missing"), LIBSVMOptions{})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestCSRCheckShape(t *testing.T) {
	ok := func() *CSR[float64] {
		return &CSR[float64]{Ptr: []int{0, 2, 3}, Idx: []int32{0, 2, 1}, Val: []float64{1, 2, 3}, Y: []int{1, -1}, Rows: 2, Cols: 3}
	}
	tests := []struct {
		name   string
		change func(c *CSR[float64]) *CSR[float64]
		bad    bool
	}{
		{"valid", func(c *CSR[float64]) *CSR[float64] { return c }, false},
		{"nil", func(*CSR[float64]) *CSR[float64] { return nil }, true},
		{"negative rows", func(c *CSR[float64]) *CSR[float64] { c.Rows = -1; return c }, true},
		{"rows beyond Ptr", func(c *CSR[float64]) *CSR[float64] { c.Ptr = []int{0, 1}; return c }, true},
		{"Ptr not from 0", func(c *CSR[float64]) *CSR[float64] { c.Ptr[0] = 1; return c }, true},
		{"Ptr end", func(c *CSR[float64]) *CSR[float64] { c.Ptr[2] = 2; return c }, true},
		{"Ptr beyond Idx", func(c *CSR[float64]) *CSR[float64] { c.Ptr[1] = 100; return c }, true},
		{"Ptr decreasing", func(c *CSR[float64]) *CSR[float64] { c.Ptr[1] = 0; c.Ptr[0] = 0; c.Ptr = []int{0, 3, 2}; return c }, true},
		{"Idx and Val", func(c *CSR[float64]) *CSR[float64] { c.Val = c.Val[:2]; return c }, true},
		// Not shape: left to Validate and SparseRow.Check.
		{"labels", func(c *CSR[float64]) *CSR[float64] { c.Y = nil; return c }, false},
		{"index at Cols", func(c *CSR[float64]) *CSR[float64] { c.Idx[1] = 3; return c }, false},
		{"NaN", func(c *CSR[float64]) *CSR[float64] { c.Val[2] = math.NaN(); return c }, false},
	}
	for _, tt := range tests {
		c := tt.change(ok())
		err := c.CheckShape()
		if tt.bad != (err != nil) || (err != nil && !errors.Is(err, ErrMismatch)) {
			t.Errorf("%s: CheckShape = %v, want an error wrapping ErrMismatch: %v", tt.name, err, tt.bad)
		}
		if tt.bad {
			if err := c.Validate(); !errors.Is(err, ErrMismatch) {
				t.Errorf("%s: Validate = %v, want ErrMismatch", tt.name, err)
			}
		}
	}
}

// TestReadLIBSVMDirect reads each real file dense with and without the
// feature count: with it the reader parses straight into the rows of the
// matrix (growing it row by row), without it through sparse rows; both
// must give the same matrix, and an index above the count must still be
// refused. Each file is read as it is and repeated to fill several of
// the direct read's chunks of rows.
func TestReadLIBSVMDirect(t *testing.T) {
	for _, f := range realFiles {
		t.Run(f.name, func(t *testing.T) {
			one := readTestdata(t, f.name)
			for _, in := range [][]byte{one, bytes.Repeat(one, 3*directChunk/(f.rows*f.cols)+1)} {
				testReadLIBSVMDirect(t, in)
			}
		})
	}
}

func testReadLIBSVMDirect(t *testing.T, in []byte) {
	t.Helper()
	want, err := ReadLIBSVM[float64](bytes.NewReader(in), LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadLIBSVM[float64](bytes.NewReader(in), LIBSVMOptions{Cols: want.Cols})
	if err != nil {
		t.Fatal(err)
	}
	if !sameDense(got, want) || len(got.X) != cap(got.X) {
		t.Fatalf("%d rows read with Cols %d differ from the read without (or have spare capacity)", want.Rows, want.Cols)
	}
	if _, err := ReadLIBSVM[float64](bytes.NewReader(in), LIBSVMOptions{Cols: want.Cols - 1}); !errors.Is(err, ErrTooManyFeatures) {
		t.Fatalf("Cols %d below the largest index: err = %v, want ErrTooManyFeatures", want.Cols-1, err)
	}
}

// TestScanLIBSVM reads each real file (and the file repeated) in blocks
// of several sizes: the blocks, put together, are ReadLIBSVM's matrix with
// the same Cols; an error of the callback stops the read and is returned;
// a malformed line is reported after the blocks before it.
func TestScanLIBSVM(t *testing.T) {
	for _, f := range realFiles {
		one := readTestdata(t, f.name)
		in := bytes.Repeat(one, 5)
		want, err := ReadLIBSVM[float64](bytes.NewReader(in), LIBSVMOptions{Cols: f.cols + 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range []int{1, 7, 256, 100000} {
			var x []float64
			var y []int
			err := ScanLIBSVM(bytes.NewReader(in), LIBSVMOptions{Cols: f.cols + 2}, block, func(d *Data[float64]) error {
				if d.Rows < 1 || d.Rows > block || d.Cols != f.cols+2 || len(d.X) != d.Rows*d.Cols || len(d.Y) != d.Rows {
					t.Fatalf("%s, blocks of %d: a block of %d rows, %d columns, %d values, %d labels", f.name, block, d.Rows, d.Cols, len(d.X), len(d.Y))
				}
				x, y = append(x, d.X...), append(y, d.Y...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := (&Data[float64]{X: x, Y: y, Rows: len(y), Cols: f.cols + 2}); !sameDense(got, want) {
				t.Fatalf("%s, blocks of %d: the blocks differ from ReadLIBSVM's matrix", f.name, block)
			}
		}
		stop := errors.New("stop")
		calls := 0
		if err := ScanLIBSVM(bytes.NewReader(in), LIBSVMOptions{Cols: f.cols}, 10, func(*Data[float64]) error { calls++; return stop }); err != stop || calls != 1 {
			t.Fatalf("%s: a callback's error: err = %v after %d calls, want stop after 1", f.name, err, calls)
		}
		bad := append(slices.Clip(in), "1 1:x\n"...)
		rows := 0
		err = ScanLIBSVM(bytes.NewReader(bad), LIBSVMOptions{Cols: f.cols}, 64, func(d *Data[float64]) error { rows += d.Rows; return nil })
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrSyntax) || pe.Line != bytes.Count(in, []byte{'\n'})+1 || rows != want.Rows/64*64 {
			t.Fatalf("%s: a bad last line: err = %v after %d rows", f.name, err, rows)
		}
	}
	// The bound is per block: more rows than MaxValues/Cols stream, in
	// blocks that fit it, and a huge blockRows asks for no more than it.
	long := strings.Repeat("1 1:1 4:2\n-1 2:3\n", 40)
	for _, block := range []int{5, math.MaxInt / 3, math.MaxInt} {
		rows := 0
		err := ScanLIBSVM(strings.NewReader(long), LIBSVMOptions{Cols: 4, MaxValues: 100}, block, func(d *Data[float64]) error {
			if len(d.X) > 100 || cap(d.X) > 100 {
				t.Fatalf("blocks of %d: a block of %d values (capacity %d) past MaxValues 100", block, len(d.X), cap(d.X))
			}
			rows += d.Rows
			return nil
		})
		if err != nil || rows != 80 {
			t.Fatalf("blocks of %d, 80 rows of 4 under MaxValues 100: %d rows, err = %v", block, rows, err)
		}
	}
	if err := ScanLIBSVM(strings.NewReader("1 1:1\n"), LIBSVMOptions{Cols: 8, MaxValues: 4}, 10, func(*Data[float64]) error { return nil }); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a row of 8 under MaxValues 4: err = %v, want ErrTooLarge", err)
	}
	if err := ScanLIBSVM(strings.NewReader("1 1:1\n"), LIBSVMOptions{}, 10, func(*Data[float64]) error { return nil }); !errors.Is(err, ErrInvalid) {
		t.Fatalf("without Cols: err = %v, want ErrInvalid", err)
	}
}
