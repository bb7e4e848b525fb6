package perceptron

import (
	"math"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

// argmaxTrainer is the multiclass perceptron, plain or averaged.
type argmaxTrainer[T kernel.Float] struct {
	k     modelkern.Kernels[T]
	cfg   *config
	dt    *data[T]
	cls   []int32
	K     int
	bias  bool         // a bias of its own (see linTrainer.bias)
	fresh bool         // W, B, U and UB as make returned them (see linStart.load)
	start *linStart[T] // the warm start, or nil for zero
	W, B  []T
	U, UB []T
	step  int64
	smp   sampler

	// divState records a non-finite score seen in the epoch, and in a
	// checked epoch the first non-finite value (see perceptrontrain.Locate).
	divState

	xb, sc, gram []T // epoch's scratch: a block of samples, K×blockRows scores, their Gram
}

func newArgmaxTrainer[T kernel.Float](k modelkern.Kernels[T], cfg *config, dt *data[T], cls []int32, K int, start *linStart[T]) *argmaxTrainer[T] {
	t := &argmaxTrainer[T]{k: k, cfg: cfg, dt: dt, cls: cls, K: K, bias: cfg.bias && !dt.aug, start: start,
		W: dataset.Alloc[T](K * dt.d), B: make([]T, K),
		sc: make([]T, K*blockRows), gram: make([]T, blockRows*blockRows)}
	if dt.sp == nil {
		t.xb = make([]T, blockRows*dt.d) // sparse samples are not copied
	}
	if cfg.algo == linear.Averaged {
		t.U = dataset.Alloc[T](K * dt.d)
		t.UB = make([]T, K)
	}
	t.smp = perceptrontrain.NewSampler(dt.n, 1, perceptrontrain.Sampling(cfg.sampling), cfg.shuffle, cfg.seed)
	t.fresh = true
	t.reset()
	return t
}

// reset puts the trainer in its initial state (the start's weights, zero
// by default; the sampling generator freshly seeded).
func (t *argmaxTrainer[T]) reset() {
	t.step = t.start.load(t.W, t.B, t.U, t.UB, t.fresh).step
	t.fresh = false
	t.smp.Reset()
}

// check records, in a checked epoch, the first non-finite value among the
// weights, biases and averaging sums of classes y and p after an update on
// row i at position pos.
func (t *argmaxTrainer[T]) check(y, p, i, pos int) {
	d := t.dt.d
	for _, c := range [2]int{y, p} {
		var u []T
		var ub T
		if t.U != nil {
			u, ub = t.U[c*d:(c+1)*d], t.UB[c]
		}
		if bad := nonFiniteLinear(t.W[c*d:(c+1)*d], t.B[c], u, ub); bad != "" {
			t.First.Record(pos, i, c, bad)
		}
	}
}

// epoch runs one epoch of the multiclass perceptron, blockRows samples at
// a time as linTrainer.epochBlock does: the block's samples are copied
// into a contiguous buffer and scored for every class with one
// kernel.MatVec per class; a mistake on sample j updates the true class y
// and the highest-scoring wrong class p, and the pending scores of the
// block's later samples are corrected by ±η·(x_j·x_j2 + 1), so each sample
// is judged by the weights in force when it is visited.
func (t *argmaxTrainer[T]) epoch(e *epochStats) {
	if t.dt.sp != nil {
		t.epochSparse(e)
		return
	}
	k, dt, d, E, K := t.k, t.dt, t.dt.d, t.smp.Visits, t.K
	eta := T(t.cfg.eta)
	biasOne, beta := T(0), eta*T(t.cfg.biasSq()) // B², and the bias's step η·B²
	if t.bias {
		biasOne = T(t.cfg.biasSq())
	}
	xb, sc, gram := t.xb, t.sc, t.gram
	var known [blockRows * blockRows]bool
	for lo := 0; lo < E; lo += blockRows {
		hi := min(lo+blockRows, E)
		m := hi - lo
		xs := visited(&t.smp, xb, dt.X, d, lo, hi)
		for c := range K {
			s := sc[c*blockRows : c*blockRows+m]
			k.MatVec(s, xs, t.W[c*d:(c+1)*d])
			for j := range s {
				s[j] += t.B[c]
			}
		}
		known = [blockRows * blockRows]bool{}
		for j := range m {
			i := t.smp.At(lo + j)
			x := xs[j*d : (j+1)*d]
			y := int(t.cls[i])
			p, sp := -1, T(0)
			var bad T // stays 0 while the scores are finite
			for c := range K {
				a := sc[c*blockRows+j]
				bad += a - a
				if c != y && (p < 0 || a > sp) {
					p, sp = c, a
				}
			}
			if bad != 0 {
				// A NaN score never wins, but the true class's NaN
				// makes mg NaN: a mistake. Either way the epoch has
				// diverged.
				t.NonFinite = true
				if t.Checked {
					for c := range K {
						if a := sc[c*blockRows+j]; a-a != 0 {
							t.First.Record(lo+j, i, c, "score")
						}
					}
				}
			}
			mg := sc[y*blockRows+j] - sp
			if mg > 0 {
				continue
			}
			e.Mistakes++
			e.Loss -= float64(mg)
			k.Axpy(eta, x, t.W[y*d:(y+1)*d])
			k.Axpy(-eta, x, t.W[p*d:(p+1)*d])
			if t.bias {
				t.B[y] += beta
				t.B[p] -= beta
			}
			if t.U != nil {
				ca := T(t.step+int64(lo+j)) * eta
				k.Axpy(ca, x, t.U[y*d:(y+1)*d])
				k.Axpy(-ca, x, t.U[p*d:(p+1)*d])
				if t.bias { // (t·η)·B², as Update and one-vs-rest
					t.UB[y] += ca * biasOne
					t.UB[p] -= ca * biasOne
				}
			}
			if t.Checked {
				t.check(y, p, i, lo+j)
			}
			for j2 := j + 1; j2 < m; j2++ {
				if !known[j*blockRows+j2] {
					gram[j*blockRows+j2] = k.Dot(x, xs[j2*d:(j2+1)*d])
					known[j*blockRows+j2] = true
				}
				corr := eta * (gram[j*blockRows+j2] + biasOne)
				sc[y*blockRows+j2] += corr
				sc[p*blockRows+j2] -= corr
			}
		}
	}
}

// epochSparse is epoch for sparse data: each sample scored for every
// class with one kernel.DotsSparse, a mistake's updates scattered with
// kernel.AxpySparse.
func (t *argmaxTrainer[T]) epochSparse(e *epochStats) {
	k, dt, d, E, K := t.k, t.dt, t.dt.d, t.smp.Visits, t.K
	eta := T(t.cfg.eta)
	bsq := T(t.cfg.biasSq())
	beta := eta * bsq // the bias's step η·B²
	sc := t.sc[:K]
	for j := range E {
		i := t.smp.At(j)
		x := dt.vec(i)
		k.DotsSparse(sc, t.W, x.idx, x.val)
		for c := range K {
			sc[c] += t.B[c]
		}
		y := int(t.cls[i])
		if t.judge(e, sc, y, i, j) {
			continue
		}
		p := t.runnerUp(sc, y)
		k.AxpySparse(eta, x.idx, x.val, t.W[y*d:(y+1)*d])
		k.AxpySparse(-eta, x.idx, x.val, t.W[p*d:(p+1)*d])
		if t.bias {
			t.B[y] += beta
			t.B[p] -= beta
		}
		if t.U != nil {
			ca := T(t.step+int64(j)) * eta
			k.AxpySparse(ca, x.idx, x.val, t.U[y*d:(y+1)*d])
			k.AxpySparse(-ca, x.idx, x.val, t.U[p*d:(p+1)*d])
			if t.bias { // (t·η)·B², as Update and one-vs-rest
				t.UB[y] += ca * bsq
				t.UB[p] -= ca * bsq
			}
		}
		if t.Checked {
			t.check(y, p, i, j)
		}
	}
}

// runnerUp returns the highest-scoring class other than y (the smallest
// such class on a tie, and never one with a NaN score unless all are).
func (t *argmaxTrainer[T]) runnerUp(sc []T, y int) int {
	p, sp := -1, T(0)
	for c, a := range sc {
		if c != y && (p < 0 || a > sp) {
			p, sp = c, a
		}
	}
	return p
}

// judge applies the mistake rule to a sample at position pos of the epoch
// (row i, class y) with the scores sc of every class: it records a
// non-finite score, and reports whether the sample is classified
// correctly (the true class strictly above every other); a mistake is
// counted in e.
func (t *argmaxTrainer[T]) judge(e *epochStats, sc []T, y, i, pos int) bool {
	var bad T // stays 0 while the scores are finite
	for _, a := range sc {
		bad += a - a
	}
	if bad != 0 {
		t.NonFinite = true
		if t.Checked {
			for c, a := range sc {
				if a-a != 0 {
					t.First.Record(pos, i, c, "score")
				}
			}
		}
	}
	mg := sc[y] - sc[t.runnerUp(sc, y)]
	if mg > 0 {
		return true
	}
	e.Mistakes++
	e.Loss -= float64(mg)
	return false
}

// runEpoch shuffles, runs one epoch with its statistics in e, and
// reports whether it produced a non-finite value (see Locate in
// internal/perceptrontrain on divergence).
func (t *argmaxTrainer[T]) runEpoch(e *epochStats) (diverged bool) {
	t.smp.Next()
	t.NonFinite = false
	t.epoch(e)
	t.step += int64(t.smp.Visits)
	return t.NonFinite || perceptrontrain.AnyNonFinite(t.W, t.B, t.U, t.UB)
}

// locate trains again from the start up to epoch ep, checking every value
// epoch ep changes, and returns the *divergedError of the first non-finite
// one.
func (t *argmaxTrainer[T]) locate(ep int, labels []int) error {
	ev, _ := t.divState.Locate(ep, nil, t.reset, func() error {
		t.runEpoch(&epochStats{})
		return nil
	})
	return perceptrontrain.DivergedErr[T](ev, ep, "weights", true, labels)
}

func (t *argmaxTrainer[T]) run(labels []int) (*linear.Model[T], *Diagnostics, error) {
	cfg, n, d := t.cfg, t.dt.n, t.dt.d
	diag := &runDiag{}
	epochs := 0
	visits := float64(t.smp.Visits)
	for ep := 1; ep <= cfg.epochs; ep++ {
		e := epochStats{Epoch: ep, Samples: t.smp.Visits, Steps: t.smp.Visits}
		if t.runEpoch(&e) {
			return nil, nil, t.locate(ep, labels)
		}
		epochs = ep
		e.Updates = e.Mistakes
		e.Loss /= visits
		e.Accuracy = 1 - float64(e.Mistakes)/visits
		clean := e.Mistakes == 0
		if clean && t.smp.Random() {
			// A clean epoch of random draws need not have seen every
			// sample: check the weights on all of them.
			clean = t.allCorrect()
		}
		done, err := diag.EndEpoch(ep, e, clean, cfg.stopClean, cfg.callback)
		if err != nil {
			return nil, nil, err
		}
		if done {
			break
		}
	}
	W, B := t.W, t.B
	if t.U != nil {
		W, B = linmodel.AverageOf(t.W, t.U, t.step), linmodel.AverageOf(t.B, t.UB, t.step)
	}
	if !linmodel.AllFinite(W) || !linmodel.AllFinite(B) {
		// Only the average w − u/c is formed here, from finite w and u.
		return nil, nil, perceptrontrain.DivergedErr[T](divEvent{}, epochs, "averaged weights", true, nil)
	}
	s := &linmodel.Parts[T]{Scheme: fit.Argmax, Algorithm: uint8(cfg.algo), Dims: d, Labels: labels,
		Bias: cfg.bias, BiasFeature: cfg.bfeat, Scaling: uint8(cfg.scaling), Eta: cfg.eta, Steps: t.step, Resumable: cfg.resumable}
	split := func(W, B []T) ([]T, []T) {
		if !t.dt.aug {
			return W, B
		}
		s.Dims = d - 1
		return splitAug(W, d, t.K, cfg.bfeat)
	}
	s.W, s.B = split(W, B)
	if t.U != nil {
		s.CW, s.CB = split(t.W, t.B)
		s.U, s.UB = split(t.U, t.UB)
		if t.dt.aug {
			// b = B·w_B: the served bias is the average of the model's
			// own running bias and sums, as Update and the files form it.
			s.B = linmodel.AverageOf(s.CB, s.UB, t.step)
		}
	}
	r2, r2aug := t.dt.radius2(), 0.0
	for _, v := range t.dt.sq {
		r2aug = max(r2aug, v)
	}
	if t.bias {
		r2aug += cfg.biasSq()
	}
	diag.Radius, diag.RadiusAugmented = math.Sqrt(r2), math.Sqrt(r2aug)
	if cfg.noEval {
		return newModel(s), toDiagnostics(diag), nil
	}
	ev := evaluate(t.k, t.dt, t.cls, W, B, nil, t.K, cfg.workers)
	diag.Evaluated = true
	diag.TrainAccuracy = float64(ev.argmaxOK) / float64(n)
	diag.TrainLoss = ev.mcLoss / float64(n)
	return newModel(s), toDiagnostics(diag), nil
}

// allCorrect reports whether the current weights classify every sample
// correctly by the training rule: the true class scores strictly above
// every other.
func (t *argmaxTrainer[T]) allCorrect() bool {
	K := t.K
	sc := make([]T, K)
	for i := range t.dt.n {
		t.dt.dots(t.k, sc, t.W, i)
		y := int(t.cls[i])
		for c := range K {
			if c != y && !(sc[y]+t.B[y] > sc[c]+t.B[c]) {
				return false
			}
		}
	}
	return true
}
