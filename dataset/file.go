package dataset

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// gzipMagic is the first two bytes of every gzip stream (RFC 1952).
var gzipMagic = [2]byte{0x1f, 0x8b}

// maybeGunzip returns a reader of r's content, transparently decompressed
// when it starts with the gzip magic number.
func maybeGunzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(head) == 2 && head[0] == gzipMagic[0] && head[1] == gzipMagic[1] {
		zr, err := gzip.NewReader(br)
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errorf(ErrTruncated, "truncated gzip header")
		}
		if err != nil {
			return nil, fmt.Errorf("%w: bad gzip header: %w", ErrFormat, err)
		}
		zr.Multistream(true)
		return gzipErrReader{zr}, nil
	}
	return br, nil
}

// gzipErrReader classifies the errors of a gzip stream: a stream that ends
// early wraps ErrTruncated, corrupt data or a bad checksum wraps ErrFormat.
// Both still wrap the original error too.
type gzipErrReader struct{ r io.Reader }

func (g gzipErrReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = gzipError(err)
	}
	return n, err
}

func gzipError(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: gzip stream: %w", ErrTruncated, err)
	case errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &corrupt):
		return fmt.Errorf("%w: gzip stream: %w", ErrFormat, err)
	}
	return err
}

// DefaultGzipRatio and GzipSlack bound what a gzip-compressed text data
// file (LoadLIBSVM, LoadLIBSVMSparse, LoadCSV) may decompress to: at most
// DefaultGzipRatio bytes per compressed byte read, plus GzipSlack, checked
// as the stream is read. The text readers' own bounds are per byte of text
// (see DenseRatio and ReadLIBSVMSparse), so without this one a gzip file
// would be bounded only by deflate's own limit, 1032 bytes per byte: a
// 255 KB file of repeated lines can decompress to 250 MB of text.
// Compressed LIBSVM and CSV text of real data sets decompresses to 3 to 10
// bytes per byte; more is a file of repeated lines. The options'
// MaxGzipRatio (the rosenblatt command's -gzip-ratio) raises or lifts the
// bound. IDX files have their own (see MaxIDXBytes).
const (
	DefaultGzipRatio = 16
	GzipSlack        = 1 << 20
)

// ErrGzipRatio is wrapped, with ErrTooLarge, by the error for a gzip file
// that decompresses to more than its ratio allows (see DefaultGzipRatio).
var ErrGzipRatio = errors.New("dataset: gzip stream expands past the ratio")

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioReader reads decompressed bytes, failing once they pass ratio times
// the compressed bytes read so far (in) plus GzipSlack.
type ratioReader struct {
	r     io.Reader
	in    *countReader
	out   int64
	ratio int64
}

func (z *ratioReader) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	z.out += int64(n)
	if limit := z.ratio*z.in.n + GzipSlack; z.out > limit {
		return n, &gzipRatioError{fmt.Sprintf("the gzip stream decompresses to more than %d bytes, %d times the %d compressed bytes read plus %d "+
			"(MaxGzipRatio, the command's -gzip-ratio, raises the ratio)", limit, z.ratio, z.in.n, GzipSlack)}
	}
	return n, err
}

// gzipRatioError is the error of ratioReader: ErrTooLarge and
// ErrGzipRatio, with one prefix.
type gzipRatioError struct{ msg string }

func (e *gzipRatioError) Error() string   { return ErrTooLarge.Error() + ": " + e.msg }
func (e *gzipRatioError) Unwrap() []error { return []error{ErrTooLarge, ErrGzipRatio} }

// readFile opens path, decompressing gzip content to at most ratio bytes
// per compressed byte plus GzipSlack (0: DefaultGzipRatio; negative: no
// bound), and calls read on it.
func readFile[R any](path string, ratio int, read func(io.Reader) (R, error)) (R, error) {
	var zero R
	f, err := os.Open(path)
	if err != nil {
		return zero, err // *fs.PathError: wraps fs.ErrNotExist etc. and names the path
	}
	defer f.Close()
	in := &countReader{r: f}
	r, err := maybeGunzip(in)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	if _, gz := r.(gzipErrReader); gz && ratio >= 0 {
		if ratio == 0 {
			ratio = DefaultGzipRatio
		}
		r = &ratioReader{r: r, in: in, ratio: int64(ratio)}
	}
	return read(r)
}

// LoadLIBSVM reads the LIBSVM / SVMlight file at path with ReadLIBSVM; the
// file may be gzip-compressed, to at most opts.MaxGzipRatio bytes of text
// per byte (see DefaultGzipRatio). Errors name the path (opts.File, if set,
// takes precedence); a missing file gives an error wrapping fs.ErrNotExist.
func LoadLIBSVM[T kernel.Float](path string, opts LIBSVMOptions) (*Data[T], error) {
	if opts.File == "" {
		opts.File = path
	}
	return readFile(path, opts.MaxGzipRatio, func(r io.Reader) (*Data[T], error) { return ReadLIBSVM[T](r, opts) })
}

// ScanLIBSVMFile reads the LIBSVM / SVMlight file at path with ScanLIBSVM,
// as LoadLIBSVM does with ReadLIBSVM.
func ScanLIBSVMFile[T kernel.Float](path string, opts LIBSVMOptions, blockRows int, fn func(*Data[T]) error) error {
	if opts.File == "" {
		opts.File = path
	}
	_, err := readFile(path, opts.MaxGzipRatio, func(r io.Reader) (struct{}, error) {
		return struct{}{}, ScanLIBSVM(r, opts, blockRows, fn)
	})
	return err
}

// LoadLIBSVMSparse reads the LIBSVM / SVMlight file at path with
// ReadLIBSVMSparse, as LoadLIBSVM does with ReadLIBSVM.
func LoadLIBSVMSparse[T kernel.Float](path string, opts LIBSVMOptions) (*CSR[T], error) {
	if opts.File == "" {
		opts.File = path
	}
	return readFile(path, opts.MaxGzipRatio, func(r io.Reader) (*CSR[T], error) { return ReadLIBSVMSparse[T](r, opts) })
}

// WriteLIBSVMSparse writes c in LIBSVM format, one row per line, with the
// values c stores (an explicit zero too), each as the shortest decimal
// that parses back to the same T: ReadLIBSVMSparse with
// LIBSVMOptions{Cols: c.Cols} returns c again bit for bit (except that -0
// reads back as +0). It returns an error if c is not valid (see
// CSR.Validate).
func WriteLIBSVMSparse[T kernel.Float](w io.Writer, c *CSR[T]) error {
	if err := c.Validate(); err != nil {
		return err
	}
	bits := bitsOf[T]()
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	for i := range c.Rows {
		b = appendInt(b[:0], c.Y[i])
		r := c.Row(i)
		for k, j := range r.Idx {
			b = append(b, ' ')
			b = appendInt(b, int(j)+1)
			b = append(b, ':')
			b = appendFloat(b, r.Val[k], bits)
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteLIBSVM writes d in LIBSVM format, one row per line, leaving out zero
// values. Each value is written as the shortest decimal that parses back to
// the same T, so ReadLIBSVM with LIBSVMOptions{Cols: d.Cols} returns d again
// bit for bit (except that -0 reads back as +0). It returns an error if d is
// not valid (see Data.Validate).
func WriteLIBSVM[T kernel.Float](w io.Writer, d *Data[T]) error {
	if err := d.Validate(); err != nil {
		return err
	}
	bits := bitsOf[T]()
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	for i := range d.Rows {
		b = appendInt(b[:0], d.Y[i])
		for j, v := range d.Row(i) {
			if v == 0 {
				continue
			}
			b = append(b, ' ')
			b = appendInt(b, j+1)
			b = append(b, ':')
			b = appendFloat(b, v, bits)
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
