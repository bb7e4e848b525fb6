package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/internal/bounded"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/quant"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// DefaultMaxBytes is the limit Options.MaxBytes takes when zero: 1 GiB
// holds some 50 million values of a JSON model printed in full precision,
// or a binary model of 130 million float64 values.
const DefaultMaxBytes int64 = 1 << 30

// Options are the limits of reading a model file. The zero value reads
// under DefaultMaxBytes.
type Options struct {
	// MaxBytes bounds a JSON file, and a binary file read from a pipe, a
	// device or any reader that is not a regular file: a longer one, or a
	// binary header that implies more, is refused with ErrTooLarge before
	// its bytes are read. A binary model in a regular file is bounded by
	// the file's size instead, which its header must give exactly. 0 means
	// DefaultMaxBytes.
	MaxBytes int64
	// Flag names the setting that raises MaxBytes for the messages of a
	// refusal (a command's flag, say "-max-model-bytes"); "" names none.
	Flag string
}

// Load reads the model file r holds (to its end) and decodes it: any
// model of this module, binary or JSON, float32 or float64. It is
// Options{}.Load.
func Load(r io.Reader) (Model, error) { return Options{}.Load(r) }

// LoadFile reads and decodes the model file at path; errors name the
// path. It is Options{}.LoadFile.
func LoadFile(path string) (Model, error) { return Options{}.LoadFile(path) }

// Unmarshal decodes the bytes of a whole model file: binary, JSON, a
// LIBSVM or LIBLINEAR model file (they begin "svm_type " and
// "solver_type "), or an ONNX-ML model (a ModelProto, whose first byte is
// the tag of ir_version).
func Unmarshal(data []byte) (Model, error) {
	if f, ok := textFormat(data); ok {
		return unmarshalText(data, f)
	}
	switch {
	case bytes.HasPrefix(data, []byte(modelfile.Magic)):
		return unmarshalBinary(data)
	case isJSON(data):
		return unmarshalJSON(data)
	}
	return nil, fmt.Errorf("%w (neither the binary format nor JSON)", ErrFormat)
}

// Load reads the model file r holds (to its end) and decodes it. If r is
// an *os.File its size bounds a binary file; see MaxBytes.
func (o Options) Load(r io.Reader) (Model, error) {
	data, err := o.Read(r)
	if err != nil {
		return nil, err
	}
	return Unmarshal(data)
}

// LoadFile reads and decodes the model file at path; errors name the path.
func (o Options) LoadFile(path string) (Model, error) {
	data, err := o.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := Unmarshal(data)
	if err != nil {
		return nil, pathError(path, data, err)
	}
	return m, nil
}

// ReadFile returns the bytes of the model file at path, read and checked
// as Read does, for a caller that keeps them (a server names a model by
// their hash) before Unmarshal decodes them. A directory is refused.
func (o Options) ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := o.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, withoutPath(err))
	}
	return data, nil
}

// Read returns the bytes of the model file r holds, without decoding the
// model: the first bytes tell a binary file, whose header is checked and
// gives its size (read no further, and refused if more follows), from a
// JSON one (read up to MaxBytes), and anything else is refused at once.
// Input of unknown length is read in pieces that grow with what arrives, so
// a header that claims more than is sent costs about what was sent.
func (o Options) Read(r io.Reader) ([]byte, error) {
	var fi os.FileInfo
	if f, ok := r.(*os.File); ok {
		var err error
		if fi, err = f.Stat(); err != nil {
			return nil, err
		}
		if fi.IsDir() {
			return nil, fmt.Errorf("%w: a directory", ErrFormat)
		}
	}
	br := bufio.NewReader(r)
	head, err := br.Peek(max(len(modelfile.Magic), len(interop.LIBLINEARPrefix)))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if _, ok := textFormat(head); ok {
		return bounded.ReadAll(br, fi, o.maxBytes(), o.Flag, nil)
	}
	switch {
	case bytes.HasPrefix(head, []byte(modelfile.Magic)):
		return o.readBinary(br, fi)
	case len(head) > 0 && head[0] != '{' && !isJSONSpace(head[0]):
		return nil, fmt.Errorf("%w (neither the binary format nor JSON)", ErrFormat)
	}
	data, err := bounded.ReadAll(br, fi, o.maxBytes(), o.Flag, jsonStart())
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrFormat)
	}
	return data, nil
}

func (o Options) maxBytes() int64 {
	if o.MaxBytes > 0 {
		return o.MaxBytes
	}
	return DefaultMaxBytes
}

// jsonStart returns a check of a JSON file's first bytes: white space,
// then '{'.
func jsonStart() func([]byte) error {
	done := false
	return func(p []byte) error {
		for _, c := range p {
			switch {
			case done:
				return nil
			case isJSONSpace(c):
			case c == '{':
				done = true
			default:
				return fmt.Errorf("%w (unexpected %q before the JSON object)", ErrFormat, c)
			}
		}
		return nil
	}
}

// isJSON reports whether data begins, after white space, with '{'.
func isJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// isJSONSpace reports whether c is white space to JSON.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// encodedSize is the size of a binary file from its first bytes, as the
// family of its kind gives it (the errors wrap that family's sentinels).
func encodedSize(prefix []byte) (size, need int64, err error) {
	size, need, err = familyErrs(prefix).EncodedSize(prefix)
	return size, need, corrupt(err)
}

// familyErrs are the sentinels of the package that decodes the kind the
// header at the start of p names: package expansion's for the kernel
// expansions, quant's, else linear's (the linear SVMs' too).
func familyErrs(p []byte) modelfile.Errors {
	if len(p) > 11 {
		switch k := Kind(p[11]); {
		case k.Kernel():
			return modelfile.Errors{Corrupt: expansion.ErrCorrupt, Version: expansion.ErrVersion, Mismatch: expansion.ErrMismatch}
		case k.quant():
			return modelfile.Errors{Corrupt: quant.ErrCorrupt, Version: quant.ErrVersion, Mismatch: quant.ErrMismatch}
		}
	}
	return modelfile.Errors{Corrupt: linear.ErrCorrupt, Version: linear.ErrVersion, Mismatch: linear.ErrMismatch}
}

// readBinary reads a binary model file whose magic r starts with: the
// header first, then exactly the size it implies. A regular file must have
// that size, and is then read into one slice of it. Other input is refused
// if its header implies more than MaxBytes, and is otherwise read in pieces
// that grow with what arrives.
func (o Options) readBinary(r io.Reader, fi os.FileInfo) ([]byte, error) {
	regular := fi != nil && fi.Mode().IsRegular()
	limit := o.maxBytes()
	var c bounded.Chunks
	// family is the corrupt-file sentinel of the package whose kind the
	// header names, which the errors wrap besides ErrCorrupt.
	family := func() error { return familyErrs(c.First()).Corrupt }
	truncated := func(have, n int64) error {
		return corrupt(fmt.Errorf("%w: %d bytes, the header implies at least %d (truncated)", family(), have, n))
	}
	fill := func(n int64) error {
		err := c.Fill(r, n, nil)
		switch {
		case c.Len() >= n:
			return nil
		case err == nil || err == io.EOF:
			return truncated(c.Len(), n)
		}
		return err
	}
	// bound checks a size the header implies against what the input can
	// hold, before it is read.
	bound := func(n int64) error {
		switch {
		case n > math.MaxInt || regular && fi.Size() > math.MaxInt: // 32-bit platforms
			return fmt.Errorf("%w: the header implies %s, more than this platform can hold in memory", ErrTooLarge, bounded.FormatBytes(n))
		case regular && n > fi.Size():
			return truncated(fi.Size(), n)
		case !regular && n > limit:
			return bounded.TooLarge("the header implies "+bounded.FormatBytes(n), limit, o.Flag)
		}
		return nil
	}
	var size int64
	for need := int64(0); ; {
		s, more, err := encodedSize(c.Bytes())
		if err != nil {
			return nil, err
		}
		if more == 0 {
			size = s
			break
		}
		if err := bound(more); err != nil {
			return nil, err
		}
		if more <= need {
			return nil, corrupt(fmt.Errorf("%w: the header gives no size", family()))
		}
		need = more
		if regular && c.Len() > 0 {
			c.Reserve(fi.Size())
		}
		if err := fill(need); err != nil {
			return nil, err
		}
	}
	if regular {
		if fi.Size() != size {
			return nil, corrupt(fmt.Errorf("%w: the header implies %d bytes, the file has %d (truncated or padded)", family(), size, fi.Size()))
		}
		c.Reserve(size)
	} else if err := bound(size); err != nil {
		return nil, err
	}
	if err := fill(size); err != nil {
		return nil, err
	}
	var one [1]byte
	if n, _ := io.ReadFull(r, one[:]); n > 0 {
		return nil, corrupt(fmt.Errorf("%w (%w): more bytes follow the %d the header implies (padded)", family(), ErrTooLarge, size))
	}
	return c.Bytes(), nil
}

// unmarshalBinary decodes a binary model file.
func unmarshalBinary(data []byte) (Model, error) {
	if len(data) <= 11 {
		return nil, fmt.Errorf("%w: %d bytes, shorter than a header", ErrCorrupt, len(data))
	}
	k := Kind(data[11])
	wide := len(data) > 10 && data[10] == 8
	var m binaryModel
	switch {
	case k == TextModel:
		return unmarshalTextModel(data)
	case k.quant():
		q, err := quant.Unmarshal(data)
		if err != nil {
			return nil, corrupt(err)
		}
		return q, nil
	case k.Kernel():
		m = newModel[binaryModel](modelreg.Expansion, wide)
	default: // the linear models (the SVM's kinds 40 and 41 too), or a bad kind that the decoder reports
		m = newModel[binaryModel](modelreg.Linear, wide)
	}
	if err := m.UnmarshalBinary(data); err != nil {
		return nil, corrupt(err)
	}
	return m, nil
}

// binaryModel is a model this package decodes.
type binaryModel interface {
	Model
	UnmarshalBinary([]byte) error
}

// newModel returns a new, empty model of family f, of float64 if wide
// else of float32: made by internal/modelreg, this package not naming the
// instantiated types (which would compile their methods here again).
func newModel[M any](f modelreg.Family, wide bool) M {
	size := 4
	if wide {
		size = 8
	}
	return modelreg.New(f, size).(M)
}

// svmFormat is the format field of package svm's JSON documents.
const svmFormat = "rosenblatt-svm"

// unmarshalJSON decodes a JSON model file.
func unmarshalJSON(data []byte) (Model, error) {
	var head modelfile.JSONHeader
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(err)
	}
	wide := head.Type == "float64"
	kernel := strings.HasPrefix(head.Kind, "kernel-")
	var m jsonModel
	switch {
	case kernel:
		m = newModel[jsonModel](modelreg.Expansion, wide)
	default: // a linear model (a linear SVM's "rosenblatt-svm" document too), or another format that the decoder reports
		m = newModel[jsonModel](modelreg.Linear, wide)
	}
	if err := json.Unmarshal(data, m); err != nil {
		return nil, jsonError(err)
	}
	return m, nil
}

// jsonModel is a model this package decodes from JSON.
type jsonModel interface {
	Model
	json.Unmarshaler
}

// offsetError is an error at a byte offset of the file.
type offsetError struct {
	off int64
	err error
}

func (e *offsetError) Error() string { return e.err.Error() }
func (e *offsetError) Unwrap() error { return e.err }

// jsonError wraps a JSON decoding error: a syntax error wraps ErrCorrupt
// (or ErrFormat if the document is cut short before anything), and keeps
// its offset for pathError.
func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &offsetError{max(syn.Offset-1, 0), fmt.Errorf("%w: %v", ErrCorrupt, syn)}
	case errors.As(err, &typ):
		return &offsetError{max(typ.Offset-1, 0), fmt.Errorf("%w: %v", ErrCorrupt, typ)}
	}
	return corrupt(err)
}

// decodeErrors are the sentinels of the packages that decode model files.
var decodeErrors = []error{linear.ErrCorrupt, linear.ErrVersion, linear.ErrMismatch,
	expansion.ErrCorrupt, expansion.ErrVersion, expansion.ErrMismatch,
	svm.ErrCorrupt, svm.ErrVersion, svm.ErrMismatch, quant.ErrCorrupt, quant.ErrVersion, quant.ErrMismatch}

// corrupt wraps a decoding package's error in ErrCorrupt too, keeping its
// message.
func corrupt(err error) error {
	if err == nil || errors.Is(err, ErrCorrupt) {
		return err
	}
	for _, e := range decodeErrors {
		if errors.Is(err, e) {
			return &wrapped{err}
		}
	}
	return err
}

// wrapped is a decoding package's error that is also ErrCorrupt.
type wrapped struct{ err error }

func (e *wrapped) Error() string        { return e.err.Error() }
func (e *wrapped) Unwrap() []error      { return []error{e.err, ErrCorrupt} }
func (e *wrapped) Is(target error) bool { return target == ErrCorrupt }

// pathError names the file of an error, with the line and column of a JSON
// error's offset.
func pathError(path string, data []byte, err error) error {
	var oe *offsetError
	if errors.As(err, &oe) {
		line, col := lineCol(data, oe.off)
		return fmt.Errorf("%s:%d:%d: %w", path, line, col, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// lineCol returns the 1-based line and column (in bytes) of byte offset off
// in data.
func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// withoutPath drops the file name from an *fs.PathError, keeping the
// operation and the cause, which errors.Is still finds.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}
