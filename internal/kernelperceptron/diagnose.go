package kernelperceptron

import (
	"math"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
)

// kdiag returns K(xᵢ, xᵢ) from the squared norm of xᵢ.
func kdiag(kern gram.Kernel, sq float64) float64 {
	switch k := kern.(type) {
	case gram.Polynomial:
		return math.Pow(k.Gamma*sq+k.Coef0, float64(k.Degree))
	case gram.RBF:
		return 1
	}
	return sq
}

// diagnose fills the model-level diagnostics from the kept decision values:
// for the plain perceptron they are the final model's, for the averaged one
// F − UF/steps (and b − UB/steps); no pass over the data is needed. The
// margins are those of the kernel's feature space,
// ‖w‖² = Σⱼ coefⱼ·(f(xⱼ) − b) = coefᵀ·G·coef, with the rows as the kernel
// sees them (scaled by sⱼ under Normalize, whose bias feature is then sⱼ):
// Margin and Radius of the points φ(xⱼ)/sⱼ, the augmented pair of
// (φ(xⱼ), bias feature). Voted models are not evaluated, as for the linear
// models.
func (t *Trainer[T]) diagnose(kern gram.Kernel, diag *perceptrontrain.Diagnostics) {
	n := t.dt.N
	scale := func(j int) float64 {
		if t.dt.Scale == nil {
			return 1
		}
		return t.dt.Scale[j]
	}
	beta := func(j int) float64 { // the bias feature: bⱼ·B
		if !t.cfg.Bias {
			return 0
		}
		return float64(t.bf(j)) * t.cfg.BiasFeature
	}
	r2, r2aug := 0.0, 0.0
	for j, v := range t.dt.Sq {
		kd, sj, bj := kdiag(kern, v), scale(j), beta(j)
		r2 = max(r2, kd/(sj*sj))
		r2aug = max(r2aug, kd+bj*bj)
	}
	diag.Radius, diag.RadiusAugmented = math.Sqrt(r2), math.Sqrt(r2aug)
	for c := range diag.Classes {
		diag.Classes[c].Radius, diag.Classes[c].RadiusAugmented = diag.Radius, diag.RadiusAugmented
	}
	if t.vot != nil {
		return
	}
	steps := float64(t.step)
	fval := func(c, j int) float64 { // decision value without bias
		v := float64(t.F[c*n+j])
		if t.U != nil {
			v -= float64(t.UF[c*n+j]) / steps
		}
		return v
	}
	coef := func(c, j int) float64 {
		v := float64(t.A[c*n+j])
		if t.U != nil {
			v -= float64(t.U[c*n+j]) / steps
		}
		return v
	}
	bias := func(c int) float64 {
		v := float64(t.B[c])
		if t.U != nil {
			v -= float64(t.UB[c]) / steps
		}
		return v
	}
	scores := make([]float64, t.K)
	ok, mcLoss := 0, 0.0
	type acc struct {
		mistakes    int
		loss, norm2 float64
		minMargin   float64 // min y·f(xⱼ)
		minRaw      float64 // min y·f(xⱼ)/sⱼ, before ScaleAugmented's factor
	}
	cs := make([]acc, t.K)
	for c := range cs {
		cs[c].minMargin, cs[c].minRaw = math.Inf(1), math.Inf(1)
	}
	for j := range n {
		yc := int(t.cls[j])
		best, nan := 0, false
		for c := range t.K {
			f := fval(c, j)
			scores[c] = f + bias(c)*float64(t.bf(j))
			if scores[c] > scores[best] {
				best = c
			}
			nan = nan || math.IsNaN(scores[c])
			if a := coef(c, j); a != 0 {
				cs[c].norm2 += a * f
			}
			m := scores[c]
			if yc != c {
				m = -m
			}
			if !(m > 0) { // a NaN score is a mistake
				cs[c].mistakes++
				cs[c].loss -= m
			}
			cs[c].minMargin = min(cs[c].minMargin, m)
			cs[c].minRaw = min(cs[c].minRaw, m/scale(j))
		}
		if t.K == 1 {
			continue
		}
		if best == yc && !nan {
			ok++
		}
		other := math.Inf(-1)
		for c := range t.K {
			if c != yc {
				other = max(other, scores[c])
			}
		}
		mcLoss += max(0, other-scores[yc])
	}
	fill := func(dg *perceptrontrain.Diagnostics, c int) {
		a := cs[c]
		dg.Evaluated = true
		dg.TrainAccuracy = 1 - float64(a.mistakes)/float64(n)
		dg.TrainLoss = a.loss / float64(n)
		nb := 0.0
		if t.cfg.Bias {
			b := bias(c) / t.cfg.BiasFeature // the bias feature's weight
			nb = b * b
		}
		dg.SetMargins(a.minMargin, a.minRaw, max(0, a.norm2), nb, r2, r2aug)
	}
	switch {
	case t.argmax:
		diag.Evaluated = true
		diag.TrainAccuracy = float64(ok) / float64(n)
		diag.TrainLoss = mcLoss / float64(n)
	case t.K == 1:
		fill(diag, 0)
	default:
		for c := range t.K {
			fill(&diag.Classes[c], c)
		}
		diag.Evaluated = true
		diag.TrainAccuracy = float64(ok) / float64(n)
		for c := range t.K {
			diag.TrainLoss += cs[c].loss / float64(n)
		}
	}
}

// finish builds the model's parts: the support set is every training row
// with α ≠ 0 for some score row, copied (so the caller's X can be freed).
func (t *Trainer[T]) finish(kern gram.Kernel, scheme fit.Scheme, labels []int) expansion.Parts[T] {
	n, d, K := t.dt.N, t.dt.D, t.K
	svOf := make([]int32, n)
	var idx []int
	for j := range n {
		svOf[j] = -1
		for c := range K {
			if t.alpha[c*n+j] != 0 {
				svOf[j] = int32(len(idx))
				idx = append(idx, j)
				break
			}
		}
	}
	S := len(idx)
	pc := &expansion.Perceptron[T]{Algorithm: t.cfg.Algorithm, Eta: t.cfg.Eta, HasBias: t.cfg.Bias, BiasFeature: t.cfg.BiasFeature,
		Scaling: t.cfg.Scaling}
	p := expansion.Parts[T]{Kernel: kern, Dims: d, Labels: labels, Scheme: scheme, Index: idx, Perceptron: pc}
	if t.dt.CSR != nil {
		p.Sparse = t.sparseSupport(idx)
	} else {
		p.SV = make([]T, S*d)
		for i, j := range idx {
			copy(p.SV[i*d:(i+1)*d], t.dt.row(j))
		}
	}
	if t.vot != nil {
		v := &expansion.Voted[T]{QOff: make([]int, K+1), VOff: make([]int, K+1)}
		for c := range t.vot {
			tv := &t.vot[c]
			if tv.cnt > 0 {
				tv.pre = append(tv.pre, int32(len(tv.seq)))
				tv.vb = append(tv.vb, t.B[c])
				tv.vc = append(tv.vc, tv.cnt)
				tv.cnt = 0
			}
			for _, j := range tv.seq {
				v.QIdx = append(v.QIdx, svOf[j])
			}
			v.QStep = append(v.QStep, tv.step...)
			v.VPre = append(v.VPre, tv.pre...)
			v.VB = append(v.VB, tv.vb...)
			v.VC = append(v.VC, tv.vc...)
			v.QOff[c+1] = len(v.QIdx)
			v.VOff[c+1] = len(v.VC)
		}
		pc.Voted = v
		return p
	}
	p.Coef = make([]T, K*S)
	p.Bias = make([]T, K)
	copy(p.Bias, t.B)
	steps := T(t.step)
	for c := range K {
		for i, j := range idx {
			a := t.A[c*n+j]
			if t.U != nil {
				a -= t.U[c*n+j] / steps
			}
			p.Coef[c*S+i] = a
		}
		if t.U != nil {
			p.Bias[c] -= t.UB[c] / steps
		}
	}
	return p
}
