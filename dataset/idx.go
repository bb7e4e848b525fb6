package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// IDX is the content of an IDX file of unsigned bytes, the format of MNIST
// and Fashion-MNIST: an array with the shape Dims, stored row-major in Data
// (len(Data) is the product of Dims).
type IDX struct {
	Dims []int
	Data []byte
}

// idxTypes names the IDX element types (the third byte of the magic number).
var idxTypes = map[byte]string{
	0x08: "unsigned byte", 0x09: "signed byte", 0x0B: "int16",
	0x0C: "int32", 0x0D: "float32", 0x0E: "float64",
}

// idxChunk is the first allocation for IDX data of unknown trustworthiness;
// the buffer then at most doubles with the data actually read.
const idxChunk = 1 << 20

// MaxIDXBytes is the most data ReadIDX accepts from gzip-compressed input
// or from a reader whose size it cannot tell (a pipe): 8 GiB, more than any
// IDX data set published (MNIST's training images take 47 MB), and 32 GiB
// of float32 once LoadIDXPair has converted it. A header announcing more
// fails with ErrTooLarge before any data is read. An uncompressed file, or
// a reader that tells its size, is bounded by that size instead; to read
// more than MaxIDXBytes, decompress the file first.
const MaxIDXBytes int64 = 8 << 30

// maxDeflateRatio bounds how many bytes a gzip (deflate) stream can
// decompress to per byte of it: a 258-byte match is the longest a deflate
// symbol produces, and a length and a distance code take at least a bit
// each, so 8/2 × 258 = 1032.
const maxDeflateRatio = 1032

// ReadIDX reads an IDX file, raw or gzip-compressed (detected by its magic
// bytes). The file starts with the magic number 00 00 08 nd (0x08: unsigned
// bytes; nd: number of dimensions), then nd big-endian uint32 sizes, then
// the data; it must end right after the data.
//
// The sizes in the header are checked before any data is read: against
// the input's size when r tells it (an *os.File of a regular file, a
// *bytes.Reader or *strings.Reader), for gzip input against the 1032 bytes
// a deflate stream can decompress to per byte of it, and for gzip input and
// readers of unknown size against MaxIDXBytes. The data is then read
// incrementally, so a header announcing more than the input holds fails
// with ErrTruncated after allocating at most about twice what was actually
// read (or decompressed).
//
// Errors wrap ErrTruncated (input ends early or cannot hold the data its
// header announces, including a truncated gzip stream), ErrFormat (bad
// magic number, zero dimensions, trailing bytes, corrupt gzip data),
// ErrUnsupported (element types other than unsigned byte) or ErrTooLarge
// (sizes whose product overflows an int or exceeds MaxIDXBytes); errors
// from r itself are passed on.
func ReadIDX(r io.Reader) (*IDX, error) {
	size, sized := inputSize(r)
	r, err := maybeGunzip(r)
	if err != nil {
		return nil, err
	}
	_, gz := r.(gzipErrReader)
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, idxReadError(err, "reading the magic number")
	}
	if head[0] != 0 || head[1] != 0 {
		return nil, errorf(ErrFormat, "idx: bad magic number % x, want 00 00 08 nd", head)
	}
	if head[2] != 0x08 {
		if name, ok := idxTypes[head[2]]; ok {
			return nil, errorf(ErrUnsupported, "idx: element type %s (0x%02X) is not supported, only unsigned byte (0x08)", name, head[2])
		}
		return nil, errorf(ErrFormat, "idx: unknown element type 0x%02X", head[2])
	}
	nd := int(head[3])
	if nd == 0 {
		return nil, errorf(ErrFormat, "idx: zero dimensions")
	}
	sizes := make([]byte, 4*nd)
	if _, err := io.ReadFull(r, sizes); err != nil {
		return nil, idxReadError(err, "reading the dimensions")
	}
	raw := make([]uint32, nd)
	for i := range raw {
		raw[i] = binary.BigEndian.Uint32(sizes[4*i:])
	}
	dims := make([]int, nd)
	n := 1
	for i, d := range raw {
		var ok bool
		if uint64(d) > math.MaxInt {
			ok = false
		} else {
			dims[i] = int(d)
			n, ok = mulOK(n, dims[i])
		}
		if !ok {
			return nil, errorf(ErrTooLarge, "idx: dimensions %v are too large for this platform", raw)
		}
	}
	if err := checkIDXSize(dims, n, 4+4*nd, size, sized, gz); err != nil {
		return nil, err
	}
	data, err := readN(r, n)
	if err != nil {
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errorf(ErrTruncated, "idx: dimensions %v announce %d bytes of data, input ends after %d", dims, n, len(data))
		}
		return nil, idxReadError(err, "reading the data")
	}
	// Read to the end: this also makes the gzip reader verify its checksum.
	var one [1]byte
	switch m, err := io.ReadFull(r, one[:]); {
	case m > 0:
		return nil, errorf(ErrFormat, "idx: trailing bytes after the %d bytes of data", n)
	case err != io.EOF:
		return nil, idxReadError(err, "checking for the end of the data")
	}
	return &IDX{Dims: dims, Data: data}, nil
}

// checkIDXSize checks n bytes of data, announced by dims in a header of
// head bytes, against what the input can hold: size bytes if sized (the
// compressed size if gz), and MaxIDXBytes for gzip or unsized input.
func checkIDXSize(dims []int, n, head int, size int64, sized, gz bool) error {
	switch {
	case sized && !gz && int64(n) > size-int64(head):
		return errorf(ErrTruncated, "idx: dimensions %v announce %d bytes of data, the input holds %d",
			dims, n, max(size-int64(head), 0))
	case sized && gz && int64(n) > maxDeflateRatio*size:
		return errorf(ErrTruncated, "idx: dimensions %v announce %d bytes of data, "+
			"more than the %d bytes of gzip input can hold (%d bytes per byte at most)",
			dims, n, size, maxDeflateRatio)
	case (gz || !sized) && int64(n) > MaxIDXBytes:
		what := "gzip-compressed input"
		if !gz {
			what = "input of unknown size"
		}
		return errorf(ErrTooLarge, "idx: dimensions %v announce %d bytes of data, more than the %d (MaxIDXBytes) "+
			"read from %s; decompress it to a file to read it", dims, n, MaxIDXBytes, what)
	}
	return nil
}

// inputSize returns how many bytes are left to read from r if r can tell:
// a regular *os.File, or a reader with Len and Size methods such as
// *bytes.Reader and *strings.Reader.
func inputSize(r io.Reader) (int64, bool) {
	switch r := r.(type) {
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
			return 0, false // size 0: empty, or a /proc file that does not tell
		}
		off, err := r.Seek(0, io.SeekCurrent)
		if err != nil || off > fi.Size() {
			return 0, false
		}
		return fi.Size() - off, true
	case interface {
		Len() int
		Size() int64
	}:
		return int64(r.Len()), true
	}
	return 0, false
}

// readN reads exactly n bytes, growing its buffer with the data actually
// read rather than trusting n. On a short read it returns what it got and
// io.ErrUnexpectedEOF (or io.EOF if nothing at all was read).
func readN(r io.Reader, n int) ([]byte, error) {
	buf := make([]byte, 0, min(n, idxChunk))
	for {
		m, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if len(buf) == n {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		nb := make([]byte, len(buf), min(n, 2*cap(buf)))
		copy(nb, buf)
		buf = nb
	}
}

// idxReadError classifies an error met while reading an IDX stream.
func idxReadError(err error, what string) error {
	switch {
	case errors.Is(err, ErrTruncated) || errors.Is(err, ErrFormat):
		return err // classified by the gzip layer
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return errorf(ErrTruncated, "idx: unexpected end of input %s", what)
	}
	return err
}

// LoadIDX reads the IDX file at path (raw or gzip-compressed) with ReadIDX.
// Errors name the path; a missing file gives an error wrapping
// fs.ErrNotExist.
func LoadIDX(path string) (*IDX, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // *fs.PathError: wraps fs.ErrNotExist etc. and names the path
	}
	defer f.Close()
	m, err := ReadIDX(f) // ReadIDX decompresses, knowing the file's size
	if err != nil {
		var pe *os.PathError
		if !errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return nil, err
	}
	return m, nil
}

// LoadIDXPair reads an IDX image file (N×d1×d2×... unsigned bytes) and its
// IDX label file (N unsigned bytes) into a Data with N rows: row i holds
// image i's pixels in row-major order (feature index = pixel index), each
// multiplied by scale, and label i. Use scale = 1/255 for features in [0, 1];
// that case is computed as pixel/255, correctly rounded in T, so it matches
// the usual pixel / 255.0 of float64 code exactly.
//
// Besides ReadIDX's errors it reports ErrMismatch (label file not 1-D, or a
// different number of labels than images), ErrEmpty (no images) and
// ErrInvalid (a scale that is not finite or makes 255*scale overflow).
func LoadIDXPair[T kernel.Float](imagesPath, labelsPath string, scale T) (*Data[T], error) {
	if !isFinite(scale) || !isFinite(scale*255) {
		return nil, errorf(ErrInvalid, "idx: invalid pixel scale %v", scale)
	}
	img, err := LoadIDX(imagesPath)
	if err != nil {
		return nil, err
	}
	lab, err := LoadIDX(labelsPath)
	if err != nil {
		return nil, err
	}
	if len(lab.Dims) != 1 {
		return nil, errorf(ErrMismatch, "idx: %s: label file has dimensions %v, want one", labelsPath, lab.Dims)
	}
	rows := img.Dims[0]
	if lab.Dims[0] != rows {
		return nil, errorf(ErrMismatch, "idx: %d images in %s but %d labels in %s", rows, imagesPath, lab.Dims[0], labelsPath)
	}
	if rows == 0 {
		return nil, errorf(ErrEmpty, "idx: %s: no images", imagesPath)
	}
	cols := len(img.Data) / rows
	var table [256]T
	for p := range table {
		if scale == T(1)/T(255) {
			table[p] = T(p) / 255
		} else {
			table[p] = T(p) * scale
		}
	}
	d := &Data[T]{X: Alloc[T](len(img.Data)), Y: make([]int, rows), Rows: rows, Cols: cols}
	for i, p := range img.Data {
		d.X[i] = table[p]
	}
	for i, l := range lab.Data {
		d.Y[i] = int(l)
	}
	return d, nil
}
