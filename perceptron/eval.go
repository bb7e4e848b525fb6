package perceptron

import (
	"math"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// evalClass are one class's statistics over a whole pass with fixed weights.
type evalClass struct {
	mistakes  int
	loss      float64 // Σ max(0, −m)
	hinge     float64 // Σ max(0, 1 − m)
	minMargin float64 // min m, with m = y·(w·x + b)
	minRaw    float64 // min m/sᵢ, the margin before ScaleAugmented's factor sᵢ (m without it)
}

type evalResult struct {
	cls      []evalClass
	argmaxOK int     // rows whose highest score is their class (K > 1)
	mcLoss   float64 // Σ max(0, max_{k≠y} sₖ − s_y) (K > 1)
}

const evalChunk = 1024

// evaluate scores every row for every class with fixed weights W (K×d) and
// biases B, score_c = (W_c·x + B_c)·scale[c] (scale nil means 1), on up to
// workers goroutines. Rows are cut into fixed chunks whose partial sums are
// added in chunk order, so the result does not depend on workers.
func evaluate[T kernel.Float](k modelkern.Kernels[T], dt *data[T], cls []int32, W, B []T, scale []float64, K, workers int) evalResult {
	return evaluateWith(k, dt, cls, nil, W, B, scale, K, workers)
}

// evaluateWith is evaluate with, for K > 1, dots(dst, lo, hi) setting
// dst[(i−lo)·K+c] to class c's W_c·x for the rows i of [lo, hi) (a chunk
// of at most evalChunk) in place of kernel.Dots (nil: kernel.Dots or
// kernel.DotsSparse with W). dots is called from several goroutines.
func evaluateWith[T kernel.Float](k modelkern.Kernels[T], dt *data[T], cls []int32, dots func(dst []T, lo, hi int), W, B []T, scale []float64, K, workers int) evalResult {
	n := dt.n
	nch := (n + evalChunk - 1) / evalChunk
	parts := make([]evalResult, nch)
	var next atomic.Int64
	work := func() {
		rows := evalChunk
		if K > 1 && dots == nil {
			rows = 1
		}
		buf := make([]T, rows*K)
		a := make([]float64, K)
		for {
			ch := int(next.Add(1) - 1)
			if ch >= nch {
				return
			}
			lo, hi := ch*evalChunk, min((ch+1)*evalChunk, n)
			p := evalResult{cls: make([]evalClass, K)}
			for c := range p.cls {
				p.cls[c].minMargin = math.Inf(1)
				p.cls[c].minRaw = math.Inf(1)
			}
			switch {
			case K == 1:
				dt.matVec(k, buf[:hi-lo], lo, hi, W)
			case dots != nil:
				dots(buf[:(hi-lo)*K], lo, hi)
			}
			for i := lo; i < hi; i++ {
				switch {
				case K == 1:
					a[0] = float64(buf[i-lo] + B[0])
				case dots != nil:
					sc := buf[(i-lo)*K : (i-lo+1)*K]
					for c := range K {
						a[c] = float64(sc[c] + B[c])
					}
				default:
					dt.dots(k, buf, W, i)
					for c := range K {
						a[c] = float64(buf[c] + B[c])
					}
				}
				best, nan := 0, false
				for c := range K {
					if scale != nil {
						a[c] *= scale[c]
					}
					if a[c] > a[best] {
						best = c
					}
					nan = nan || math.IsNaN(a[c])
					m := a[c]
					if cls[i] != int32(c) {
						m = -m
					}
					e := &p.cls[c]
					if !(m > 0) { // a NaN score is a mistake
						e.mistakes++
						e.loss -= m
					}
					if m < 1 {
						e.hinge += 1 - m
					}
					e.minMargin = min(e.minMargin, m)
					if dt.scale != nil {
						m /= dt.scale[i]
					}
					e.minRaw = min(e.minRaw, m)
				}
				if K > 1 {
					y := int(cls[i])
					if best == y && !nan { // NaN scores are never right
						p.argmaxOK++
					}
					other := math.Inf(-1)
					for c := range K {
						if c != y {
							other = max(other, a[c])
						}
					}
					p.mcLoss += max(0, other-a[y])
				}
			}
			parts[ch] = p
		}
	}
	// One worker runs on the caller; a worker's panic is re-raised on
	// the caller (see package parallel).
	parallel.Run(max(1, min(workers, nch)), func(int) { work() })
	res := evalResult{cls: make([]evalClass, K)}
	for c := range res.cls {
		res.cls[c].minMargin = math.Inf(1)
		res.cls[c].minRaw = math.Inf(1)
	}
	for _, p := range parts {
		res.argmaxOK += p.argmaxOK
		res.mcLoss += p.mcLoss
		for c := range K {
			r, q := &res.cls[c], p.cls[c]
			r.mistakes += q.mistakes
			r.loss += q.loss
			r.hinge += q.hinge
			r.minMargin = min(r.minMargin, q.minMargin)
			r.minRaw = min(r.minRaw, q.minRaw)
		}
	}
	return res
}
