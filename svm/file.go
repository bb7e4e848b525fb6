package svm

import (
	"encoding/json"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// The linear SVM's model files (kinds 40 and 41) in the module's one
// model-file envelope (package internal/modelfile): the 40-byte header,
// the labels, the body and a CRC-32C. The kernel SVM's (kinds 32–34) are
// package expansion's.

// The kinds of linear SVM model files (model.Kind names them).
const (
	kindLinearBinary    = 40
	kindLinearOneVsRest = 41
)

// linearKind returns the file kind of a linear SVM of scheme s, and its
// name in the JSON form.
func linearKind(s Scheme) (byte, string) {
	if s == OneVsRest {
		return kindLinearOneVsRest, "linear-ovr"
	}
	return kindLinearBinary, "linear-binary"
}

var fileErrs = modelfile.Errors{Corrupt: ErrCorrupt, Version: ErrVersion, Mismatch: ErrMismatch}

// linearFamily is the linear SVMs' family of kinds.
var linearFamily = &modelfile.Family{Name: "linear SVM", BodySize: linearBodySize,
	Kinds: []byte{kindLinearBinary, kindLinearOneVsRest}}

func init() {
	modelfile.Register(linearFamily)
}

// linearBodySize is the linear family's modelfile.Family.BodySize.
func linearBodySize(e modelfile.Errors, h *modelfile.Header, _ []byte, sz *modelfile.Sizer) (uint64, error) {
	if err := modelfile.CheckSVMHeader(e, h); err != nil {
		return 0, err
	}
	switch {
	case h.Flags != 0:
		return 0, e.Corruptf("unknown flags %#x", h.Flags)
	case h.Count != 0:
		return 0, e.Corruptf("a linear model with a count of %d", h.Count)
	}
	sz.Add(sz.Mul(modelfile.SVMFuncs(h), uint64(h.Dims)+1), uint64(h.ElemSize))
	return 0, nil
}

// MarshalBinary encodes the linear model in the module's model-file
// envelope (package expansion's Model.MarshalBinary describes the
// header) with Kind 40 (binary) or 41 (one-vs-rest), flags 0
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
	if err := modelfile.SVMLimits(ErrModel, m.d, len(m.labels), 0); err != nil {
		return nil, err
	}
	es := modelfile.ElemSize[T]()
	kind, _ := linearKind(m.scheme)
	h := modelfile.Header{ElemSize: es, Kind: kind, Dims: m.d}
	w := modelfile.New(h, m.labels, es*(len(m.w)+len(m.b)))
	modelfile.Elems(w, m.w)
	modelfile.Elems(w, m.b)
	return w.Finish(), nil
}

// UnmarshalBinary decodes a linear model written by MarshalBinary into m,
// with the checks of expansion.Model.UnmarshalBinary (ErrCorrupt, ErrVersion,
// ErrMismatch; a kernel model's file is ErrMismatch). On error m is left
// as it was; it must not run while other goroutines use m.
func (m *LinearModel[T]) UnmarshalBinary(data []byte) error {
	h, r, err := modelfile.OpenFamily[T](fileErrs, data, linearFamily)
	if err != nil {
		return err
	}
	nf := modelfile.SVMFuncs(&h)
	labels := r.Labels(h.Labels)
	w := r.Take(nf*uint64(h.Dims), uint64(h.ElemSize), "weights")
	b := r.Take(nf, uint64(h.ElemSize), "biases")
	if err := r.Close(); err != nil {
		return err
	}
	return m.set(modelfile.Decode[T](w, h.ElemSize), h.Dims, modelfile.Decode[T](b, h.ElemSize), labels, linearScheme(h.Kind))
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
	if err := modelfile.SVMLimits(ErrModel, m.d, len(m.labels), 0); err != nil {
		return nil, err
	}
	_, name := linearKind(m.scheme)
	j := jsonLinear[T]{JSONHeader: modelfile.NewJSONHeader[T](modelfile.SVMJSONFormat, name, modelfile.SVMJSONAlgorithm, m.d),
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
	if err := fileErrs.Unmarshal(data, &j, &j.JSONHeader, modelfile.SVMJSONFormat, "support_indices", "sparse_support_vectors", "features", "values"); err != nil {
		return err
	}
	var scheme Scheme
	switch j.Kind {
	case "linear-binary":
		scheme = Binary
	case "linear-ovr":
		scheme = OneVsRest
	case "kernel-binary", "kernel-ovr", "kernel-ovo":
		return fileErrs.Mismatchf("a kernel model (kind %q); read it with expansion.Model", j.Kind)
	default:
		return fileErrs.Corruptf("kind %q", j.Kind)
	}
	if err := modelfile.CheckSVMJSONHeader[T](fileErrs, &j.JSONHeader, len(j.Labels)); err != nil {
		return err
	}
	want := 1
	if scheme == OneVsRest {
		want = len(j.Labels)
	}
	if len(j.Weights) != want || len(j.Biases) != want {
		return fileErrs.Corruptf("%d weight rows and %d biases for %d labels, want %d", len(j.Weights), len(j.Biases), len(j.Labels), want)
	}
	for _, w := range j.Weights {
		if len(w) != j.Dims {
			return fileErrs.Corruptf("a weight row of %d values, want %d", len(w), j.Dims)
		}
	}
	return m.set(modelfile.Flat(j.Weights), j.Dims, j.Biases, j.Labels, scheme) // the decoded rows' own array: no copy
}

// linearScheme is the scheme of a linear SVM file's kind.
func linearScheme(kind byte) Scheme {
	if kind == kindLinearOneVsRest {
		return OneVsRest
	}
	return Binary
}
