package expansion

import (
	"fmt"
	"math"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// The kernel perceptron's variant of the expansion: its settings
// (Perceptron) and the voted perceptron's decision functions (Voted).

// clone returns a deep copy of p (nil for nil).
func (p *Perceptron[T]) clone() *Perceptron[T] {
	if p == nil {
		return nil
	}
	c := *p
	if v := p.Voted; v != nil {
		c.Voted = &Voted[T]{QOff: slices.Clone(v.QOff), QIdx: slices.Clone(v.QIdx), QStep: slices.Clone(v.QStep),
			VOff: slices.Clone(v.VOff), VPre: slices.Clone(v.VPre), VB: slices.Clone(v.VB), VC: slices.Clone(v.VC)}
	}
	return &c
}

// Algorithm returns the kernel perceptron's algorithm (linear.Online,
// linear.Averaged, linear.Voted), and false for an SVM.
func (m *Model[T]) Algorithm() (linear.Algorithm, bool) {
	if m.pc == nil {
		return 0, false
	}
	return m.pc.Algorithm, true
}

// HasBias reports whether the model has bias terms (an SVM always has,
// unless trained without; its biases are then 0).
func (m *Model[T]) HasBias() bool {
	if m.pc == nil {
		return m.d > 0
	}
	return m.pc.HasBias
}

// BiasFeature returns the value B of the constant feature that carries a
// kernel perceptron's bias (1 by default, 0 without a bias); 1 for an SVM.
func (m *Model[T]) BiasFeature() float64 {
	if m.pc == nil {
		return 1
	}
	return m.pc.BiasFeature
}

// checkPerceptron checks the perceptron's part of p against r decision
// functions of s support vectors. Errors wrap ErrModel.
func checkPerceptron[T Float](p *Parts[T], r, s int) error {
	pc := p.Perceptron
	switch pc.Algorithm {
	case linear.Online, linear.Averaged, linear.Voted:
	default:
		return fmt.Errorf("%w: a kernel perceptron trained by %v", ErrModel, pc.Algorithm)
	}
	if p.Scheme == fit.Argmax && pc.Algorithm == linear.Voted {
		return fmt.Errorf("%w: a voted argmax model", ErrModel)
	}
	if p.Scheme == fit.Binary && (p.Labels[0] != -1 || p.Labels[1] != 1) {
		return fmt.Errorf("%w: a binary kernel perceptron's labels are %v, want [-1 1]", ErrModel, p.Labels)
	}
	if _, ok := p.Kernel.(gram.Sigmoid); ok {
		return fmt.Errorf("%w: a kernel perceptron with the sigmoid kernel (the kernel perceptron takes the linear, polynomial and RBF kernels)", ErrModel)
	}
	if !finitePositive(pc.Eta) {
		return fmt.Errorf("%w: η = %v", ErrModel, pc.Eta)
	}
	switch {
	case pc.Scaling > linear.ScaleFeatures:
		return fmt.Errorf("%w: scaling %d", ErrModel, pc.Scaling)
	case !pc.HasBias && pc.BiasFeature != 0,
		pc.HasBias && (!finitePositive(pc.BiasFeature) || !finitePositive(float64(T(pc.BiasFeature*pc.BiasFeature)))):
		return fmt.Errorf("%w: bias feature %v (bias %v)", ErrModel, pc.BiasFeature, pc.HasBias)
	}
	if s < 1 || s > math.MaxInt32 || len(p.Index) != s {
		return fmt.Errorf("%w: %d support vectors with %d indices", ErrModel, s, len(p.Index))
	}
	v := pc.Voted
	if pc.Algorithm != linear.Voted {
		if v != nil || uint64(len(p.Coef)) != uint64(r)*uint64(s) || len(p.Bias) != r {
			return fmt.Errorf("%w: %d coefficients and %d biases for %d functions of %d support vectors", ErrModel, len(p.Coef), len(p.Bias), r, s)
		}
		return nil
	}
	if v == nil || p.Coef != nil || p.Bias != nil || len(v.QOff) != r+1 || len(v.VOff) != r+1 || v.QOff[0] != 0 || v.VOff[0] != 0 ||
		v.QOff[r] != len(v.QIdx) || len(v.QStep) != len(v.QIdx) ||
		v.VOff[r] != len(v.VC) || len(v.VPre) != len(v.VC) || len(v.VB) != len(v.VC) {
		return fmt.Errorf("%w: inconsistent voted model sizes", ErrModel)
	}
	for k := range r {
		if v.QOff[k+1] < v.QOff[k] || v.VOff[k+1] < v.VOff[k] {
			return fmt.Errorf("%w: negative count in score row %d", ErrModel, k)
		}
		q := int32(v.QOff[k+1] - v.QOff[k])
		prev := int32(0)
		for j := v.VOff[k]; j < v.VOff[k+1]; j++ {
			if pre := v.VPre[j]; pre < prev || pre > q {
				return fmt.Errorf("%w: kept function %d has prefix %d (previous %d, %d mistakes)", ErrModel, j, pre, prev, q)
			}
			prev = v.VPre[j]
		}
	}
	for i, q := range v.QIdx {
		if q < 0 || int(q) >= s {
			return fmt.Errorf("%w: mistake %d names support vector %d of %d", ErrModel, i, q, s)
		}
	}
	for _, c := range v.VC {
		if c <= 0 {
			return fmt.Errorf("%w: survival count %d ≤ 0", ErrModel, c)
		}
	}
	if !finite(v.QStep) || !finite(v.VB) {
		return fmt.Errorf("%w: NaN or infinite value", ErrModel)
	}
	return nil
}

// finitePositive reports whether v is finite and > 0.
func finitePositive(v float64) bool { return v > 0 && !math.IsInf(v, 1) }

// kernelValue returns k as the value type gram.Linear, gram.Polynomial,
// gram.RBF or gram.Sigmoid (a pointer to one is dereferenced), validated;
// errors wrap ErrModel.
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
