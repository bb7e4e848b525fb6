package perceptron

import (
	"errors"
	"math"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Kind is a model file's kind byte as the tests read it: a linear model's
// is fit.Scheme's value, a kernel perceptron's one of the kinds below.
type Kind uint8

// The kinds of the kernel perceptron's model files (package expansion
// writes them; model.Kind names them).
const (
	KindKernelBinary    Kind = 16
	KindKernelOneVsRest Kind = 17
	KindKernelArgmax    Kind = 18
	maxKernelIndex           = math.MaxInt32
	kernSpecSize             = modelfile.KernelSize
)

// IsKernel reports whether k is the kind of a kernel model.
func (k Kind) IsKernel() bool { return k >= 16 }

// kindOf is the file kind of the kernel perceptron model m.
func kindOf[T kernel.Float](m *expansion.Model[T]) Kind {
	switch m.Scheme() {
	case fit.OneVsRest:
		return KindKernelOneVsRest
	case fit.Argmax:
		return KindKernelArgmax
	}
	return KindKernelBinary
}

// algoOf is the algorithm that trained the kernel perceptron model m.
func algoOf[T kernel.Float](m *expansion.Model[T]) linear.Algorithm {
	a, _ := m.Algorithm()
	return linear.Algorithm(a)
}

// kstate is a kernel perceptron model's content as the tests read it.
type kstate[T kernel.Float] struct {
	kind   fit.Scheme
	algo   linear.Algorithm
	d      int
	labels []int
	idx    []int
	SV     []T
	ssv    *dataset.CSR[T]
	Coef   []T
	B      []T
	QOff   []int
	QIdx   []int32
	QStep  []T
	VOff   []int
	VPre   []int32
	VB     []T
	VC     []int64
}

// kernelState returns the content of the kernel perceptron model m.
func kernelState[T kernel.Float](m *expansion.Model[T]) *kstate[T] {
	p := m.Parts()
	s := &kstate[T]{kind: p.Scheme, algo: linear.Algorithm(p.Perceptron.Algorithm), d: p.Dims, labels: p.Labels, idx: p.Index,
		SV: p.SV, ssv: p.Sparse, Coef: p.Coef, B: p.Bias}
	if len(s.SV) == 0 {
		s.SV = nil
	}
	if v := p.Perceptron.Voted; v != nil {
		s.QOff, s.QIdx, s.QStep, s.VOff, s.VPre, s.VB, s.VC = v.QOff, v.QIdx, v.QStep, v.VOff, v.VPre, v.VB, v.VC
	}
	return s
}

func (s *kstate[T]) nsv() int    { return len(s.idx) }
func (s *kstate[T]) voted() bool { return s.algo == linear.Voted }

// svRows returns the dense support vectors of m, one slice per row (nil
// for sparse ones).
func svRows[T kernel.Float](m *expansion.Model[T]) [][]T {
	sv := m.SupportVectors()
	if len(sv) == 0 {
		return nil
	}
	out := make([][]T, m.NumSupport())
	for i := range out {
		out[i] = sv[i*m.Dims() : (i+1)*m.Dims()]
	}
	return out
}

// normalized reports whether the kernel perceptron model m scales its
// samples.
func normalized[T kernel.Float](m *expansion.Model[T]) bool {
	return m.Scaling() != linear.ScaleNone
}

const kernCodeLinear = modelfile.KernelLinear

// kernelErr is the sentinel of package expansion that a kernel model's
// decoding or scoring returns where this package's e was returned before
// the kernel perceptron's model moved there.
func kernelErr(e error) error {
	switch e {
	case linear.ErrCorrupt:
		return expansion.ErrCorrupt
	case linear.ErrVersion:
		return expansion.ErrVersion
	case linear.ErrMismatch:
		return expansion.ErrMismatch
	case linear.ErrDims:
		return expansion.ErrDims
	case linear.ErrNonFinite:
		return expansion.ErrNonFinite
	case linear.ErrUntrained:
		return expansion.ErrModel
	}
	return e
}

// isErr reports whether err wraps want, or the sentinel of package
// expansion a kernel model returns for it (kernelErr).
func isErr(err, want error) bool {
	return errors.Is(err, want) || errors.Is(err, kernelErr(want))
}

// decideLabel is the decision rule of the linear models (package linear's,
// restated as the tests' reference): for a binary model the sign of its one
// score (0 → −1), else the label of the highest score, the first on a tie
// (labels are sorted, so the smaller label).
func decideLabel[T kernel.Float](binary bool, labels []int, sc []T) int {
	if binary {
		if sc[0] > 0 {
			return 1
		}
		return -1
	}
	best := 0
	for k, a := range sc {
		if a > sc[best] {
			best = k
		}
	}
	return labels[best]
}
