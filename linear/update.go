package linear

import (
	"fmt"
	"math"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/fit"
)

// Update trains the model online on one more sample (x, y), continuing the
// algorithm that trained it as if (x, y) were the next sample of its
// training run, and reports whether the algorithm's update step applied
// (a mistake of the running perceptron, for one-vs-rest of any class's;
// for SVM a margin violation y·(w·x + b) < 1).
//
//   - Online, Batch and MiniBatch models take Online's step: if
//     y·(w·x + b) ≤ 0 then w += η·y·x and b += η·y·B², with η the
//     training's Options.Eta (a MiniBatch model's Options.Tau: its step
//     τ/B for a batch of one sample) and B its BiasFeature (a batch of one
//     sample is Online's step; with Normalize x is the scaled sample and
//     the bias step is scaled alike).
//
//   - Averaged models keep averaging: the running perceptron (w, b) takes
//     the step above, and the served weights become the average over one
//     more sample, w − u/c with c + 1 samples. Every Update therefore
//     changes the served weights, and copies them (O(K·D)), also when the
//     running perceptron made no mistake.
//
//   - Voted models add a vector: on a mistake of the current (last)
//     vector, the updated one is kept with survival count 1; otherwise the
//     current vector's count grows by one.
//
//   - SVM models take the next Pegasos step, t = Steps() + 1:
//     w ← (1 − 1/t)·w, then w += y·x/(λt) (and b likewise) if
//     y·(w·x + b) < 1, then the projection onto ‖(w, b/B)‖ ≤ 1/√λ.
//
//   - The Argmax scheme takes the multiclass perceptron's step (averaged,
//     for an averaged model); one-vs-rest applies the rule to each class's
//     binary problem.
//
// The tie rule is Rosenblatt's: a score of exactly 0 is a mistake for
// either label, which is what lets a perceptron start from w = 0.
// Predict answers −1 for it, and an Update with y = −1 on a sample scoring
// 0 still moves w (by −η·x): by design, not a disagreement between the
// two.
//
// A normalising model scales x as training scaled its samples. A sequence
// of Updates on the samples of a stream, after training on its beginning
// with one epoch, gives the model that training on the whole stream with
// one epoch gives: bit for bit on integer-valued data (without
// normalisation).
//
// An averaged or SVM model read from a file without its training state
// (written without Options.Resumable, or of version 1) cannot continue
// (ErrUnsupported), nor can a linear SVM trained by dual coordinate
// descent (DualCD: its solution is the optimum of a problem over the whole
// data set, which one sample's step would not keep; train it again with
// svm.FitLinear). Update is
// safe to call while other goroutines predict (see the Model's concurrency
// notes); concurrent Updates are serialised. y must be −1 or +1 for a
// binary model and one of Classes otherwise (ErrLabels); a sample whose
// score is not finite wraps ErrNonFinite; an update that would make a
// weight, bias or averaging sum non-finite is refused (ErrDiverged),
// leaving the model as it was. x is not modified.
func (m *Model[T]) Update(x []T, y int) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.load()
	if err != nil {
		return false, err
	}
	if s.algo == DualCD {
		return false, fmt.Errorf("%w: Update on a linear SVM trained by dual coordinate descent, which has no online rule (train it again with svm.FitLinear)", ErrUnsupported)
	}
	if err := s.checkLen(x); err != nil {
		return false, err
	}
	yk := -1 // index of y among the scores' classes
	if s.scheme == fit.Binary {
		if y != 1 && y != -1 {
			return false, fmt.Errorf("%w: label %d; a binary model takes −1 or +1", ErrLabels, y)
		}
		yk = 0
		if y == -1 {
			yk = 1 // not a score row: the binary problem's "rest"
		}
	} else {
		i, ok := slices.BinarySearch(s.labels, y)
		if !ok {
			return false, fmt.Errorf("%w: label %d is not one of the model's classes", ErrLabels, y)
		}
		yk = i
	}
	if (s.algo == Averaged || s.algo == SVM) && !s.hasState() {
		return false, fmt.Errorf("%w: Update on a %v model without its training state (a file written without Options.Resumable, or of version 1): it cannot continue the %v algorithm", ErrUnsupported, s.algo, s.algo)
	}
	if s.scheme != fit.Binary && s.scheme != fit.OneVsRest && s.scheme != fit.Argmax {
		return false, fmt.Errorf("%w: Update on a %v model", ErrUnsupported, s.scheme)
	}
	// A compact averaging state (compactAvg) is formed dense first, into
	// arrays of the new snapshot's own.
	u := newUpdater(s.withDenseAveraging(), x)
	u.owned = s.avg != nil
	var changed bool
	switch {
	case s.algo == SVM:
		changed, err = u.pegasos(yk)
	case s.scheme == fit.Argmax:
		changed, err = u.argmax(yk)
	default:
		changed, err = u.binary(yk)
	}
	if err != nil {
		return false, err
	}
	ns := u.result()
	if ns == nil {
		return false, nil
	}
	if !allFinite(ns.W) || !allFinite(ns.B) || !allFinite(ns.CW) || !allFinite(ns.CB) ||
		!allFinite(ns.U) || !allFinite(ns.UB) || !allFinite(ns.V) || !allFinite(ns.VB) {
		return false, fmt.Errorf("%w: Update: the step (η = %v) makes the weights non-finite in %s; the model is unchanged", ErrDiverged, s.eta, typeName[T]())
	}
	m.st.Store(ns)
	return changed, nil
}

// updater computes the snapshot after one Update from s: copy-on-write,
// the arrays it changes are copies (or, for a voted model, appended beyond
// the published length).
type updater[T Float] struct {
	s, ns     *state[T]
	owned     bool // s's CW, CB, U and UB are unpublished (formed from a compact state): step may change them in place
	x         []T  // the sample
	xs        []T  // the scaled sample (x·mul), made on the first step
	mul, bmul T
	bstep     T // bmul·B², the bias's share of a step (B the bias feature)
}

func newUpdater[T Float](s *state[T], x []T) *updater[T] {
	u := &updater[T]{s: s, x: x}
	u.mul, u.bmul = s.sampleScale(x)
	u.bstep = u.bmul * T(s.biasSq())
	return u
}

// next returns the snapshot being built, a shallow copy of s made on the
// first call.
func (u *updater[T]) next() *state[T] {
	if u.ns == nil {
		c := *u.s
		u.ns = &c
	}
	return u.ns
}

// scaled returns the sample as training would have stored it: x, or x
// scaled by the model's factor.
func (u *updater[T]) scaled() []T {
	if u.mul == 1 {
		return u.x
	}
	if u.xs == nil {
		u.xs = slices.Clone(u.x)
		u.s.k.Scale(u.mul, u.xs)
	}
	return u.xs
}

// running returns the running perceptron's weights and bias of score row
// k: the served ones, the averaged model's CW and CB, or a voted model's
// current (last) vector (nil, 0 when the row has none).
func (u *updater[T]) running(k int) ([]T, T) {
	s := u.next()
	d := s.d
	switch {
	case s.voted():
		j := s.VOff[k+1] - 1
		if j < s.VOff[k] {
			return nil, 0
		}
		return s.V[j*d : (j+1)*d], s.VB[j]
	case s.algo == Averaged:
		return s.CW[k*d : (k+1)*d], s.CB[k]
	}
	return s.W[k*d : (k+1)*d], s.B[k]
}

// runningScore is the running perceptron's score of the sample for row k.
func (u *updater[T]) runningScore(k int) T {
	w, b := u.running(k)
	if w == nil {
		return 0
	}
	return u.s.k.Dot(w, u.x)*u.mul + b*u.bmul
}

// runningScores returns the running score of every score row; a
// non-finite one is ErrNonFinite.
func (u *updater[T]) runningScores() ([]T, error) {
	sc := make([]T, u.s.rows())
	for k := range sc {
		sc[k] = u.runningScore(k)
		if !finite(sc[k]) {
			return nil, fmt.Errorf("%w: score %d is %v", ErrNonFinite, k, sc[k])
		}
	}
	return sc, nil
}

// step applies w += a·x̃, b += a·bmul·B² to row k of the running perceptron
// (with the averaging sums for Averaged, a new vector for Voted).
func (u *updater[T]) step(k int, a T) {
	ns := u.next()
	s, d, z := u.s, u.s.d, u.scaled()
	switch {
	case s.voted():
		w, b := u.running(k)
		nw := make([]T, d)
		if w != nil {
			copy(nw, w)
		}
		s.k.Axpy(a, z, nw)
		if s.bias {
			b += a * u.bstep
		}
		u.insertVoted(k, nw, b)
	case s.algo == Averaged:
		if ns.CW == nil || !u.owned && &ns.CW[0] == &s.CW[0] {
			ns.CW, ns.CB = slices.Clone(s.CW), slices.Clone(s.CB)
			ns.U, ns.UB = slices.Clone(s.U), slices.Clone(s.UB)
		}
		ca := T(s.steps) * a
		s.k.Axpy(a, z, ns.CW[k*d:(k+1)*d])
		s.k.Axpy(ca, z, ns.U[k*d:(k+1)*d])
		if s.bias {
			ns.CB[k] += a * u.bstep
			ns.UB[k] += ca * u.bstep
		}
	default:
		if &ns.W[0] == &s.W[0] {
			ns.W, ns.B = slices.Clone(s.W), slices.Clone(s.B)
		}
		s.k.Axpy(a, z, ns.W[k*d:(k+1)*d])
		if s.bias {
			ns.B[k] += a * u.bstep
		}
	}
}

// keep credits row k's current voted vector with one more sample.
func (u *updater[T]) keep(k int) {
	s := u.s
	if !s.voted() {
		return
	}
	ns := u.next()
	j := ns.VOff[k+1] - 1
	if j < ns.VOff[k] {
		return
	}
	if len(ns.VC) > 0 && &ns.VC[0] == &s.VC[0] {
		ns.VC = slices.Clone(s.VC)
	}
	ns.VC[j]++
}

// insertVoted appends the vector (w, b) with count 1 to row k's vectors.
// When row k's vectors end the arrays (always for a binary model), they
// grow by append: a published snapshot never reads beyond its own length,
// and Updates are serialised, each building on the latest snapshot.
func (u *updater[T]) insertVoted(k int, w []T, b T) {
	ns, d := u.next(), u.s.d
	at := ns.VOff[k+1]
	if len(ns.VC) > 0 && &ns.VC[0] == &u.s.VC[0] {
		ns.VC = slices.Clone(ns.VC)
	}
	if at == len(ns.VB) {
		ns.V = append(ns.V, w...)
		ns.VB = append(ns.VB, b)
		ns.VC = append(ns.VC, 1)
	} else {
		ns.V = slices.Concat(ns.V[:at*d], w, ns.V[at*d:])
		ns.VB = slices.Concat(ns.VB[:at], []T{b}, ns.VB[at:])
		ns.VC = slices.Concat(ns.VC[:at], []int64{1}, ns.VC[at:])
	}
	off := slices.Clone(ns.VOff)
	for r := k + 1; r < len(off); r++ {
		off[r]++
	}
	ns.VOff = off
}

// binary applies the perceptron rule to every score row's binary problem
// (one row for a binary model, each class against the rest for
// one-vs-rest): row k's label is +1 exactly when k == yk.
func (u *updater[T]) binary(yk int) (bool, error) {
	s := u.s
	r := s.rows()
	sc, err := u.runningScores()
	if err != nil {
		return false, err
	}
	changed := false
	eta := T(s.eta)
	for k := range r {
		sign := T(-1)
		if k == yk {
			sign = 1
		}
		if sign*sc[k] > 0 {
			u.keep(k)
			continue
		}
		changed = true
		u.step(k, eta*sign)
	}
	u.advance()
	return changed, nil
}

// argmax applies the multiclass perceptron's rule: unless the true class
// yk scores strictly above every other, it moves towards x and the
// highest-scoring other class p away from it.
func (u *updater[T]) argmax(yk int) (bool, error) {
	s := u.s
	sy := u.runningScore(yk)
	if !finite(sy) {
		return false, fmt.Errorf("%w: score %d is %v", ErrNonFinite, yk, sy)
	}
	p, sp := -1, T(0)
	for k := range s.rows() {
		if k == yk {
			continue
		}
		a := u.runningScore(k)
		if !finite(a) {
			return false, fmt.Errorf("%w: score %d is %v", ErrNonFinite, k, a)
		}
		if p < 0 || a > sp {
			p, sp = k, a
		}
	}
	changed := sy <= sp
	if changed {
		eta := T(s.eta)
		u.step(yk, eta)
		u.step(p, -eta)
	}
	u.advance()
	return changed, nil
}

// pegasos takes one Pegasos step for every score row's binary problem.
func (u *updater[T]) pegasos(yk int) (bool, error) {
	s, d := u.s, u.s.d
	r := s.rows()
	sc, err := u.runningScores()
	if err != nil {
		return false, err
	}
	ns := u.next()
	ns.W, ns.B = slices.Clone(s.W), slices.Clone(s.B)
	z := u.scaled()
	t := float64(s.steps + 1)
	lam := s.lambda
	changed := false
	for k := range r {
		y := -1.0
		if k == yk {
			y = 1
		}
		w := ns.W[k*d : (k+1)*d]
		shrink := T(1 - 1/t)
		s.k.Scale(shrink, w)
		ns.B[k] *= shrink
		if y*float64(sc[k]) < 1 {
			changed = true
			a := T(y / (lam * t))
			s.k.Axpy(a, z, w)
			if s.bias {
				ns.B[k] += a * u.bstep
			}
		}
		n2 := sqNorm(s.k, w)
		if s.bias {
			n2 += float64(ns.B[k]) * float64(ns.B[k]) / s.biasSq()
		}
		if n2*lam > 1 {
			f := T(1 / math.Sqrt(n2*lam))
			s.k.Scale(f, w)
			ns.B[k] *= f
		}
	}
	ns.steps++ // an SVM model has its state (Update checked)
	return changed, nil
}

// advance counts the sample: one more step, and for an averaged model the
// served weights become the average over it.
func (u *updater[T]) advance() {
	ns := u.next()
	if u.s.steps > 0 { // else unknown (a version-1 file), and stays so
		ns.steps++
	}
	if u.s.algo == Averaged {
		ns.W = averageOf(ns.CW, ns.U, ns.steps)
		ns.B = averageOf(ns.CB, ns.UB, ns.steps)
	}
}

// result returns the new snapshot, or nil if nothing changed.
func (u *updater[T]) result() *state[T] {
	return u.ns
}
