package perceptron

import (
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

// continueDense trains a new model on the row-major samples X (cols features
// per row, labels y) starting from m, and returns it with the diagnostics
// of this run; m is not modified (and may keep serving). It is the warm
// start from a saved model: read a model file into a Model, then continueDense.
//
// The model's kind decides the problem: binary (labels ±1), one-vs-rest or
// the multiclass perceptron (Argmax) over the model's classes; every label
// of y must be one of m.Classes(), but y need not hold all of them. cols
// must be m.Dims(), and the options must scale samples as the model does
// (Normalize, NormalizeFeatures, NoBias as it was trained), else ErrOption;
// BiasFeature may be left 0 to keep the model's (Model.BiasFeature), and
// another value is an error.
//
// With opt.Algorithm the model's own algorithm, training resumes its state:
// the running weights and the averaging sums of Averaged (so the average
// goes on over the new samples: training two epochs without shuffling gives
// the model that one epoch and a continueDense of one more epoch give, bit for
// bit on integer-valued data), the kept vectors and survival counts of
// Voted (its last vector per class is the running one), and the step count
// of SVM (the next Pegasos step is t = Steps() + 1; Lambda and C may be
// left 0 to keep the model's λ, and another λ is an error). Other
// algorithms start from the model's served weights and biases as w₀ and
// b₀: an averaged model's average, for example, or Online's weights for an
// averaged run, which then averages over the new samples only. A voted
// model has no single weight vector to start another algorithm from, SVM
// cannot start from given weights (see Weights), and an averaged or
// SVM model read from a version-1 file has no state to resume: those are
// errors (ErrOption, ErrUnsupported). Options.Init is
// not taken (the model is the start).
//
// Errors are those of trainBinary and trainMulti. The new model's Steps
// count the model's steps and this run's when it resumes the state, this
// run's otherwise.
func continueDense[T Float](m *linear.Model[T], X []T, cols int, y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	return continueOn(m, opt, y, func(s *linmodel.Parts[T]) (int, error) {
		if cols != s.Dims {
			return 0, fmt.Errorf("%w: %d features, the model has %d", ErrDims, cols, s.Dims)
		}
		return checkShape(X, cols, y)
	}, func(k modelkern.Kernels[T], cfg *config, n int) (*data[T], error) {
		return prepare(k, X, n, cols, cfg.scaling, cfg.bfeat, true)
	})
}

// continueSparse is continueDense for a CSR matrix: the training goes on at
// O(nnz) per epoch (see trainBinarySparse), and on integer-valued data gives the
// model continueDense gives for the dense form of X. X.Cols must be m.Dims().
func continueSparse[T Float](m *linear.Model[T], X *dataset.CSR[T], y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	return continueOn(m, opt, y, func(s *linmodel.Parts[T]) (int, error) {
		if X != nil && X.Cols != s.Dims {
			return 0, fmt.Errorf("%w: %d features, the model has %d", ErrDims, X.Cols, s.Dims)
		}
		return checkCSR(X, y)
	}, func(k modelkern.Kernels[T], cfg *config, n int) (*data[T], error) {
		return prepareSparse(k, X, cfg.scaling, cfg.bfeat, true, cfg.algo != SVM)
	})
}

// continueOn is continueDense with the data's checks (returning the number of
// samples) and preparation given as functions.
func continueOn[T Float](m *linear.Model[T], opt Options, y []int, shape func(*linmodel.Parts[T]) (int, error),
	prep func(modelkern.Kernels[T], *config, int) (*data[T], error)) (*linear.Model[T], *Diagnostics, error) {
	s, err := linmodel.PartsOf[T](m)
	if err != nil {
		return nil, nil, err
	}
	if s.W == nil && s.Served != nil {
		s.W = s.Served.DenseW() // compact served weights, formed dense once
	}
	if opt.Init != nil {
		return nil, nil, fmt.Errorf("%w: continueDense starts from the model; it takes no Init", ErrOption)
	}
	cont := opt.Algorithm == Algorithm(s.Algorithm)
	if opt.BiasFeature == 0 && s.Bias && !opt.NoBias {
		opt.BiasFeature = s.BiasFeature
	}
	if cont && Algorithm(s.Algorithm) == SVM && opt.Lambda == 0 && opt.C == 0 && s.Steps > 0 {
		opt.Lambda = s.Lambda
	}
	cfg, err := opt.resolve()
	if err != nil {
		return nil, nil, err
	}
	argmax := linear.Kind(s.Kind) == linear.KindArgmax
	switch {
	case linear.Kind(s.Kind) != linear.KindBinary && linear.Kind(s.Kind) != linear.KindOneVsRest && !argmax:
		return nil, nil, fmt.Errorf("%w: continueDense on a %v model", ErrUnsupported, linear.Kind(s.Kind))
	case opt.Multiclass == Argmax && !argmax:
		return nil, nil, fmt.Errorf("%w: the Argmax strategy, but the model is %v", ErrOption, linear.Kind(s.Kind))
	case argmax && cfg.algo != Online && cfg.algo != Averaged:
		return nil, nil, fmt.Errorf("%w: the Argmax strategy supports the Online and Averaged algorithms, not %v", ErrOption, cfg.algo)
	case cfg.scaling != Scaling(s.Scaling):
		return nil, nil, fmt.Errorf("%w: the model's samples are scaled by %v, the options say %v (Normalize, NormalizeFeatures)", ErrOption, Scaling(s.Scaling), cfg.scaling)
	case cfg.bias != s.Bias:
		return nil, nil, fmt.Errorf("%w: the model has bias %v, the options %v (NoBias)", ErrOption, s.Bias, cfg.bias)
	case cfg.bfeat != s.BiasFeature:
		return nil, nil, fmt.Errorf("%w: the model's bias feature is %v, the options give BiasFeature = %v", ErrOption, s.BiasFeature, cfg.bfeat)
	case cont && (Algorithm(s.Algorithm) == Averaged || Algorithm(s.Algorithm) == SVM) && s.Steps == 0:
		return nil, nil, fmt.Errorf("%w: the %v model holds no training state (read from a file written without Options.Resumable, or of version 1): it cannot continue; use another algorithm to start from its weights", ErrUnsupported, Algorithm(s.Algorithm))
	case !cont && Algorithm(s.Algorithm) == Voted:
		return nil, nil, fmt.Errorf("%w: a voted model has no single weight vector to start %v from; continue it with Voted", ErrOption, cfg.algo)
	case !cont && cfg.algo == SVM:
		return nil, nil, fmt.Errorf("%w: SVM starts from 0 (its first Pegasos step multiplies w by 0); it cannot start from a %v model", ErrOption, Algorithm(s.Algorithm))
	case cont && Algorithm(s.Algorithm) == SVM && cfg.c == 0 && cfg.lambda != s.Lambda:
		return nil, nil, fmt.Errorf("%w: the model's Pegasos ran with λ = %v, the options give %v", ErrOption, s.Lambda, cfg.lambda)
	}
	n, err := shape(s)
	if err != nil {
		return nil, nil, err
	}
	if cont && Algorithm(s.Algorithm) == SVM && cfg.c != 0 {
		if lam := 1 / (cfg.c * float64(n)); lam != s.Lambda {
			return nil, nil, fmt.Errorf("%w: the model's Pegasos ran with λ = %v, C gives λ = 1/(C·N) = %v", ErrOption, s.Lambda, lam)
		}
	}
	cls := make([]int32, n)
	for i, v := range y {
		if linear.Kind(s.Kind) == linear.KindBinary {
			switch v {
			case 1:
			case -1:
				cls[i] = -1
			default:
				return nil, nil, fmt.Errorf("%w: y[%d] = %d; a binary model takes −1 and +1", ErrLabels, i, v)
			}
			continue
		}
		k, ok := slices.BinarySearch(s.Labels, v)
		if !ok {
			return nil, nil, fmt.Errorf("%w: y[%d] = %d is not one of the model's classes", ErrLabels, i, v)
		}
		cls[i] = int32(k)
	}
	if err := checkElem[T](&cfg, n); err != nil {
		return nil, nil, err
	}
	if argmax {
		cfg.strategy = Argmax
	}
	k := kernelsFor[T](cfg.impl)
	dt, err := prep(k, &cfg, n)
	if err != nil {
		return nil, nil, err
	}
	K := partsRows(s)
	start := startFrom(s, dt, K, cont)
	labels := slices.Clone(s.Labels)
	switch {
	case argmax:
		return newArgmaxTrainer(k, &cfg, dt, cls, K, start).run(labels)
	case linear.Kind(s.Kind) == linear.KindBinary:
		return newLinTrainer(k, &cfg, dt, cls, 1, start).run(linear.KindBinary, labels)
	}
	return newLinTrainer(k, &cfg, dt, cls, K, start).run(linear.KindOneVsRest, labels)
}

// startFrom returns the trainers' start from the snapshot s in the layout
// of dt: its state if cont (same algorithm), else its served weights.
func startFrom[T Float](s *linmodel.Parts[T], dt *data[T], K int, cont bool) *linStart[T] {
	layout := func(w, b []T) ([]T, []T) {
		if dt.aug {
			return joinAug(w, b, s.Dims, K, s.BiasFeature), make([]T, K)
		}
		return slices.Clone(w), slices.Clone(b)
	}
	st := &linStart[T]{}
	switch {
	case cont && Algorithm(s.Algorithm) == Averaged:
		CW, U := s.CW, s.U
		if s.Avg != nil {
			CW, U = s.Avg.Dense(partsRows(s), s.Dims)
		}
		if s.Avg != nil && !dt.aug { // formed afresh: no need for copies
			st.W, st.B, st.U, st.UB = CW, slices.Clone(s.CB), U, slices.Clone(s.UB)
		} else {
			st.W, st.B = layout(CW, s.CB)
			st.U, st.UB = layout(U, s.UB)
		}
		st.step = s.Steps
	case cont && Algorithm(s.Algorithm) == Voted:
		d := dt.d
		st.W, st.B = make([]T, K*d), make([]T, K)
		st.vot = make([]votedStart[T], K)
		for c := range K {
			lo, hi := s.VOff[c], s.VOff[c+1]
			v := &st.vot[c]
			for j := lo; j < hi; j++ {
				w, b := s.V[j*s.Dims:(j+1)*s.Dims], s.VB[j]
				if dt.aug {
					w, b = joinAug(w, []T{b}, s.Dims, 1, s.BiasFeature), 0
				}
				if j == hi-1 { // the running vector
					copy(st.W[c*d:(c+1)*d], w)
					st.B[c], v.cnt = b, s.VC[j]
					break
				}
				v.V = append(v.V, w...)
				v.VB = append(v.VB, b)
				v.VC = append(v.VC, s.VC[j])
			}
		}
		st.step = s.Steps
	default:
		st.W, st.B = layout(s.W, s.B)
		if cont {
			st.step = s.Steps
		}
	}
	return st
}

// partsRows returns the number of score rows of a linear model's parts.
func partsRows[T Float](s *linmodel.Parts[T]) int {
	if linear.Kind(s.Kind) == linear.KindBinary {
		return 1
	}
	return len(s.Labels)
}
