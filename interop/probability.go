package interop

import (
	"fmt"
	"math"
)

// minProb bounds each pairwise probability away from 0 and 1, as LIBSVM
// does (its min_prob).
const minProb = 1e-7

// Probabilities writes to dst (one value per class, in the file's label
// order, f.Labels) the probabilities that LIBSVM's svm_predict_probability
// (svm-predict -b 1) gives x, and returns the label it predicts, the class
// of the largest probability (the first in file order among equal ones;
// it may differ from the vote's label). Each pair's decision value f goes
// through its Platt sigmoid 1/(1 + exp(probA·f + probB)) (Platt, 1999),
// bounded to [10⁻⁷, 1 − 10⁻⁷]; two classes take those two values, more are
// coupled as Wu, Lin and Weng's "Probability estimates for multi-class
// classification by pairwise coupling" (JMLR 2004, their second method),
// by LIBSVM's fixed-point iteration. A file without probA and probB is
// refused with ErrUnsupported.
func (f *LIBSVMFile) Probabilities(dst, x []float64) (int, error) {
	k := len(f.Labels)
	if f.ProbA == nil || f.ProbB == nil {
		return 0, fmt.Errorf("%w: the model has no probA and probB (svm-train -b 1 writes them)", ErrUnsupported)
	}
	if len(dst) != k {
		return 0, fmt.Errorf("%w: len(dst) = %d for %d classes", ErrModel, len(dst), k)
	}
	sc := make([]float64, f.Model.NumScores())
	if err := f.Model.Scores(sc, x); err != nil {
		return 0, err
	}
	sorted := f.Model.Classes()
	pos := make([]int, k)
	for c, y := range f.Labels {
		for p, z := range sorted {
			if z == y {
				pos[c] = p
			}
		}
	}
	// r[i][j]: the probability of class i in pair (i, j), file order.
	r := make([]float64, k*k)
	p := 0
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			a, b := pos[i], pos[j]
			// Ours votes for the larger label when positive, LIBSVM's
			// for the pair's first class.
			var dec float64
			if a < b {
				dec = -sc[pairIndex(k, a, b)]
			} else {
				dec = sc[pairIndex(k, b, a)]
			}
			v := min(max(sigmoidPredict(dec, f.ProbA[p], f.ProbB[p]), minProb), 1-minProb)
			r[i*k+j], r[j*k+i] = v, 1-v
			p++
		}
	}
	if k == 2 {
		dst[0], dst[1] = r[1], r[k]
	} else {
		coupling(k, r, dst)
	}
	best := 0
	for c := 1; c < k; c++ {
		if dst[c] > dst[best] {
			best = c
		}
	}
	return f.Labels[best], nil
}

// sigmoidPredict is LIBSVM's sigmoid_predict: 1/(1 + exp(A·f + B)),
// computed without overflow.
func sigmoidPredict(dec, a, b float64) float64 {
	fApB := dec*a + b
	if fApB >= 0 {
		return math.Exp(-fApB) / (1 + math.Exp(-fApB))
	}
	return 1 / (1 + math.Exp(fApB))
}

// coupling is LIBSVM's multiclass_probability: the p minimising
// Σ_t Σ_{j≠t} (r_jt p_t − r_tj p_j)² with Σp = 1, by its fixed-point
// iteration (at most max(100, k) rounds, until every |(Qp)_t − pᵀQp| <
// 0.005/k). r is k×k, row-major.
func coupling(k int, r, p []float64) {
	Q := make([]float64, k*k)
	Qp := make([]float64, k)
	for t := range k {
		p[t] = 1 / float64(k)
		Q[t*k+t] = 0
		for j := range t {
			Q[t*k+t] += r[j*k+t] * r[j*k+t]
			Q[t*k+j] = Q[j*k+t]
		}
		for j := t + 1; j < k; j++ {
			Q[t*k+t] += r[j*k+t] * r[j*k+t]
			Q[t*k+j] = -r[j*k+t] * r[t*k+j]
		}
	}
	eps := 0.005 / float64(k)
	for range max(100, k) {
		pQp := 0.0
		for t := range k {
			Qp[t] = 0
			for j := range k {
				Qp[t] += Q[t*k+j] * p[j]
			}
			pQp += p[t] * Qp[t]
		}
		maxErr := 0.0
		for t := range k {
			maxErr = max(maxErr, math.Abs(Qp[t]-pQp))
		}
		if maxErr < eps {
			break
		}
		for t := range k {
			diff := (-Qp[t] + pQp) / Q[t*k+t]
			p[t] += diff
			pQp = (pQp + diff*(diff*Q[t*k+t]+2*Qp[t])) / (1 + diff) / (1 + diff)
			for j := range k {
				Qp[j] = (Qp[j] + diff*Q[t*k+j]) / (1 + diff)
				p[j] /= 1 + diff
			}
		}
	}
}
