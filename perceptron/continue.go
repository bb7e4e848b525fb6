package perceptron

import (
	"fmt"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// continueFrom trains a new model on the rows X (dense or CSR, labels y)
// starting from m, and returns it with the diagnostics
// of this run; m is not modified (and may keep serving). It is the warm
// start from a saved model: read a model file into a Model, then continue it (Fit with
// Options.Init the model).
//
// The model's scheme decides the problem: binary (labels ±1), one-vs-rest
// or the multiclass perceptron (fit.Argmax) over the model's classes
// (opt.Multiclass must be fit.Auto or that scheme, else ErrOption; fit.OneVsRest
// also continues a binary model); every label
// of y must be one of m.Classes(), but y need not hold all of them. X
// must have m.Dims() columns, and the options must scale samples as the model does
// (Normalize, NormalizeFeatures, NoBias as it was trained), else ErrOption;
// BiasFeature may be left 0 to keep the model's (Model.BiasFeature), and
// another value is an error.
//
// With opt.Algorithm the model's own algorithm, training resumes its state:
// the running weights and the averaging sums of Averaged (so the average
// goes on over the new samples: training two epochs without shuffling gives
// the model that one epoch and a continuation of one more epoch give, bit for
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
// Errors are those of train. The new model's Steps
// count the model's steps and this run's when it resumes the state, this
// run's otherwise.
func continueFrom[T kernel.Float](m *linear.Model[T], X dataset.Rows[T], y []int, opt Options) (*linear.Model[T], *Diagnostics, error) {
	s, err := linmodel.PartsOf[T](m)
	if err != nil {
		return nil, nil, err
	}
	if s.W == nil && s.Served != nil {
		s.W = s.Served.DenseW() // compact served weights, formed dense once
	}
	if opt.Init != nil {
		return nil, nil, fmt.Errorf("%w: a continuation starts from the model; it takes no Init", ErrOption)
	}
	if linear.Algorithm(s.Algorithm) == linear.DualCD {
		return nil, nil, fmt.Errorf("%w: a linear SVM (dual coordinate descent) is not continued by a perceptron rule; start from its weights with Init: perceptron.Weights", linear.ErrUnsupported)
	}
	cont := opt.Algorithm == linear.Algorithm(s.Algorithm)
	if opt.BiasFeature == 0 && s.Bias && !opt.NoBias {
		opt.BiasFeature = s.BiasFeature
	}
	if cont && linear.Algorithm(s.Algorithm) == linear.SVM && opt.Lambda == 0 && opt.C == 0 && s.Steps > 0 {
		opt.Lambda = s.Lambda
	}
	cfg, err := opt.resolve()
	if err != nil {
		return nil, nil, err
	}
	argmax := s.Scheme == fit.Argmax
	switch {
	case s.Scheme != fit.Binary && s.Scheme != fit.OneVsRest && !argmax:
		return nil, nil, fmt.Errorf("%w: continuing a %v model", linear.ErrUnsupported, s.Scheme)
	case opt.Multiclass != fit.Auto && opt.Multiclass != s.Scheme && (opt.Multiclass != fit.OneVsRest || s.Scheme != fit.Binary):
		return nil, nil, fmt.Errorf("%w: Multiclass = %v, but the model is %v", ErrOption, opt.Multiclass, s.Scheme)
	case argmax && cfg.algo != linear.Online && cfg.algo != linear.Averaged:
		return nil, nil, fmt.Errorf("%w: the Argmax scheme supports the Online and Averaged algorithms, not %v", ErrOption, cfg.algo)
	case cfg.scaling != linear.Scaling(s.Scaling):
		return nil, nil, fmt.Errorf("%w: the model's samples are scaled by %v, the options say %v (Normalize, NormalizeFeatures)", ErrOption, linear.Scaling(s.Scaling), cfg.scaling)
	case cfg.bias != s.Bias:
		return nil, nil, fmt.Errorf("%w: the model has bias %v, the options %v (NoBias)", ErrOption, s.Bias, cfg.bias)
	case cfg.bfeat != s.BiasFeature:
		return nil, nil, fmt.Errorf("%w: the model's bias feature is %v, the options give BiasFeature = %v", ErrOption, s.BiasFeature, cfg.bfeat)
	case cont && (linear.Algorithm(s.Algorithm) == linear.Averaged || linear.Algorithm(s.Algorithm) == linear.SVM) && s.Steps == 0:
		return nil, nil, fmt.Errorf("%w: the %v model holds no training state (read from a file written without Options.Resumable, or of version 1): it cannot continue; use another algorithm to start from its weights", linear.ErrUnsupported, linear.Algorithm(s.Algorithm))
	case !cont && linear.Algorithm(s.Algorithm) == linear.Voted:
		return nil, nil, fmt.Errorf("%w: a voted model has no single weight vector to start %v from; continue it with Voted", ErrOption, cfg.algo)
	case !cont && cfg.algo == linear.SVM:
		return nil, nil, fmt.Errorf("%w: SVM starts from 0 (its first Pegasos step multiplies w by 0); it cannot start from a %v model", ErrOption, linear.Algorithm(s.Algorithm))
	case cont && linear.Algorithm(s.Algorithm) == linear.SVM && cfg.c == 0 && cfg.lambda != s.Lambda:
		return nil, nil, fmt.Errorf("%w: the model's Pegasos ran with λ = %v, the options give %v", ErrOption, s.Lambda, cfg.lambda)
	}
	cols := -1
	switch x := X.(type) {
	case *dataset.Data[T]:
		if x != nil {
			cols = x.Cols
		}
	case *dataset.CSR[T]:
		if x != nil {
			cols = x.Cols
		}
	}
	if cols >= 0 && cols != s.Dims {
		return nil, nil, fmt.Errorf("%w: %d features, the model has %d", linear.ErrDims, cols, s.Dims)
	}
	n, _, err := checkRows(X, y)
	if err != nil {
		return nil, nil, err
	}
	if cont && linear.Algorithm(s.Algorithm) == linear.SVM && cfg.c != 0 {
		if lam := 1 / (cfg.c * float64(n)); lam != s.Lambda {
			return nil, nil, fmt.Errorf("%w: the model's Pegasos ran with λ = %v, C gives λ = 1/(C·N) = %v", ErrOption, s.Lambda, lam)
		}
	}
	cls := make([]int32, n)
	for i, v := range y {
		if s.Scheme == fit.Binary {
			switch v {
			case 1:
			case -1:
				cls[i] = -1
			default:
				return nil, nil, fmt.Errorf("%w: y[%d] = %d; a binary model takes −1 and +1", linear.ErrLabels, i, v)
			}
			continue
		}
		k, ok := slices.BinarySearch(s.Labels, v)
		if !ok {
			return nil, nil, fmt.Errorf("%w: y[%d] = %d is not one of the model's classes", linear.ErrLabels, i, v)
		}
		cls[i] = int32(k)
	}
	if err := checkElem[T](&cfg, n); err != nil {
		return nil, nil, err
	}
	if argmax {
		cfg.strategy = fit.Argmax
	}
	k := linmodel.KernelsFor[T](cfg.impl)
	dt, err := prepareRows(k, X, n, &cfg, true, cfg.algo != linear.SVM)
	if err != nil {
		return nil, nil, err
	}
	K := partsRows(s)
	start := startFrom(s, dt, K, cont)
	labels := slices.Clone(s.Labels)
	switch {
	case argmax:
		return newArgmaxTrainer(k, &cfg, dt, cls, K, start).run(labels)
	case s.Scheme == fit.Binary:
		return newLinTrainer(k, &cfg, dt, cls, 1, start).run(fit.Binary, labels)
	}
	return newLinTrainer(k, &cfg, dt, cls, K, start).run(fit.OneVsRest, labels)
}

// startFrom returns the trainers' start from the snapshot s in the layout
// of dt: its state if cont (same algorithm), else its served weights.
func startFrom[T kernel.Float](s *linmodel.Parts[T], dt *data[T], K int, cont bool) *linStart[T] {
	layout := func(w, b []T) ([]T, []T) {
		if dt.aug {
			return joinAug(w, b, s.Dims, K, s.BiasFeature), make([]T, K)
		}
		return slices.Clone(w), slices.Clone(b)
	}
	st := &linStart[T]{}
	switch {
	case cont && linear.Algorithm(s.Algorithm) == linear.Averaged:
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
	case cont && linear.Algorithm(s.Algorithm) == linear.Voted:
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
func partsRows[T kernel.Float](s *linmodel.Parts[T]) int {
	if s.Scheme == fit.Binary {
		return 1
	}
	return len(s.Labels)
}
