package perceptron

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Train fits a binary classifier to the row-major samples X (cols features
// per row, len(X) = rows·cols) with labels y[i] ∈ {−1, +1}, using the
// algorithm and settings of opt. It returns the model and the diagnostics
// of the run.
//
// Bad input is an error wrapping one of the sentinels: ErrEmpty (no rows),
// ErrDims (cols < 1, len(X) not rows·cols, len(y) ≠ rows), ErrNonFinite (a
// NaN or Inf in X), ErrLabels (a label other than ±1), ErrOneClass (one
// label only), ErrOption (a bad option, or a step size that overflows T),
// ErrDiverged (a value overflowed T during training: a *DivergedError
// naming the epoch and sample), ErrBudget (Voted: the kept vectors would
// exceed Options.VotedMaxBytes). The model returned has finite weights. X
// and y are never modified.
func Train[T Float](X []T, cols int, y []int, opt Options) (*Model[T], *Diagnostics, error) {
	cfg, err := opt.resolve()
	if err != nil {
		return nil, nil, err
	}
	n, err := checkShape(X, cols, y)
	if err != nil {
		return nil, nil, err
	}
	cls, err := binaryClasses(y)
	if err != nil {
		return nil, nil, err
	}
	if err := checkElem[T](&cfg, n); err != nil {
		return nil, nil, err
	}
	k := kernelsFor[T](cfg.impl)
	var dt *data[T]
	if cfg.checksInFirstEpoch() {
		dt = prepareLazy(X, n, cols)
	} else if dt, err = prepare(k, X, n, cols, cfg.normalize); err != nil {
		return nil, nil, err
	}
	return newLinTrainer(k, &cfg, dt, cls, 1).run(KindBinary, []int{-1, 1})
}

// TrainMulticlass fits a classifier for any integer labels (at least two
// distinct ones) to the row-major samples X with cols features per row,
// using opt.Multiclass: OneVsRest (any Algorithm; the classes train in
// parallel goroutines, each reading a sample once per epoch for all of its
// classes) or Argmax (the multiclass perceptron; Online or Averaged).
// Errors are as for Train, without the ±1 requirement.
func TrainMulticlass[T Float](X []T, cols int, y []int, opt Options) (*Model[T], *Diagnostics, error) {
	cfg, err := opt.resolve()
	if err != nil {
		return nil, nil, err
	}
	if cfg.strategy == Argmax && cfg.algo != Online && cfg.algo != Averaged {
		return nil, nil, fmt.Errorf("%w: the Argmax strategy supports the Online and Averaged algorithms, not %v", ErrOption, cfg.algo)
	}
	n, err := checkShape(X, cols, y)
	if err != nil {
		return nil, nil, err
	}
	labels, cls, err := multiClasses(y)
	if err != nil {
		return nil, nil, err
	}
	if err := checkElem[T](&cfg, n); err != nil {
		return nil, nil, err
	}
	k := kernelsFor[T](cfg.impl)
	dt, err := prepare(k, X, n, cols, cfg.normalize)
	if err != nil {
		return nil, nil, err
	}
	if cfg.strategy == Argmax {
		return newArgmaxTrainer(k, &cfg, dt, cls, len(labels)).run(labels)
	}
	return newLinTrainer(k, &cfg, dt, cls, len(labels)).run(KindOneVsRest, labels)
}

// classStats are one class's statistics of one epoch.
type classStats struct {
	mistakes, updates int
	loss              float64
	minMargin         float64 // min y·(w·x + b) over the correct samples (epochSeq only)
	// nonFinite reports a non-finite score, or (SVM) norm or scale, seen
	// during the epoch: training diverged.
	nonFinite bool
	// first is, in a checked epoch (see locate), the first non-finite
	// value of the class.
	first divEvent
}

// divEvent is the first non-finite value of a checked epoch.
type divEvent struct {
	found bool
	pos   int    // position of the sample in the epoch's visiting order
	row   int    // the sample's row
	class int    // the class (index into the labels)
	qty   string // what became non-finite (DivergedError.Quantity)
}

// record keeps e as the first event unless one came before it.
func (f *divEvent) record(pos, row, class int, qty string) {
	if !f.found || pos < f.pos || (pos == f.pos && class < f.class) {
		*f = divEvent{found: true, pos: pos, row: row, class: class, qty: qty}
	}
}

// allFinite reports whether every value of x is finite: v − v is 0 for a
// finite v and NaN for ±Inf and NaN, so the sum is 0 exactly when all are.
func allFinite[T Float](x []T) bool {
	var acc T
	for _, v := range x {
		acc += v - v
	}
	return acc == 0
}

// sqNorm returns ‖v‖² in float64: kernel.Dot, or where that overflows T
// (a float32 vector longer than about 1.8e19) a float64 sum.
func sqNorm[T Float](k kernel.Kernels[T], v []T) float64 {
	n := float64(k.Dot(v, v))
	if math.IsInf(n, 0) || math.IsNaN(n) {
		n = 0
		for _, x := range v {
			n += float64(x) * float64(x)
		}
	}
	return n
}

// votedBudget is the memory budget of a voted perceptron's kept state,
// shared by its classes (which may train on parallel goroutines).
type votedBudget struct {
	max  int64        // bytes; < 0 no limit
	used atomic.Int64 // bytes kept, with the reserve for the final vectors
	over atomic.Bool  // a class was refused
}

// take reserves n more bytes, or reports that they would exceed the
// budget.
func (b *votedBudget) take(n int64) bool {
	if b.used.Add(n) > b.max && b.max >= 0 {
		b.used.Add(-n)
		b.over.Store(true)
		return false
	}
	return true
}

type votedState[T Float] struct {
	V   []T
	VB  []T
	VC  []int64
	cnt int64 // survival count of the current vector
}

// linTrainer trains K binary linear classifiers at once: one for a binary
// problem, one per class for one-vs-rest. Class c's label of row i is +1
// exactly when cls[i] == c.
type linTrainer[T Float] struct {
	k      kernel.Kernels[T]
	cfg    *config
	dt     *data[T]
	cls    []int32
	K      int
	lambda float64

	W, B  []T // K×d weights (SVM: the unscaled v) and K biases
	U, UB []T // Averaged: Σ (step·η·y·x) over the mistakes, and for b
	svmS  []float64
	svmN2 []float64 // SVM: ‖v‖² + vb², kept up to date incrementally
	vot   []votedState[T]
	bud   *votedBudget // Voted: the budget of the kept vectors
	vecB  int64        // Voted: bytes of one kept vector, its bias and count

	// checked makes every update check the values it changed and record
	// the first non-finite one in its class's classStats.first (locate).
	checked bool

	step  int64 // samples visited so far (all epochs)
	order []int32
	rng   *rand.Rand
}

func newLinTrainer[T Float](k kernel.Kernels[T], cfg *config, dt *data[T], cls []int32, K int) *linTrainer[T] {
	t := &linTrainer[T]{k: k, cfg: cfg, dt: dt, cls: cls, K: K}
	d := dt.d
	t.W = make([]T, K*d)
	t.B = make([]T, K)
	switch cfg.algo {
	case Averaged:
		t.U = make([]T, K*d)
		t.UB = make([]T, K)
	case SVM:
		t.lambda = cfg.lambda
		if cfg.c != 0 {
			t.lambda = 1 / (cfg.c * float64(dt.n))
		}
		t.svmS = make([]float64, K)
		t.svmN2 = make([]float64, K)
		for c := range t.svmS {
			t.svmS[c] = 1
		}
	case Voted:
		t.vot = make([]votedState[T], K)
		t.bud = &votedBudget{max: cfg.votedMax}
		var z T
		t.vecB = int64(d+1)*int64(unsafe.Sizeof(z)) + 8
	}
	if cfg.shuffle && cfg.algo != Batch {
		t.order = make([]int32, dt.n)
	}
	t.reset()
	return t
}

// reset puts the trainer in its initial state: zero weights, the shuffling
// generator freshly seeded, no kept vectors (and their budget reserving
// room for each class's final vector).
func (t *linTrainer[T]) reset() {
	clear(t.W)
	clear(t.B)
	clear(t.U)
	clear(t.UB)
	clear(t.svmN2)
	for c := range t.svmS {
		t.svmS[c] = 1
	}
	for c := range t.vot {
		v := &t.vot[c]
		v.V, v.VB, v.VC, v.cnt = v.V[:0], v.VB[:0], v.VC[:0], 0
	}
	if t.bud != nil {
		t.bud.used.Store(int64(t.K) * t.vecB)
		t.bud.over.Store(false)
	}
	t.step = 0
	if t.order != nil {
		for i := range t.order {
			t.order[i] = int32(i)
		}
		t.rng = rand.New(rand.NewPCG(t.cfg.seed, t.cfg.seed^0x9e3779b97f4a7c15))
	}
}

// batchSize is the number of samples scored before their updates apply.
func (t *linTrainer[T]) batchSize() int {
	switch t.cfg.algo {
	case Batch:
		return t.dt.n
	case MiniBatch:
		return min(t.cfg.batch, t.dt.n)
	}
	return 1
}

// groups splits the K classes into at most cfg.workers contiguous, nearly
// equal ranges.
func groups(K, workers int) [][2]int {
	p := max(1, min(workers, K))
	g := make([][2]int, p)
	for i := range p {
		g[i] = [2]int{i * K / p, (i + 1) * K / p}
	}
	return g
}

func (t *linTrainer[T]) run(kind Kind, labels []int) (*Model[T], *Diagnostics, error) {
	cfg, n := t.cfg, t.dt.n
	if err := t.checkBudget(0); err != nil {
		return nil, nil, err
	}
	diag := &Diagnostics{}
	if t.K > 1 {
		diag.Classes = make([]Diagnostics, t.K)
	}
	grp, scratch := t.groups()
	stats := make([]classStats, t.K)
	prevObj := math.Inf(1)
	epochs := 0
	for ep := 1; ep <= cfg.epochs; ep++ {
		objs, err := t.epoch(stats, grp, scratch)
		if err != nil {
			return nil, nil, err
		}
		epochs = ep
		if err := t.checkBudget(ep); err != nil {
			return nil, nil, err
		}
		if t.diverged(stats, objs) {
			return nil, nil, t.locate(ep, stats, grp, scratch, labels)
		}

		e := Epoch{Epoch: ep}
		for c := range stats {
			e.Mistakes += stats[c].mistakes
			e.Updates += stats[c].updates
			e.Loss += stats[c].loss / float64(n)
		}
		e.Accuracy = 1 - float64(e.Mistakes)/(float64(n)*float64(t.K))
		for _, o := range objs {
			e.Objective += o
		}
		if t.K > 1 {
			for c := range stats {
				ce := Epoch{Epoch: ep, Mistakes: stats[c].mistakes, Updates: stats[c].updates,
					Loss: stats[c].loss / float64(n), Accuracy: 1 - float64(stats[c].mistakes)/float64(n)}
				if objs != nil {
					ce.Objective = objs[c]
				}
				cd := &diag.Classes[c]
				cd.Epochs = append(cd.Epochs, ce)
				cd.Updates += ce.Updates
				cd.Converged = cfg.algo != SVM && ce.Mistakes == 0
			}
		}
		converged, stop := e.Mistakes == 0, cfg.stopClean
		if cfg.algo == SVM {
			converged = cfg.tol > 0 && prevObj-e.Objective < cfg.tol*math.Abs(e.Objective)
			stop = true
			prevObj = e.Objective
		}
		done, err := diag.endEpoch(ep, e, converged, stop, cfg.callback)
		if err != nil {
			return nil, nil, err
		}
		if done {
			break
		}
	}
	s := t.finish(kind, labels)
	if !allFinite(s.W) || !allFinite(s.B) {
		// Only the average w − u/c is formed here, from finite w and u.
		return nil, nil, t.divergedAt(divEvent{pos: -1, row: -1, qty: "averaged weights"}, epochs, labels)
	}
	var last *classStats
	if t.K == 1 && cfg.algo == Online && t.batchSize() == 1 && stats[0].updates == 0 {
		// The last epoch changed nothing, so it scored every sample with
		// the final weights: its statistics are the model's, and the
		// final pass is not needed.
		last = &stats[0]
	}
	t.diagnose(s, diag, last)
	return newModel(s), diag, nil
}

// groups splits the classes among cfg.workers goroutines and returns each
// group's scratch space.
func (t *linTrainer[T]) groups() ([][2]int, [][]T) {
	grp := groups(t.K, t.cfg.workers)
	bs := t.batchSize()
	scratch := make([][]T, len(grp))
	for g, r := range grp {
		scratch[g] = make([]T, max(bs, blockRows)*(r[1]-r[0])+blockRows*(t.dt.d+blockRows))
	}
	return grp, scratch
}

// epoch runs one epoch (shuffling first) with its statistics in stats,
// and for SVM returns each class's objective after it.
func (t *linTrainer[T]) epoch(stats []classStats, grp [][2]int, scratch [][]T) ([]float64, error) {
	n := t.dt.n
	if t.rng != nil {
		t.rng.Shuffle(n, func(i, j int) { t.order[i], t.order[j] = t.order[j], t.order[i] })
	}
	clear(stats)
	if t.dt.unchecked {
		// checksInFirstEpoch: a binary sequential fit, which epochSeq
		// runs.
		if err := t.epochSeq(0, stats); err != nil {
			return nil, err
		}
		t.dt.unchecked = false
	} else if len(grp) == 1 {
		t.epochGroup(0, t.K, stats, scratch[0])
	} else {
		var wg sync.WaitGroup
		for g, r := range grp {
			wg.Go(func() { t.epochGroup(r[0], r[1], stats, scratch[g]) })
		}
		wg.Wait()
	}
	t.step += int64(n)
	if t.cfg.algo == SVM {
		return t.svmObjectives(), nil
	}
	return nil, nil
}

// Divergence. The weights, biases and averaging sums only grow by adding
// finite steps, so once a value is ±Inf or NaN it stays non-finite (and
// every score computed with a non-finite weight vector is non-finite). So
// the trainers check cheaply, in two places: every score a visit looks at
// (one comparison per sample and class, the score being at hand; it also
// catches a score that overflows with finite weights), and all of the
// state at the end of each epoch (O(K·D), against the epoch's O(N·K·D)).
// The SVM's norm and scale, which are recomputed and can come back from
// Inf, are checked at each step (two comparisons). Checking the updated
// vector after every update would name the sample directly, but costs
// O(D) per mistake, as much as the update itself. Instead, when an epoch
// ends with a non-finite value, locate trains again from the start (the
// run is deterministic: same order, same arithmetic) with the checks on in
// that epoch only: the state was finite at the end of the previous one, so
// the first non-finite value it finds is the one to report. Divergence
// costs the time of the run once more; training that does not diverge
// pays only the comparisons.

// diverged reports whether the epoch just run produced a non-finite value.
func (t *linTrainer[T]) diverged(stats []classStats, objs []float64) bool {
	for c := range stats {
		if stats[c].nonFinite {
			return true
		}
	}
	for _, o := range objs {
		if math.IsNaN(o) || math.IsInf(o, 0) {
			return true
		}
	}
	return !allFinite(t.W) || !allFinite(t.B) || !allFinite(t.U) || !allFinite(t.UB)
}

// locate trains again from the start up to epoch ep, checking every value
// epoch ep changes, and returns the *DivergedError of the first non-finite
// one.
func (t *linTrainer[T]) locate(ep int, stats []classStats, grp [][2]int, scratch [][]T, labels []int) error {
	t.reset()
	for e := 1; e <= ep; e++ {
		t.checked = e == ep
		if _, err := t.epoch(stats, grp, scratch); err != nil {
			return err
		}
	}
	t.checked = false
	var ev divEvent
	for c := range stats {
		if f := stats[c].first; f.found {
			ev.record(f.pos, f.row, f.class, f.qty)
		}
	}
	if !ev.found {
		// Not found by the checks of the updates: the objective's pass
		// over the data (SVM) overflowed.
		ev = divEvent{pos: -1, row: -1, qty: "score"}
	}
	return t.divergedAt(ev, ep, labels)
}

// divergedAt returns the *DivergedError of ev in epoch ep.
func (t *linTrainer[T]) divergedAt(ev divEvent, ep int, labels []int) error {
	e := &DivergedError{Epoch: ep, Sample: ev.row, Quantity: ev.qty, Type: elemType[T]()}
	if t.K > 1 && ev.row >= 0 {
		e.HasClass, e.Class = true, labels[ev.class]
	}
	return e
}

// check records, in a checked epoch, the first non-finite value among
// class c's weights, bias and averaging sums after an update on row i at
// position pos of the epoch (and, for SVM, its norm and scale).
func (t *linTrainer[T]) check(c, i, pos int, s *classStats) {
	d := t.dt.d
	bad := ""
	switch {
	case !allFinite(t.W[c*d : (c+1)*d]):
		bad = "weights"
	case !finite(t.B[c]):
		bad = "bias"
	case t.U != nil && (!allFinite(t.U[c*d:(c+1)*d]) || !finite(t.UB[c])):
		bad = "averaging sum"
	case t.svmS != nil && !(t.svmS[c] > 0 && t.svmS[c] <= 1):
		bad = "scale"
	case t.svmS != nil && !(t.svmN2[c] <= math.MaxFloat64):
		bad = "norm"
	case t.svmS != nil && math.IsInf(sqNorm(t.k, t.W[c*d:(c+1)*d]), 0):
		bad = "norm"
	default:
		return
	}
	s.first.record(pos, i, c, bad)
}

// checkBudget returns the ErrBudget error of a voted perceptron whose kept
// vectors would exceed the budget (ep 0: before training, when the final
// vectors do not fit).
func (t *linTrainer[T]) checkBudget(ep int) error {
	b := t.bud
	if b == nil || b.max < 0 {
		return nil
	}
	if ep == 0 {
		if need := b.used.Load(); need > b.max {
			return fmt.Errorf("%w: VotedMaxBytes = %d bytes is less than one weight vector per class (%d × %d bytes)", ErrBudget, b.max, t.K, t.vecB)
		}
		return nil
	}
	if !b.over.Load() {
		return nil
	}
	kept := 0
	for c := range t.vot {
		kept += len(t.vot[c].VC)
	}
	return fmt.Errorf("%w: in epoch %d the voted perceptron has kept %d weight vectors of %d values (%d bytes with their biases and counts, and the final vector of each class reserved); one more would exceed VotedMaxBytes = %d bytes (run fewer epochs, raise VotedMaxBytes, or use Averaged)",
		ErrBudget, ep, kept, t.dt.d, b.used.Load(), b.max)
}

// epochGroup runs one epoch for classes c0..c1-1, in batches of
// batchSize: score every sample of the batch for every class of the group
// (kernel.MatVec for one class over contiguous rows, kernel.Dot per sample
// for one class, kernel.Dots per sample for several), then apply the
// updates.
func (t *linTrainer[T]) epochGroup(c0, c1 int, stats []classStats, scratch []T) {
	k, dt, d, n := t.k, t.dt, t.dt.d, t.dt.n
	G := c1 - c0
	Wg := t.W[c0*d : c1*d]
	bs := t.batchSize()
	coef := T(t.cfg.eta)
	if t.K > 1 && t.blocked() {
		t.epochBlock(c0, c1, stats, scratch)
		return
	}
	if G == 1 && bs == 1 {
		t.epochSeq(c0, stats) // no error: the data has been checked
		return
	}
	for lo := 0; lo < n; lo += bs {
		hi := min(lo+bs, n)
		sc := scratch[:(hi-lo)*G]
		if t.cfg.algo == MiniBatch {
			coef = T(t.cfg.tau / float64(hi-lo))
		}
		switch {
		case G == 1 && t.order == nil && hi-lo > 1:
			k.MatVec(sc, dt.X[lo*d:hi*d], Wg)
		case G == 1:
			for j := lo; j < hi; j++ {
				sc[j-lo] = k.Dot(dt.row(t.rowAt(j)), Wg)
			}
		default:
			for j := lo; j < hi; j++ {
				k.Dots(sc[(j-lo)*G:(j-lo+1)*G], Wg, dt.row(t.rowAt(j)))
			}
		}
		// Add the biases as they are before any update of the batch.
		for j := range hi - lo {
			for g := range G {
				sc[j*G+g] += t.B[c0+g]
			}
		}
		for j := lo; j < hi; j++ {
			i := t.rowAt(j)
			x := dt.row(i)
			for g := range G {
				t.visit(c0+g, i, x, sc[(j-lo)*G+g], t.step+int64(j), coef, &stats[c0+g])
			}
		}
	}
}

// epochSeq runs one epoch of a sequential algorithm for the single class c
// of a binary model: one kernel.Dot per sample, in storage or shuffled
// order, and the algorithm's rule only where it has something to do (a
// correctly classified sample costs Online and Averaged nothing more than
// its dot product). Dot per row streams the rows at the speed of one long
// dot product; kernel.MatVec over runs of rows measured slower for short
// rows on AVX2.
//
// If the data is unchecked (prepareLazy), the epoch also computes every
// row's squared norm, while the row is in L1 after its dot product with w,
// and returns an ErrNonFinite error at the first row that is not finite,
// before that row is visited.
func (t *linTrainer[T]) epochSeq(c int, stats []classStats) error {
	k, dt, d, n := t.k, t.dt, t.dt.d, t.dt.n
	w := t.W[c*d : (c+1)*d]
	coef := T(t.cfg.eta)
	if t.cfg.algo == MiniBatch { // B = 1: τ/B = τ
		coef = T(t.cfg.tau)
	}
	fast := t.cfg.algo == Online || t.cfg.algo == Averaged
	check := dt.unchecked
	minM := math.Inf(1)
	for j := range n {
		i := t.rowAt(j)
		x := dt.X[i*d : i*d+d]
		a := k.Dot(x, w) + t.B[c]
		if check {
			if err := dt.check(i, k.Dot(x, x)); err != nil {
				return err
			}
		}
		m := a
		if t.cls[i] != int32(c) {
			m = -a
		}
		if fast && m > 0 && a-a == 0 {
			minM = min(minM, float64(m))
			continue // correct: nothing to do
		}
		t.visit(c, i, x, a, t.step+int64(j), coef, &stats[c])
	}
	stats[c].minMargin = minM
	return nil
}

// blockRows is the number of samples epochBlock scores at once.
const blockRows = 4

// blocked reports whether one-vs-rest training uses epochBlock: for the
// sequential perceptrons, whose update is w += step·x, b += step.
func (t *linTrainer[T]) blocked() bool {
	a := t.cfg.algo
	return a == Online || a == Averaged || a == Voted
}

// epochBlock runs one epoch of a sequential perceptron for classes c0..c1-1
// of a one-vs-rest model, blockRows samples at a time. It copies the block's
// samples into a contiguous buffer (so each is read from memory once per
// goroutine and stays in L1), scores the whole block for each class with one
// kernel.MatVec (a class's weight vector is read once per block instead of
// once per sample), then visits the samples in order. When a visit updates
// class c by w += step·x_i (and b += step), the pending scores of the
// block's later samples j for class c are corrected by step·(x_i·x_j + 1)
// (the 1 only with a bias), so every sample is judged by the weights in
// force when it is visited, as in the sample-by-sample algorithm (exactly so
// for integer-valued data; otherwise up to rounding). The dot products
// x_i·x_j are computed only when needed, once per pair. Each class is
// scored by its own MatVec call, so the result does not depend on how the
// classes are split among goroutines.
func (t *linTrainer[T]) epochBlock(c0, c1 int, stats []classStats, scratch []T) {
	k, dt, d, n := t.k, t.dt, t.dt.d, t.dt.n
	G := c1 - c0
	xb := scratch[:blockRows*d]
	gram := scratch[blockRows*d : blockRows*(d+blockRows)]
	sc := scratch[blockRows*(d+blockRows):][:G*blockRows]
	var known [blockRows * blockRows]bool
	coef := T(t.cfg.eta)
	biasOne := T(0)
	if t.cfg.bias {
		biasOne = 1
	}
	for lo := 0; lo < n; lo += blockRows {
		hi := min(lo+blockRows, n)
		m := hi - lo
		xs := xb[:m*d]
		if t.order == nil {
			xs = dt.X[lo*d : hi*d]
		} else {
			gatherRows(xs, dt.X, t.order[lo:hi], d)
		}
		for g := range G {
			c := c0 + g
			s := sc[g*blockRows : g*blockRows+m]
			k.MatVec(s, xs, t.W[c*d:(c+1)*d])
			for j := range s {
				s[j] += t.B[c]
			}
		}
		known = [blockRows * blockRows]bool{}
		for j := range m {
			i := t.rowAt(lo + j)
			x := xs[j*d : (j+1)*d]
			for g := range G {
				c := c0 + g
				if !t.visit(c, i, x, sc[g*blockRows+j], t.step+int64(lo+j), coef, &stats[c]) {
					continue
				}
				step := coef
				if t.cls[i] != int32(c) {
					step = -coef
				}
				for j2 := j + 1; j2 < m; j2++ {
					if !known[j*blockRows+j2] {
						gram[j*blockRows+j2] = k.Dot(x, xs[j2*d:(j2+1)*d])
						known[j*blockRows+j2] = true
					}
					sc[g*blockRows+j2] += step * (gram[j*blockRows+j2] + biasOne)
				}
			}
		}
	}
}

// gatherChunk is the number of values gather copies from one row before
// moving to the next.
const gatherChunk = 64

// gatherRows copies the rows of the row-major X (d values each) listed in
// order into xs. It copies them in interleaved chunks, so that the rows
// stream from memory in parallel rather than one after the other (the rows
// of a shuffled epoch are scattered, and one row at a time leaves the
// memory system mostly idle).
func gatherRows[T Float](xs, X []T, order []int32, d int) {
	for off := 0; off < d; off += gatherChunk {
		end := min(off+gatherChunk, d)
		for j, r := range order {
			copy(xs[j*d+off:j*d+end], X[int(r)*d+off:int(r)*d+end])
		}
	}
}

func (t *linTrainer[T]) rowAt(j int) int {
	if t.order != nil {
		return int(t.order[j])
	}
	return j
}

// visit applies the algorithm's rule for class c to row i, whose score
// against the class's weights and bias at scoring time is a (for SVM, before
// the scale s). st is the number of samples visited before this one. It
// reports whether the class's weights or bias changed. A non-finite score
// marks the epoch as diverged (and is a mistake: !(m > 0)).
func (t *linTrainer[T]) visit(c, i int, x []T, a T, st int64, coef T, s *classStats) bool {
	if a-a != 0 { // ±Inf or NaN
		s.nonFinite = true
		if t.checked {
			s.first.record(int(st-t.step), i, c, "score")
		}
	}
	y := T(-1)
	if t.cls[i] == int32(c) {
		y = 1
	}
	if t.cfg.algo == SVM {
		changed := t.visitSVM(c, i, x, a, y, st, s)
		if t.checked {
			t.check(c, i, int(st-t.step), s)
		}
		return changed
	}
	m := y * a
	if m > 0 {
		if t.vot != nil {
			t.vot[c].cnt++
		}
		return false
	}
	s.mistakes++
	s.updates++
	s.loss -= float64(m)
	d := t.dt.d
	w := t.W[c*d : (c+1)*d]
	step := coef * y
	switch t.cfg.algo {
	case Averaged:
		ca := T(st) * step
		t.k.Axpy(step, x, w)
		t.k.Axpy(ca, x, t.U[c*d:(c+1)*d])
		if t.cfg.bias {
			t.B[c] += step
			t.UB[c] += ca
		}
		if t.checked {
			t.check(c, i, int(st-t.step), s)
		}
		return true
	case Voted:
		v := &t.vot[c]
		// Keep the current vector, if the budget allows (else the epoch
		// ends with ErrBudget).
		if v.cnt > 0 && t.bud.take(t.vecB) {
			v.V = append(v.V, w...)
			v.VB = append(v.VB, t.B[c])
			v.VC = append(v.VC, v.cnt)
		}
		v.cnt = 1
	}
	t.k.Axpy(step, x, w)
	if t.cfg.bias {
		t.B[c] += step
	}
	if t.checked {
		t.check(c, i, int(st-t.step), s)
	}
	return true
}

// visitSVM is one Pegasos step for class c: w = s·v, b = s·vb. It reports
// whether v or vb changed (the scale s changes every step).
func (t *linTrainer[T]) visitSVM(c, i int, x []T, a, y T, st int64, s *classStats) bool {
	lam := t.lambda
	tt := float64(st + 1)
	sc := t.svmS[c]
	inner := float64(a) // v·x + vb
	m := float64(y) * sc * inner
	if m <= 0 {
		s.mistakes++
		s.loss -= m
	}
	// Shrink: w ← (1 − 1/t)·w. At t = 1 the factor is 0, and w is 0 anyway.
	if st == 0 {
		sc = 1
	} else {
		sc *= 1 - 1/tt
	}
	changed := m < 1
	if changed {
		s.updates++
		a := float64(y) / (lam * tt * sc) // step η_t·y in the units of v
		d := t.dt.d
		t.k.Axpy(T(a), x, t.W[c*d:(c+1)*d])
		extra := 0.0
		if t.cfg.bias {
			t.B[c] += T(a)
			extra = 1
		}
		t.svmN2[c] = max(0, t.svmN2[c]+2*a*inner+a*a*(t.dt.sq[i]+extra))
	}
	// Project onto the ball ‖(w,b)‖ ≤ 1/√λ.
	if n2 := sc * sc * t.svmN2[c]; n2*lam > 1 {
		sc /= math.Sqrt(n2 * lam)
	}
	if !(t.svmN2[c] <= math.MaxFloat64 && sc > 0) {
		// An overflowing norm would project w to 0 (or NaN), and
		// svmObjectives recomputes it from v: flag it now.
		s.nonFinite = true
	}
	if sc < 1e-4 {
		t.foldScale(c, sc)
		sc, changed = 1, true
	}
	t.svmS[c] = sc
	return changed
}

// foldScale multiplies class c's v and vb by sc (so that s can become 1).
func (t *linTrainer[T]) foldScale(c int, sc float64) {
	d := t.dt.d
	t.k.Scale(T(sc), t.W[c*d:(c+1)*d])
	t.B[c] *= T(sc)
	t.svmN2[c] *= sc * sc
}

// svmObjectives refreshes the norms and returns each class's primal
// objective λ/2·‖(w,b)‖² + (1/N)·Σ hinge, with one pass over the data.
func (t *linTrainer[T]) svmObjectives() []float64 {
	d := t.dt.d
	for c := range t.K {
		n2 := sqNorm(t.k, t.W[c*d:(c+1)*d])
		if t.cfg.bias {
			n2 += float64(t.B[c]) * float64(t.B[c])
		}
		t.svmN2[c] = n2
	}
	ev := evaluate(t.k, t.dt, t.cls, t.W, t.B, t.svmS, t.K, t.cfg.workers)
	obj := make([]float64, t.K)
	for c := range obj {
		s := t.svmS[c]
		obj[c] = t.lambda/2*s*s*t.svmN2[c] + ev.cls[c].hinge/float64(t.dt.n)
	}
	return obj
}

// finish builds the model's snapshot from the training state.
func (t *linTrainer[T]) finish(kind Kind, labels []int) *state[T] {
	d := t.dt.d
	s := &state[T]{kind: kind, algo: t.cfg.algo, d: d, labels: labels,
		bias: t.cfg.bias, normalize: t.cfg.normalize, eta: t.cfg.eta}
	switch t.cfg.algo {
	case Voted:
		// The final vectors were reserved in the budget from the start.
		s.VOff = make([]int, t.K+1)
		total := 0
		for c := range t.vot {
			v := &t.vot[c]
			if v.cnt > 0 {
				v.V = append(v.V, t.W[c*d:(c+1)*d]...)
				v.VB = append(v.VB, t.B[c])
				v.VC = append(v.VC, v.cnt)
				v.cnt = 0
			}
			total += len(v.VC)
			s.VOff[c+1] = total
		}
		if t.K == 1 {
			s.V, s.VB, s.VC = t.vot[0].V, t.vot[0].VB, t.vot[0].VC
			return s
		}
		s.V, s.VB, s.VC = make([]T, 0, total*d), make([]T, 0, total), make([]int64, 0, total)
		for c := range t.vot {
			v := &t.vot[c]
			s.V = append(s.V, v.V...)
			s.VB = append(s.VB, v.VB...)
			s.VC = append(s.VC, v.VC...)
			*v = votedState[T]{} // let the collector have it
		}
		return s
	case Averaged:
		// The average of the weights after each of the t.step samples:
		// w − u/steps. A plain loop, once per fit, so that every kernel
		// implementation gives the same bits.
		c := T(t.step)
		for i := range t.W {
			t.W[i] -= t.U[i] / c
		}
		for i := range t.B {
			t.B[i] -= t.UB[i] / c
		}
	case SVM:
		for c := range t.K {
			sc := T(t.svmS[c])
			w := t.W[c*d : (c+1)*d]
			for i := range w {
				w[i] *= sc
			}
			t.B[c] *= sc
		}
	}
	s.W, s.B = t.W, t.B
	return s
}

// diagnose fills the model-level fields of diag with a final pass, or for
// a binary model from last, the statistics of a last epoch that scored
// every sample with the final weights.
func (t *linTrainer[T]) diagnose(s *state[T], diag *Diagnostics, last *classStats) {
	r2 := 0.0
	for _, v := range t.dt.sq {
		r2 = max(r2, v)
	}
	if t.cfg.bias {
		r2++
	}
	diag.Radius = math.Sqrt(r2)
	for c := range diag.Classes {
		diag.Classes[c].Radius = diag.Radius
	}
	if s.voted() {
		return
	}
	var ev evalResult
	if last != nil {
		ev.cls = []evalClass{{mistakes: last.mistakes, loss: last.loss, minMargin: last.minMargin}}
	} else {
		ev = evaluate(t.k, t.dt, t.cls, s.W, s.B, nil, t.K, t.cfg.workers)
	}
	n := float64(t.dt.n)
	fill := func(dg *Diagnostics, c int) {
		cs := ev.cls[c]
		dg.Evaluated = true
		dg.TrainAccuracy = 1 - float64(cs.mistakes)/n
		dg.TrainLoss = cs.loss / n
		nw := sqNorm(t.k, s.W[c*t.dt.d:(c+1)*t.dt.d])
		if s.bias {
			nw += float64(s.B[c]) * float64(s.B[c])
		}
		if nw > 0 {
			dg.Margin = cs.minMargin / math.Sqrt(nw)
		}
		dg.Separable = cs.minMargin > 0 && nw > 0
		if dg.Separable {
			dg.Bound = r2 / (dg.Margin * dg.Margin)
		}
	}
	if t.K == 1 {
		fill(diag, 0)
		return
	}
	for c := range t.K {
		fill(&diag.Classes[c], c)
	}
	diag.Evaluated = true
	diag.TrainAccuracy = float64(ev.argmaxOK) / n
	for c := range t.K {
		diag.TrainLoss += ev.cls[c].loss / n
	}
}
