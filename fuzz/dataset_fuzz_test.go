package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// sentinels are the error kinds the dataset readers may report about their
// input; every error they return must wrap one of them.
var sentinels = []error{
	dataset.ErrSyntax, dataset.ErrIndex, dataset.ErrTooManyFeatures, dataset.ErrNonFinite,
	dataset.ErrLabel, dataset.ErrEmpty, dataset.ErrRagged, dataset.ErrTooLarge, dataset.ErrFormat,
	dataset.ErrUnsupported, dataset.ErrTruncated, dataset.ErrMismatch, dataset.ErrInvalid,
}

// checkError fails unless err wraps exactly one sentinel (and, for the text
// readers, is a *ParseError with a sane position).
func checkError(t *testing.T, err error, input []byte, text bool) {
	t.Helper()
	n := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("error %q wraps %d sentinels, want 1", err, n)
	}
	if err.Error() == "" {
		t.Fatal("empty error message")
	}
	if !text {
		return
	}
	var pe *dataset.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %q (%T) is not a *ParseError", err, err)
	}
	lines := bytes.Count(input, []byte("\n")) + 1
	if pe.Line < 0 || pe.Line > lines || pe.Col < 0 || (pe.Line == 0 && pe.Col != 0) {
		t.Fatalf("error %q: position %d:%d outside the input (%d lines)", err, pe.Line, pe.Col, lines)
	}
	if pe.Line > 0 && pe.Col > 0 {
		line := bytes.Split(input, []byte("\n"))[pe.Line-1]
		if pe.Col > len(line)+1 {
			t.Fatalf("error %q: column %d beyond the line's %d bytes", err, pe.Col, len(line))
		}
	}
}

// checkData fails unless d is a consistent, non-empty, finite data set.
func checkData[T kernel.Float](t *testing.T, d *dataset.Data[T]) {
	t.Helper()
	if d == nil || d.Rows <= 0 || d.Cols < 0 || len(d.X) != d.Rows*d.Cols || len(d.Y) != d.Rows {
		t.Fatalf("inconsistent data: %+v", d)
	}
	for i, v := range d.X {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			t.Fatalf("X[%d] = %v", i, v)
		}
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
}

// sameData compares shapes, labels and values; zero compares equal to -0,
// because the text formats may drop the sign of zero.
func sameData[T kernel.Float](a, b *dataset.Data[T]) bool {
	if a.Rows != b.Rows || a.Cols != b.Cols || len(a.X) != len(b.X) || len(a.Y) != len(b.Y) {
		return false
	}
	for i := range a.Y {
		if a.Y[i] != b.Y[i] {
			return false
		}
	}
	for i := range a.X {
		if a.X[i] != b.X[i] {
			return false
		}
	}
	return true
}

// maxFuzzValues keeps dense results small while fuzzing: LIBSVM input is
// sparse, so a few bytes can describe a huge matrix.
const maxFuzzValues = 1 << 16

func FuzzReadLIBSVM(f *testing.F) {
	f.Add([]byte("+1 1:0.5 3:-2\n-1 2:1e-3\n"), uint8(0), false)
	f.Add([]byte("1 1:1 \r\n0 2:2 # c\n\n3 qid:4 5:6"), uint8(5), true)
	f.Add([]byte("1 3:1 2:1\n"), uint8(0), false)
	f.Add([]byte("1 1:nan\n"), uint8(0), true)
	f.Add([]byte("x 1:1\n"), uint8(0), false)
	f.Add([]byte("1 4:1\n"), uint8(3), false)
	f.Add([]byte("1 99999999999:1\n"), uint8(0), false)
	f.Add([]byte("1 1:1e39\n"), uint8(0), true)
	f.Fuzz(func(t *testing.T, data []byte, cols uint8, f32 bool) {
		opts := dataset.LIBSVMOptions{Cols: int(cols), MaxValues: maxFuzzValues}
		if f32 {
			fuzzLIBSVM[float32](t, data, opts)
		} else {
			fuzzLIBSVM[float64](t, data, opts)
		}
	})
}

func fuzzLIBSVM[T kernel.Float](t *testing.T, data []byte, opts dataset.LIBSVMOptions) {
	d, err := dataset.ReadLIBSVM[T](bytes.NewReader(data), opts)
	if err != nil {
		if d != nil {
			t.Fatal("data and error both returned")
		}
		checkError(t, err, data, true)
		return
	}
	checkData(t, d)
	if opts.Cols > 0 && d.Cols != opts.Cols {
		t.Fatalf("Cols = %d, want %d", d.Cols, opts.Cols)
	}
	if d.Rows*d.Cols > opts.MaxValues {
		t.Fatalf("%dx%d exceeds MaxValues %d", d.Rows, d.Cols, opts.MaxValues)
	}
	// Writing and reading back must give the same data.
	var buf bytes.Buffer
	if err := dataset.WriteLIBSVM(&buf, d); err != nil {
		t.Fatal(err)
	}
	d2, err := dataset.ReadLIBSVM[T](&buf, dataset.LIBSVMOptions{Cols: d.Cols, MaxValues: opts.MaxValues})
	if err != nil {
		t.Fatalf("re-reading the written data: %v", err)
	}
	if !sameData(d, d2) {
		t.Fatal("write/read round trip changed the data")
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("1,0.5,2\n-1,3,4\n"), int8(0), false, byte(','), false)
	f.Add([]byte("a,b,y\r\n0.5,2,+1\r\n3,4,0\r\n"), int8(-1), true, byte(','), true)
	f.Add([]byte("1;\"2.5\"; 3\n"), int8(1), false, byte(';'), false)
	f.Add([]byte("1,2,3\n4,5\n"), int8(0), false, byte(','), false)
	f.Add([]byte("1,\"2\n"), int8(0), false, byte(','), false)
	f.Add([]byte("1\tNaN\n"), int8(0), false, byte('\t'), true)
	f.Fuzz(func(t *testing.T, data []byte, label int8, header bool, comma byte, f32 bool) {
		opts := dataset.CSVOptions{LabelColumn: int(label), Header: header, Comma: rune(comma)}
		if f32 {
			fuzzCSV[float32](t, data, opts)
		} else {
			fuzzCSV[float64](t, data, opts)
		}
	})
}

func fuzzCSV[T kernel.Float](t *testing.T, data []byte, opts dataset.CSVOptions) {
	d, err := dataset.ReadCSV[T](bytes.NewReader(data), opts)
	if err != nil {
		if d != nil {
			t.Fatal("data and error both returned")
		}
		checkError(t, err, data, true)
		return
	}
	checkData(t, d)
	// Round trip, for separators that cannot occur in numbers (WriteCSV
	// refuses the others) and label columns that exist.
	opts.Header = false
	var buf bytes.Buffer
	if err := dataset.WriteCSV(&buf, d, opts); err != nil {
		if !errors.Is(err, dataset.ErrInvalid) {
			t.Fatalf("WriteCSV: %v", err)
		}
		return
	}
	d2, err := dataset.ReadCSV[T](&buf, opts)
	if err != nil {
		t.Fatalf("re-reading the written data: %v\n%q", err, buf.String())
	}
	if !sameData(d, d2) {
		t.Fatal("write/read round trip changed the data")
	}
}

// idxFile builds an IDX file of unsigned bytes.
func idxFile(dims []uint32, data []byte) []byte {
	b := []byte{0, 0, 8, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, data...)
}

func FuzzReadIDX(f *testing.F) {
	f.Add(idxFile([]uint32{2, 2, 3}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))
	f.Add(idxFile([]uint32{4}, []byte{9, 0, 1, 2}))
	f.Add(idxFile([]uint32{0, 28, 28}, nil))
	f.Add(idxFile([]uint32{1 << 20, 1 << 20}, []byte{1, 2, 3}))
	f.Add(idxFile([]uint32{math.MaxUint32, math.MaxUint32, math.MaxUint32}, nil))
	f.Add([]byte{0, 0, 0x0D, 1, 0, 0, 0, 1, 0, 0, 0, 0})
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0x62, 0x60, 0xe0, 0x60, 0x64, 0x60, 0x60, 0x60, 0x62, 0x64, 0x02, 0x04, 0x00, 0x00, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := dataset.ReadIDX(bytes.NewReader(data))
		if err != nil {
			if m != nil {
				t.Fatal("data and error both returned")
			}
			checkError(t, err, data, false)
			return
		}
		n := 1
		for _, d := range m.Dims {
			if d < 0 {
				t.Fatalf("negative dimension in %v", m.Dims)
			}
			n *= d
		}
		if len(m.Dims) == 0 || n != len(m.Data) {
			t.Fatalf("dims %v but %d bytes", m.Dims, len(m.Data))
		}
		if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
			return // gzip: the decompressed bytes are not the input
		}
		// Raw input that reads successfully is exactly header + data.
		dims := make([]uint32, len(m.Dims))
		for i, d := range m.Dims {
			dims[i] = uint32(d)
		}
		if !bytes.Equal(idxFile(dims, m.Data), data) {
			t.Fatal("re-encoded IDX differs from the input")
		}
	})
}
