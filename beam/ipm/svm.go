package ipm

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// The linear SVM trains by CoCoA (Jaggi et al., NIPS 2014) and CoCoA+ (Ma
// et al., ICML 2015) on the dual of the svm package's L1-loss machine, in
// LIBLINEAR's convention (svm.FitLinear with Loss Hinge):
//
//	min_w ½‖w‖² + C·Σ max(0, 1 − yᵢw·x̃ᵢ),   max_α Σαᵢ − ½‖Σαᵢyᵢx̃ᵢ‖²,  0 ≤ αᵢ ≤ C,
//
// x̃ᵢ = (xᵢ, 1) (the bias feature B = 1, regularised with w). Every epoch,
// shard k runs one pass of dual coordinate ascent (the svm package's DCD
// step, in a random order) over its own αs from the shared w, on its local
// subproblem: with u = w + σ′·Δw_k,
//
//	G = yᵢu·x̃ᵢ − 1,   αᵢ ← min(max(αᵢ − G/(σ′‖x̃ᵢ‖²), 0), C),   Δw_k += Δαᵢyᵢx̃ᵢ;
//
// then w ← w + γ·Σ Δw_k and α_k ← α_k + γ·Δα_k. Uniform mixing is CoCoA's
// averaging, γ = 1/S with σ′ = 1 (safe for any data); Adding is CoCoA+,
// γ = 1 with σ′ = S (Ma et al.'s safe σ′ for adding: as fast as one machine
// when the shards' rows are uncorrelated). Both keep w = Σαᵢyᵢx̃ᵢ in exact
// arithmetic, so D(α) is a lower bound on the optimum: after the last epoch
// one more pass evaluates the primal P(w), and the report gives the duality
// gap P(w) − D(α) ≥ P(w) − P*, a certificate of the model's suboptimality.
// With float32 shards the certificate is approximate: w is accumulated by
// rounded float32 Axpy steps and mixes, so it is Σαᵢyᵢx̃ᵢ only up to those
// roundings, and D(α) evaluated from it is not a proven lower bound (the
// gap may be off by about the rounding error of w, relative 2⁻²⁴ per
// update, and could even come out slightly negative near the optimum).
//
// The αs stay with their shard: each epoch emits them keyed by shard (8
// bytes per row and machine, in the shard's row order, which the sort by
// input position makes the same every epoch) and the next epoch looks its
// shard's up in a map side input. They are not recomputed (that would
// replay every earlier epoch) nor carried in the rows (which would
// re-shuffle the rows every epoch); the runner moves n·R·8 bytes per epoch
// for them, less than the rows themselves.

func init() {
	register.DoFn4x1[int, func(*[]byte) bool, func([]byte), func(int, []byte), error](&svmInitFn{})
	register.DoFn6x1[int, func(*[]byte) bool, []byte, func(int) func(*[]byte) bool, func([]byte), func(int, []byte), error](&svmEpochFn{})
	register.DoFn4x1[int, func(*[]byte) bool, []byte, func([]byte), error](&svmMixFn{})
	register.DoFn4x1[int, func(*[]byte) bool, []byte, func([]byte), error](&svmEvalFn{})
	register.DoFn4x1[int, func(*[]byte) bool, []byte, func([]byte), error](&svmFinalFn{})
}

// svmState is the mixed state of the SVM job: the labels, the weights of
// every machine (D weights and the bias feature's, b = w_B) and the
// epochs so far; after the last epoch's evaluation, the objectives.
type svmState struct {
	Labels  []int       `json:"labels"`
	W       [][]float64 `json:"w"`
	History []EpochStat `json:"history"`
	Primal  float64     `json:"primal,omitempty"`
	Dual    float64     `json:"dual,omitempty"`
	Final   bool        `json:"final,omitempty"`
}

// machines returns the number of machines R for the labels: 1 (binary:
// the larger label is y = +1, as svm.FitLinear's fit.Binary models) or one per label.
func machines(labels []int) int {
	if len(labels) == 2 {
		return 1
	}
	return len(labels)
}

// svmShard is what a shard sends to the mixer: its rows, its margin
// mistakes (yᵢu·x̃ᵢ ≤ 0 at the visit, over the machines), Σα of every
// machine after the epoch's update, and W: u = w + Δw for averaging (the
// mixer averages them, so one shard's model is its own, bit for bit) or
// Δw for adding. The evaluation pass sends the hinge sums at w instead.
type svmShard struct {
	Shard    int         `json:"shard"`
	Rows     int         `json:"rows"`
	Mistakes int         `json:"mistakes"`
	SumAlpha []float64   `json:"sum_alpha,omitempty"`
	W        [][]float64 `json:"w,omitempty"`
	Hinge    []float64   `json:"hinge,omitempty"`
}

// svmInitFn makes the zero state from the files' labels, and the empty α
// of every shard.
type svmInitFn struct {
	Dims          int
	Shards        int
	MaxModelBytes int64
}

// ProcessElement takes the files' label sets.
func (f *svmInitFn) ProcessElement(_ int, sets func(*[]byte) bool, emit func([]byte), emitAlpha func(int, []byte)) error {
	labels, err := collectLabels(sets)
	if err != nil {
		return err
	}
	if err := checkModelBytes(machines(labels), f.Dims, f.MaxModelBytes); err != nil {
		return err
	}
	st := svmState{Labels: labels, W: make([][]float64, machines(labels))}
	for r := range st.W {
		st.W[r] = make([]float64, f.Dims+1)
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	emit(b)
	for k := range f.Shards {
		emitAlpha(k, []byte{})
	}
	return nil
}

// localDCD is one shard's view of the dual: its rows, their machine
// labels, ‖x̃ᵢ‖², C and σ′.
type localDCD[T kernel.Float] struct {
	rows   dcdRows[T]
	y      []int8 // n×R, ±1
	qd     []float64
	R      int
	C      float64
	sigma  float64
	labels []int
}

// newLocal returns the local problem of the rows c (labels among labels).
func newLocal[T kernel.Float](c *dataset.CSR[T], labels []int, C, sigma float64) (*localDCD[T], error) {
	rows, err := newDCDRows(c)
	if err != nil {
		return nil, err
	}
	R := machines(labels)
	l := &localDCD[T]{rows: rows, y: make([]int8, c.Rows*R), qd: make([]float64, c.Rows), R: R, C: C, sigma: sigma, labels: labels}
	for i, v := range c.Y {
		k, ok := slices.BinarySearch(labels, v)
		if !ok {
			return nil, fmt.Errorf("ipm: label %d is not among the job's %v", v, labels)
		}
		for r := range R {
			pos := k == r
			if R == 1 {
				pos = k == 1
			}
			l.y[i*R+r] = -1
			if pos {
				l.y[i*R+r] = 1
			}
		}
		l.qd[i] = rows.SqNorm(i) + 1
	}
	return l, nil
}

// shardPerm is the order in which shard visits its n rows in epoch e.
func shardPerm(seed uint64, epoch, shard, n int) []int {
	return rand.New(rand.NewPCG(seed, uint64(epoch)<<32|uint64(shard))).Perm(n)
}

// pass makes one coordinate step per row (in the order perm) and machine
// on α (n×R) from u (R×D weights and ub, the bias weights), which it
// updates to w + σ′·Δw; v and vb, if not nil, accumulate Δw. It returns
// the rows·machines whose margin yᵢu·x̃ᵢ was ≤ 0 at their visit.
func (l *localDCD[T]) pass(alpha []float64, u [][]T, ub []float64, v [][]T, vb []float64, perm []int) int {
	mistakes := 0
	for _, i := range perm {
		for r := range l.R {
			yi := float64(l.y[i*l.R+r])
			a := alpha[i*l.R+r]
			G := yi*(float64(l.rows.Dot(i, u[r]))+ub[r]) - 1
			if G <= -1 {
				mistakes++
			}
			if (a == 0 && G >= 0) || (a == l.C && G <= 0) || math.Abs(G) <= 1e-12 {
				continue // the projected gradient is 0
			}
			na := min(max(a-G/(l.sigma*l.qd[i]), 0), l.C)
			alpha[i*l.R+r] = na
			d := (na - a) * yi
			l.rows.Axpy(i, T(l.sigma*d), u[r])
			ub[r] += l.sigma * d
			if v != nil {
				l.rows.Axpy(i, T(d), v[r])
				vb[r] += d
			}
		}
	}
	return mistakes
}

// hinge returns Σ max(0, 1 − yᵢw·x̃ᵢ) of every machine at the weights W
// (R rows of D+1) and the rows·machines with margin ≤ 0.
func (l *localDCD[T]) hinge(W [][]float64) ([]float64, int) {
	u, ub := toT[T](W)
	h := make([]float64, l.R)
	mistakes := 0
	for i := range l.rows.Len() {
		for r := range l.R {
			m := float64(l.y[i*l.R+r]) * (float64(l.rows.Dot(i, u[r])) + ub[r])
			h[r] += max(0, 1-m)
			if m <= 0 {
				mistakes++
			}
		}
	}
	return h, mistakes
}

// toT splits R rows of D+1 float64 weights into the weights in T and the
// bias weights.
func toT[T kernel.Float](W [][]float64) ([][]T, []float64) {
	u, ub := make([][]T, len(W)), make([]float64, len(W))
	for r, w := range W {
		D := len(w) - 1
		u[r] = make([]T, D)
		for j, x := range w[:D] {
			u[r][j] = T(x)
		}
		ub[r] = w[D]
	}
	return u, ub
}

// fromT joins weights in T and bias weights into R rows of D+1 float64.
func fromT[T kernel.Float](u [][]T, ub []float64) [][]float64 {
	W := make([][]float64, len(u))
	for r := range u {
		W[r] = make([]float64, len(u[r])+1)
		for j, x := range u[r] {
			W[r][j] = float64(x)
		}
		W[r][len(u[r])] = ub[r]
	}
	return W
}

// svmEpochFn runs one CoCoA epoch on one shard.
type svmEpochFn struct {
	Type   string
	Dims   int
	C      float64
	Adding bool
	Shards int
	Epoch  int
	Seed   uint64
}

// ProcessElement trains shard on its rows from the mixed w and its αs.
func (f *svmEpochFn) ProcessElement(shard int, rows func(*[]byte) bool, mixed []byte, alphas func(int) func(*[]byte) bool,
	emit func([]byte), emitAlpha func(int, []byte)) error {
	recs := collect(rows)
	var st svmState
	if err := json.Unmarshal(mixed, &st); err != nil {
		return fmt.Errorf("ipm: the mixed state: %w", err)
	}
	var prev [][]byte
	it := alphas(shard)
	var b []byte
	for it(&b) {
		prev = append(prev, b)
		b = nil
	}
	if len(prev) != 1 {
		return fmt.Errorf("ipm: shard %d has %d α vectors in epoch %d, want 1", shard, len(prev), f.Epoch)
	}
	var res svmShard
	var alpha []byte
	var err error
	if f.Type == "float64" {
		res, alpha, err = svmShardEpoch[float64](f, shard, recs, &st, prev[0])
	} else {
		res, alpha, err = svmShardEpoch[float32](f, shard, recs, &st, prev[0])
	}
	if err != nil {
		return fmt.Errorf("ipm: shard %d: %w", shard, err)
	}
	out, err := json.Marshal(res)
	if err != nil {
		return err
	}
	emit(out)
	emitAlpha(shard, alpha)
	return nil
}

// collect drains an iterable of byte records.
func collect(it func(*[]byte) bool) [][]byte {
	var recs [][]byte
	var b []byte
	for it(&b) {
		recs = append(recs, b)
		b = nil
	}
	return recs
}

// sigma returns σ′ and γ of the mixing: (1, 1/S) averaging, (S, 1) adding.
func sigma(adding bool, shards int) (float64, float64) {
	if adding {
		return float64(shards), 1
	}
	return 1, 1 / float64(shards)
}

func svmShardEpoch[T kernel.Float](f *svmEpochFn, shard int, recs [][]byte, st *svmState, prev []byte) (svmShard, []byte, error) {
	c, err := shardRows[T](recs, f.Dims)
	if err != nil {
		return svmShard{}, nil, err
	}
	sg, gamma := sigma(f.Adding, f.Shards)
	l, err := newLocal(c, st.Labels, f.C, sg)
	if err != nil {
		return svmShard{}, nil, err
	}
	n, R := c.Rows, l.R
	alpha := make([]float64, n*R)
	switch len(prev) {
	case 0:
		if f.Epoch != 1 {
			return svmShard{}, nil, fmt.Errorf("%w: no α after epoch %d", errRow, f.Epoch-1)
		}
	case 8 * n * R:
		for k := range alpha {
			alpha[k] = math.Float64frombits(binary.LittleEndian.Uint64(prev[8*k:]))
		}
	default:
		return svmShard{}, nil, fmt.Errorf("%w: %d bytes of α for %d rows and %d machines", errRow, len(prev), n, R)
	}
	start := slices.Clone(alpha)
	u, ub := toT[T](st.W)
	var v [][]T
	var vb []float64
	if f.Adding {
		v, vb = make([][]T, R), make([]float64, R)
		for r := range v {
			v[r] = make([]T, f.Dims)
		}
	}
	res := svmShard{Rows: n, SumAlpha: make([]float64, R)}
	res.Mistakes = l.pass(alpha, u, ub, v, vb, shardPerm(f.Seed, f.Epoch, shard, n))
	if f.Adding {
		res.W = fromT(v, vb)
	} else {
		res.W = fromT(u, ub)
	}
	out := make([]byte, 0, 8*len(alpha))
	for k, a := range alpha {
		if gamma != 1 {
			a = start[k] + gamma*(a-start[k]) // α_k + γ·Δα_k
		}
		res.SumAlpha[k%R] += a
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(a))
	}
	return res, out, nil
}

// svmMixFn mixes the shards' updates of one epoch.
type svmMixFn struct {
	Adding bool
	Shards int
	Epoch  int
}

// ProcessElement mixes the results started from prev.
func (f *svmMixFn) ProcessElement(_ int, results func(*[]byte) bool, prev []byte, emit func([]byte)) error {
	res, err := shardResults(results)
	if err != nil {
		return err
	}
	var st svmState
	if err := json.Unmarshal(prev, &st); err != nil {
		return err
	}
	_, gamma := sigma(f.Adding, f.Shards)
	S := float64(f.Shards)
	ep := EpochStat{Epoch: f.Epoch}
	sumAlpha := 0.0
	for _, r := range res {
		if len(r.W) != len(st.W) {
			return fmt.Errorf("ipm: shard %d sent %d machines, want %d", r.Shard, len(r.W), len(st.W))
		}
		ep.Shards = append(ep.Shards, ShardStat{Shard: r.Shard, Rows: r.Rows, Mistakes: r.Mistakes, Mu: gamma})
		for _, a := range r.SumAlpha {
			sumAlpha += a
		}
	}
	for m := range st.W {
		w := st.W[m]
		next := make([]float64, len(w))
		for j := range w {
			if f.Adding { // w + Σ Δw_k
				s := w[j]
				for _, r := range res {
					s += r.W[m][j]
				}
				next[j] = s
				continue
			}
			// w + (1/S)·Σ (u_k − w) = (1/S)·(Σ u_k + (S − present)·w): a
			// shard without rows moves nothing, and one shard's w is its
			// own u.
			s := 0.0
			for _, r := range res {
				s += r.W[m][j]
			}
			if missing := f.Shards - len(res); missing > 0 {
				s += float64(missing) * w[j]
			}
			next[j] = s / S
		}
		st.W[m] = next
	}
	ep.Dual = -sumAlpha
	for _, w := range st.W {
		ep.Dual += sqNorm(w) / 2
	}
	st.History = append(st.History, ep)
	out, err := json.Marshal(st)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

func sqNorm(w []float64) float64 {
	s := 0.0
	for _, v := range w {
		s += v * v
	}
	return s
}

// shardResults decodes the shards' results, in shard order.
func shardResults(results func(*[]byte) bool) ([]svmShard, error) {
	var res []svmShard
	for _, b := range collect(results) {
		var r svmShard
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, err
		}
		res = append(res, r)
	}
	slices.SortFunc(res, func(a, b svmShard) int { return a.Shard - b.Shard })
	return res, nil
}

// svmEvalFn computes a shard's hinge sums at the final w.
type svmEvalFn struct {
	Type string
	Dims int
}

// ProcessElement evaluates shard's rows.
func (f *svmEvalFn) ProcessElement(shard int, rows func(*[]byte) bool, mixed []byte, emit func([]byte)) error {
	var st svmState
	if err := json.Unmarshal(mixed, &st); err != nil {
		return err
	}
	var res svmShard
	var err error
	if f.Type == "float64" {
		res, err = svmShardEval[float64](f, collect(rows), &st)
	} else {
		res, err = svmShardEval[float32](f, collect(rows), &st)
	}
	if err != nil {
		return fmt.Errorf("ipm: shard %d: %w", shard, err)
	}
	res.Shard = shard
	out, err := json.Marshal(res)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

func svmShardEval[T kernel.Float](f *svmEvalFn, recs [][]byte, st *svmState) (svmShard, error) {
	c, err := shardRows[T](recs, f.Dims)
	if err != nil {
		return svmShard{}, err
	}
	l, err := newLocal(c, st.Labels, 1, 1)
	if err != nil {
		return svmShard{}, err
	}
	h, k := l.hinge(st.W)
	return svmShard{Rows: c.Rows, Mistakes: k, Hinge: h}, nil
}

// svmFinalFn adds the shards' hinge sums into the primal objective.
type svmFinalFn struct {
	C float64
}

// ProcessElement sets the objectives of the final state.
func (f *svmFinalFn) ProcessElement(_ int, results func(*[]byte) bool, mixed []byte, emit func([]byte)) error {
	res, err := shardResults(results)
	if err != nil {
		return err
	}
	var st svmState
	if err := json.Unmarshal(mixed, &st); err != nil {
		return err
	}
	st.Primal = 0
	for _, w := range st.W {
		st.Primal += sqNorm(w) / 2
	}
	for _, r := range res {
		for _, h := range r.Hinge {
			st.Primal += f.C * h
		}
	}
	if n := len(st.History); n > 0 {
		st.Dual = st.History[n-1].Dual
	}
	st.Final = true
	out, err := json.Marshal(st)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// svmModel returns the model file of the final state.
func svmModel[T kernel.Float](st *svmState) ([]byte, error) {
	R := len(st.W)
	if R == 0 {
		return nil, fmt.Errorf("ipm: the final state has no machine")
	}
	D := len(st.W[0]) - 1
	W, b := make([]T, 0, R*D), make([]T, R)
	for r, w := range st.W {
		for _, x := range w[:D] {
			W = append(W, T(x))
		}
		b[r] = T(w[D]) // b = B·w_B with B = 1
	}
	scheme := fit.OneVsRest
	if R == 1 {
		scheme = fit.Binary
	}
	m, err := linear.New(linear.State[T]{Scheme: scheme, Algorithm: linear.DualCD, Dims: D, Labels: st.Labels,
		Bias: true, BiasFeature: 1, Eta: 1, W: W, B: b})
	if err != nil {
		return nil, fmt.Errorf("ipm: the final model: %w", err)
	}
	return m.MarshalBinary()
}

// dcdRows is a shard's rows as the coordinate steps read them: dense (X
// set) when denseFor takes them so, else the CSR, with the dot products
// and updates of package kernel (kernel.ActiveImpl()), as svm.FitLinear's
// solver computes them.
type dcdRows[T kernel.Float] struct {
	X []T // dense rows, or nil
	c *dataset.CSR[T]
	k kernel.Kernels[T]
}

// newDCDRows checks the CSR c (dataset.CSR.Validate) and returns its
// rows.
func newDCDRows[T kernel.Float](c *dataset.CSR[T]) (dcdRows[T], error) {
	if err := c.Validate(); err != nil {
		return dcdRows[T]{}, fmt.Errorf("ipm: shard rows: %w", err)
	}
	return dcdRows[T]{X: denseFor(c), c: c, k: kernel.On[T](kernel.ActiveImpl())}, nil
}

func (r dcdRows[T]) Len() int { return r.c.Rows }

func (r dcdRows[T]) row(i int) []T {
	d := r.c.Cols
	return r.X[i*d : (i+1)*d : (i+1)*d]
}

// Dot returns xᵢ·w.
func (r dcdRows[T]) Dot(i int, w []T) T {
	if r.X != nil {
		return r.k.Dot(r.row(i), w)
	}
	x := r.c.Row(i)
	return r.k.DotSparse(x.Idx, x.Val, w)
}

// Axpy adds a·xᵢ to w.
func (r dcdRows[T]) Axpy(i int, a T, w []T) {
	if r.X != nil {
		r.k.Axpy(a, r.row(i), w)
		return
	}
	x := r.c.Row(i)
	r.k.AxpySparse(a, x.Idx, x.Val, w)
}

// SqNorm returns ‖xᵢ‖² in float64.
func (r dcdRows[T]) SqNorm(i int) float64 {
	var s float64
	for _, v := range r.c.Row(i).Val {
		s += float64(v) * float64(v)
	}
	return s
}
