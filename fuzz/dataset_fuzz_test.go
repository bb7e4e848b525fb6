package fuzz

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// sentinels are the error kinds the dataset readers may report about their
// input; every error they return must wrap one of them.
var sentinels = []error{
	dataset.ErrSyntax, dataset.ErrIndex, dataset.ErrTooManyFeatures, dataset.ErrNonFinite,
	dataset.ErrLabel, dataset.ErrEmpty, dataset.ErrRagged, dataset.ErrTooLarge, dataset.ErrFormat,
	dataset.ErrUnsupported, dataset.ErrTruncated, dataset.ErrMismatch, dataset.ErrInvalid,
	dataset.ErrLineTooLong,
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

// maxFuzzValues keeps dense results small while fuzzing with Cols given:
// LIBSVM input is sparse, so a few bytes can describe a huge matrix.
const maxFuzzValues = 1 << 16

// textBound is what a text reader may allocate in all for n bytes of
// input: twice the documented bound on the dense matrix (DenseRatio bytes
// per byte plus DenseSlack), which leaves as much again for the sparse rows,
// labels and line lengths kept while reading, plus 256 KiB for the read
// buffers.
func textBound(n int) uint64 {
	return 2*(dataset.DenseRatio*uint64(n)+dataset.DenseSlack) + 256<<10
}

// lines splits data into lines without their "\n" or "\r\n". A final
// '\r' without a '\n' after it is part of the last line unless csv is set:
// encoding/csv drops it.
func lines(data []byte, csv bool) [][]byte {
	ls := bytes.Split(data, []byte("\n"))
	for i, l := range ls {
		if i < len(ls)-1 || csv {
			ls[i] = bytes.TrimSuffix(l, []byte("\r"))
		}
	}
	return ls
}

// longestLine returns the length of the longest of lines(data, csv).
func longestLine(data []byte, csv bool) int {
	m := 0
	for _, l := range lines(data, csv) {
		m = max(m, len(l))
	}
	return m
}

func FuzzReadLIBSVM(f *testing.F) {
	f.Add([]byte("+1 1:0.5 3:-2\n-1 2:1e-3\n"), uint8(0), false, uint16(0))
	f.Add([]byte("1 1:1 \r\n0 2:2 # c\n\n3 qid:4 5:6"), uint8(5), true, uint16(0))
	f.Add([]byte("1 3:1 2:1\n"), uint8(0), false, uint16(0))
	f.Add([]byte("1 1:nan\n"), uint8(0), true, uint16(0))
	f.Add([]byte("x 1:1\n"), uint8(0), false, uint16(0))
	f.Add([]byte("1 4:1\n"), uint8(3), false, uint16(0))
	f.Add([]byte("1 99999999999:1\n"), uint8(0), false, uint16(0))
	f.Add([]byte("1 1:1e39\n"), uint8(0), true, uint16(0))
	// The bounds: a big index that sets the width, many rows after a wide
	// one, a line past MaxLineBytes, input without a newline.
	f.Add([]byte("1 1000000000:1\n"), uint8(0), true, uint16(0))
	f.Add([]byte("1 300000:1\n1\n1\n"), uint8(0), false, uint16(0))
	f.Add([]byte("1 1:1\n2 1:0.25 2:0.5 3:0.75\n"), uint8(0), false, uint16(12))
	f.Add(bytes.Repeat([]byte("1"), 300), uint8(0), false, uint16(100))
	// Go-only number syntax: separators, hexadecimal floats, in values and labels.
	f.Add([]byte("1 1:1_000\n"), uint8(0), false, uint16(0))
	f.Add([]byte("1 1:0x1p-3 2:.5 3:5.\n"), uint8(0), true, uint16(0))
	f.Add([]byte("0x1p0 1:1\n1_0 2:2\n"), uint8(0), false, uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, cols uint8, f32 bool, maxLine uint16) {
		// Cols 0 reads with the default rule, bounded by the input's size;
		// otherwise Cols is given with a small MaxValues budget.
		opts := dataset.LIBSVMOptions{Cols: int(cols), MaxLineBytes: int(maxLine)}
		if cols > 0 {
			opts.MaxValues = maxFuzzValues
		}
		if f32 {
			fuzzLIBSVM[float32](t, data, opts)
		} else {
			fuzzLIBSVM[float64](t, data, opts)
		}
	})
}

func fuzzLIBSVM[T kernel.Float](t *testing.T, data []byte, opts dataset.LIBSVMOptions) {
	var d *dataset.Data[T]
	var err error
	got := memtest.Allocated(func() { d, err = dataset.ReadLIBSVM[T](bytes.NewReader(data), opts) })
	if opts.Cols == 0 && got > textBound(len(data)) {
		t.Fatalf("allocated %d bytes for %d bytes of input, more than %d", got, len(data), textBound(len(data)))
	}
	if err != nil {
		if d != nil {
			t.Fatal("data and error both returned")
		}
		checkError(t, err, data, true)
		var pe *dataset.ParseError
		if errors.Is(err, dataset.ErrLineTooLong) && errors.As(err, &pe) && opts.MaxLineBytes > 0 {
			if n := len(lines(data, false)[pe.Line-1]); n <= opts.MaxLineBytes {
				t.Fatalf("error %q, but line %d has %d bytes", err, pe.Line, n)
			}
		}
		return
	}
	checkData(t, d)
	if opts.Cols > 0 && d.Cols != opts.Cols {
		t.Fatalf("Cols = %d, want %d", d.Cols, opts.Cols)
	}
	if opts.MaxValues > 0 && d.Rows*d.Cols > opts.MaxValues {
		t.Fatalf("%dx%d exceeds MaxValues %d", d.Rows, d.Cols, opts.MaxValues)
	}
	size := uint64(len(d.X)) * uint64(unsafe.Sizeof(d.X[0]))
	if opts.Cols == 0 && size > dataset.DenseRatio*uint64(len(data))+dataset.DenseSlack {
		t.Fatalf("%dx%d matrix of %d bytes for %d bytes of input", d.Rows, d.Cols, size, len(data))
	}
	if opts.MaxLineBytes > 0 && longestLine(data, false) > opts.MaxLineBytes {
		t.Fatalf("read a line of %d bytes with MaxLineBytes %d", longestLine(data, false), opts.MaxLineBytes)
	}
	// Writing and reading back must give the same data.
	var buf bytes.Buffer
	if err := dataset.WriteLIBSVM(&buf, d); err != nil {
		t.Fatal(err)
	}
	d2, err := dataset.ReadLIBSVM[T](&buf, dataset.LIBSVMOptions{Cols: d.Cols, MaxValues: max(opts.MaxValues, d.Rows*d.Cols)})
	if err != nil {
		t.Fatalf("re-reading the written data: %v", err)
	}
	if !sameData(d, d2) {
		t.Fatal("write/read round trip changed the data")
	}
}

// FuzzReadLIBSVMSparse reads every input both ways: the sparse reader
// accepts whatever the dense one accepts and the same matrix (and more: rows
// too wide to read dense), fails with the dense reader's error wherever that
// is not a size limit, allocates within its documented bound, and keeps
// MaxValues as a bound on the stored values.
func FuzzReadLIBSVMSparse(f *testing.F) {
	f.Add([]byte("+1 1:0.5 3:-2\n-1 2:1e-3\n"), uint8(0), false, uint16(0), uint8(0))
	f.Add([]byte("1 1:1 \r\n0 2:2 # c\n\n3 qid:4 5:6"), uint8(5), true, uint16(0), uint8(2))
	f.Add([]byte("1 3:1 2:1\n"), uint8(0), false, uint16(0), uint8(0))
	f.Add([]byte("1 1:nan\n"), uint8(0), true, uint16(0), uint8(0))
	f.Add([]byte("1 1000000000:1\n-1 5:0\n"), uint8(0), true, uint16(0), uint8(1))
	f.Add([]byte("1 2147483647:1\n1 2147483648:1\n"), uint8(0), false, uint16(0), uint8(0))
	f.Add([]byte("1 300000:1\n1\n1\n"), uint8(0), false, uint16(0), uint8(0))
	f.Add([]byte("1 1:1\n2 1:0.25 2:0.5 3:0.75\n"), uint8(0), false, uint16(12), uint8(3))
	f.Add([]byte("1 1:0x1p-3 2:.5 3:5.\n"), uint8(0), true, uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, cols uint8, f32 bool, maxLine uint16, maxValues uint8) {
		opts := dataset.LIBSVMOptions{Cols: int(cols), MaxLineBytes: int(maxLine)}
		if f32 {
			fuzzLIBSVMSparse[float32](t, data, opts, int(maxValues))
		} else {
			fuzzLIBSVMSparse[float64](t, data, opts, int(maxValues))
		}
	})
}

func fuzzLIBSVMSparse[T kernel.Float](t *testing.T, data []byte, opts dataset.LIBSVMOptions, maxValues int) {
	var c *dataset.CSR[T]
	var err error
	got := memtest.Allocated(func() { c, err = dataset.ReadLIBSVMSparse[T](bytes.NewReader(data), opts) })
	if bound := uint64(40*len(data) + 256<<10); got > bound {
		t.Fatalf("allocated %d bytes for %d bytes of input, more than %d", got, len(data), bound)
	}
	dopts := opts
	if opts.Cols > 0 {
		dopts.MaxValues = maxFuzzValues
	}
	d, derr := dataset.ReadLIBSVM[T](bytes.NewReader(data), dopts)
	if err != nil {
		if c != nil {
			t.Fatal("data and error both returned")
		}
		checkError(t, err, data, true)
		if derr == nil {
			t.Fatalf("the sparse read fails (%v), the dense read does not", err)
		}
		if !errors.Is(derr, dataset.ErrTooLarge) && derr.Error() != err.Error() {
			t.Fatalf("sparse error %q, dense error %q", err, derr)
		}
		return
	}
	if derr != nil && !errors.Is(derr, dataset.ErrTooLarge) {
		t.Fatalf("the dense read fails (%v), the sparse read does not", derr)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if opts.Cols > 0 && c.Cols != opts.Cols {
		t.Fatalf("Cols = %d, want %d", c.Cols, opts.Cols)
	}
	if c.Bytes() > int64(8*len(data)+16) {
		t.Fatalf("a matrix of %d bytes for %d bytes of input", c.Bytes(), len(data))
	}
	if derr == nil {
		back, err := c.ToDense(-1)
		if err != nil {
			t.Fatal(err)
		}
		if !sameData(back, d) || !parity.SameBits(back.X, d.X) {
			t.Fatal("the sparse read, made dense, differs from the dense read")
		}
	}
	// MaxValues bounds the stored values.
	if maxValues > 0 {
		opts.MaxValues = maxValues
		cm, err := dataset.ReadLIBSVMSparse[T](bytes.NewReader(data), opts)
		switch {
		case err != nil && !errors.Is(err, dataset.ErrTooLarge):
			t.Fatalf("MaxValues %d: %v", maxValues, err)
		case err != nil && c.NNZ() <= maxValues:
			t.Fatalf("MaxValues %d refuses %d stored values: %v", maxValues, c.NNZ(), err)
		case err == nil && c.NNZ() > maxValues:
			t.Fatalf("MaxValues %d accepts %d stored values", maxValues, c.NNZ())
		case err == nil && cm.NNZ() != c.NNZ():
			t.Fatal("MaxValues changed the matrix")
		}
	}
	// Writing and reading back gives the same matrix.
	var buf bytes.Buffer
	if err := dataset.WriteLIBSVMSparse(&buf, c); err != nil {
		t.Fatal(err)
	}
	c2, err := dataset.ReadLIBSVMSparse[T](&buf, dataset.LIBSVMOptions{Cols: c.Cols})
	if err != nil {
		t.Fatalf("re-reading the written data: %v", err)
	}
	if !slices.Equal(c.Ptr, c2.Ptr) || !slices.Equal(c.Idx, c2.Idx) || !slices.Equal(c.Y, c2.Y) ||
		c.Cols != c2.Cols || !slices.Equal(c.Val, c2.Val) {
		t.Fatal("write/read round trip changed the matrix")
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("1,0.5,2\n-1,3,4\n"), int8(0), false, byte(','), false, uint16(0), byte(0))
	f.Add([]byte("a,b,y\r\n0.5,2,+1\r\n3,4,0\r\n"), int8(-1), true, byte(','), true, uint16(0), byte(0))
	f.Add([]byte("1;\"2.5\"; 3\n"), int8(1), false, byte(';'), false, uint16(0), byte(0))
	f.Add([]byte("1,2,3\n4,5\n"), int8(0), false, byte(','), false, uint16(0), byte(0))
	f.Add([]byte("1,\"2\n"), int8(0), false, byte(','), false, uint16(0), byte(0))
	f.Add([]byte("1\tNaN\n"), int8(0), false, byte('\t'), true, uint16(0), byte(0))
	// The line limit: a long line, input without a newline, a record quoted
	// across lines, doubled quotes.
	f.Add([]byte("1,2\n3,4.5e-7\n"), int8(0), false, byte(','), false, uint16(5), byte(0))
	f.Add(bytes.Repeat([]byte("7"), 300), int8(0), false, byte(','), false, uint16(100), byte(0))
	f.Add([]byte("1,\"\n2\n\"\n3,4\n"), int8(0), false, byte(','), false, uint16(6), byte(0))
	f.Add([]byte("\"y\"\"\",x\n1,2\n"), int8(0), true, byte(','), false, uint16(7), byte(0))
	// Comment lines, whose quotes do not count, also with a two-byte
	// comment character (0xE9 is 'é').
	f.Add([]byte("# \"\n1,2\n# x\n3,4\n"), int8(0), false, byte(','), false, uint16(4), byte('#'))
	f.Add([]byte("\xc3\xa9\"\n1,2\n3,\"\n\xc3\xa9\"\n"), int8(0), false, byte(','), false, uint16(6), byte(0xE9))
	// Go-only number syntax.
	f.Add([]byte("1,1_000\n2,0x1p-3\n"), int8(0), false, byte(','), false, uint16(0), byte(0))
	f.Add([]byte("0x1p0,1\n1_0,.5\n3,5.\n"), int8(0), false, byte(','), true, uint16(0), byte(0))
	f.Fuzz(func(t *testing.T, data []byte, label int8, header bool, comma byte, f32 bool, maxLine uint16, comment byte) {
		opts := dataset.CSVOptions{LabelColumn: int(label), Header: header, Comma: rune(comma),
			MaxLineBytes: int(maxLine), Comment: rune(comment)}
		if f32 {
			fuzzCSV[float32](t, data, opts)
		} else {
			fuzzCSV[float64](t, data, opts)
		}
	})
}

func fuzzCSV[T kernel.Float](t *testing.T, data []byte, opts dataset.CSVOptions) {
	var d *dataset.Data[T]
	var err error
	got := memtest.Allocated(func() { d, err = dataset.ReadCSV[T](bytes.NewReader(data), opts) })
	if got > textBound(len(data)) {
		t.Fatalf("allocated %d bytes for %d bytes of input, more than %d", got, len(data), textBound(len(data)))
	}
	if err != nil {
		if d != nil {
			t.Fatal("data and error both returned")
		}
		checkError(t, err, data, true)
		if errors.Is(err, dataset.ErrLineTooLong) && opts.MaxLineBytes > 0 && csvWithin(data, opts) {
			t.Fatalf("error %q, but every record of the input is within %d bytes", err, opts.MaxLineBytes)
		}
		return
	}
	checkData(t, d)
	// Every value takes at least two bytes of input ("0,").
	if size := len(d.X) * int(unsafe.Sizeof(d.X[0])); size > 4*len(data) {
		t.Fatalf("%dx%d matrix of %d bytes for %d bytes of input", d.Rows, d.Cols, size, len(data))
	}
	if opts.MaxLineBytes > 0 && !csvWithin(data, opts) {
		t.Fatalf("read a line or record longer than MaxLineBytes %d", opts.MaxLineBytes)
	}
	// Round trip, for separators that cannot occur in numbers (WriteCSV
	// refuses the others) and label columns that exist.
	opts.Header = false
	opts.MaxLineBytes = 0 // the written numbers may be longer (".5" is "0.5")
	opts.Comment = 0      // WriteCSV ignores it: a line may start with it
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

// csvWithin reports whether encoding/csv reads all of data as opts says
// (separator, comment character) and every line and every record (which
// spans lines inside quotes) is at most opts.MaxLineBytes long, without its
// terminator. Then ReadCSV has no line or record too long.
func csvWithin(data []byte, opts dataset.CSVOptions) bool {
	if longestLine(data, true) > opts.MaxLineBytes {
		return false
	}
	starts := []int{0} // starts[i]: offset of line i+1
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma, cr.Comment = opts.Comma, opts.Comment
	if cr.Comma == 0 {
		cr.Comma = ','
	}
	cr.FieldsPerRecord = -1
	for {
		_, err := cr.Read()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
		line, _ := cr.FieldPos(0)
		end := int(cr.InputOffset())
		rec := data[starts[line-1]:end]
		rec = bytes.TrimSuffix(rec, []byte("\n"))
		rec = bytes.TrimSuffix(rec, []byte("\r"))
		if len(rec) > opts.MaxLineBytes {
			return false
		}
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

// maxDeflateRatio is the most a byte of gzip input can decompress to.
const maxDeflateRatio = 1032

// unsizedReader hides the Len and Size methods of a *bytes.Reader, so that
// ReadIDX cannot tell the input's size, as with a pipe.
type unsizedReader struct{ r io.Reader }

func (u unsizedReader) Read(p []byte) (int, error) { return u.r.Read(p) }

func FuzzReadIDX(f *testing.F) {
	f.Add(idxFile([]uint32{2, 2, 3}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))
	f.Add(idxFile([]uint32{4}, []byte{9, 0, 1, 2}))
	f.Add(idxFile([]uint32{0, 28, 28}, nil))
	f.Add(idxFile([]uint32{1 << 20, 1 << 20}, []byte{1, 2, 3}))
	f.Add(idxFile([]uint32{math.MaxUint32, math.MaxUint32, math.MaxUint32}, nil))
	f.Add([]byte{0, 0, 0x0D, 1, 0, 0, 0, 1, 0, 0, 0, 0})
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0x62, 0x60, 0xe0, 0x60, 0x64, 0x60, 0x60, 0x60, 0x62, 0x64, 0x02, 0x04, 0x00, 0x00, 0xff, 0xff})
	// A small gzip stream whose header claims 2 GiB: 00 00 08 01 80 00 00 00
	// followed by 4 kB of zeros.
	f.Add(gzipped(append(idxFile([]uint32{1 << 31}, nil), make([]byte, 4096)...)))
	f.Fuzz(func(t *testing.T, data []byte) {
		gz := len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
		// What ReadIDX may allocate: about twice the data it reads, plus the
		// read buffer and the gzip decompressor's state. Read from a
		// *bytes.Reader it knows the input's size, so the data is at most
		// the input, or 1032 times it for gzip; unsized, a header can make
		// it start with a buffer of 1 MiB.
		limit := uint64(len(data))
		if gz {
			limit *= maxDeflateRatio
		}
		sized, unsized := 2*limit+512<<10, 2*limit+(1<<20)+512<<10
		var m, mu *dataset.IDX
		var err, erru error
		if got := memtest.Allocated(func() { m, err = dataset.ReadIDX(bytes.NewReader(data)) }); got > sized {
			t.Fatalf("allocated %d bytes for %d bytes of input, more than %d", got, len(data), sized)
		}
		if got := memtest.Allocated(func() { mu, erru = dataset.ReadIDX(unsizedReader{bytes.NewReader(data)}) }); got > unsized {
			t.Fatalf("unsized: allocated %d bytes for %d bytes of input, more than %d", got, len(data), unsized)
		}
		if (err == nil) != (erru == nil) {
			t.Fatalf("sized: %v; unsized: %v", err, erru)
		}
		if err != nil {
			if m != nil || mu != nil {
				t.Fatal("data and error both returned")
			}
			checkError(t, err, data, false)
			checkError(t, erru, data, false)
			return
		}
		if !slices.Equal(m.Dims, mu.Dims) || !bytes.Equal(m.Data, mu.Data) {
			t.Fatal("sized and unsized reads differ")
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
		if gz {
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

// gzipped returns b gzip-compressed.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
