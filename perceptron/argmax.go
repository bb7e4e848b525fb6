package perceptron

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// argmaxTrainer is the multiclass perceptron, plain or averaged.
type argmaxTrainer[T Float] struct {
	k     kernel.Kernels[T]
	cfg   *config
	dt    *data[T]
	cls   []int32
	K     int
	W, B  []T
	U, UB []T
	step  int64
	order []int32
	rng   *rand.Rand
}

func newArgmaxTrainer[T Float](k kernel.Kernels[T], cfg *config, dt *data[T], cls []int32, K int) *argmaxTrainer[T] {
	t := &argmaxTrainer[T]{k: k, cfg: cfg, dt: dt, cls: cls, K: K,
		W: make([]T, K*dt.d), B: make([]T, K)}
	if cfg.algo == Averaged {
		t.U = make([]T, K*dt.d)
		t.UB = make([]T, K)
	}
	if cfg.shuffle {
		t.order = make([]int32, dt.n)
		for i := range t.order {
			t.order[i] = int32(i)
		}
		t.rng = rand.New(rand.NewPCG(cfg.seed, cfg.seed^0x9e3779b97f4a7c15))
	}
	return t
}

func (t *argmaxTrainer[T]) run(labels []int) (*Model[T], *Diagnostics, error) {
	cfg, n, d := t.cfg, t.dt.n, t.dt.d
	diag := &Diagnostics{}
	sc := make([]T, t.K)
	eta := T(cfg.eta)
	for ep := 1; ep <= cfg.epochs; ep++ {
		if t.rng != nil {
			t.rng.Shuffle(n, func(i, j int) { t.order[i], t.order[j] = t.order[j], t.order[i] })
		}
		e := Epoch{Epoch: ep}
		for j := range n {
			i := j
			if t.order != nil {
				i = int(t.order[j])
			}
			x := t.dt.row(i)
			t.k.Dots(sc, t.W, x)
			y := int(t.cls[i])
			p, sp := -1, T(0)
			for c := range t.K {
				if c == y {
					continue
				}
				if a := sc[c] + t.B[c]; p < 0 || a > sp {
					p, sp = c, a
				}
			}
			m := sc[y] + t.B[y] - sp
			if m > 0 {
				continue
			}
			e.Mistakes++
			e.Loss -= float64(m)
			t.k.Axpy(eta, x, t.W[y*d:(y+1)*d])
			t.k.Axpy(-eta, x, t.W[p*d:(p+1)*d])
			if cfg.bias {
				t.B[y] += eta
				t.B[p] -= eta
			}
			if t.U != nil {
				ca := T(t.step+int64(j)) * eta
				t.k.Axpy(ca, x, t.U[y*d:(y+1)*d])
				t.k.Axpy(-ca, x, t.U[p*d:(p+1)*d])
				if cfg.bias {
					t.UB[y] += ca
					t.UB[p] -= ca
				}
			}
		}
		t.step += int64(n)
		e.Updates = e.Mistakes
		e.Loss /= float64(n)
		e.Accuracy = 1 - float64(e.Mistakes)/float64(n)
		diag.Epochs = append(diag.Epochs, e)
		diag.Updates += e.Updates
		done := false
		if e.Mistakes == 0 {
			diag.Converged = true
			done = cfg.stopClean
		}
		if cfg.callback != nil {
			if err := cfg.callback(e); err != nil {
				if !errors.Is(err, ErrStop) {
					return nil, nil, fmt.Errorf("perceptron: callback after epoch %d: %w", ep, err)
				}
				diag.Stopped, done = true, true
			}
		}
		if done {
			break
		}
	}
	if t.U != nil {
		c := T(t.step)
		for i := range t.W {
			t.W[i] -= t.U[i] / c
		}
		for i := range t.B {
			t.B[i] -= t.UB[i] / c
		}
	}
	s := &state[T]{kind: KindArgmax, algo: cfg.algo, d: d, labels: labels,
		bias: cfg.bias, normalize: cfg.normalize, eta: cfg.eta, W: t.W, B: t.B}
	r2 := 0.0
	for _, v := range t.dt.sq {
		r2 = max(r2, v)
	}
	if cfg.bias {
		r2++
	}
	diag.Radius = math.Sqrt(r2)
	ev := evaluate(t.k, t.dt, t.cls, s.W, s.B, nil, t.K, cfg.workers)
	diag.Evaluated = true
	diag.TrainAccuracy = float64(ev.argmaxOK) / float64(n)
	diag.TrainLoss = ev.mcLoss / float64(n)
	return newModel(s), diag, nil
}
