package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/quant"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// Model files: the module's checksummed binary format (magic "RBLTPCPT"),
// which the perceptron and svm packages share, or their JSON forms,
// float32 or float64, told apart by their content, not their name: the
// header's kind (svm.Inspect names the SVMs' kinds) or the JSON format.

// binaryMagic opens every binary model file.
const binaryMagic = "RBLTPCPT"

// classifier is what predict, eval and serve need of a model;
// *perceptron.Model, *perceptron.KernelModel, *svm.Model, *svm.LinearModel
// and (for float32) *quant.Model implement it.
type classifier[T kernel.Float] interface {
	Dims() int
	Classes() []int
	NumScores() int
	Predict(x []T) (int, error)
	Scores(dst, x []T) error
	PredictBatch(dst []int, X []T) error
	ScoresBatch(dst, X []T) error
}

// describable is what describeModel reads of a model.
type describable interface {
	Kind() perceptron.Kind
	Algorithm() perceptron.Algorithm
	Dims() int
	Classes() []int
	HasBias() bool
	BiasFeature() float64
	Scaling() perceptron.Scaling
}

// storedModel is a model that can be read from and written to a file:
// *perceptron.Model or *perceptron.KernelModel.
type storedModel[T kernel.Float] interface {
	classifier[T]
	describable
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
	MarshalJSON() ([]byte, error)
	UnmarshalJSON([]byte) error
}

// loadedModel is a model file read into the classifier of its element
// type: exactly one of m32 and m64 is set.
type loadedModel struct {
	path string
	desc string // e.g. "ovr averaged perceptron, float32, 4 features, classes 0 1 2"
	m32  classifier[float32]
	m64  classifier[float64]
}

// classes returns the model's labels.
func (lm *loadedModel) classes() []int {
	if lm.m32 != nil {
		return lm.m32.Classes()
	}
	return lm.m64.Classes()
}

// loadModel reads the model file at path: a linear or kernel perceptron,
// or a kernel or linear SVM, binary or JSON, float32 or float64, or a
// quantised linear model (binary; read as a float32 classifier). Errors
// name the file; a file of the right kind with bad content wraps
// perceptron.ErrCorrupt or svm.ErrCorrupt (or ErrVersion), a JSON
// syntax error carries its line and column, a file that is no model at
// all wraps errMalformed, and a JSON model beyond maxModel, or a binary
// one from a pipe or device whose header implies more, wraps errTooLarge.
//
// The file is never read whole before it is checked: the first bytes tell
// a binary model, whose header is checked and gives the file's size
// (perceptron.EncodedSize), from a JSON one, and anything else is refused
// at once. A regular file of another size than its header implies is
// refused before the rest is read; a device or pipe is read up to that
// size and one byte more, to tell a padded file, in chunks that grow with
// what arrives (see readBinaryModel and readLimited).
func loadModel(path string) (*loadedModel, error) {
	data, err := readModelFile(path)
	if err != nil {
		return nil, err
	}
	return parseModel(path, data)
}

// parseModel decodes the bytes of the model file at path, as readModelFile
// returned them (serve reads a file once, names the model by a hash of
// those bytes, and decodes the same bytes).
func parseModel(path string, data []byte) (*loadedModel, error) {
	var err error
	lm := &loadedModel{path: path}
	if ok, err := parseToolModel(lm, path, data); ok {
		return lm, err
	}
	trimmed := bytes.TrimSpace(data)
	switch {
	case bytes.HasPrefix(data, []byte(binaryMagic)):
		if info, err := svm.Inspect(data); info.Kind != 0 {
			if err == nil {
				if info.ElemBits == 64 {
					err = decodeSVM[float64](lm, info.Kind.IsKernel(), false, data)
				} else {
					err = decodeSVM[float32](lm, info.Kind.IsKernel(), false, data)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			return lm, nil
		}
		info, err := perceptron.Inspect(data)
		if errors.Is(err, perceptron.ErrMismatch) && quant.IsKind(byte(info.Kind)) {
			q, err := quant.Unmarshal(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			lm.m32, lm.desc = q, "int8 quantised "+describeModel(q, "float32 input")
			return lm, nil
		}
		isKernel := info.Kind.IsKernel() && errors.Is(err, perceptron.ErrMismatch)
		if err != nil && !isKernel {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if info.ElemBits == 64 {
			err = decodeModel[float64](lm, isKernel, false, data)
		} else { // float32, or a bad size that the decoder reports
			err = decodeModel[float32](lm, isKernel, false, data)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	case len(trimmed) > 0 && trimmed[0] == '{':
		var head struct {
			Format string `json:"format"`
			Type   string `json:"type"`
			Kind   string `json:"kind"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return nil, jsonError(path, data, err)
		}
		isKernel := strings.HasPrefix(head.Kind, "kernel-")
		if head.Format == svmFormat {
			if head.Type == "float64" {
				err = decodeSVM[float64](lm, isKernel, true, data)
			} else {
				err = decodeSVM[float32](lm, isKernel, true, data)
			}
			if err != nil {
				return nil, jsonError(path, data, err)
			}
			return lm, nil
		}
		if head.Type == "float64" {
			err = decodeModel[float64](lm, isKernel, true, data)
		} else { // float32, or a bad type that the decoder reports
			err = decodeModel[float32](lm, isKernel, true, data)
		}
		if err != nil {
			return nil, jsonError(path, data, err)
		}
	default:
		return nil, fmt.Errorf("%s: %w: not a rosenblatt model file (neither the binary format nor JSON)", path, errMalformed)
	}
	return lm, nil
}

// readModelFile returns the bytes of the model file at path, checked as
// loadModel describes.
func readModelFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	r := bufio.NewReader(f)
	head, err := r.Peek(len(binaryMagic))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, withoutPath(err))
	}
	switch {
	case isToolModel(r):
		return readToolModel(path, r, fi)
	case string(head) == binaryMagic:
		return readBinaryModel(path, r, fi)
	case len(head) > 0 && head[0] != '{' && !isJSONSpace(head[0]):
		return nil, fmt.Errorf("%s: %w: not a rosenblatt model file (neither the binary format nor JSON)", path, errMalformed)
	}
	// JSON, or white space before it (which the limit bounds too).
	start := &jsonStart{what: "a rosenblatt model file (neither the binary format nor JSON)"}
	return readLimited(path, r, fi, maxModel, start.feed)
}

// isJSONSpace reports whether c is white space to JSON.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// readBinaryModel reads a binary model file whose magic r starts with: the
// header first, then exactly the size it implies. A regular file must have
// that size, and is then read into one slice of it. A pipe or device is
// refused (errTooLarge) if its header implies more than maxModel, and is
// otherwise read in chunks that grow with what arrives (see chunks): a
// header claiming more than is sent costs about what was sent, not what it
// claims.
func readBinaryModel(path string, r io.Reader, fi os.FileInfo) ([]byte, error) {
	regular := fi.Mode().IsRegular()
	var c chunks
	// The header's kind says whose model it is, and whose errors to give.
	// The first piece holds the header (the first read asks for its 40
	// bytes); joining the pieces here would cost a copy of the file.
	isSVM := func() bool {
		if len(c.bufs) == 0 || len(c.bufs[0]) <= 11 {
			return false
		}
		k := svm.FileKind(c.bufs[0][11])
		return k.IsKernel() || k.IsLinear()
	}
	errCorrupt := func() error {
		if isSVM() {
			return svm.ErrCorrupt
		}
		return perceptron.ErrCorrupt
	}
	corrupt := func(f string, a ...any) error {
		return fmt.Errorf("%s: %w: %s", path, errCorrupt(), fmt.Sprintf(f, a...))
	}
	// fill reads the file up to n bytes in all (n is implied by a header
	// already checked).
	fill := func(n int64) error {
		err := c.fill(r, n, nil)
		switch {
		case c.n >= n:
			return nil
		case err == nil || err == io.EOF:
			return corrupt("%d bytes, the header implies at least %d (truncated)", c.n, n)
		}
		return fmt.Errorf("%s: %w", path, withoutPath(err))
	}
	// bound checks a size the header implies against what the file can
	// hold, before it is read.
	bound := func(n int64) error {
		switch {
		case n > math.MaxInt || regular && fi.Size() > math.MaxInt: // 32-bit platforms
			return fmt.Errorf("%s: %w: the header implies %s, more than this platform can hold in memory", path, errTooLarge, fmtBytes(n))
		case regular && n > fi.Size():
			return corrupt("%d bytes, the header implies at least %d (truncated)", fi.Size(), n)
		case !regular && n > maxModel:
			return fmt.Errorf("%s: %w: the header implies %s, more than the %s this command reads from a pipe or device",
				path, errTooLarge, fmtBytes(n), fmtBytes(maxModel))
		}
		return nil
	}
	var size int64
	for need := int64(0); ; {
		encodedSize := perceptron.EncodedSize
		if isSVM() {
			encodedSize = svm.EncodedSize
		}
		s, more, err := encodedSize(c.bytes())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if more == 0 {
			size = s
			break
		}
		if err := bound(more); err != nil {
			return nil, err
		}
		if more <= need {
			return nil, corrupt("the header gives no size") // not expected: EncodedSize asks for more each time
		}
		need = more
		if regular && c.n > 0 {
			// The header is sound and the file as large as it implies so
			// far: its size is what there is to read.
			c.reserve(fi.Size())
		}
		if err := fill(need); err != nil {
			return nil, err
		}
	}
	if regular {
		if fi.Size() != size {
			return nil, corrupt("the header implies %d bytes, the file has %d (truncated or padded)", size, fi.Size())
		}
		c.reserve(size)
	} else if err := bound(size); err != nil {
		return nil, err
	}
	if err := fill(size); err != nil {
		return nil, err
	}
	// Nothing may follow.
	var one [1]byte
	if n, _ := io.ReadFull(r, one[:]); n > 0 {
		return nil, fmt.Errorf("%s: %w (%w): more bytes follow the %d the header implies (padded)", path, errCorrupt(), errTooLarge, size)
	}
	return c.bytes(), nil
}

// svmFormat is the format field of the svm package's JSON documents.
const svmFormat = "rosenblatt-svm"

// decodable is a model that loadModel can read: any model of the module.
type decodable[T kernel.Float] interface {
	classifier[T]
	UnmarshalBinary([]byte) error
}

// decodeSVM decodes data into a new SVM of element type T, a kernel SVM if
// isKernel, and stores it in lm.
func decodeSVM[T kernel.Float](lm *loadedModel, isKernel, isJSON bool, data []byte) error {
	var m decodable[T] = new(svm.LinearModel[T])
	if isKernel {
		m = new(svm.Model[T])
	}
	if err := decodeInto(lm, m, isJSON, data); err != nil {
		return err
	}
	lm.desc = describeSVM(m, typeName[T]())
	return nil
}

// decodeModel decodes data into a new model of element type T, a kernel
// model if isKernel, and stores it in lm.
func decodeModel[T kernel.Float](lm *loadedModel, isKernel, isJSON bool, data []byte) error {
	var m storedModel[T] = new(perceptron.Model[T])
	if isKernel {
		m = new(perceptron.KernelModel[T])
	}
	if err := decodeInto[T](lm, m, isJSON, data); err != nil {
		return err
	}
	lm.desc = describeModel(m, typeName[T]())
	return nil
}

// decodeInto decodes data, JSON or binary, into m and stores m in lm.
func decodeInto[T kernel.Float](lm *loadedModel, m decodable[T], isJSON bool, data []byte) error {
	var err error
	if isJSON {
		err = json.Unmarshal(data, m)
	} else {
		err = m.UnmarshalBinary(data)
	}
	if err != nil {
		return err
	}
	switch c := any(m).(type) {
	case classifier[float32]:
		lm.m32 = c
	case classifier[float64]:
		lm.m64 = c
	}
	return nil
}

// typeName is "float32" or "float64".
func typeName[T kernel.Float]() string {
	if unsafe.Sizeof(T(0)) == 8 {
		return "float64"
	}
	return "float32"
}

// jsonError names the file of a JSON decoding error, with the line and
// column of a syntax error.
func jsonError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := lineCol(data, max(syn.Offset-1, 0))
		return fmt.Errorf("%s:%d:%d: %w: %v", path, line, col, errMalformed, syn)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		line, col := lineCol(data, max(typ.Offset-1, 0))
		return fmt.Errorf("%s:%d:%d: %w: %v", path, line, col, perceptron.ErrCorrupt, typ)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// describeModel is a one-line description of a trained model, e.g.
// "ovr averaged perceptron, float32, 4 features, classes 0 1 2" or
// "kernel-binary online perceptron, rbf(gamma=0.5), float32, 30 features,
// 41 support vectors, classes -1 1".
func describeModel(m describable, typ string) string {
	if m.Kind() == 0 {
		return ""
	}
	s := fmt.Sprintf("%s %s", m.Kind(), algoName(m.Algorithm()))
	if k, ok := m.(interface{ Kernel() gram.Kernel }); ok && k.Kernel() != nil {
		s += ", " + k.Kernel().String()
	}
	s += fmt.Sprintf(", %s, %d features", typ, m.Dims())
	if sv, ok := m.(interface{ NumSupport() int }); ok {
		s += fmt.Sprintf(", %d support vectors", sv.NumSupport())
	}
	s += ", classes " + joinInts(m.Classes())
	B := m.BiasFeature()
	switch {
	case !m.HasBias():
		s += ", no bias"
	case B != 1:
		s += fmt.Sprintf(", bias feature B = %g", B)
	}
	switch m.Scaling() {
	case perceptron.ScaleAugmented:
		aug := fmt.Sprintf("(x, %g)", B)
		if !m.HasBias() {
			aug = "x" // without a bias Normalize scales x alone
		}
		s += ", samples normalised as " + aug + "/‖" + aug + "‖"
	case perceptron.ScaleFeatures:
		s += ", samples normalised as x/‖x‖"
	}
	return s
}

// algoName names an algorithm for people.
func algoName(a perceptron.Algorithm) string {
	switch a {
	case perceptron.Online:
		return "online perceptron"
	case perceptron.Batch:
		return "batch perceptron"
	case perceptron.MiniBatch:
		return "mini-batch perceptron"
	case perceptron.Averaged:
		return "averaged perceptron"
	case perceptron.Voted:
		return "voted perceptron"
	case perceptron.SVM:
		return "linear SVM (Pegasos)"
	}
	return a.String()
}

// joinInts formats labels as "-1 1".
func joinInts(v []int) string {
	var b []byte
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%d", x)
	}
	return string(b)
}
