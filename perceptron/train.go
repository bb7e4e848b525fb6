package perceptron

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
)

// linStart is the state a trainer starts from (the warm start), in the
// trainer's layout: K weight vectors of dt.d values (with the augmented
// column, the bias is the last one).
type linStart[T kernel.Float] struct {
	W, B  []T   // K×d weights, K biases
	U, UB []T   // Averaged: the averaging sums to continue, or nil
	step  int64 // Averaged, SVM: the samples visited before
	// vot are a voted model's kept vectors to continue (the current one is
	// in W and B, its survival count in cnt), or nil.
	vot []votedStart[T]
}

// initialStart returns the trainer's start from the Weights of
// Options.Init (nil when neither is set), checking their lengths (K·D and K)
// and that every value is finite in T.
func initialStart[T kernel.Float](cfg *config, dt *data[T], K, D int) (*linStart[T], error) {
	if cfg.w0 == nil && cfg.b0 == nil {
		return nil, nil
	}
	if cfg.w0 != nil && len(cfg.w0) != K*D {
		return nil, fmt.Errorf("%w: Init: Weights.W has %d values, want %d (%d weight vectors of %d features)", ErrOption, len(cfg.w0), K*D, K, D)
	}
	if cfg.b0 != nil && len(cfg.b0) != K {
		return nil, fmt.Errorf("%w: Init: Weights.B has %d values, want %d", ErrOption, len(cfg.b0), K)
	}
	conv := func(name string, i int, v float64) (T, error) {
		if t := T(v); perceptrontrain.Finite(t) {
			return t, nil
		}
		return 0, fmt.Errorf("%w: %s[%d] = %v is not finite in %s", ErrOption, name, i, v, linmodel.TypeName[T]())
	}
	st := &linStart[T]{W: make([]T, K*dt.d), B: make([]T, K)}
	for c := range K {
		if cfg.w0 != nil {
			for j := range D {
				v, err := conv("Weights.W", c*D+j, cfg.w0[c*D+j])
				if err != nil {
					return nil, err
				}
				st.W[c*dt.d+j] = v
			}
		}
		if cfg.b0 != nil {
			v, err := conv("Weights.B", c, cfg.b0[c])
			if err != nil {
				return nil, err
			}
			if dt.aug {
				st.W[c*dt.d+D] = augWeight(v, cfg.bfeat)
			} else {
				st.B[c] = v
			}
		}
	}
	return st, nil
}

// votedState is a voted trainer's kept vectors of one class, in chunkLists
// so that the memory they take stays close to the bytes counted against the
// budget.
type votedState[T kernel.Float] struct {
	V   chunkList[T]     // the kept weight vectors, d values each
	VB  chunkList[T]     // their biases
	VC  chunkList[int64] // their survival counts
	cnt int64            // survival count of the current vector
}

// reset empties the state, keeping its memory for reuse.
func (v *votedState[T]) reset() {
	v.V.reset()
	v.VB.reset()
	v.VC.reset()
	v.cnt = 0
}

// keep appends a vector w with bias b and survival count c.
func (v *votedState[T]) keep(w []T, b T, c int64) {
	v.V.add(w...)
	v.VB.add(b)
	v.VC.add(c)
}

// votedStart is the kept vectors of one class of a voted model to continue
// from, as the model holds them.
type votedStart[T kernel.Float] struct {
	V   []T
	VB  []T
	VC  []int64
	cnt int64 // survival count of the current vector
}

// linTrainer trains K binary linear classifiers at once: one for a binary
// problem, one per class for one-vs-rest. Class c's label of row i is +1
// exactly when cls[i] == c.
type linTrainer[T kernel.Float] struct {
	k      modelkern.Kernels[T]
	cfg    *config
	dt     *data[T]
	cls    []int32
	K      int
	cw     int // the goroutines the classes are split among (classWorkers)
	lambda float64
	// bias: the trainer keeps a bias of its own in B (cfg.bias, except
	// for augmented data, whose last column's weight is the bias).
	bias bool
	// bsq is B², the square of the bias feature (Options.BiasFeature), by
	// which a step of the weights moves the bias (1 by default).
	bsq   float64
	start *linStart[T] // the warm start, or nil for zero

	W, B  []T // K×d weights (SVM: the unscaled v) and K biases
	U, UB []T // Averaged: Σ (step·η·y·x) over the mistakes, and for b
	svmS  []float64
	svmN2 []float64 // SVM: ‖v‖² + vb², kept up to date incrementally
	vot   []votedState[T]
	bud   *votedBudget // Voted: the budget of the kept vectors
	// blk: sparse one-vs-rest training of a sequential perceptron keeps
	// the weights (and sums) interleaved in blocks during the epochs (see
	// sparse_ovr.go); blk[c] is class c's group. nil otherwise.
	blk []*ovrGroup[T]
	ovr *ovrCols[T] // with blk: the data renumbered to its used columns
	// servedN2: each class's ‖w‖² of the served weights, when fromBlocks
	// wrote them (else nil: diagnose computes it).
	servedN2 []float64
	servedOK bool // with servedN2: every served weight is finite
	// fresh: the weights and sums are as make returned them (see reset).
	fresh bool
	vecB  int64 // Voted: bytes of one kept vector, its bias and count

	// divState's Checked makes every update check the values it changed
	// and record the first non-finite one in its class's
	// classStats.First (locate).
	divState

	step int64 // samples visited so far (all epochs, and before a warm start)
	smp  sampler
}

func newLinTrainer[T kernel.Float](k modelkern.Kernels[T], cfg *config, dt *data[T], cls []int32, K int, start *linStart[T]) *linTrainer[T] {
	t := &linTrainer[T]{k: k, cfg: cfg, dt: dt, cls: cls, K: K, bias: cfg.bias && !dt.aug, bsq: cfg.biasSq(), start: start}
	d := dt.d
	blocks := dt.sp != nil && K > 1 && t.blocked()
	t.cw = cfg.workers
	if blocks && t.scans() {
		// Every worker of a scanning epoch reads every visit's stored
		// values, and a block costs one cache line per stored value
		// whatever its width (up to blockWidth classes): splitting one
		// block's classes among workers repeats the reading, for more CPU
		// and, on a busy machine, no less wall time (the manual pages'
		// text, six classes, ten epochs: 1.91 s of CPU with two workers,
		// 1.56 s with one, Zen 5). So a worker per blockWidth classes.
		t.cw = min(cfg.workers, (K+blockWidth-1)/blockWidth)
	}
	// With blocks and no start weights, the K×D W and U are made only
	// where they are read (ensureDense); the model's are written from the
	// blocks at the end (fromBlocks).
	lazy := blocks && cfg.algo != linear.Voted && (start == nil || start.W == nil && start.U == nil)
	if !lazy {
		t.W = dataset.Alloc[T](K * d) // huge pages: a K×D array faults in 512 times fewer pages
	}
	t.B = make([]T, K)
	switch cfg.algo {
	case linear.Averaged:
		if !lazy {
			t.U = dataset.Alloc[T](K * d)
		}
		t.UB = make([]T, K)
	case linear.SVM:
		t.lambda = cfg.lambda
		if cfg.c != 0 {
			t.lambda = 1 / (cfg.c * float64(dt.n))
		}
		t.svmS = make([]float64, K)
		t.svmN2 = make([]float64, K)
		for c := range t.svmS {
			t.svmS[c] = 1
		}
	case linear.Voted:
		t.vot = make([]votedState[T], K)
		t.bud = &votedBudget{Max: cfg.votedMax}
		var z T
		t.vecB = int64(d+1)*int64(unsafe.Sizeof(z)) + 8
	}
	t.smp = perceptrontrain.NewSampler(dt.n, t.batchSize(), perceptrontrain.Sampling(cfg.sampling), cfg.shuffle && cfg.algo != linear.Batch, cfg.seed)
	t.fresh = true // W, B, U, UB and the blocks: just made
	if blocks {
		t.ovr = usedCols(dt.sp, d)
		// Scanning epochs (scans) want groups of one block; Voted
		// scores every visit, each row read once for all of a worker's
		// classes.
		t.blk = newOvrGroups[T](groups(K, t.cw), K, len(t.ovr.m.Cols), cfg.algo == linear.Averaged, t.scans())
	}
	t.reset()
	return t
}

// reset puts the trainer in its initial state: the start's weights (zero
// by default), the sampling generator freshly seeded, the start's kept
// vectors only (and their budget reserving room for each class's final
// vector).
func (t *linTrainer[T]) reset() {
	fresh := t.fresh
	t.fresh = false
	st := t.start.load(t.W, t.B, t.U, t.UB, fresh)
	for c := range t.svmS {
		t.svmS[c] = 1
		t.svmN2[c] = 0
		if st.W != nil {
			t.svmN2[c] = linmodel.SqNorm(t.k, t.W[c*t.dt.d:(c+1)*t.dt.d])
			if t.bias {
				t.svmN2[c] += float64(t.B[c]) * float64(t.B[c]) / t.bsq
			}
		}
	}
	var kept int64
	for c := range t.vot {
		v := &t.vot[c]
		v.reset()
		if st.vot != nil {
			s := &st.vot[c]
			d := t.dt.d
			for j := range s.VC {
				v.keep(s.V[j*d:(j+1)*d], s.VB[j], s.VC[j])
			}
			v.cnt = s.cnt
			kept += int64(len(s.VC)) * t.vecB
		}
	}
	if t.bud != nil {
		t.bud.Used.Store(int64(t.K)*t.vecB + kept)
		t.bud.Over.Store(false)
	}
	t.step = st.step
	t.smp.Reset()
	switch {
	case t.blk == nil || fresh && st.W == nil && st.U == nil:
		// (fresh blocks of a zero start are zero already)
	case t.W == nil:
		t.clearBlocks() // a zero start, never made dense
	default:
		t.syncIn()
	}
}

// load sets W, B, U and UB to the start's (zero for a nil start or a nil
// part) and returns the start (an empty one for nil).
//
// fresh says that W, B, U and UB are as make returned them (zero, and not
// yet touched): a nil start then leaves them alone. Clearing K×D fresh
// weights would only fault in their pages, which for text-sized D costs
// more than a sparse fit's epochs.
func (st *linStart[T]) load(W, B, U, UB []T, fresh bool) *linStart[T] {
	if st == nil {
		st = &linStart[T]{}
	}
	copyOrClear(W, st.W, fresh)
	copyOrClear(B, st.B, fresh)
	copyOrClear(U, st.U, fresh)
	copyOrClear(UB, st.UB, fresh)
	return st
}

// copyOrClear copies src to dst, or clears dst if src is nil (unless dst
// is fresh: zero already).
func copyOrClear[T kernel.Float](dst, src []T, fresh bool) {
	if src == nil {
		if !fresh {
			clear(dst)
		}
		return
	}
	copy(dst, src)
}

// batchSize is the number of samples scored before their updates apply.
func (t *linTrainer[T]) batchSize() int {
	switch t.cfg.algo {
	case linear.Batch:
		return t.dt.n
	case linear.MiniBatch:
		return min(t.cfg.batch, t.dt.n)
	}
	return 1
}

func (t *linTrainer[T]) run(scheme fit.Scheme, labels []int) (*linear.Model[T], *Diagnostics, error) {
	cfg := t.cfg
	if err := t.checkBudget(0); err != nil {
		return nil, nil, err
	}
	diag := &runDiag{}
	if t.K > 1 {
		diag.Classes = make([]runDiag, t.K)
	}
	grp, scratch := t.groups()
	stats := make([]classStats, t.K)
	prevObj := math.Inf(1)
	epochs := 0
	visits := float64(t.smp.Visits)
	steps := (t.smp.Visits + t.batchSize() - 1) / t.batchSize() // the update steps k per epoch
	clean := false                                              // the last epoch swept every sample without a mistake
	repeats := t.repeatsClean()
	for ep := 1; ep <= cfg.epochs; ep++ {
		var objs []float64
		counted := clean && repeats
		if counted {
			t.cleanEpoch()
		} else {
			var err error
			if objs, err = t.epoch(stats, grp, scratch); err != nil {
				return nil, nil, err
			}
		}
		epochs = ep
		if err := t.checkBudget(ep); err != nil {
			return nil, nil, err
		}
		if !counted && t.diverged(stats, objs) { // a counted epoch changes no value
			return nil, nil, t.locate(ep, stats, grp, scratch, labels)
		}

		e := epochStats{Epoch: ep, Samples: t.smp.Visits, Steps: steps}
		for c := range stats {
			e.Mistakes += stats[c].Mistakes
			e.Updates += stats[c].Updates
			e.Loss += stats[c].Loss / visits
		}
		e.Accuracy = 1 - float64(e.Mistakes)/(visits*float64(t.K))
		for _, o := range objs {
			e.Objective += o
		}
		// A clean epoch of random draws need not have seen every sample:
		// check the weights on all of them.
		var checked []int // mistakes per class on all samples, or nil
		if cfg.algo != linear.SVM && e.Mistakes == 0 && t.smp.Random() {
			if t.blk != nil {
				t.syncOut()
			}
			ev := evaluate(t.k, t.dt, t.cls, t.W, t.B, nil, t.K, cfg.workers)
			checked = make([]int, t.K)
			for c := range checked {
				checked[c] = ev.cls[c].mistakes
			}
		}
		allClean := e.Mistakes == 0
		for _, m := range checked {
			allClean = allClean && m == 0
		}
		clean = e.Mistakes == 0 && t.smp.Mode == perceptrontrain.SampleSweep
		if t.K > 1 {
			for c := range stats {
				ce := epochStats{Epoch: ep, Samples: e.Samples, Steps: e.Steps, Mistakes: stats[c].Mistakes, Updates: stats[c].Updates,
					Loss: stats[c].Loss / visits, Accuracy: 1 - float64(stats[c].Mistakes)/visits}
				if objs != nil {
					ce.Objective = objs[c]
				}
				cd := &diag.Classes[c]
				cd.Epochs = append(cd.Epochs, ce)
				cd.Updates += ce.Updates
				cd.Converged = cfg.algo != linear.SVM && ce.Mistakes == 0 && (checked == nil || checked[c] == 0)
			}
		}
		converged, stop := allClean, cfg.stopClean
		if cfg.algo == linear.SVM {
			converged = cfg.tol > 0 && prevObj-e.Objective < cfg.tol*math.Abs(e.Objective)
			stop = true
			prevObj = e.Objective
		}
		done, err := diag.EndEpoch(ep, e, converged, stop, cfg.callback)
		if err != nil {
			return nil, nil, err
		}
		if done {
			break
		}
	}
	if t.blk != nil {
		if t.W != nil || t.step == 0 {
			t.syncOut() // (else finish writes the model from the blocks)
		}
		defer t.releaseBlocks() // after diagnose, which scores with them
	}
	s, Ws, Bs := t.finish(scheme, labels)
	if !t.servedFinite(Ws) || !linmodel.AllFinite(Bs) {
		// Only the average w − u/c is formed here, from finite w and u.
		return nil, nil, perceptrontrain.DivergedErr[T](divEvent{}, epochs, "averaged weights", false, labels)
	}
	var last *classStats
	if t.K == 1 && cfg.algo == linear.Online && t.batchSize() == 1 && stats[0].Updates == 0 &&
		cfg.sampling == SampleSweep && t.dt.scale == nil {
		// The last epoch changed nothing, so it scored every sample with
		// the final weights: its statistics are the model's, and the
		// final pass is not needed.
		last = &stats[0]
	}
	t.diagnose(s, Ws, Bs, diag, last)
	if cfg.margin {
		// With aug the bias is the last column of the points already.
		perceptrontrain.DataMargins(t.dt.X, t.dt.d, t.cls, t.K, gram.Linear{}, t.bias, cfg.bfeat, cfg.workers, cfg.impl, diag)
	}
	return newModel(s), toDiagnostics(diag), nil
}

// groups splits the classes among cfg.workers goroutines and returns each
// group's scratch space.
func (t *linTrainer[T]) groups() ([][2]int, [][]T) {
	grp := groups(t.K, t.cw)
	bs := t.batchSize()
	scratch := make([][]T, len(grp))
	for g, r := range grp {
		block := blockRows * (t.dt.d + blockRows) // epochBlock's copies of the samples and their Gram
		if t.dt.sp != nil {
			block = 0 // sparse samples are not copied
		}
		scratch[g] = make([]T, max(bs, blockRows)*(r[1]-r[0])+block)
	}
	return grp, scratch
}

// epoch runs one epoch (shuffling first) with its statistics in stats,
// and for SVM returns each class's objective after it.
func (t *linTrainer[T]) epoch(stats []classStats, grp [][2]int, scratch [][]T) ([]float64, error) {
	t.smp.Next()
	clear(stats)
	if t.dt.unchecked {
		// checksInFirstEpoch: a binary sequential fit, which epochSeq
		// runs.
		if err := t.epochSeq(0, stats); err != nil {
			return nil, err
		}
		t.dt.unchecked = false
	} else {
		// One group runs on the caller; a worker's panic is re-raised
		// on the caller (see package parallel).
		parallel.Run(len(grp), func(g int) { t.epochGroup(grp[g][0], grp[g][1], stats, scratch[g]) })
	}
	t.step += int64(t.smp.Visits)
	if t.cfg.algo == linear.SVM {
		return t.svmObjectives(), nil
	}
	return nil, nil
}

// repeatsClean reports whether an epoch that follows a clean sweep (an
// epoch of SampleSweep without a mistake: run sets clean only for those)
// is known to be clean without running it: the weights change only on a
// mistake (Online, Averaged and Voted, one sample a step), so they are the ones every sample was just
// right with, and on sparse data the score of a visit is a function of the
// weights and the sample alone (kernel.DotSparse, ScoreBlock, ScoreBlock2
// and ScanBlock2 give a visit the same bits wherever it falls in the
// epoch), so every visit is right again, in any order. On dense data the
// epochs score the samples a block at a time (kernel.MatVec), whose bits
// for a sample may depend on the block's other rows, so a sample right
// with a margin of a rounding error could in principle be wrong in the
// next order: dense epochs are run.
func (t *linTrainer[T]) repeatsClean() bool {
	switch t.cfg.algo {
	case linear.Online, linear.Averaged, linear.Voted:
		return t.dt.sp != nil && repeatCleanEpochs
	}
	return false
}

// repeatCleanEpochs lets run skip the epochs repeatsClean vouches for;
// the tests turn it off to train the same models the long way.
var repeatCleanEpochs = true

// cleanEpoch is epoch for an epoch repeatsClean vouches for: it counts
// its visits (the averaged perceptron's steps, the voted perceptron's
// survival counts) and visits nothing. It draws no order: every later
// epoch is counted too, and nothing after the epochs reads the generator.
// stats keep the clean epoch's: no mistake, update or loss, and the
// smallest margin that the same weights give the same samples (the final
// pass of a binary Online fit takes it from there). Options.Stop = StopNever asks for
// such epochs; they cost next to nothing.
func (t *linTrainer[T]) cleanEpoch() {
	for c := range t.vot {
		t.vot[c].cnt += int64(t.smp.Visits)
	}
	t.step += int64(t.smp.Visits)
}

// diverged reports whether the epoch just run produced a non-finite value.
func (t *linTrainer[T]) diverged(stats []classStats, objs []float64) bool {
	for c := range stats {
		if stats[c].NonFinite {
			return true
		}
	}
	for _, o := range objs {
		if math.IsNaN(o) || math.IsInf(o, 0) {
			return true
		}
	}
	if t.blk != nil {
		// The weights and sums are in the blocks, whose updates checked
		// every value they wrote.
		return perceptrontrain.AnyNonFinite(t.B, t.UB)
	}
	return perceptrontrain.AnyNonFinite(t.W, t.B, t.U, t.UB)
}

// locate trains again from the start up to epoch ep, checking every value
// epoch ep changes, and returns the *divergedError of the first non-finite
// one.
func (t *linTrainer[T]) locate(ep int, stats []classStats, grp [][2]int, scratch [][]T, labels []int) error {
	ev, err := t.divState.Locate(ep, stats, t.reset, func() error {
		_, err := t.epoch(stats, grp, scratch)
		return err
	})
	if err != nil {
		return err
	}
	// Not found by the checks of the updates: the objective's pass over
	// the data (SVM) overflowed.
	return perceptrontrain.DivergedErr[T](ev, ep, "score", t.K > 1, labels)
}

// check records, in a checked epoch, the first non-finite value among
// class c's weights, bias and averaging sums after an update on row i at
// position pos of the epoch (and, for SVM, its norm and scale).
func (t *linTrainer[T]) check(c, i, pos int, s *classStats) {
	d := t.dt.d
	var ub T
	if t.UB != nil {
		ub = t.UB[c]
	}
	bad := nonFiniteLinear(t.weights(c), t.B[c], t.sums(c), ub)
	if bad == "" && t.svmS != nil {
		switch {
		case !(t.svmS[c] > 0 && t.svmS[c] <= 1):
			bad = "scale"
		case !(t.svmN2[c] <= math.MaxFloat64), math.IsInf(linmodel.SqNorm(t.k, t.W[c*d:(c+1)*d]), 0):
			bad = "norm"
		}
	}
	if bad != "" {
		s.First.Record(pos, i, c, bad)
	}
}

// checkBudget returns the ErrBudget error of a voted perceptron whose kept
// vectors would exceed the budget (ep 0: before training, when the final
// vectors do not fit).
func (t *linTrainer[T]) checkBudget(ep int) error {
	b := t.bud
	if b == nil || b.Max < 0 {
		return nil
	}
	if ep == 0 {
		if need := b.Used.Load(); need > b.Max {
			if t.start != nil && t.start.vot != nil {
				return fmt.Errorf("%w: VotedMaxBytes = %d bytes is less than the starting model's kept vectors and one more per class (%d bytes)", ErrBudget, b.Max, need)
			}
			return fmt.Errorf("%w: VotedMaxBytes = %d bytes is less than one weight vector per class (%d × %d bytes)", ErrBudget, b.Max, t.K, t.vecB)
		}
		return nil
	}
	if !b.Over.Load() {
		return nil
	}
	kept := 0
	for c := range t.vot {
		kept += t.vot[c].VC.len()
	}
	return fmt.Errorf("%w: in epoch %d the voted perceptron has kept %d weight vectors of %d values (%d bytes with their biases and counts, and the final vector of each class reserved); one more would exceed VotedMaxBytes = %d bytes (run fewer epochs, raise VotedMaxBytes, or use Averaged)",
		ErrBudget, ep, kept, t.dt.d, b.Used.Load(), b.Max)
}

// epochGroup runs one epoch for classes c0..c1-1, in batches of
// batchSize (a mini-batch step each): score every sample of the batch for
// every class of the group (kernel.MatVec for one class over contiguous
// rows, kernel.Dot per sample for one class, kernel.Dots per sample for
// several), then apply the updates. A mini-batch step is τ/B, also for a
// short last batch.
func (t *linTrainer[T]) epochGroup(c0, c1 int, stats []classStats, scratch []T) {
	if t.blk != nil {
		gs := groupsIn(t.blk, c0, c1)
		vis := t.visitsOf(gs[0]) // one list for the range's groups
		for _, g := range gs {
			t.epochSparseOvR(g, vis, stats)
		}
		return
	}
	k, dt, d, E := t.k, t.dt, t.dt.d, t.smp.Visits
	G := c1 - c0
	Wg := t.W[c0*d : c1*d]
	bs := t.batchSize()
	coef := T(t.cfg.eta)
	if t.cfg.algo == linear.MiniBatch {
		coef = T(t.cfg.tau / float64(bs))
	}
	if t.K > 1 && t.blocked() {
		t.epochBlock(c0, c1, stats, scratch)
		return
	}
	if G == 1 && bs == 1 {
		t.epochSeq(c0, stats) // no error: the data has been checked
		return
	}
	for lo := 0; lo < E; lo += bs {
		hi := min(lo+bs, E)
		sc := scratch[:(hi-lo)*G]
		switch {
		case G == 1 && t.smp.Order() == nil && hi-lo > 1:
			dt.matVec(k, sc, lo, hi, Wg)
		case G == 1:
			for j := lo; j < hi; j++ {
				sc[j-lo] = dotv(k, dt.vec(t.rowAt(j)), Wg)
			}
		default:
			for j := lo; j < hi; j++ {
				dt.dots(k, sc[(j-lo)*G:(j-lo+1)*G], Wg, t.rowAt(j))
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
			x := dt.vec(i)
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
	k, dt, d, E := t.k, t.dt, t.dt.d, t.smp.Visits
	w := t.W[c*d : (c+1)*d]
	coef := T(t.cfg.eta)
	if t.cfg.algo == linear.MiniBatch { // B = 1: τ/B = τ
		coef = T(t.cfg.tau)
	}
	fast := t.cfg.algo == linear.Online || t.cfg.algo == linear.Averaged
	check := dt.unchecked
	minM := math.Inf(1)
	for j := range E {
		i := t.rowAt(j)
		x := dt.vec(i)
		a := dotv(k, x, w) + t.B[c]
		if check {
			if err := dt.checkVec(i, x, sqv(k, x)); err != nil {
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
	stats[c].MinMargin = minM
	return nil
}

// blockRows is the number of samples epochBlock scores at once.
const blockRows = 4

// blocked reports whether one-vs-rest training uses epochBlock: for the
// sequential perceptrons, whose update is w += step·x, b += step.
func (t *linTrainer[T]) blocked() bool {
	a := t.cfg.algo
	return a == linear.Online || a == linear.Averaged || a == linear.Voted
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
	k, dt, d, E := t.k, t.dt, t.dt.d, t.smp.Visits
	G := c1 - c0
	xb := scratch[:blockRows*d]
	gram := scratch[blockRows*d : blockRows*(d+blockRows)]
	sc := scratch[blockRows*(d+blockRows):][:G*blockRows]
	var known [blockRows * blockRows]bool
	coef := T(t.cfg.eta)
	biasOne := T(0) // the bias feature's B², the bias's share of x_i·x_j
	if t.bias {
		biasOne = T(t.bsq)
	}
	for lo := 0; lo < E; lo += blockRows {
		hi := min(lo+blockRows, E)
		m := hi - lo
		xs := visited(&t.smp, xb, dt.X, d, lo, hi)
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
				if !t.visit(c, i, vec[T]{val: x}, sc[g*blockRows+j], t.step+int64(lo+j), coef, &stats[c]) {
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

// visited returns the samples visited at positions lo..hi−1 of the epoch
// as one row-major block: a slice of X in storage order, else their rows
// copied into buf.
func visited[T kernel.Float](smp *sampler, buf, X []T, d, lo, hi int) []T {
	if smp.Order() == nil {
		return X[lo*d : hi*d]
	}
	xs := buf[:(hi-lo)*d]
	gatherRows(xs, X, smp.Order()[lo:hi], d)
	return xs
}

// gatherRows copies the rows of the row-major X (d values each) listed in
// order into xs. It copies them in interleaved chunks, so that the rows
// stream from memory in parallel rather than one after the other (the rows
// of a shuffled epoch are scattered, and one row at a time leaves the
// memory system mostly idle).
func gatherRows[T kernel.Float](xs, X []T, order []int32, d int) {
	for off := 0; off < d; off += gatherChunk {
		end := min(off+gatherChunk, d)
		for j, r := range order {
			copy(xs[j*d+off:j*d+end], X[int(r)*d+off:int(r)*d+end])
		}
	}
}

func (t *linTrainer[T]) rowAt(j int) int { return t.smp.At(j) }

// visit applies the algorithm's rule for class c to row i, whose score
// against the class's weights and bias at scoring time is a (for SVM, before
// the scale s). st is the number of samples visited before this one. It
// reports whether the class's weights or bias changed. A non-finite score
// marks the epoch as diverged (and is a mistake: !(m > 0)).
func (t *linTrainer[T]) visit(c, i int, x vec[T], a T, st int64, coef T, s *classStats) bool {
	if a-a != 0 { // ±Inf or NaN
		s.NonFinite = true
		if t.Checked {
			s.First.Record(int(st-t.step), i, c, "score")
		}
	}
	y := T(-1)
	if t.cls[i] == int32(c) {
		y = 1
	}
	if t.cfg.algo == linear.SVM {
		changed := t.visitSVM(c, i, x, a, y, st, s)
		if t.Checked {
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
	s.Mistakes++
	s.Updates++
	s.Loss -= float64(m)
	step := coef * y
	switch t.cfg.algo {
	case linear.Averaged:
		ca := T(st) * step
		t.add(c, step, x, s)
		t.addU(c, ca, x, s)
		if t.bias {
			t.B[c] += step * T(t.bsq)
			t.UB[c] += ca * T(t.bsq)
		}
		if t.Checked {
			t.check(c, i, int(st-t.step), s)
		}
		return true
	case linear.Voted:
		v := &t.vot[c]
		// Keep the current vector, if the budget allows (else the epoch
		// ends with ErrBudget).
		if v.cnt > 0 && t.bud.Take(t.vecB) {
			v.keep(t.weights(c), t.B[c], v.cnt)
		}
		v.cnt = 1
	}
	t.add(c, step, x, s)
	if t.bias {
		t.B[c] += step * T(t.bsq)
	}
	if t.Checked {
		t.check(c, i, int(st-t.step), s)
	}
	return true
}

// visitSVM is one Pegasos step for class c: w = s·v, b = s·vb. It reports
// whether v or vb changed (the scale s changes every step).
func (t *linTrainer[T]) visitSVM(c, i int, x vec[T], a, y T, st int64, s *classStats) bool {
	lam := t.lambda
	tt := float64(st + 1)
	sc := t.svmS[c]
	inner := float64(a) // v·x + vb
	m := float64(y) * sc * inner
	if m <= 0 {
		s.Mistakes++
		s.Loss -= m
	}
	// Shrink: w ← (1 − 1/t)·w. At t = 1 the factor is 0, and w is 0 anyway.
	if st == 0 {
		sc = 1
	} else {
		sc *= 1 - 1/tt
	}
	changed := m < 1
	if changed {
		s.Updates++
		a := float64(y) / (lam * tt * sc) // step η_t·y in the units of v
		d := t.dt.d
		axpyv(t.k, T(a), x, t.W[c*d:(c+1)*d])
		extra := 0.0 // the bias feature's B²: ‖(x, B)‖² = ‖x‖² + B²
		if t.bias {
			t.B[c] += T(a * t.bsq) // vb = B·v_B moves by a·B²
			extra = t.bsq
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
		s.NonFinite = true
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
		n2 := linmodel.SqNorm(t.k, t.W[c*d:(c+1)*d])
		if t.bias {
			n2 += float64(t.B[c]) * float64(t.B[c]) / t.bsq
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

// finish builds the model's snapshot from the training state. It also
// returns the served weights and biases in the trainer's layout (for the
// diagnostics; empty for a voted model, and nil weights for one whose
// served weights stay compact, compactServed).
func (t *linTrainer[T]) finish(scheme fit.Scheme, labels []int) (*linmodel.Parts[T], []T, []T) {
	d := t.dt.d
	s := &linmodel.Parts[T]{Scheme: scheme, Algorithm: uint8(t.cfg.algo), Dims: d, Labels: labels,
		Bias: t.cfg.bias, BiasFeature: t.cfg.bfeat, Scaling: uint8(t.cfg.scaling), Eta: t.cfg.eta, Steps: t.step, Resumable: t.cfg.resumable}
	if t.cfg.algo == linear.MiniBatch {
		s.Eta = t.cfg.tau // Update's step: a mini-batch of one sample steps by τ/1
	}
	if t.dt.aug {
		s.Dims = d - 1
	}
	switch t.cfg.algo {
	case linear.Voted:
		// The final vectors were reserved in the budget from the start.
		s.VOff = make([]int, t.K+1)
		total := 0
		for c := range t.vot {
			v := &t.vot[c]
			if v.cnt > 0 {
				v.keep(t.W[c*d:(c+1)*d], t.B[c], v.cnt)
				v.cnt = 0
			}
			total += v.VC.len()
			s.VOff[c+1] = total
		}
		// The model holds the vectors in one array: assembling it needs as
		// much memory again as the kept vectors, for a moment.
		s.V, s.VB, s.VC = make([]T, 0, total*d), make([]T, 0, total), make([]int64, 0, total)
		for c := range t.vot {
			v := &t.vot[c]
			s.V = v.V.appendTo(s.V)
			s.VB = v.VB.appendTo(s.VB)
			s.VC = v.VC.appendTo(s.VC)
			*v = votedState[T]{} // let the collector have it
		}
		if t.dt.aug {
			s.V, s.VB = splitAug(s.V, d, len(s.VC), t.cfg.bfeat)
		}
		return s, nil, nil
	case linear.Averaged:
		// The average of the weights after each of the t.step samples:
		// w − u/steps (averageOf). The running weights and the sums stay
		// in the model, for Update and a continuation to go on averaging.
		var CW, U, AW []T
		switch {
		case t.W == nil && !t.dt.aug:
			// The served average and the running weights and sums stay
			// compact (compactServed, compactAvg): no K×D array written.
			s.Served, s.Avg = t.fromBlocksCompact()
			s.B, s.CB, s.UB = linmodel.AverageOf(t.B, t.UB, t.step), t.B, t.UB
			return s, nil, s.B
		case t.W == nil:
			CW, U, AW = t.fromBlocks()
		default:
			CW, U, AW = t.W, t.U, t.averageW()
		}
		AB := linmodel.AverageOf(t.B, t.UB, t.step)
		s.W, s.B = t.modelLayout(AW, AB)
		s.CW, s.CB = t.modelLayout(CW, t.B)
		s.U, s.UB = t.modelLayout(U, t.UB)
		if t.dt.aug {
			// b = B·w_B: the served bias is the average of the model's
			// own running bias and sums, as Update and the files form it.
			s.B = linmodel.AverageOf(s.CB, s.UB, t.step)
		}
		return s, AW, AB
	case linear.SVM:
		for c := range t.K {
			sc := T(t.svmS[c])
			w := t.W[c*d : (c+1)*d]
			for i := range w {
				w[i] *= sc
			}
			t.B[c] *= sc
		}
		s.Lambda = t.lambda
	}
	W := t.W
	if W == nil {
		W, _, _ = t.fromBlocks()
	}
	s.W, s.B = t.modelLayout(W, t.B)
	return s, W, t.B
}

// averageW is averageOf(t.W, t.U, t.step). With the data's used columns
// (t.ovr) and a zero start, the other columns of W and U are zero, and so
// are the average's (0 − 0/steps): it computes the used ones only, into
// fresh (zero) memory, so that the pages of columns no sample uses are
// never touched.
func (t *linTrainer[T]) averageW() []T {
	st := t.start
	if t.ovr == nil || (st != nil && (st.W != nil || st.U != nil)) || t.step == 0 {
		return linmodel.AverageOf(t.W, t.U, t.step)
	}
	d, c := t.dt.d, T(t.step)
	a := dataset.Alloc[T](len(t.W))
	grp := groups(t.K, t.cfg.workers)
	parallel.Run(len(grp), func(g int) {
		for k := grp[g][0]; k < grp[g][1]; k++ {
			w, u, ak := t.W[k*d:(k+1)*d], t.U[k*d:(k+1)*d], a[k*d:(k+1)*d]
			for _, j := range t.ovr.m.Cols {
				ak[j] = w[j] - u[j]/c
			}
		}
	})
	return a
}

// modelLayout returns the model's K×D weights and K biases from the
// trainer's K×d and K: the same slices, or, with the augmented column, the
// weights without it and the column's weights as the biases.
func (t *linTrainer[T]) modelLayout(W, B []T) ([]T, []T) {
	if !t.dt.aug {
		return W, B
	}
	return splitAug(W, t.dt.d, t.K, t.cfg.bfeat)
}

// splitAug splits K vectors of d values, the last one the weight w_B of
// the bias feature bf, into K×(d−1) weights and K biases b = bf·w_B.
func splitAug[T kernel.Float](W []T, d, K int, bf float64) ([]T, []T) {
	D := d - 1
	w, b := make([]T, K*D), make([]T, K)
	for c := range K {
		copy(w[c*D:(c+1)*D], W[c*d:c*d+D])
		b[c] = augBias(W[c*d+D], bf)
	}
	return w, b
}

// joinAug is splitAug's inverse: K×D weights and K biases into K vectors
// of D+1 values, the last one w_B = b/bf.
func joinAug[T kernel.Float](w, b []T, D, K int, bf float64) []T {
	W := make([]T, K*(D+1))
	for c := range K {
		copy(W[c*(D+1):c*(D+1)+D], w[c*D:(c+1)*D])
		W[c*(D+1)+D] = augWeight(b[c], bf)
	}
	return W
}

// augBias returns the bias b = bf·w_B of the augmented column's weight
// w_B; bf = 1, the default, returns w_B itself.
func augBias[T kernel.Float](wb T, bf float64) T {
	if bf == 1 {
		return wb
	}
	return wb * T(bf)
}

// augWeight is augBias's inverse, w_B = b/bf. For a bf that is not a power
// of two, augBias(augWeight(b)) can differ from b in its last bit.
func augWeight[T kernel.Float](b T, bf float64) T {
	if bf == 1 {
		return b
	}
	return b / T(bf)
}

// diagnose fills the model-level fields of diag with a final pass of the
// served weights W, B (trainer's layout), or for a binary model from last,
// the statistics of a last epoch that scored every sample with the final
// weights.
func (t *linTrainer[T]) diagnose(s *linmodel.Parts[T], W, B []T, diag *runDiag, last *classStats) {
	r2, r2aug := t.radii()
	diag.Radius, diag.RadiusAugmented = math.Sqrt(r2), math.Sqrt(r2aug)
	for c := range diag.Classes {
		diag.Classes[c].Radius, diag.Classes[c].RadiusAugmented = diag.Radius, diag.RadiusAugmented
	}
	if t.cfg.algo == linear.Voted || t.cfg.noEval {
		return
	}
	var ev evalResult
	if last != nil {
		ev.cls = []evalClass{{mistakes: last.Mistakes, loss: last.Loss, minMargin: last.MinMargin, minRaw: last.MinMargin}}
	} else if t.blk != nil {
		// The served weights in the blocks' layout: one cache line per
		// stored value for all of a block's classes.
		ev = evaluateWith(t.k, t.dt, t.cls, t.servedDots(), W, B, nil, t.K, t.cfg.workers)
	} else {
		ev = evaluate(t.k, t.dt, t.cls, W, B, nil, t.K, t.cfg.workers)
	}
	n := float64(t.dt.n)
	d := t.dt.d
	fill := func(dg *runDiag, c int) {
		cs := ev.cls[c]
		dg.Evaluated = true
		dg.TrainAccuracy = 1 - float64(cs.mistakes)/n
		dg.TrainLoss = cs.loss / n
		b := 0.0 // the weight of the bias feature: b/B
		switch {
		case t.dt.aug:
			b = float64(W[c*d+d-1])
		case t.bias:
			b = float64(B[c]) / t.cfg.bfeat
		}
		n2 := 0.0
		if t.servedN2 != nil && !t.dt.aug {
			n2 = t.servedN2[c] // (fromBlocks: the used columns only; W may be nil)
		} else if t.dt.aug {
			n2 = linmodel.SqNorm(t.k, W[c*d:c*d+d-1])
		} else {
			n2 = linmodel.SqNorm(t.k, W[c*d:(c+1)*d])
		}
		dg.SetMargins(cs.minMargin, cs.minRaw, n2, b*b, r2, r2aug)
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

// radii returns R² of the points before Normalize's normalisation and R'²
// of the points the update adds (the augmented ones with a bias).
func (t *linTrainer[T]) radii() (r2, r2aug float64) {
	r2 = t.dt.radius2()
	for _, v := range t.dt.sq {
		r2aug = max(r2aug, v)
	}
	if t.bias {
		r2aug += t.bsq
	}
	return r2, r2aug
}
