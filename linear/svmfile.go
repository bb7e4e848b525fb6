package linear

import (
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// The linear SVM's files of kinds 40 (binary) and 41 (one-vs-rest), which
// package svm wrote for its own model type before the linear SVM became a
// Model trained by DualCD: the 40-byte header (flags 0, count 0, the
// algorithm byte 0), the L labels, then R·D weights (one row per
// decision function) and R biases of the element type, R = 1 (binary) or L,
// and the CRC-32C. They are read, never written: a linear SVM is written in
// this package's format (kind 1 or 2, algorithm DualCD), with the used
// columns alone where that is smaller. The JSON form of those files
// (format "rosenblatt-svm", kind "linear-binary" or "linear-ovr") holds the
// labels, weights and biases under the names of this package's.
const (
	kindSVMBinary    = 40
	kindSVMOneVsRest = 41
)

// svmFamily is the family of those kinds.
var svmFamily = &modelfile.Family{Name: "linear SVM", BodySize: svmBodySize,
	Kinds: []byte{kindSVMBinary, kindSVMOneVsRest}}

func init() {
	modelfile.Register(svmFamily)
}

// svmBodySize is svmFamily's modelfile.Family.BodySize.
func svmBodySize(e modelfile.Errors, h *modelfile.Header, _ []byte, sz *modelfile.Sizer) (uint64, error) {
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

// isSVMFile reports whether data is a file of kind 40 or 41 (byte 11 of
// the header).
func isSVMFile(data []byte) bool {
	return len(data) > 11 && string(data[:len(fileMagic)]) == fileMagic &&
		(data[11] == kindSVMBinary || data[11] == kindSVMOneVsRest)
}

// unmarshalSVM decodes a file of kind 40 or 41 into m.
func (m *Model[T]) unmarshalSVM(data []byte) error {
	h, r, err := modelfile.OpenFamily[T](fileErrs, data, svmFamily)
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
	scheme := fit.Binary
	if h.Kind == kindSVMOneVsRest {
		scheme = fit.OneVsRest
	}
	return m.publish(svmState(scheme, h.Dims, labels, modelfile.Decode[T](w, h.ElemSize), modelfile.Decode[T](b, h.ElemSize)))
}

// svmState is the snapshot of a linear SVM read from a file of kind 40 or
// 41 (or its JSON form): DualCD, with a bias whose feature is unknown (the
// files did not record it; 1, which only Update and normalisation would
// read, and neither applies).
func svmState[T Float](scheme fit.Scheme, d int, labels []int, W, B []T) *state[T] {
	return &state[T]{scheme: scheme, algo: DualCD, d: d, labels: labels, bias: true, bfeat: 1, eta: 1, W: W, B: B}
}

// unmarshalSVMJSON makes the decoded JSON document j of a file of kind 40
// or 41 m's model. Its labels, weights and biases have the names of this
// package's documents (and a null where they may be is an empty list,
// which the sizes refuse).
func (m *Model[T]) unmarshalSVMJSON(j *jsonModel[T]) error {
	scheme := fit.Binary
	switch j.Kind {
	case "linear-binary":
	case "linear-ovr":
		scheme = fit.OneVsRest
	case "kernel-binary", "kernel-ovr", "kernel-ovo":
		return fileErrs.Mismatchf("a kernel SVM (kind %q); read it with expansion.Model", j.Kind)
	default:
		return fileErrs.Corruptf("kind %q", j.Kind)
	}
	if err := modelfile.CheckSVMJSONHeader[T](fileErrs, &j.JSONHeader, len(j.Labels)); err != nil {
		return err
	}
	want := 1
	if scheme == fit.OneVsRest {
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
	return m.publish(svmState(scheme, j.Dims, j.Labels, modelfile.Flat(j.Weights), j.Biases))
}
