package svm

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// Model files. Both model types use the module's one model-file envelope
// (package internal/modelfile, shared with package perceptron): the 40-byte
// header, the labels, the body and a CRC-32C; this file holds the SVMs'
// kinds and bodies.

// FileKind is the model kind a model file's header names (its byte 11).
// The kinds of this package are one family per model type; package
// perceptron's kinds (1–3, 16–18) are others.
type FileKind uint8

// The kinds of SVM model files.
const (
	KindKernelBinary    FileKind = 32 // Model, Binary
	KindKernelOneVsRest FileKind = 33 // Model, OneVsRest
	KindKernelOneVsOne  FileKind = 34 // Model, OneVsOne
	KindLinearBinary    FileKind = 40 // LinearModel, Binary
	KindLinearOneVsRest FileKind = 41 // LinearModel, OneVsRest
)

// String returns "kernel-binary", "kernel-ovr", "kernel-ovo",
// "linear-binary" or "linear-ovr", the kind's name in the JSON form.
func (k FileKind) String() string {
	switch k {
	case KindKernelBinary:
		return "kernel-binary"
	case KindKernelOneVsRest:
		return "kernel-ovr"
	case KindKernelOneVsOne:
		return "kernel-ovo"
	case KindLinearBinary:
		return "linear-binary"
	case KindLinearOneVsRest:
		return "linear-ovr"
	}
	return fmt.Sprintf("FileKind(%d)", uint8(k))
}

// IsKernel reports whether k is a kind of Model (a kernel SVM).
func (k FileKind) IsKernel() bool {
	return k == KindKernelBinary || k == KindKernelOneVsRest || k == KindKernelOneVsOne
}

// IsLinear reports whether k is a kind of LinearModel.
func (k FileKind) IsLinear() bool { return k == KindLinearBinary || k == KindLinearOneVsRest }

// Scheme returns the scheme of the kind's decision functions.
func (k FileKind) Scheme() Scheme {
	switch k {
	case KindKernelOneVsRest, KindLinearOneVsRest:
		return OneVsRest
	case KindKernelOneVsOne:
		return OneVsOne
	}
	return Binary
}

func kernelKind(s Scheme) FileKind {
	switch s {
	case OneVsRest:
		return KindKernelOneVsRest
	case OneVsOne:
		return KindKernelOneVsOne
	}
	return KindKernelBinary
}

func linearKind(s Scheme) FileKind {
	if s == OneVsRest {
		return KindLinearOneVsRest
	}
	return KindLinearBinary
}

// flagIndex marks a kernel model file that stores the support vectors'
// training rows; flagSparse one that stores them as sparse rows (a model
// trained on CSR data).
const (
	flagIndex  = 1
	flagSparse = 2
)

// jsonFormat is the format name of the JSON documents.
const jsonFormat = "rosenblatt-svm"

// jsonAlgorithm is the algorithm field of the JSON documents (and 0 the
// header's algorithm byte): the models do not record their solver.
const jsonAlgorithm = "svm"

var fileErrs = modelfile.Errors{Corrupt: ErrCorrupt, Version: ErrVersion, Mismatch: ErrMismatch}

// The families of kinds this package stores.
var (
	kernelFamily = &modelfile.Family{Name: "kernel SVM", BodySize: kernelBodySize,
		Kinds: []byte{byte(KindKernelBinary), byte(KindKernelOneVsRest), byte(KindKernelOneVsOne)}}
	linearFamily = &modelfile.Family{Name: "linear SVM", BodySize: linearBodySize,
		Kinds: []byte{byte(KindLinearBinary), byte(KindLinearOneVsRest)}}
)

func init() {
	modelfile.Register(kernelFamily)
	modelfile.Register(linearFamily)
}

// funcsOf returns the number of decision functions R of a file's header:
// 1 (binary), L (one-vs-rest) or L(L−1)/2 (one-vs-one), L ≤ 2²⁴.
func funcsOf(h *modelfile.Header) uint64 {
	l := uint64(h.Labels)
	switch FileKind(h.Kind).Scheme() {
	case Binary:
		return 1
	case OneVsRest:
		return l
	}
	return l * (l - 1) / 2
}

// checkHeader checks the header fields both families read alike: SVM
// kinds exist from format version 2 on; the algorithm byte and the
// float64 parameter are 0; a binary model has two labels.
func checkHeader(e modelfile.Errors, h *modelfile.Header) error {
	switch {
	case h.Version > modelfile.Version:
		return fmt.Errorf("%w: an SVM model (kind %d) in a version-%d file: this package reads SVM models of version %d", e.Version, h.Kind, h.Version, modelfile.Version)
	case h.Version != modelfile.Version:
		return e.Corruptf("an SVM model (kind %d) in a version-%d file: SVM models are version %d", h.Kind, h.Version, modelfile.Version)
	case h.Algorithm != 0:
		return e.Corruptf("algorithm byte %d, want 0", h.Algorithm)
	case math.Float64bits(h.Param) != 0:
		return e.Corruptf("parameter %v, want 0", h.Param)
	case FileKind(h.Kind).Scheme() == Binary && h.Labels != 2:
		return e.Corruptf("a binary model with %d labels", h.Labels)
	}
	return nil
}

// kernelBodySize is the kernel family's modelfile.Family.BodySize. The
// length of a file with sparse support vectors depends on their number of
// stored values, which the body holds after the kernel and the indices.
func kernelBodySize(e modelfile.Errors, h *modelfile.Header, body []byte, sz *modelfile.Sizer) (uint64, error) {
	if err := checkHeader(e, h); err != nil {
		return 0, err
	}
	s := uint64(h.Count)
	switch {
	case h.Flags&^(flagIndex|flagSparse) != 0:
		return 0, e.Corruptf("unknown flags %#x", h.Flags)
	case s > math.MaxInt32:
		return 0, e.Corruptf("%d support vectors", s)
	case s == 0 && h.Flags&flagIndex != 0:
		return 0, e.Corruptf("support indices flagged without support vectors")
	}
	es := uint64(h.ElemSize)
	sz.Add(modelfile.KernelSize, 1)
	off := uint64(modelfile.KernelSize)
	if h.Flags&flagIndex != 0 {
		sz.Add(s, 4)
		off += 4 * s
	}
	if h.Flags&flagSparse != 0 {
		if need, err := e.SparseSize(body, off, s, uint64(h.Dims), es, sz); need > 0 || err != nil {
			return need, err
		}
	} else {
		sz.Add(sz.Mul(s, uint64(h.Dims)), es)
	}
	r := funcsOf(h)
	sz.Add(sz.Mul(r, s+1), es)
	return 0, nil
}

// linearBodySize is the linear family's modelfile.Family.BodySize.
func linearBodySize(e modelfile.Errors, h *modelfile.Header, _ []byte, sz *modelfile.Sizer) (uint64, error) {
	if err := checkHeader(e, h); err != nil {
		return 0, err
	}
	switch {
	case h.Flags != 0:
		return 0, e.Corruptf("unknown flags %#x", h.Flags)
	case h.Count != 0:
		return 0, e.Corruptf("a linear model with a count of %d", h.Count)
	}
	sz.Add(sz.Mul(funcsOf(h), uint64(h.Dims)+1), uint64(h.ElemSize))
	return 0, nil
}

// open checks a whole file of family f for a model of element type T: the
// envelope, the kind, the element type, the family's header fields and
// the file's size against the header, so that every read of the body
// fits (and no product of header counts overflows).
func open[T Float](data []byte, f *modelfile.Family) (modelfile.Header, *modelfile.Reader, error) {
	h, r, err := fileErrs.Open(data)
	if err != nil {
		return h, nil, err
	}
	if modelfile.Lookup(h.Kind) != f {
		return h, nil, fileErrs.Otherwise(f, h.Kind)
	}
	if es := modelfile.ElemSize[T](); h.ElemSize != es {
		return h, nil, fileErrs.Mismatchf("the file holds %s values, the model is %s", modelfile.ElemName(h.ElemSize), modelfile.ElemName(es))
	}
	if err := checkSize(&h, data, f); err != nil {
		return h, nil, err
	}
	return h, r, nil
}

// checkSize compares a file's length with the one its header (and, for
// sparse support vectors, their count of stored values) implies.
func checkSize(h *modelfile.Header, data []byte, f *modelfile.Family) error {
	n := len(data)
	var sz modelfile.Sizer
	sz.Add(modelfile.HeaderSize, 1)
	sz.Add(uint64(h.Labels), 8)
	var body []byte
	if start := uint64(modelfile.HeaderSize) + 8*uint64(h.Labels); start <= uint64(n) {
		body = data[start:]
	}
	need, err := f.BodySize(fileErrs, h, body, &sz)
	if err != nil {
		return err
	}
	if need > 0 {
		return fileErrs.Corruptf("the file ends within its body (%d bytes, truncated)", n)
	}
	sz.Add(modelfile.SumSize, 1)
	switch {
	case sz.Over:
		return fileErrs.Corruptf("the header implies more than 2^63 bytes, the file has %d (truncated)", n)
	case sz.N != uint64(n):
		return fileErrs.Corruptf("the header implies %d bytes, the file has %d (truncated or padded)", sz.N, n)
	}
	return nil
}

// FileInfo describes an SVM model file; Inspect returns it.
type FileInfo struct {
	Version  int      // format version
	ElemBits int      // 32 or 64: the type parameter of the model that reads it
	Kind     FileKind // model kind (kernel or linear, and the scheme)
	Dims     int      // features per sample
	Labels   int      // number of labels
	Support  int      // support vectors (0 for a linear model)
	Indices  bool     // the file stores the support vectors' training rows
	Sparse   bool     // the file stores the support vectors as sparse rows
}

// Inspect checks an SVM model file's envelope, header, size and checksum
// and describes it without decoding the body: a caller can pick the
// model type (Kind.IsKernel) and its element type (ElemBits). Errors wrap
// ErrCorrupt or ErrVersion, or ErrMismatch for a valid file of another
// package's model (a perceptron's). Whenever the header names an SVM
// kind, the returned FileInfo holds what the header says even if the file
// is then rejected, so that a program reading model files of several
// packages can tell whose error to report from Kind != 0.
func Inspect(data []byte) (FileInfo, error) {
	var info FileInfo
	if len(data) >= modelfile.HeaderSize && string(data[:len(modelfile.Magic)]) == modelfile.Magic {
		if k := FileKind(data[11]); k.IsKernel() || k.IsLinear() {
			info.Kind = k
		}
	}
	h, _, err := fileErrs.Open(data)
	if err != nil {
		return info, err
	}
	info = FileInfo{Version: h.Version, ElemBits: h.ElemBits(), Kind: FileKind(h.Kind), Dims: h.Dims, Labels: h.Labels,
		Support: h.Count, Indices: h.Flags&flagIndex != 0, Sparse: h.Flags&flagSparse != 0}
	f := modelfile.Lookup(h.Kind)
	switch f {
	case kernelFamily, linearFamily:
	case nil:
		return info, fileErrs.Corruptf("unknown model kind %d", h.Kind)
	default:
		info.Kind = 0
		return info, fileErrs.Mismatchf("a %s model (kind %d), not an SVM", f.Name, h.Kind)
	}
	return info, checkSize(&h, data, f)
}

// EncodedSize returns the length in bytes of the model file that begins
// with prefix, as its header implies it, so that a reader can reject a bad
// file from its first bytes and then read no more of it than that. When
// prefix is shorter than the 40-byte header it returns size 0 and need =
// 40. It reads the header of every model kind of the module whose package
// is linked into the program (this package's, and package perceptron's if
// it is imported). Errors wrap ErrCorrupt (a bad magic, header fields no
// decoder accepts, a size beyond an int64) or ErrVersion; the checksum and
// the body are the decoders' to check.
func EncodedSize(prefix []byte) (size, need int64, err error) {
	return fileErrs.EncodedSize(prefix)
}

// kernelValue returns k as the value type gram.Linear, gram.Polynomial
// or gram.RBF (a pointer to one is dereferenced), validated; errors wrap
// ErrModel.
func kernelValue(k gram.Kernel) (gram.Kernel, error) {
	switch v := k.(type) {
	case nil:
		return nil, fmt.Errorf("%w: no kernel", ErrModel)
	case *gram.Linear:
		if v != nil {
			k = *v
		}
	case *gram.Polynomial:
		if v != nil {
			k = *v
		}
	case *gram.RBF:
		if v != nil {
			k = *v
		}
	case *gram.Sigmoid:
		if v != nil {
			k = *v
		}
	}
	switch k.(type) {
	case gram.Linear, gram.Polynomial, gram.RBF, gram.Sigmoid:
	default:
		return nil, fmt.Errorf("%w: kernel %T", ErrModel, k)
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	return k, nil
}

// fileLimits checks that a model's sizes fit the file format; errors wrap
// ErrModel.
func fileLimits(d, labels, support int) error {
	if d > modelfile.MaxDims || labels > modelfile.MaxLabels || support > math.MaxInt32 {
		return fmt.Errorf("%w: %d features, %d labels and %d support vectors exceed the file format's 2^30, 2^24 and 2^31−1", ErrModel, d, labels, support)
	}
	return nil
}

// MarshalBinary encodes the model in the module's checksummed little-endian
// model-file format (the envelope of package perceptron's files: see its
// Model.MarshalBinary for the header), with Kind 32 (binary), 33
// (one-vs-rest) or 34 (one-vs-one), algorithm 0, flags bit 0 when the
// support vectors' training rows are stored, D the features, L the labels,
// M = S the support vectors and the parameter 0. It implements
// encoding.BinaryMarshaler. After the 40-byte header and the L labels
// (int64, increasing):
//
//	size   field
//	24     kernel: code (0 linear, 1 polynomial, 2 rbf, 3 sigmoid), 3 bytes 0,
//	       degree uint32, gamma float64, coef0 float64 (unused fields 0)
//	4·S    if flags bit 0: the training row of each support vector,
//	       uint32, increasing (only with S > 0)
//	S·D    support vectors, row-major (element type); or, if flags
//	       bit 1 (a model with sparse support vectors, trainSparse):
//	         8      Z, the number of stored values, uint64
//	         4·S    each support vector's count of stored values, uint32
//	         4·Z    their features (0-based), uint32, increasing per row
//	         Z      their values (element type)
//	R·S    coefficients αᵢyᵢ, one row of S per decision function
//	R      biases b = −ρ
//
// then the CRC-32C of every byte before it. There are R = 1 (binary), L
// (one-vs-rest: function r is class r against the rest) or L(L−1)/2
// (one-vs-one) decision functions; one-vs-one function r is the pair of
// classes (a, b), a < b, in the order (0,1), (0,2), …, (0,L−1), (1,2), …,
// and a positive value votes for b (Model.Pair). Format version 2 is the
// first with SVM kinds.
func (m *Model[T]) MarshalBinary() ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	kern, err := kernelValue(m.kern)
	if err != nil {
		return nil, err
	}
	s := m.NumSupport()
	if err := fileLimits(m.d, len(m.labels), s); err != nil {
		return nil, err
	}
	es := modelfile.ElemSize[T]()
	h := modelfile.Header{ElemSize: es, Kind: byte(kernelKind(m.scheme)), Dims: m.d, Count: s}
	if m.index != nil {
		h.Flags = flagIndex
	}
	body := modelfile.KernelSize + 4*len(m.index) + es*(len(m.sv)+len(m.coef)+len(m.bias))
	if m.ssv != nil {
		h.Flags |= flagSparse
		body += modelfile.SparseBytes(m.ssv)
	}
	w := modelfile.New(h, m.labels, body)
	w.WriteKernel(kern)
	for _, i := range m.index {
		w.U32(uint32(i))
	}
	if m.ssv != nil {
		modelfile.WriteSparse(w, m.ssv)
	}
	modelfile.Elems(w, m.sv)
	modelfile.Elems(w, m.coef)
	modelfile.Elems(w, m.bias)
	return w.Finish(), nil
}

// UnmarshalBinary decodes a model written by MarshalBinary into m. It
// implements encoding.BinaryUnmarshaler. The checksum, then the file's
// size against its header, are checked before anything is allocated, then
// every field as NewModel checks its Parts; a truncated, modified or
// inconsistent file is an error wrapping ErrCorrupt (and ErrModel for what
// NewModel rejects; ErrVersion for an unknown format version), never a
// panic. A float32 file cannot be read into a Model[float64] or the
// reverse, nor a linear model's file or a perceptron's into a Model
// (ErrMismatch). On error m is left as it was. data is not retained.
//
// UnmarshalBinary replaces m's content: unlike the other methods it must
// not run while other goroutines use m (decode into a new Model).
func (m *Model[T]) UnmarshalBinary(data []byte) error {
	h, r, err := open[T](data, kernelFamily)
	if err != nil {
		return err
	}
	s, es := uint64(h.Count), uint64(h.ElemSize)
	nf := funcsOf(&h)
	labels := r.Labels(h.Labels)
	spec := r.Take(1, modelfile.KernelSize, "kernel bytes")
	var idx []byte
	if h.Flags&flagIndex != 0 {
		idx = r.Take(s, 4, "support indices")
	}
	var sv []byte
	var sp *dataset.CSR[T]
	if h.Flags&flagSparse != 0 {
		var err error
		if sp, err = modelfile.ReadSparse[T](fileErrs, r, s, h.Dims, h.ElemSize); err != nil {
			return err
		}
	} else {
		sv = r.Take(s*uint64(h.Dims), es, "support vector values")
	}
	coef := r.Take(nf*s, es, "coefficients")
	bias := r.Take(nf, es, "biases")
	if err := r.Close(); err != nil {
		return err
	}
	kern, err := fileErrs.ParseKernel(spec)
	if err != nil {
		return err
	}
	p := Parts[T]{Kernel: kern, Dims: h.Dims, Labels: labels, Scheme: FileKind(h.Kind).Scheme(),
		SV: modelfile.Decode[T](sv, h.ElemSize), Sparse: sp, Coef: modelfile.Decode[T](coef, h.ElemSize), Bias: modelfile.Decode[T](bias, h.ElemSize)}
	if idx != nil {
		p.Index = make([]int, s)
		for i, v := range modelfile.U32s(idx) {
			if v > math.MaxInt32 {
				return fileErrs.Corruptf("support index %d is %d", i, v)
			}
			p.Index[i] = int(v)
		}
	}
	return m.set(p)
}

// set checks p and makes it m's content, taking over its slices.
func (m *Model[T]) set(p Parts[T]) error {
	n, err := newModel(p, false)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	m.kern, m.d, m.labels, m.scheme = n.kern, n.d, n.labels, n.scheme
	m.sv, m.index, m.coef, m.bias = n.sv, n.index, n.coef, n.bias
	m.k, m.rows, m.ssv, m.srows, m.red = n.k, n.rows, n.ssv, n.srows, n.red
	m.pool = sync.Pool{} // scratch buffers of the old sizes must go
	return nil
}

// jsonMachine is one decision function of a kernel model's JSON form.
type jsonMachine[T Float] struct {
	Negative     *int               `json:"negative,omitempty"` // the class of y = −1; absent for one-vs-rest
	Positive     int                `json:"positive"`           // the class of y = +1
	Rest         bool               `json:"rest,omitempty"`     // one-vs-rest: the positive class against all others
	Coefficients modelfile.Array[T] `json:"coefficients"`       // αᵢyᵢ, one per support vector
	Bias         T                  `json:"bias"`
}

// jsonAbsent are the members of the documents that may be null, meaning
// absent or empty, as encoding/json reads it; a null anywhere else is
// ErrCorrupt.
var jsonAbsent = []string{"support_indices", "sparse_support_vectors", "features", "values"}

// jsonModel is the JSON form of a Model.
type jsonModel[T Float] struct {
	modelfile.JSONHeader
	Labels         modelfile.Array[int]      `json:"labels"`
	Kernel         modelfile.JSONKernel      `json:"kernel"`
	SupportIndices modelfile.Array[int]      `json:"support_indices,omitempty"`
	SupportVectors modelfile.Matrix[T]       `json:"support_vectors"`
	SparseSupport  []modelfile.JSONSparse[T] `json:"sparse_support_vectors,omitempty"` // instead of support_vectors (trainSparse)
	Machines       []jsonMachine[T]          `json:"machines"`
}

// MarshalJSON encodes the model as a JSON document for people and other
// tools: format "rosenblatt-svm", version (2), type ("float32",
// "float64"), kind ("kernel-binary", "kernel-ovr", "kernel-ovo"),
// algorithm ("svm"), dims, labels, kernel {type, gamma, coef0, degree},
// support_indices (if known), support_vectors, and machines: per decision
// function its classes (negative and positive; for one-vs-rest positive
// and rest: true), its coefficients αᵢyᵢ (one per support vector) and its
// bias. Values round-trip exactly.
func (m *Model[T]) MarshalJSON() ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	kern, err := kernelValue(m.kern)
	if err != nil {
		return nil, err
	}
	s := m.NumSupport()
	if err := fileLimits(m.d, len(m.labels), s); err != nil {
		return nil, err
	}
	j := jsonModel[T]{JSONHeader: modelfile.NewJSONHeader[T](jsonFormat, kernelKind(m.scheme).String(), jsonAlgorithm, m.d),
		Labels: m.labels, Kernel: modelfile.KernelJSON(kern), SupportIndices: m.index, SupportVectors: make([][]T, s),
		Machines: make([]jsonMachine[T], len(m.bias))}
	if c := m.ssv; c != nil {
		j.SupportVectors = [][]T{}
		j.SparseSupport = modelfile.SparseJSON(c)
	} else {
		for i := range s {
			j.SupportVectors[i] = m.sv[i*m.d : (i+1)*m.d]
		}
	}
	for r := range m.bias {
		mc := &j.Machines[r]
		neg, pos := m.Pair(r)
		mc.Positive, mc.Coefficients, mc.Bias = pos, m.coef[r*s:(r+1)*s], m.bias[r]
		if mc.Coefficients == nil {
			mc.Coefficients = []T{} // [], not null, whatever made the model
		}
		if m.scheme == OneVsRest {
			mc.Rest = true
		} else {
			mc.Negative = &neg
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a document written by MarshalJSON into m, with the
// checks of UnmarshalBinary (ErrCorrupt, ErrVersion, ErrMismatch), and
// that every machine names the classes of its place in the order of
// MarshalBinary's decision functions. On error m is left as it was; like
// UnmarshalBinary it must not run while other goroutines use m.
func (m *Model[T]) UnmarshalJSON(data []byte) error {
	var j jsonModel[T]
	if err := fileErrs.Unmarshal(data, &j, &j.JSONHeader, jsonFormat, jsonAbsent...); err != nil {
		return err
	}
	var kind FileKind
	switch j.Kind {
	case "kernel-binary":
		kind = KindKernelBinary
	case "kernel-ovr":
		kind = KindKernelOneVsRest
	case "kernel-ovo":
		kind = KindKernelOneVsOne
	case "linear-binary", "linear-ovr":
		return fileErrs.Mismatchf("a linear model (kind %q); read it with LinearModel", j.Kind)
	default:
		return fileErrs.Corruptf("kind %q", j.Kind)
	}
	if err := checkJSONHeader[T](&j.JSONHeader, len(j.Labels)); err != nil {
		return err
	}
	kern, err := fileErrs.Kernel(j.Kernel)
	if err != nil {
		return err
	}
	s := len(j.SupportVectors) + len(j.SparseSupport)
	if s > math.MaxInt32 {
		return fileErrs.Corruptf("%d support vectors", s)
	}
	p := Parts[T]{Kernel: kern, Dims: j.Dims, Labels: j.Labels, Scheme: kind.Scheme(), Index: j.SupportIndices}
	for _, v := range j.SupportVectors {
		if len(v) != p.Dims {
			return fileErrs.Corruptf("a support vector of %d values, want %d", len(v), p.Dims)
		}
	}
	p.SV = modelfile.Flat(j.SupportVectors) // the decoded rows' own array: no copy
	if len(j.SparseSupport) > 0 {
		if len(j.SupportVectors) > 0 {
			return fileErrs.Corruptf("both dense and sparse support vectors")
		}
		c, err := modelfile.SparseFromJSON(fileErrs, j.SparseSupport, p.Dims)
		if err != nil {
			return err
		}
		p.Sparse = c
	}
	if nf := numFuncs(p.Scheme, len(p.Labels)); len(j.Machines) != nf {
		return fileErrs.Corruptf("%d machines for %d labels, want %d", len(j.Machines), len(p.Labels), nf)
	}
	k := len(p.Labels)
	p.Coef, p.Bias = make([]T, 0, len(j.Machines)*s), make([]T, 0, len(j.Machines))
	a, b := 0, 1 // the one-vs-one pair of the machine at hand
	for r, mc := range j.Machines {
		var ok bool
		switch p.Scheme {
		case Binary:
			ok = mc.Negative != nil && *mc.Negative == p.Labels[0] && mc.Positive == p.Labels[1] && !mc.Rest
		case OneVsRest:
			ok = mc.Negative == nil && mc.Positive == p.Labels[r] && mc.Rest
		default:
			ok = mc.Negative != nil && *mc.Negative == p.Labels[a] && mc.Positive == p.Labels[b] && !mc.Rest
			if b++; b == k {
				a++
				b = a + 1
			}
		}
		if !ok {
			return fileErrs.Corruptf("machine %d is not for the classes of its place (%s)", r, p.Scheme)
		}
		if len(mc.Coefficients) != s {
			return fileErrs.Corruptf("machine %d has %d coefficients for %d support vectors", r, len(mc.Coefficients), s)
		}
		p.Coef = append(p.Coef, mc.Coefficients...)
		p.Bias = append(p.Bias, mc.Bias)
	}
	return m.set(p)
}

// checkJSONHeader checks what the JSON forms share: version 2, the
// element type, the algorithm, and sizes the binary format can hold.
func checkJSONHeader[T Float](h *modelfile.JSONHeader, labels int) error {
	if h.Version > modelfile.Version {
		return fmt.Errorf("%w: an SVM model in a version-%d document: this package reads SVM models of version %d", ErrVersion, h.Version, modelfile.Version)
	}
	if h.Version != modelfile.Version {
		return fileErrs.Corruptf("an SVM model in a version-%d document: SVM models are version %d", h.Version, modelfile.Version)
	}
	if err := modelfile.CheckType[T](fileErrs, h); err != nil {
		return err
	}
	switch {
	case h.Algorithm != jsonAlgorithm:
		return fileErrs.Corruptf("algorithm %q, want %q", h.Algorithm, jsonAlgorithm)
	case h.Dims < 1 || h.Dims > modelfile.MaxDims:
		return fileErrs.Corruptf("%d features", h.Dims)
	case labels < 2 || labels > modelfile.MaxLabels:
		return fileErrs.Corruptf("%d labels", labels)
	}
	return nil
}

// MarshalBinary encodes the linear model in the format of
// Model.MarshalBinary with Kind 40 (binary) or 41 (one-vs-rest), flags 0
// and M = 0. After the 40-byte header and the L labels:
//
//	size   field
//	R·D    weights, one row per decision function (element type)
//	R      biases
//
// then the CRC-32C of every byte before it; R = 1 (binary) or L.
func (m *LinearModel[T]) MarshalBinary() ([]byte, error) {
	if m == nil || m.d == 0 {
		return nil, fmt.Errorf("%w: untrained model", ErrModel)
	}
	if err := fileLimits(m.d, len(m.labels), 0); err != nil {
		return nil, err
	}
	es := modelfile.ElemSize[T]()
	h := modelfile.Header{ElemSize: es, Kind: byte(linearKind(m.scheme)), Dims: m.d}
	w := modelfile.New(h, m.labels, es*(len(m.w)+len(m.b)))
	modelfile.Elems(w, m.w)
	modelfile.Elems(w, m.b)
	return w.Finish(), nil
}

// UnmarshalBinary decodes a linear model written by MarshalBinary into m,
// with the checks of Model.UnmarshalBinary (ErrCorrupt, ErrVersion,
// ErrMismatch; a kernel model's file is ErrMismatch). On error m is left
// as it was; it must not run while other goroutines use m.
func (m *LinearModel[T]) UnmarshalBinary(data []byte) error {
	h, r, err := open[T](data, linearFamily)
	if err != nil {
		return err
	}
	nf := funcsOf(&h)
	labels := r.Labels(h.Labels)
	w := r.Take(nf*uint64(h.Dims), uint64(h.ElemSize), "weights")
	b := r.Take(nf, uint64(h.ElemSize), "biases")
	if err := r.Close(); err != nil {
		return err
	}
	return m.set(modelfile.Decode[T](w, h.ElemSize), h.Dims, modelfile.Decode[T](b, h.ElemSize), labels, FileKind(h.Kind).Scheme())
}

// set checks the parts of a decoded linear model and makes them m's.
func (m *LinearModel[T]) set(W []T, d int, b []T, labels []int, scheme Scheme) error {
	n, err := NewLinearModel(W, d, b, labels)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if n.scheme != scheme {
		return fileErrs.Corruptf("%d decision functions for %d labels in a %v model", len(b), len(labels), scheme)
	}
	*m = *n
	return nil
}

// jsonLinear is the JSON form of a LinearModel.
type jsonLinear[T Float] struct {
	modelfile.JSONHeader
	Labels  modelfile.Array[int] `json:"labels"`
	Weights modelfile.Matrix[T]  `json:"weights"`
	Biases  modelfile.Array[T]   `json:"biases"`
}

// MarshalJSON encodes the linear model as a JSON document: format
// "rosenblatt-svm", version, type, kind ("linear-binary", "linear-ovr"),
// algorithm ("svm"), dims, labels, weights (one array per decision
// function) and biases. Values round-trip exactly.
func (m *LinearModel[T]) MarshalJSON() ([]byte, error) {
	if m == nil || m.d == 0 {
		return nil, fmt.Errorf("%w: untrained model", ErrModel)
	}
	if err := fileLimits(m.d, len(m.labels), 0); err != nil {
		return nil, err
	}
	j := jsonLinear[T]{JSONHeader: modelfile.NewJSONHeader[T](jsonFormat, linearKind(m.scheme).String(), jsonAlgorithm, m.d),
		Labels: m.labels, Weights: make([][]T, len(m.b)), Biases: m.b}
	for r := range m.b {
		j.Weights[r] = m.w[r*m.d : (r+1)*m.d]
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a document written by MarshalJSON into m, with the
// checks of UnmarshalBinary.
func (m *LinearModel[T]) UnmarshalJSON(data []byte) error {
	var j jsonLinear[T]
	if err := fileErrs.Unmarshal(data, &j, &j.JSONHeader, jsonFormat, jsonAbsent...); err != nil {
		return err
	}
	var scheme Scheme
	switch j.Kind {
	case "linear-binary":
		scheme = Binary
	case "linear-ovr":
		scheme = OneVsRest
	case "kernel-binary", "kernel-ovr", "kernel-ovo":
		return fileErrs.Mismatchf("a kernel model (kind %q); read it with Model", j.Kind)
	default:
		return fileErrs.Corruptf("kind %q", j.Kind)
	}
	if err := checkJSONHeader[T](&j.JSONHeader, len(j.Labels)); err != nil {
		return err
	}
	if want := numFuncs(scheme, len(j.Labels)); len(j.Weights) != want || len(j.Biases) != want {
		return fileErrs.Corruptf("%d weight rows and %d biases for %d labels, want %d", len(j.Weights), len(j.Biases), len(j.Labels), want)
	}
	for _, w := range j.Weights {
		if len(w) != j.Dims {
			return fileErrs.Corruptf("a weight row of %d values, want %d", len(w), j.Dims)
		}
	}
	return m.set(modelfile.Flat(j.Weights), j.Dims, j.Biases, j.Labels, scheme) // the decoded rows' own array: no copy
}
