package expansion

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// The kernel SVM's model files (kinds 32–34) in the module's one
// model-file envelope (package internal/modelfile): the 40-byte header,
// the labels, the body and a CRC-32C. A kernel perceptron's model is
// written with its own kinds (16–18, perceptronfile.go).

// The kinds of kernel SVM model files (model.Kind names them).
const (
	kindSVMBinary    = 32
	kindSVMOneVsRest = 33
	kindSVMOneVsOne  = 34
)

// svmKind returns the file kind of an SVM of scheme s.
func svmKind(s fit.Scheme) byte { return modelfile.SchemeKind(kindSVMBinary, s, fit.OneVsOne) }

// svmKindName is the kind's name in the JSON form.
func svmKindName(s fit.Scheme) string { return "kernel-" + modelfile.SchemeName(s) }

// svmScheme is the scheme of a kernel SVM file's kind.
func svmScheme(kind byte) fit.Scheme { return modelfile.KindScheme(kindSVMBinary, kind, fit.OneVsOne) }

// flagIndex marks a kernel model file that stores the support vectors'
// training rows; flagSparse one that stores them as sparse rows (a model
// trained on CSR data).
const (
	flagIndex  = 1
	flagSparse = 2
)

var fileErrs = modelfile.Errors{Corrupt: ErrCorrupt, Version: ErrVersion, Mismatch: ErrMismatch}

// svmFamily is the kernel SVMs' family of kinds.
var svmFamily = &modelfile.Family{Name: "kernel SVM", BodySize: svmBodySize,
	Kinds: []byte{kindSVMBinary, kindSVMOneVsRest, kindSVMOneVsOne}}

func init() {
	modelfile.Register(svmFamily)
}

// svmBodySize is the kernel SVM family's modelfile.Family.BodySize. The
// length of a file with sparse support vectors depends on their number of
// stored values, which the body holds after the kernel and the indices.
func svmBodySize(e modelfile.Errors, h *modelfile.Header, body []byte, sz *modelfile.Sizer) (uint64, error) {
	if err := modelfile.CheckSVMHeader(e, h); err != nil {
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
	r := modelfile.SVMFuncs(h)
	sz.Add(sz.Mul(r, s+1), es)
	return 0, nil
}

// marshalSVM is MarshalBinary for an SVM: the module's checksummed
// little-endian model-file envelope (package internal/modelfile) with Kind 32 (binary), 33
// (one-vs-rest) or 34 (one-vs-one), algorithm 0, flags bit 0 when the
// support vectors' training rows are stored, D the features, L the labels,
// M = S the support vectors and the parameter 0. After the 40-byte header and the L labels
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
func (m *Model[T]) marshalSVM() ([]byte, error) {
	kern, err := kernelValue(m.kern)
	if err != nil {
		return nil, err
	}
	s := m.NumSupport()
	if err := modelfile.SVMLimits(ErrModel, m.d, len(m.labels), s); err != nil {
		return nil, err
	}
	es := modelfile.ElemSize[T]()
	h := modelfile.Header{ElemSize: es, Kind: svmKind(m.scheme), Dims: m.d, Count: s}
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

// unmarshalSVM is UnmarshalBinary for a kernel SVM's file (kinds 32–34).
func (m *Model[T]) unmarshalSVM(data []byte) error {
	h, r, err := modelfile.OpenFamily[T](fileErrs, data, svmFamily)
	if err != nil {
		return err
	}
	s, es := uint64(h.Count), uint64(h.ElemSize)
	nf := modelfile.SVMFuncs(&h)
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
	p := Parts[T]{Kernel: kern, Dims: h.Dims, Labels: labels, Scheme: svmScheme(h.Kind),
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
	n, err := newModel(p, false, nil)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	m.kern, m.d, m.labels, m.scheme = n.kern, n.d, n.labels, n.scheme
	m.sv, m.index, m.coef, m.bias, m.nf, m.pc = n.sv, n.index, n.coef, n.bias, n.nf, n.pc
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

// marshalSVMJSON is MarshalJSON for an SVM: format "rosenblatt-svm",
// version (2), type ("float32", "float64"), kind ("kernel-binary",
// "kernel-ovr", "kernel-ovo"), algorithm ("svm"), dims, labels, kernel
// {type, gamma, coef0, degree}, support_indices (if known),
// support_vectors (or sparse_support_vectors), and machines: per decision
// function its classes (negative and positive; for one-vs-rest positive
// and rest: true), its coefficients αᵢyᵢ (one per support vector) and its
// bias.
func (m *Model[T]) marshalSVMJSON() ([]byte, error) {
	kern, err := kernelValue(m.kern)
	if err != nil {
		return nil, err
	}
	s := m.NumSupport()
	if err := modelfile.SVMLimits(ErrModel, m.d, len(m.labels), s); err != nil {
		return nil, err
	}
	j := jsonModel[T]{JSONHeader: modelfile.NewJSONHeader[T](modelfile.SVMJSONFormat, svmKindName(m.scheme), modelfile.SVMJSONAlgorithm, m.d),
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
		if m.scheme == fit.OneVsRest {
			mc.Rest = true
		} else {
			mc.Negative = &neg
		}
	}
	return json.Marshal(j)
}

// unmarshalSVMJSON is UnmarshalJSON for a kernel SVM's document; it also
// checks that every machine names the classes of its place in the order
// of the binary form's decision functions.
func (m *Model[T]) unmarshalSVMJSON(data []byte) error {
	var j jsonModel[T]
	if err := fileErrs.Unmarshal(data, &j, &j.JSONHeader, modelfile.SVMJSONFormat, jsonAbsent...); err != nil {
		return err
	}
	var scheme fit.Scheme
	switch j.Kind {
	case "kernel-binary":
		scheme = fit.Binary
	case "kernel-ovr":
		scheme = fit.OneVsRest
	case "kernel-ovo":
		scheme = fit.OneVsOne
	case "linear-binary", "linear-ovr":
		return fileErrs.Mismatchf("a linear SVM (kind %q), not a kernel expansion", j.Kind)
	default:
		return fileErrs.Corruptf("kind %q", j.Kind)
	}
	if err := modelfile.CheckSVMJSONHeader[T](fileErrs, &j.JSONHeader, len(j.Labels)); err != nil {
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
	p := Parts[T]{Kernel: kern, Dims: j.Dims, Labels: j.Labels, Scheme: scheme, Index: j.SupportIndices}
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
		case fit.Binary:
			ok = mc.Negative != nil && *mc.Negative == p.Labels[0] && mc.Positive == p.Labels[1] && !mc.Rest
		case fit.OneVsRest:
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
