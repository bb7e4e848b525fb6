package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc,
// which counts every allocation, whether or not it has been freed since).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

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
		got := allocated(func() { _, err = ReadLIBSVM[float32](strings.NewReader(in), LIBSVMOptions{}) })
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
	got := allocated(func() {
		_, err = ReadLIBSVM[float32](&endless{t: t, c: '1', limit: limit}, LIBSVMOptions{File: "zero"})
	})
	wantParseError(t, err, ErrLineTooLong, 1, 0)
	// The line buffer doubles up to the limit (twice the limit in all),
	// then takes one more copy of it with the last read.
	if got > 4*DefaultMaxLineBytes {
		t.Errorf("LIBSVM: allocated %d bytes for a line limit of %d", got, DefaultMaxLineBytes)
	}
	got = allocated(func() {
		_, err = ReadCSV[float32](&endless{t: t, c: '1', limit: limit}, CSVOptions{File: "zero"})
	})
	wantParseError(t, err, ErrLineTooLong, 1, 0)
	// encoding/csv grows its line buffer by append (1.25 times for large
	// slices, so about 5 times the line in all) and then parses what it
	// has into a record buffer and a string: bounded, but more copies.
	if got > 10*DefaultMaxLineBytes {
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
			got := allocated(func() { _, err = ReadIDX(r) })
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
	if got := allocated(func() { _, err = LoadIDX(bombPath) }); !errors.Is(err, ErrTruncated) || got > 1<<20 {
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
