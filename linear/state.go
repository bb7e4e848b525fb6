package linear

import (
	"fmt"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/fit"
)

// State is the whole state of a linear (not voted) model: the
// served weights and biases and the training state that Update continues
// (an averaged model's running weights CW, CB and averaging sums U, UB).
// It is how a program that applies the model's online rule itself (package
// online, which keeps two copies of the weights so that readers never
// wait) takes a model apart and puts it back together, bit for bit.
//
// Rows are score rows: 1 for fit.Binary, len(Labels) otherwise; W, CW and
// U hold Rows×Dims values row-major, B, CB and UB Rows values. CW, CB, U
// and UB are nil unless Algorithm is Averaged.
type State[T Float] struct {
	Scheme      fit.Scheme // fit.Binary, fit.OneVsRest or fit.Argmax
	Algorithm   Algorithm
	Dims        int
	Labels      []int // the sorted class labels: for fit.Binary {−1, +1}, or two others for DualCD (a positive score predicts the larger)
	Bias        bool
	BiasFeature float64 // B: the bias's steps are η·y·B²
	Scaling     Scaling
	Eta         float64 // Update's step size
	Steps       int64   // samples visited (0: unknown, a version-1 file)
	W, B        []T
	CW, CB      []T
	U, UB       []T
}

// Rows returns the number of score rows.
func (st *State[T]) Rows() int {
	if st.Scheme == fit.Binary {
		return 1
	}
	return len(st.Labels)
}

// State returns a copy of the model's state. A voted model has no
// linear state (ErrUnsupported); an untrained Model is ErrUntrained.
func (m *Model[T]) State() (State[T], error) {
	s, err := m.load()
	if err != nil {
		return State[T]{}, err
	}
	if s.voted() {
		return State[T]{}, fmt.Errorf("%w: a voted model has no linear state", ErrUnsupported)
	}
	s = s.withDenseAveraging()
	return State[T]{
		Scheme: s.scheme, Algorithm: s.algo, Dims: s.d, Labels: slices.Clone(s.labels),
		Bias: s.bias, BiasFeature: s.bfeat, Scaling: s.scaling, Eta: s.eta, Steps: s.steps,
		W: slices.Clone(s.W), B: slices.Clone(s.B),
		CW: slices.Clone(s.CW), CB: slices.Clone(s.CB), U: slices.Clone(s.U), UB: slices.Clone(s.UB),
	}, nil
}

// New returns the model of state st (its slices copied). Its files
// keep the training state (as with Options.Resumable) when st has one
// (Steps > 0). A state of the wrong shape is ErrOption.
func New[T Float](st State[T]) (*Model[T], error) {
	bad := func(f string, a ...any) error {
		return fmt.Errorf("%w: New: %s", ErrOption, fmt.Sprintf(f, a...))
	}
	switch {
	case st.Scheme != fit.Binary && st.Scheme != fit.OneVsRest && st.Scheme != fit.Argmax:
		return nil, bad("scheme %v is not a linear model's", st.Scheme)
	case st.Algorithm == Voted || st.Algorithm >= numAlgorithms:
		return nil, bad("algorithm %v has no linear state", st.Algorithm)
	case st.Dims < 1:
		return nil, bad("%d features", st.Dims)
	case st.Scheme == fit.Binary && st.Algorithm != DualCD && !slices.Equal(st.Labels, []int{-1, 1}):
		return nil, bad("a binary perceptron's labels are {−1, +1}, not %v", st.Labels)
	case st.Scheme == fit.Binary && (len(st.Labels) != 2 || st.Labels[0] >= st.Labels[1]):
		return nil, bad("a binary model has two labels, sorted, not %v", st.Labels)
	case st.Scheme != fit.Binary && (len(st.Labels) < 2 || !slices.IsSorted(st.Labels) || len(slices.Compact(slices.Clone(st.Labels))) != len(st.Labels)):
		return nil, bad("labels %v: at least two, sorted, distinct", st.Labels)
	case st.Steps < 0:
		return nil, bad("%d steps", st.Steps)
	case st.Algorithm == DualCD && (st.Scheme == fit.Argmax || st.Scaling != ScaleNone || st.Steps != 0):
		return nil, bad("a linear SVM (dual coordinate descent) is binary or one-vs-rest, unscaled, with no steps")
	}
	r := st.Rows()
	if len(st.W) != r*st.Dims || len(st.B) != r {
		return nil, bad("%d weights and %d biases for %d rows of %d features", len(st.W), len(st.B), r, st.Dims)
	}
	avg := st.Algorithm == Averaged && st.Steps > 0
	if avg && (len(st.CW) != r*st.Dims || len(st.U) != r*st.Dims || len(st.CB) != r || len(st.UB) != r) {
		return nil, bad("an averaged model's running weights and sums must have %d rows of %d features", r, st.Dims)
	}
	if avg && (!slices.Equal(averageOf(st.CW, st.U, st.Steps), st.W) || !slices.Equal(averageOf(st.CB, st.UB, st.Steps), st.B)) {
		return nil, bad("an averaged model's weights and biases must be running − sums/steps")
	}
	if !avg && (st.CW != nil || st.U != nil || st.CB != nil || st.UB != nil) {
		return nil, bad("running weights and sums belong to an averaged model with its state")
	}
	s := &state[T]{scheme: st.Scheme, algo: st.Algorithm, d: st.Dims, labels: slices.Clone(st.Labels),
		bias: st.Bias, bfeat: st.BiasFeature, scaling: st.Scaling, eta: st.Eta, steps: st.Steps,
		resumable: st.Steps > 0,
		W:         slices.Clone(st.W), B: slices.Clone(st.B)}
	if avg {
		s.CW, s.CB, s.U, s.UB = slices.Clone(st.CW), slices.Clone(st.CB), slices.Clone(st.U), slices.Clone(st.UB)
	}
	if !st.Bias && st.BiasFeature != 0 {
		return nil, bad("bias feature %v without a bias", st.BiasFeature)
	}
	return newModel(s), nil
}
