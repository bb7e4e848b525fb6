package modelfile

import (
	"fmt"
	"math"
)

// The SVMs' files (kernel SVMs: package expansion, kinds 32–34; linear
// SVMs: kinds 40 and 41) share their header rules: format version 2, the
// algorithm byte and the float64 parameter 0, and R = 1 (binary), L
// (one-vs-rest) or L(L−1)/2 (one-vs-one) decision functions.

// SVMFuncs returns the number of decision functions R of an SVM file's
// header: 1 (kinds 32 and 40), L (33 and 41) or L(L−1)/2 (34), L ≤ 2²⁴.
func SVMFuncs(h *Header) uint64 {
	l := uint64(h.Labels)
	switch h.Kind {
	case 33, 41:
		return l
	case 34:
		return l * (l - 1) / 2
	}
	return 1
}

// CheckSVMHeader checks the header fields both SVM families read alike:
// SVM kinds exist from format version 2 on; the algorithm byte and the
// float64 parameter are 0; a binary model has two labels.
func CheckSVMHeader(e Errors, h *Header) error {
	switch {
	case h.Version > Version:
		return fmt.Errorf("%w: an SVM model (kind %d) in a version-%d file: this package reads SVM models of version %d", e.Version, h.Kind, h.Version, Version)
	case h.Version != Version:
		return e.Corruptf("an SVM model (kind %d) in a version-%d file: SVM models are version %d", h.Kind, h.Version, Version)
	case h.Algorithm != 0:
		return e.Corruptf("algorithm byte %d, want 0", h.Algorithm)
	case math.Float64bits(h.Param) != 0:
		return e.Corruptf("parameter %v, want 0", h.Param)
	case (h.Kind == 32 || h.Kind == 40) && h.Labels != 2:
		return e.Corruptf("a binary model with %d labels", h.Labels)
	}
	return nil
}

// OpenFamily checks a whole file of family f for a model of element type
// T: the envelope, the kind, the element type, the family's header fields
// and the file's size against the header, so that every read of the body
// fits (and no product of header counts overflows).
func OpenFamily[T Float](e Errors, data []byte, f *Family) (Header, *Reader, error) {
	h, r, err := e.Open(data)
	if err != nil {
		return h, nil, err
	}
	if Lookup(h.Kind) != f {
		return h, nil, e.Otherwise(f, h.Kind)
	}
	if es := ElemSize[T](); h.ElemSize != es {
		return h, nil, e.Mismatchf("the file holds %s values, the model is %s", ElemName(h.ElemSize), ElemName(es))
	}
	if err := e.CheckSize(&h, data, f); err != nil {
		return h, nil, err
	}
	return h, r, nil
}

// CheckSize compares a file's length with the one its header (and the
// counts its body holds, as f.BodySize reads them) implies.
func (e Errors) CheckSize(h *Header, data []byte, f *Family) error {
	n := len(data)
	var sz Sizer
	sz.Add(HeaderSize, 1)
	sz.Add(uint64(h.Labels), 8)
	var body []byte
	if start := uint64(HeaderSize) + 8*uint64(h.Labels); start <= uint64(n) {
		body = data[start:]
	}
	need, err := f.BodySize(e, h, body, &sz)
	if err != nil {
		return err
	}
	if need > 0 {
		return e.Corruptf("the file ends within its body (%d bytes, truncated)", n)
	}
	sz.Add(SumSize, 1)
	switch {
	case sz.Over:
		return e.Corruptf("the header implies more than 2^63 bytes, the file has %d (truncated)", n)
	case sz.N != uint64(n):
		return e.Corruptf("the header implies %d bytes, the file has %d (truncated or padded)", sz.N, n)
	}
	return nil
}

// SVMLimits checks that a model's sizes fit the file format; the error
// wraps invalid.
func SVMLimits(invalid error, d, labels, support int) error {
	if d > MaxDims || labels > MaxLabels || support > math.MaxInt32 {
		return fmt.Errorf("%w: %d features, %d labels and %d support vectors exceed the file format's 2^30, 2^24 and 2^31−1", invalid, d, labels, support)
	}
	return nil
}

// SVMJSONFormat is the format name of the SVMs' JSON documents, and
// SVMJSONAlgorithm their algorithm field (and 0 the header's algorithm
// byte): the models do not record their solver.
const (
	SVMJSONFormat    = "rosenblatt-svm"
	SVMJSONAlgorithm = "svm"
)

// CheckSVMJSONHeader checks what the SVMs' JSON forms share: version 2,
// the element type, the algorithm, and sizes the binary format can hold.
func CheckSVMJSONHeader[T Float](e Errors, h *JSONHeader, labels int) error {
	if h.Version > Version {
		return fmt.Errorf("%w: an SVM model in a version-%d document: this package reads SVM models of version %d", e.Version, h.Version, Version)
	}
	if h.Version != Version {
		return e.Corruptf("an SVM model in a version-%d document: SVM models are version %d", h.Version, Version)
	}
	if err := CheckType[T](e, h); err != nil {
		return err
	}
	switch {
	case h.Algorithm != SVMJSONAlgorithm:
		return e.Corruptf("algorithm %q, want %q", h.Algorithm, SVMJSONAlgorithm)
	case h.Dims < 1 || h.Dims > MaxDims:
		return e.Corruptf("%d features", h.Dims)
	case labels < 2 || labels > MaxLabels:
		return e.Corruptf("%d labels", labels)
	}
	return nil
}
