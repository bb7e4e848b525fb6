// Package modelfile is the envelope every binary model file of the module
// shares, whatever the model kind: the 40-byte header, the labels, the
// CRC-32C checksum, the bounded reading of a body and the size of a file
// from its first bytes, plus the sections more than one kind stores (the
// kernel function, arrays of the element type) and the common fields of the
// JSON form. A package that stores a model kind writes only its body: it
// registers a Family (its kinds and the size of their body) and encodes and
// decodes the body with Writer and Reader.
//
// # Layout
//
//	offset size  field
//	0      8     magic "RBLTPCPT"
//	8      2     format version (2; 1 is read too; 3 for what 2 cannot hold)
//	10     1     element size in bytes: 4 (float32) or 8 (float64)
//	11     1     model kind (the Family that registered it decodes the body)
//	12     1     algorithm (the family's)
//	13     1     flags (the family's)
//	14     2     reserved, 0
//	16     4     D, features per sample, 1 ≤ D ≤ 2³⁰
//	20     4     L, number of labels, 2 ≤ L ≤ 2²⁴
//	24     4     M, a count the family defines (vectors, support vectors)
//	28     4     reserved, 0
//	32     8     a float64 parameter the family defines (the perceptron's η)
//	40     8·L   labels, int64
//	then the body, as the family defines it
//	end-4  4     CRC-32C (Castagnoli) of every byte before it
//
// Integers are little-endian. The kinds registered so far: 1–3 the linear
// models and 16–18 the kernel perceptrons (package perceptron), 32–34 the
// kernel SVMs and 40–41 the linear SVMs (package svm; version 2 only), 49–51
// the quantised linear models (package quant).
//
// # Errors
//
// The functions report a bad file with an error wrapping one of the
// sentinels the caller passes in Errors (its own ErrCorrupt, ErrVersion and
// ErrMismatch), so that the errors of every package that reads model files
// keep their own sentinels and messages.
package modelfile

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/pages"
)

// The envelope's constants.
const (
	Magic      = "RBLTPCPT" // the first bytes of every file
	Version    = 2          // the format version written by default; 1 is read too
	Newest     = 4          // the newest version read, written only for what version 2 cannot hold
	HeaderSize = 40         // bytes before the labels
	SumSize    = 4          // the checksum's bytes, at the end
	MaxDims    = 1 << 30    // most features per sample
	MaxLabels  = 1 << 24    // most labels
)

var le = binary.LittleEndian

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC-32C of b, the checksum of a file whose bytes
// before the checksum are b.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// Errors are the sentinels a package's model-file errors wrap.
type Errors struct {
	Corrupt  error // a truncated, modified or inconsistent file
	Version  error // a format version this code does not read
	Mismatch error // a valid file for another receiver (element type, kind)
}

// Corruptf returns an error wrapping e.Corrupt with the message.
func (e Errors) Corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", e.Corrupt, fmt.Sprintf(format, args...))
}

// Mismatchf returns an error wrapping e.Mismatch with the message.
func (e Errors) Mismatchf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", e.Mismatch, fmt.Sprintf(format, args...))
}

// CheckVersion accepts the format versions this code reads (1 to
// Newest); another is an error wrapping e.Version. A family checks which of
// them its kinds use.
func (e Errors) CheckVersion(v int) error {
	if v < 1 || v > Newest {
		return fmt.Errorf("%w: version %d (this package reads 1 to %d)", e.Version, v, Newest)
	}
	return nil
}

// Header is the fixed part of a file.
type Header struct {
	Version   int     // format version (New writes it if above Version, else Version)
	ElemSize  int     // 4 or 8
	Kind      byte    // model kind
	Algorithm byte    // the family's
	Flags     byte    // the family's
	Dims      int     // D
	Labels    int     // L
	Count     int     // M
	Param     float64 // the family's float64 parameter
}

// ElemBits returns 8·ElemSize: 32 or 64.
func (h *Header) ElemBits() int { return 8 * h.ElemSize }

// Family is a set of model kinds one decoder reads, as registered with
// Register.
type Family struct {
	// Name describes the family in errors: "a kernel model (kind 16)".
	Name string
	// Kinds are the kind bytes of the family.
	Kinds []byte
	// BodySize adds to sz the length of the body (the bytes between the
	// labels and the checksum) of a file with header h, or reports a
	// header the family's decoder rejects. body holds the first bytes of
	// the body at hand (possibly none). If the length depends on bytes
	// past len(body), BodySize returns need, the number of body bytes it
	// must see (more than len(body), and never more than the body of a
	// file with that header), and need not add anything.
	BodySize func(e Errors, h *Header, body []byte, sz *Sizer) (need uint64, err error)
}

var (
	famMu    sync.RWMutex
	families [256]*Family
)

// Register makes a family known to EncodedSize and Lookup. It panics if one
// of its kinds is registered already (kinds are one namespace for the
// module's files) or if BodySize is nil.
func Register(f *Family) {
	famMu.Lock()
	defer famMu.Unlock()
	if f.BodySize == nil {
		panic("modelfile: Register of a family without BodySize")
	}
	for _, k := range f.Kinds {
		if g := families[k]; g != nil {
			panic(fmt.Sprintf("modelfile: kind %d registered by %s and %s", k, g.Name, f.Name))
		}
		families[k] = f
	}
}

// Lookup returns the family of a kind, or nil if none registered it.
func Lookup(kind byte) *Family {
	famMu.RLock()
	defer famMu.RUnlock()
	return families[kind]
}

// Otherwise returns the error a decoder of family own gives for a file of
// kind k: ErrMismatch if another family registered k, else ErrCorrupt.
func (e Errors) Otherwise(own *Family, k byte) error {
	if f := Lookup(k); f != nil && f != own {
		return e.Mismatchf("a %s model (kind %d), not a %s one", f.Name, k, own.Name)
	}
	return e.Corruptf("unknown model kind %d", k)
}

// parseFixed decodes the fixed header of b (len(b) ≥ HeaderSize) and checks
// the fields every family shares: magic, version, element size, reserved
// bytes, D and L.
func (e Errors) parseFixed(b []byte) (Header, error) {
	var h Header
	if string(b[:len(Magic)]) != Magic {
		return h, e.badMagic(b)
	}
	h.Version = int(le.Uint16(b[8:]))
	if err := e.CheckVersion(h.Version); err != nil {
		return h, err
	}
	h.ElemSize, h.Kind, h.Algorithm, h.Flags = int(b[10]), b[11], b[12], b[13]
	h.Dims = int(le.Uint32(b[16:]))
	h.Labels = int(le.Uint32(b[20:]))
	h.Count = int(le.Uint32(b[24:]))
	h.Param = math.Float64frombits(le.Uint64(b[32:]))
	switch {
	case h.ElemSize != 4 && h.ElemSize != 8:
		return h, e.Corruptf("element size %d", h.ElemSize)
	case b[14] != 0 || b[15] != 0 || le.Uint32(b[28:]) != 0:
		return h, e.Corruptf("reserved header bytes are not zero")
	case h.Dims < 1 || h.Dims > MaxDims:
		return h, e.Corruptf("%d features", h.Dims)
	case h.Labels < 2 || h.Labels > MaxLabels:
		return h, e.Corruptf("%d labels", h.Labels)
	}
	return h, nil
}

func (e Errors) badMagic(b []byte) error {
	return e.Corruptf("bad magic %q (not a rosenblatt perceptron model)", b[:len(Magic)])
}

// Open checks the envelope of a whole file: its length, magic, version and
// checksum, then the header fields every family shares (element size,
// reserved bytes, D, L). It returns the header and a Reader over the rest of
// the file before the checksum (the labels, then the body). Errors wrap
// e.Corrupt or e.Version.
func (e Errors) Open(data []byte) (Header, *Reader, error) {
	if len(data) < HeaderSize+SumSize {
		return Header{}, nil, e.Corruptf("%d bytes, shorter than a header", len(data))
	}
	if string(data[:len(Magic)]) != Magic {
		return Header{}, nil, e.badMagic(data)
	}
	if err := e.CheckVersion(int(le.Uint16(data[8:]))); err != nil {
		return Header{}, nil, err
	}
	body := len(data) - SumSize
	if want, got := le.Uint32(data[body:]), Checksum(data[:body]); want != got {
		return Header{}, nil, e.Corruptf("checksum %08x, the data gives %08x (truncated or modified)", want, got)
	}
	h, err := e.parseFixed(data)
	if err != nil {
		return h, nil, err
	}
	return h, &Reader{e: e, p: data[HeaderSize:body]}, nil
}

// EncodedSize returns the length in bytes of the model file that begins
// with prefix, as its header (and, for some kinds, the first bytes of its
// body) implies it, so that a reader can reject a bad file from its first
// bytes and then read no more of it than that. When prefix is too short to
// tell, it returns size 0 and need > len(prefix), the number of leading
// bytes it must see (HeaderSize for an empty prefix; never more than the
// file's size). Errors wrap e.Corrupt (a bad magic, header fields no decoder
// accepts, a kind no family registered, a size beyond an int64) or
// e.Version. The checksum and the body are the decoders' to check.
func (e Errors) EncodedSize(prefix []byte) (size, need int64, err error) {
	if len(prefix) < HeaderSize {
		if len(prefix) >= len(Magic) && string(prefix[:len(Magic)]) != Magic {
			return 0, 0, e.badMagic(prefix)
		}
		return 0, HeaderSize, nil
	}
	h, err := e.parseFixed(prefix)
	if err != nil {
		return 0, 0, err
	}
	f := Lookup(h.Kind)
	if f == nil {
		return 0, 0, e.Corruptf("unknown model kind %d", h.Kind)
	}
	var sz Sizer
	sz.Add(HeaderSize, 1)
	sz.Add(uint64(h.Labels), 8)
	start := sz.N // ≤ 40 + 8·2²⁴
	var body []byte
	if uint64(len(prefix)) > start {
		body = prefix[start:]
	}
	more, err := f.BodySize(e, &h, body, &sz)
	if err != nil {
		return 0, 0, err
	}
	if more > 0 {
		return 0, int64(start + more), nil
	}
	sz.Add(SumSize, 1)
	if sz.Over {
		return 0, 0, e.Corruptf("the header implies more than 2^63 bytes")
	}
	return int64(sz.N), 0, nil
}

// Sizer sums count·size terms in uint64, remembering an overflow past
// math.MaxInt64 (a hostile header can ask for more than 2⁶⁴ bytes).
type Sizer struct {
	N    uint64 // the sum
	Over bool   // a term or the sum exceeded math.MaxInt64
}

// Mul returns a·b, or marks the overflow.
func (s *Sizer) Mul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo > math.MaxInt64 {
		s.Over = true
	}
	return lo
}

// Add adds count·size to the sum.
func (s *Sizer) Add(count, size uint64) {
	t := s.Mul(count, size)
	s.N += t
	if s.N < t || s.N > math.MaxInt64 {
		s.Over = true
	}
}

// Float is the element type of a model.
type Float interface{ ~float32 | ~float64 }

// ElemSize returns the size of T in bytes.
func ElemSize[T Float]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// ElemName returns "float32" for size 4, "float64" otherwise.
func ElemName(size int) string {
	if size == 4 {
		return "float32"
	}
	return "float64"
}

// Writer builds a file: New writes the header and the labels, the body is
// appended with its methods, and Finish appends the checksum.
type Writer struct {
	b []byte
}

// New starts a file of header h (of version h.Version if it is above
// Version, else Version: a file takes a newer version only for a field the
// older lacks; L is len(labels)) with room for body more bytes, in a
// buffer whose pages are populated at once (pages.Make: a text model's
// dense weights make files of tens of megabytes, which would otherwise
// fault in page by page as they are written).
func New(h Header, labels []int, body int) *Writer {
	w := &Writer{b: pages.Make[byte](HeaderSize + 8*len(labels) + max(body, 0) + SumSize)[:0]}
	w.b = append(w.b, Magic...)
	w.b = le.AppendUint16(w.b, uint16(max(h.Version, Version)))
	w.b = append(w.b, byte(h.ElemSize), h.Kind, h.Algorithm, h.Flags, 0, 0)
	w.b = le.AppendUint32(w.b, uint32(h.Dims))
	w.b = le.AppendUint32(w.b, uint32(len(labels)))
	w.b = le.AppendUint32(w.b, uint32(h.Count))
	w.b = le.AppendUint32(w.b, 0)
	w.b = le.AppendUint64(w.b, math.Float64bits(h.Param))
	for _, l := range labels {
		w.U64(uint64(int64(l)))
	}
	return w
}

// U32 appends v.
func (w *Writer) U32(v uint32) { w.b = le.AppendUint32(w.b, v) }

// U64 appends v.
func (w *Writer) U64(v uint64) { w.b = le.AppendUint64(w.b, v) }

// F64 appends v.
func (w *Writer) F64(v float64) { w.U64(math.Float64bits(v)) }

// Bytes appends p.
func (w *Writer) Bytes(p []byte) { w.b = append(w.b, p...) }

// Finish appends the checksum and returns the file.
func (w *Writer) Finish() []byte {
	w.b = le.AppendUint32(w.b, Checksum(w.b))
	return w.b
}

// Elems appends the values of v in T's size.
//
// On a little-endian machine the values' bytes are the file's: they are
// copied at once (a text model's dense weights are tens of megabytes).
func Elems[T Float](w *Writer, v []T) {
	es := ElemSize[T]()
	if nativeLE {
		w.b = append(w.b, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*es)...)
		return
	}
	elemsLE(w, v)
}

// elemsLE is Elems value by value, for any byte order.
func elemsLE[T Float](w *Writer, v []T) {
	for _, x := range v {
		if ElemSize[T]() == 4 {
			w.b = le.AppendUint32(w.b, math.Float32bits(float32(x)))
		} else {
			w.b = le.AppendUint64(w.b, math.Float64bits(float64(x)))
		}
	}
}

// nativeLE reports whether the machine stores integers little-endian, as
// the files do.
var nativeLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Reader walks the labels and body of a file opened by Open, checking each
// size against the bytes left before anything is allocated. After an error
// every read returns nil or zero and Err reports the first error.
type Reader struct {
	e   Errors
	p   []byte
	err error
}

// Take returns the next count·size bytes, or nil (and sets the error) if
// fewer are left.
func (r *Reader) Take(count, size uint64, what string) []byte {
	if r.err != nil {
		return nil
	}
	if size != 0 && count > uint64(len(r.p))/size {
		r.err = r.e.Corruptf("%d %s do not fit in the %d bytes left (truncated)", count, what, len(r.p))
		return nil
	}
	n := count * size
	out := r.p[:n:n]
	r.p = r.p[n:]
	return out
}

// Labels reads n int64 labels.
func (r *Reader) Labels(n int) []int {
	p := r.Take(uint64(n), 8, "labels")
	if p == nil {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		v := int64(le.Uint64(p[8*i:]))
		if int64(int(v)) != v {
			r.err = r.e.Corruptf("label %d does not fit an int", v)
			return nil
		}
		out[i] = int(v)
	}
	return out
}

// U32 reads a uint32.
func (r *Reader) U32() uint32 {
	if p := r.Take(1, 4, "bytes"); p != nil {
		return le.Uint32(p)
	}
	return 0
}

// U64 reads a uint64.
func (r *Reader) U64() uint64 {
	if p := r.Take(1, 8, "bytes"); p != nil {
		return le.Uint64(p)
	}
	return 0
}

// Err returns the first error of the reads.
func (r *Reader) Err() error { return r.err }

// Close returns the first error of the reads, or an error if bytes are
// left after the body.
func (r *Reader) Close() error {
	if r.err == nil && len(r.p) != 0 {
		r.err = r.e.Corruptf("%d bytes after the model (padded)", len(r.p))
	}
	return r.err
}

// Decode returns the values of p, stored in size bytes each (4 or 8), as T.
func Decode[T Float](p []byte, size int) []T {
	v := make([]T, len(p)/size)
	for i := range v {
		if size == 4 {
			v[i] = T(math.Float32frombits(le.Uint32(p[4*i:])))
		} else {
			v[i] = T(math.Float64frombits(le.Uint64(p[8*i:])))
		}
	}
	return v
}

// U32s returns the values of p as uint32s.
func U32s(p []byte) []uint32 {
	v := make([]uint32, len(p)/4)
	for i := range v {
		v[i] = le.Uint32(p[4*i:])
	}
	return v
}

// wrapCorrupt returns err wrapped with e.Corrupt too.
func (e Errors) wrapCorrupt(err error) error { return fmt.Errorf("%w: %w", e.Corrupt, err) }
