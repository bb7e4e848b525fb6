package svm

import (
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// expErrs are package expansion's file sentinels.
var expErrs = modelfile.Errors{Corrupt: expansion.ErrCorrupt, Version: expansion.ErrVersion, Mismatch: expansion.ErrMismatch}

// fileKind is the kind byte of an SVM model file, as the tests read it.
type fileKind uint8

// The kinds of the SVMs' model files: the kernel SVM's are package
// expansion's (the linear SVM's are package linear's).
const (
	KindKernelBinary    fileKind = 32
	KindKernelOneVsRest fileKind = 33
	KindKernelOneVsOne  fileKind = 34
)

func (k fileKind) IsKernel() bool { return k >= KindKernelBinary && k <= KindKernelOneVsOne }

// kernelKind is the file kind of a kernel SVM of scheme s.
func kernelKind(s fit.Scheme) fileKind {
	switch s {
	case fit.OneVsRest:
		return KindKernelOneVsRest
	case fit.OneVsOne:
		return KindKernelOneVsOne
	}
	return KindKernelBinary
}

// fileInfo is what inspect reads of a model file's header.
type fileInfo struct {
	Version, ElemBits     int
	Kind                  fileKind
	Dims, Labels, Support int
	Indices, Sparse       bool
}

// Inspect checks an SVM model file's envelope, header and size as the
// decoders do and describes it.
func Inspect(data []byte) (fileInfo, error) {
	var info fileInfo
	h, _, err := expErrs.Open(data)
	if err != nil {
		return info, err
	}
	info = fileInfo{Version: h.Version, ElemBits: h.ElemBits(), Kind: fileKind(h.Kind), Dims: h.Dims, Labels: h.Labels,
		Support: h.Count, Indices: h.Flags&1 != 0, Sparse: h.Flags&2 != 0}
	f := modelfile.Lookup(h.Kind)
	if f == nil {
		return info, expErrs.Corruptf("unknown model kind %d", h.Kind)
	}
	return info, expErrs.CheckSize(&h, data, f)
}

// EncodedSize is the size of the model file that begins with prefix.
func EncodedSize(prefix []byte) (size, need int64, err error) { return expErrs.EncodedSize(prefix) }

// kernelErr is the sentinel of package expansion that a kernel SVM's
// decoding or scoring returns where this package's e was returned before
// the kernel SVM's model moved there.
func kernelErr(e error) error {
	switch e {
	case ErrCorrupt:
		return expansion.ErrCorrupt
	case ErrVersion:
		return expansion.ErrVersion
	case ErrMismatch:
		return expansion.ErrMismatch
	case ErrModel:
		return expansion.ErrModel
	case ErrDims:
		return expansion.ErrDims
	case ErrNonFinite:
		return expansion.ErrNonFinite
	}
	return e
}
