package online

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// weights is one copy of a model's weights: the served ones (w, b) of an
// online model, or an averaged model's running weights (w, b) and
// averaging sums (u, ub). Two copies make the learner's left-right pair.
type weights[T kernel.Float] struct {
	// readers counts the predictions reading this copy now, in stripes
	// of their own cache lines (a reader takes one at random and gives it
	// back), so that readers on different CPUs rarely share a line.
	readers [stripes]struct {
		n atomic.Int64
		_ [56]byte
	}
	w, b  []T
	u, ub []T // Averaged only
	steps int64
	sh    *shape[T] // the rule and the decision (new copies on Adopt)
}

func (c *weights[T]) clone() *weights[T] {
	return &weights[T]{w: slices.Clone(c.w), b: slices.Clone(c.b), u: slices.Clone(c.u), ub: slices.Clone(c.ub), steps: c.steps, sh: c.sh}
}

// copyFrom makes c equal to o (c has no readers).
func (c *weights[T]) copyFrom(o *weights[T]) {
	copy(c.w, o.w)
	copy(c.b, o.b)
	copy(c.u, o.u)
	copy(c.ub, o.ub)
	c.steps = o.steps
}

// stripes is the number of reader counters of a copy (a power of 2).
const stripes = 8

// enter counts a reader of c, returning the stripe to leave.
func (c *weights[T]) enter() *atomic.Int64 {
	n := &c.readers[rand.Uint32()&(stripes-1)].n
	n.Add(1)
	return n
}

// drain waits until no prediction reads c. A reader that enters after
// its stripe was looked at sees the copy published since and leaves it.
func (c *weights[T]) drain() {
	for s := range c.readers {
		for i := 0; c.readers[s].n.Load() != 0; i++ {
			if i >= 64 {
				runtime.Gosched()
			}
		}
	}
}

// shape is what the update rule needs of a model besides its weights;
// it never changes while a model is learnt.
type shape[T kernel.Float] struct {
	k      kernel.Kernels[T]
	scheme fit.Scheme
	avg    bool // Averaged: (w, b) are the running weights, (u, ub) the sums
	d      int
	rows   int
	labels []int
	bias   bool
	bstep  T // B²: the bias's share of a step
	eta    T
}

// sample is one labelled sample: dense (idx nil, val of d values) or
// sparse (val in the columns idx).
type sample[T kernel.Float] struct {
	idx []int32
	val []T
	yk  int // the index of its label among the score rows (binary: 0 for +1, 1 for −1)
}

func (sh *shape[T]) dot(x sample[T], w []T) T {
	if x.idx == nil {
		return sh.k.Dot(x.val, w)
	}
	return sh.k.DotSparse(x.idx, x.val, w)
}

func (sh *shape[T]) axpy(a T, x sample[T], w []T) {
	if x.idx == nil {
		sh.k.Axpy(a, x.val, w)
		return
	}
	sh.k.AxpySparse(a, x.idx, x.val, w)
}

// row returns row k of w.
func (sh *shape[T]) row(w []T, k int) []T { return w[k*sh.d : (k+1)*sh.d] }

// running is the running perceptron's score of x for row k (the served
// one for an online model).
func (sh *shape[T]) running(c *weights[T], x sample[T], k int) T {
	return sh.dot(x, sh.row(c.w, k)) + c.b[k]
}

// served is the served model's score of x for row k: for an averaged
// model w·x + b − (u·x + ub)/steps, the average's score up to rounding.
func (sh *shape[T]) served(c *weights[T], x sample[T], k int) T {
	s := sh.running(c, x, k)
	if sh.avg {
		s -= (sh.dot(x, sh.row(c.u, k)) + c.ub[k]) / T(c.steps)
	}
	return s
}

// predict is the served model's label for x, decided as
// linear.Model decides (binary: the sign, 0 → −1; else the first
// highest score).
func (sh *shape[T]) predict(c *weights[T], x sample[T]) int {
	if sh.scheme == fit.Binary {
		if sh.served(c, x, 0) > 0 {
			return 1
		}
		return -1
	}
	best, bs := 0, sh.served(c, x, 0)
	for k := 1; k < sh.rows; k++ {
		if a := sh.served(c, x, k); a > bs {
			best, bs = k, a
		}
	}
	return sh.labels[best]
}

// scores writes the served scores of x to dst.
func (sh *shape[T]) scores(c *weights[T], dst []T, x sample[T]) {
	for k := range sh.rows {
		dst[k] = sh.served(c, x, k)
	}
}

// step is one step of the rule: row k moves by a·x.
type step[T kernel.Float] struct {
	x int32 // the sample's index in its batch
	k int32
	a T
}

// apply adds a·x to row k of c (the running weights, and for an averaged
// model a·steps·x to the sums), as linear.Model.Update does.
func (sh *shape[T]) apply(c *weights[T], x sample[T], k int, a T) {
	sh.axpy(a, x, sh.row(c.w, k))
	if sh.bias {
		c.b[k] += a * sh.bstep
	}
	if sh.avg {
		ca := T(c.steps) * a
		sh.axpy(ca, x, sh.row(c.u, k))
		if sh.bias {
			c.ub[k] += ca * sh.bstep
		}
	}
}

// finiteRow reports whether row k of c is finite after a step.
func (sh *shape[T]) finiteRow(c *weights[T], x sample[T], k int) bool {
	ok := finite(c.b[k])
	if sh.avg {
		ok = ok && finite(c.ub[k])
	}
	chk := func(w []T) bool {
		if x.idx == nil {
			for _, v := range w {
				if !finite(v) {
					return false
				}
			}
			return true
		}
		for _, j := range x.idx {
			if !finite(w[j]) {
				return false
			}
		}
		return true
	}
	ok = ok && chk(sh.row(c.w, k))
	if sh.avg {
		ok = ok && chk(sh.row(c.u, k))
	}
	return ok
}

func finite[T kernel.Float](a T) bool { return a-a == 0 }

// learn applies the model's online rule for x to c (the copy no reader
// sees), appending its steps to ops, and reports whether it was a mistake
// (an update applied). It returns ok false when a score or a step is not
// finite: c is then no longer consistent and must be restored.
func (sh *shape[T]) learn(c *weights[T], x sample[T], xi int, ops []step[T]) ([]step[T], bool, bool) {
	mistake := false
	take := func(k int, a T) bool {
		mistake = true
		sh.apply(c, x, k, a)
		ops = append(ops, step[T]{x: int32(xi), k: int32(k), a: a})
		return sh.finiteRow(c, x, k)
	}
	if sh.scheme == fit.Argmax {
		sy := sh.running(c, x, x.yk)
		if !finite(sy) {
			return ops, false, false
		}
		p, sp := -1, T(0)
		for k := range sh.rows {
			if k == x.yk {
				continue
			}
			a := sh.running(c, x, k)
			if !finite(a) {
				return ops, false, false
			}
			if p < 0 || a > sp {
				p, sp = k, a
			}
		}
		if sy <= sp {
			if !take(x.yk, sh.eta) || !take(p, -sh.eta) {
				return ops, false, false
			}
		}
	} else {
		// Every row's score first, then the steps, as Model.Update does.
		var buf [16]T
		sc := buf[:0]
		if sh.rows > len(buf) {
			sc = make([]T, 0, sh.rows)
		}
		for k := range sh.rows {
			a := sh.running(c, x, k)
			if !finite(a) {
				return ops, false, false
			}
			sc = append(sc, a)
		}
		for k := range sh.rows {
			sign := T(-1)
			if k == x.yk {
				sign = 1
			}
			if sign*sc[k] > 0 {
				continue
			}
			if !take(k, sh.eta*sign) {
				return ops, false, false
			}
		}
	}
	if c.steps > 0 {
		c.steps++
	}
	return ops, mistake, true
}

// replay applies to c the steps ops that learn applied to the other copy
// for the samples xs; n is the number of samples (each advances steps).
func (sh *shape[T]) replay(c *weights[T], xs []sample[T], ops []step[T]) {
	// Steps are applied in sample order, and each sample's steps before
	// its count: an averaged step reads the count of samples before it.
	j := 0
	for i := range xs {
		for ; j < len(ops) && int(ops[j].x) == i; j++ {
			sh.apply(c, xs[i], int(ops[j].k), ops[j].a)
		}
		if c.steps > 0 {
			c.steps++
		}
	}
}
