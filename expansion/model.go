package expansion

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// numFuncs returns the number of decision functions of scheme s for k
// classes, or −1 if one-vs-one's k(k−1)/2 exceeds an int.
func numFuncs(s fit.Scheme, k int) int {
	switch s {
	case fit.Binary:
		return 1
	case fit.OneVsRest, fit.Argmax:
		return k
	}
	if r := uint64(k) * uint64(k-1) / 2; uint64(k) > 1<<32 || r > math.MaxInt {
		return -1
	}
	return k * (k - 1) / 2
}

// Parts is the content of a model: what a model file stores and New takes.
// Every decision function r is
//
//	f_r(x) = Σᵢ Coef[r·S + i]·K(svᵢ, x) + Bias[r]
//
// over the S shared support vectors svᵢ = SV[i·Dims : (i+1)·Dims] (or the
// rows of Sparse). For an SVM, Coef holds αᵢyᵢ of machine r (0 for a
// support vector of another machine); for a kernel perceptron, the sums
// of its steps η·y on each support vector (see Perceptron).
type Parts[T Float] struct {
	Kernel gram.Kernel
	Dims   int
	Labels []int      // the classes, strictly increasing (−1, +1 for a binary kernel perceptron)
	Scheme fit.Scheme // fit.Binary, OneVsRest, OneVsOne (an SVM's) or Argmax (a kernel perceptron's)
	SV     []T        // S×Dims support vectors, row-major (nil when Sparse is set)
	// Sparse holds the support vectors as CSR rows instead of SV (Rows =
	// S, Cols = Dims; its labels are ignored): the form of a model trained
	// on sparse data, whose D may be 2²⁰ or more.
	Sparse *dataset.CSR[T]
	Index  []int // training row of each support vector (nil or S increasing values in [0, 2³¹); a kernel perceptron's are required)
	Coef   []T   // R×S coefficients (nil for a voted perceptron)
	Bias   []T   // R biases (nil for a voted perceptron)
	// Perceptron is set for a kernel perceptron's model (nil for an SVM's):
	// how it was trained, how a sample is scaled before the kernel sees
	// it, and the voted perceptron's decision functions.
	Perceptron *Perceptron[T]
}

// Perceptron is what a kernel perceptron's model holds besides the
// expansion. Its file records the algorithm and η; Scaling and
// BiasFeature change the scores; Voted replaces Coef and Bias.
type Perceptron[T Float] struct {
	// Algorithm is the rule that trained the model: linear.Online,
	// linear.Averaged or linear.Voted.
	Algorithm linear.Algorithm
	Eta       float64 // the step size η
	HasBias   bool
	// BiasFeature is the value B of the constant feature that carries the
	// bias: 1 by default, 0 without a bias. The scores add Bias[r]·B' with
	// B' = 1, or the sample's scale s under linear.ScaleAugmented.
	BiasFeature float64
	Scaling     linear.Scaling
	// Voted holds Freund and Schapire's voted perceptron: the vote
	// Σⱼ cⱼ·sign(fⱼ(x)) of the kept decision functions fⱼ, each a prefix of
	// the sequence of mistakes. nil unless Algorithm is linear.Voted.
	Voted *Voted[T]
}

// Voted is a voted kernel perceptron's decision functions, per score row
// r: mistakes QOff[r]..QOff[r+1]−1 (support vector QIdx, step QStep) and
// kept functions VOff[r]..VOff[r+1]−1 (prefix length VPre within the
// row's mistakes, bias VB, survival count VC).
type Voted[T Float] struct {
	QOff  []int
	QIdx  []int32
	QStep []T
	VOff  []int
	VPre  []int32
	VB    []T
	VC    []int64
}

// Model is a trained kernel expansion: a kernel SVM (SMO) or a kernel
// perceptron, binary, one-vs-rest, argmax or one-vs-one. It is immutable:
// Predict, Scores, the batch methods and the accessors are safe for
// concurrent use, and Predict and Scores allocate nothing in steady state
// (their scratch buffers come from a pool). UnmarshalBinary and
// UnmarshalJSON replace a model's content and must not run while other
// goroutines use it: decode into a new Model.
type Model[T Float] struct {
	kern   gram.Kernel
	d      int
	labels []int
	scheme fit.Scheme
	sv     []T
	index  []int
	coef   []T
	bias   []T
	nf     int            // decision functions
	pc     *Perceptron[T] // a kernel perceptron's, or nil
	k      kernel.Kernels[T]
	rows   *gram.Rows[T]       // the support vectors prepared for K(x, SV)
	ssv    *dataset.CSR[T]     // sparse support vectors (sv nil), see sparse.go
	srows  *gram.SparseRows[T] // ssv prepared for K(x, SV)
	red    *grouped[T]         // one-vs-one: rows computes K(x, SV) in red.perm's order
	pool   sync.Pool           // *scratch[T]
}

type scratch[T Float] struct {
	kr    []T // K(x, SV)
	out   []T // R scores
	part  []T // partial sums of a support vector group (grouped.scores)
	votes []int
	x     []T     // a sparse sample densified (dense support vectors), or a sample scaled
	idx   []int32 // a dense sample's non-zeros (sparse support vectors)
	val   []T
}

// New checks p and builds a model from a copy of it: the way back from a
// model file or another tool's format. Inconsistent sizes, labels that
// are not strictly increasing, a scheme that does not fit the number of
// labels or the trainer (fit.Argmax is a perceptron's, fit.OneVsOne an SVM's),
// indices that are not increasing training rows, and NaN or infinite
// values are errors wrapping ErrModel.
func New[T Float](p Parts[T]) (*Model[T], error) {
	return newModel(p, true, nil)
}

// newModel is New; it copies the slices of p only if clone is set (a
// decoder or a trainer hands over slices it made), and prepares the support
// vectors on impl (nil: package kernel's choice).
func newModel[T Float](p Parts[T], clone bool, impl *kernel.Impl) (*Model[T], error) {
	kern, err := kernelValue(p.Kernel)
	if err != nil {
		return nil, err
	}
	p.Kernel = kern
	if p.Dims < 1 {
		return nil, fmt.Errorf("%w: Dims = %d", ErrModel, p.Dims)
	}
	k := len(p.Labels)
	if k < 2 {
		return nil, fmt.Errorf("%w: %d labels, want ≥ 2", ErrModel, k)
	}
	for i := 1; i < k; i++ {
		if p.Labels[i] <= p.Labels[i-1] {
			return nil, fmt.Errorf("%w: labels not strictly increasing", ErrModel)
		}
	}
	pc := p.Perceptron
	switch {
	case p.Scheme == fit.Binary && k != 2,
		p.Scheme != fit.Binary && p.Scheme != fit.OneVsRest && p.Scheme != fit.OneVsOne && p.Scheme != fit.Argmax,
		p.Scheme == fit.Argmax && pc == nil,
		p.Scheme == fit.OneVsOne && pc != nil:
		return nil, fmt.Errorf("%w: scheme %v with %d labels", ErrModel, p.Scheme, k)
	}
	if len(p.SV)%p.Dims != 0 {
		return nil, fmt.Errorf("%w: len(SV) = %d is not a multiple of Dims = %d", ErrModel, len(p.SV), p.Dims)
	}
	s := len(p.SV) / p.Dims
	if p.Sparse != nil {
		if err := checkSparseParts(&p); err != nil {
			return nil, err
		}
		s = p.Sparse.Rows
	}
	r := numFuncs(p.Scheme, k)
	if r < 0 {
		return nil, fmt.Errorf("%w: %d labels make more one-vs-one functions than an int counts", ErrModel, k)
	}
	if pc != nil {
		if err := checkPerceptron(&p, r, s); err != nil {
			return nil, err
		}
	} else if uint64(len(p.Coef)) != uint64(r)*uint64(s) || len(p.Bias) != r {
		return nil, fmt.Errorf("%w: %d coefficients and %d biases for %d functions of %d support vectors", ErrModel, len(p.Coef), len(p.Bias), r, s)
	}
	if p.Index != nil && len(p.Index) != s {
		return nil, fmt.Errorf("%w: %d indices for %d support vectors", ErrModel, len(p.Index), s)
	}
	for i, j := range p.Index {
		if j < 0 || j > math.MaxInt32 || i > 0 && j <= p.Index[i-1] {
			return nil, fmt.Errorf("%w: support index %d is %d: want increasing training rows in [0, 2³¹)", ErrModel, i, j)
		}
	}
	if !finite(p.SV) || !finite(p.Coef) || !finite(p.Bias) { // (Sparse's values: checkSparseParts)
		return nil, fmt.Errorf("%w: NaN or infinite value", ErrModel)
	}
	if len(p.Index) == 0 {
		p.Index = nil // no support vectors: nothing to index
	}
	if clone {
		p.Labels, p.SV, p.Index, p.Coef, p.Bias = slices.Clone(p.Labels), slices.Clone(p.SV), slices.Clone(p.Index), slices.Clone(p.Coef), slices.Clone(p.Bias)
		if p.Sparse != nil {
			p.Sparse = cloneCSR(p.Sparse)
		}
		pc = pc.clone()
	}
	m := &Model[T]{
		kern: p.Kernel, d: p.Dims, labels: p.Labels, scheme: p.Scheme, nf: r, pc: pc,
		sv: p.SV, index: p.Index, coef: p.Coef, bias: p.Bias, ssv: p.Sparse,
	}
	if err := m.init(impl); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	return m, nil
}

// Build is New for a trainer: it checks p as New does but takes over its
// slices without copying them, and prepares the support vectors on
// implementation impl (nil: package kernel's choice). p must not be used
// after.
func Build[T Float](p Parts[T], impl *kernel.Impl) (*Model[T], error) {
	return newModel(p, false, impl)
}

// init prepares the support vectors for scoring.
func (m *Model[T]) init(impl *kernel.Impl) error {
	if impl == nil {
		impl = kernel.ActiveImpl()
	}
	m.k = kernel.On[T](impl)
	if m.ssv != nil {
		if m.ssv.Rows == 0 {
			return nil
		}
		r, err := gram.NewSparseRows(m.ssv, m.kern, &gram.Options{Impl: impl, MaxBytes: -1})
		if err != nil {
			return gramErr(err)
		}
		m.srows = r
		return nil
	}
	if len(m.sv) == 0 {
		return nil
	}
	sv := m.sv
	if m.pc == nil {
		m.red = groupSupport(m.scheme, len(m.labels), len(m.sv)/m.d, m.coef)
	}
	if m.red != nil {
		sv = make([]T, len(m.sv))
		for p, i := range m.red.perm {
			copy(sv[p*m.d:(p+1)*m.d], m.sv[i*m.d:(i+1)*m.d])
		}
	}
	r, err := gram.NewRows(sv, m.d, m.kern, &gram.Options{Impl: impl, MaxBytes: -1})
	if err != nil {
		return gramErr(err)
	}
	m.rows = r
	return nil
}

// Parts returns a copy of the model's content.
func (m *Model[T]) Parts() Parts[T] {
	return Parts[T]{
		Kernel: m.kern, Dims: m.d, Labels: slices.Clone(m.labels), Scheme: m.scheme,
		SV: slices.Clone(m.sv), Index: slices.Clone(m.index), Coef: slices.Clone(m.coef), Bias: slices.Clone(m.bias),
		Sparse: m.SparseSupport(), Perceptron: m.pc.clone(),
	}
}

// Kernel returns the kernel function (nil for a zero Model).
func (m *Model[T]) Kernel() gram.Kernel { return m.kern }

// Dims returns the number of features a sample must have.
func (m *Model[T]) Dims() int { return m.d }

// Classes returns the labels the model predicts, sorted (a copy).
func (m *Model[T]) Classes() []int { return slices.Clone(m.labels) }

// Scheme returns how the decision functions combine: fit.Binary,
// OneVsRest, OneVsOne or Argmax.
func (m *Model[T]) Scheme() fit.Scheme { return m.scheme }

// IsPerceptron reports whether a kernel perceptron made the model (its
// Parts have Perceptron set; it is saved with the kernel perceptron's
// file kinds) rather than an SVM.
func (m *Model[T]) IsPerceptron() bool { return m.pc != nil }

// Scaling returns the transform the model applies to a sample before the
// kernel sees it (linear.ScaleNone for an SVM).
func (m *Model[T]) Scaling() linear.Scaling {
	if m.pc == nil {
		return linear.ScaleNone
	}
	return m.pc.Scaling
}

// NumScores returns the number of decision functions, the length of what
// Scores writes: 1 (binary), K (one-vs-rest, argmax) or K(K−1)/2
// (one-vs-one).
func (m *Model[T]) NumScores() int { return m.nf }

// NumSupport returns the number of support vectors.
func (m *Model[T]) NumSupport() int {
	if m.ssv != nil {
		return m.ssv.Rows
	}
	if m.d == 0 {
		return 0
	}
	return len(m.sv) / m.d
}

// SupportVectors returns a copy of the S×Dims support vectors, as the
// kernel sees them (scaled for a normalising perceptron); nil for a model
// with sparse support vectors (see SparseSupport).
func (m *Model[T]) SupportVectors() []T { return slices.Clone(m.sv) }

// SupportIndices returns the training row of each support vector (a copy;
// nil for a model built by New without indices).
func (m *Model[T]) SupportIndices() []int { return slices.Clone(m.index) }

// Coefficients returns a copy of decision function r's coefficients (one
// per support vector) and its bias. It returns nil and 0 for a voted
// perceptron or an r out of range.
func (m *Model[T]) Coefficients(r int) ([]T, T) {
	if m.coef == nil && m.bias == nil || r < 0 || r >= m.nf {
		return nil, 0
	}
	s := m.NumSupport()
	return slices.Clone(m.coef[r*s : (r+1)*s]), m.bias[r]
}

// Pair returns the labels of decision function r: a positive value votes
// for pos, anything else for neg. For a binary model r = 0 gives the two
// labels; for one-vs-rest and argmax, pos is class r's label and neg is 0.
// It panics if r is out of range.
func (m *Model[T]) Pair(r int) (neg, pos int) {
	switch m.scheme {
	case fit.Binary:
		return m.labels[0], m.labels[1]
	case fit.OneVsRest, fit.Argmax:
		return 0, m.labels[r]
	}
	a, b := pairOf(len(m.labels), r)
	return m.labels[a], m.labels[b]
}

// pairOf returns the classes (a, b), a < b, of one-vs-one function r.
func pairOf(k, r int) (a, b int) {
	for a = 0; a < k-1; a++ {
		if n := k - 1 - a; r < n {
			return a, a + 1 + r
		}
		r -= k - 1 - a
	}
	panic(fmt.Sprintf("expansion: one-vs-one function %d out of range", r))
}

func (m *Model[T]) get() *scratch[T] {
	if sc, ok := m.pool.Get().(*scratch[T]); ok {
		return sc
	}
	sc := &scratch[T]{kr: make([]T, m.NumSupport()), out: make([]T, m.nf), votes: make([]int, len(m.labels)), part: m.newPart()}
	if m.Scaling() != linear.ScaleNone && m.ssv == nil {
		sc.x = make([]T, m.d)
	}
	return sc
}

func (m *Model[T]) check() error {
	if m == nil || m.d == 0 {
		return fmt.Errorf("%w: untrained model", ErrModel)
	}
	return nil
}

func (m *Model[T]) checkSample(x []T) error {
	if err := m.check(); err != nil {
		return err
	}
	if len(x) != m.d {
		return fmt.Errorf("%w: sample has %d values, model has %d features", ErrDims, len(x), m.d)
	}
	if !finite(x) {
		for j, v := range x {
			if !finite([]T{v}) {
				return fmt.Errorf("%w: sample feature %d is %v", ErrNonFinite, j, v)
			}
		}
	}
	return nil
}

// newPart returns the partial sums buffer scores needs.
func (m *Model[T]) newPart() []T {
	if m.red == nil {
		return nil
	}
	return make([]T, m.red.most)
}

// scores writes the decision values of the sample whose kernel row is kr
// (part: the scratch's, or newPart's) and whose bias feature is bf (1, or
// the sample's scale under linear.ScaleAugmented).
func (m *Model[T]) scores(dst, kr, part []T, bf T) {
	switch {
	case m.pc != nil && m.pc.Voted != nil:
		m.pc.Voted.combine(dst, kr, bf)
	case len(kr) == 0:
		copy(dst, m.bias)
	case m.red != nil:
		m.red.scores(m.k, dst, kr, part, m.bias)
	case m.pc != nil && len(dst) == 1:
		dst[0] = m.k.Dot(m.coef, kr) + m.bias[0]*bf
	default:
		m.k.Dots(dst, m.coef, kr)
		for r, b := range m.bias {
			dst[r] += b * bf
		}
	}
}

// combine is the voted perceptron's scores: per score row the vote
// Σⱼ cⱼ·sign(fⱼ(x)) of its kept functions.
func (v *Voted[T]) combine(dst, kr []T, bf T) {
	for r := range dst {
		var f T
		var vote float64
		q := v.QOff[r]
		for j := v.VOff[r]; j < v.VOff[r+1]; j++ {
			for end := v.QOff[r] + int(v.VPre[j]); q < end; q++ {
				f += v.QStep[q] * kr[v.QIdx[q]]
			}
			a := f + v.VB[j]*bf
			switch {
			case a > 0:
				vote += float64(v.VC[j])
			case a <= 0:
				vote -= float64(v.VC[j])
			default: // NaN
				vote = math.NaN()
			}
		}
		dst[r] = T(vote)
	}
}

// decide maps decision values to a label.
func (m *Model[T]) decide(sc []T, votes []int) int {
	switch m.scheme {
	case fit.Binary:
		if sc[0] > 0 {
			return m.labels[1]
		}
		return m.labels[0]
	case fit.OneVsRest, fit.Argmax:
		best := 0
		for r, v := range sc {
			if v > sc[best] {
				best = r
			}
		}
		return m.labels[best]
	}
	clear(votes)
	k := len(m.labels)
	r := 0
	for a := 0; a < k-1; a++ {
		for b := a + 1; b < k; b++ {
			if sc[r] > 0 {
				votes[b]++
			} else {
				votes[a]++
			}
			r++
		}
	}
	best := 0
	for c, v := range votes {
		if v > votes[best] {
			best = c
		}
	}
	return m.labels[best]
}

// scaled returns x as the kernel sees it, and its bias feature: x and 1,
// or for a normalising perceptron its scaled copy in buf (as training
// scaled its rows) and 1 (linear.ScaleFeatures) or s (linear.ScaleAugmented).
func (m *Model[T]) scaled(buf, x []T) ([]T, T) {
	switch m.Scaling() {
	case linear.ScaleFeatures:
		copy(buf, x)
		if nx := float64(m.k.Dot(buf, buf)); nx > 0 && !math.IsInf(nx, 0) {
			m.k.Scale(T(1/math.Sqrt(nx)), buf)
		}
		return buf, 1
	case linear.ScaleAugmented:
		copy(buf, x)
		f := T(augScale(m.k, x, m.pc.BiasFeature))
		m.k.Scale(f, buf)
		return buf, f
	}
	return x, 1
}

// augScale returns s = 1/‖(x, bf)‖ (1/‖x‖ for bf = 0, 1 for x = 0),
// computed without overflow for large x.
func augScale[T Float](k kernel.Kernels[T], x []T, bf float64) float64 {
	sq := float64(k.Dot(x, x))
	if !math.IsInf(sq, 1) {
		switch {
		case bf > 0:
			return 1 / math.Sqrt(sq+bf*bf)
		case sq > 0:
			return 1 / math.Sqrt(sq)
		}
		return 1
	}
	big := 0.0
	for _, v := range x {
		big = max(big, math.Abs(float64(v)))
	}
	if math.IsInf(big, 0) {
		return 0 // an Inf in x: the score is not finite either way
	}
	acc := 0.0
	for _, v := range x {
		r := float64(v) / big
		acc += r * r
	}
	if bf > 0 {
		acc += (bf / big) * (bf / big)
	}
	return 1 / (big * math.Sqrt(acc))
}

// finiteScores checks the scores of a sample.
func finiteScores[T Float](sc []T) error {
	if !finite(sc) {
		for r, a := range sc {
			if !finite([]T{a}) {
				return fmt.Errorf("%w: score %d is %v", ErrNonFinite, r, a)
			}
		}
	}
	return nil
}

// Scores writes the NumScores decision values of x into dst. x must have
// Dims finite values and dst NumScores room.
func (m *Model[T]) Scores(dst, x []T) error {
	if err := m.checkSample(x); err != nil {
		return err
	}
	if len(dst) != m.nf {
		return fmt.Errorf("%w: len(dst) = %d, want %d", ErrDims, len(dst), m.nf)
	}
	sc := m.get()
	defer m.pool.Put(sc)
	return m.score(sc, dst, x)
}

// score writes the scores of the checked sample x into dst.
func (m *Model[T]) score(sc *scratch[T], dst, x []T) error {
	bf := T(1)
	switch {
	case m.srows != nil:
		sx := sc.sparseOf(x)
		var err error
		if bf, err = m.rowSparse(sc, sx); err != nil {
			return err
		}
	case m.rows != nil:
		var xs []T
		xs, bf = m.scaled(sc.x, x)
		kr, err := m.rows.RowOf(sc.kr, xs)
		if err != nil {
			return gramErr(err)
		}
		sc.kr = kr
	}
	m.scores(dst, sc.kr, sc.part, bf)
	return finiteScores(dst)
}

// Predict returns the predicted label of x.
func (m *Model[T]) Predict(x []T) (int, error) {
	if err := m.checkSample(x); err != nil {
		return 0, err
	}
	sc := m.get()
	defer m.pool.Put(sc)
	if err := m.score(sc, sc.out, x); err != nil {
		return 0, err
	}
	return m.decide(sc.out, sc.votes), nil
}

// batchRows is the number of samples whose kernel rows a batch call
// computes at once: a block of batchRows×S values.
func (m *Model[T]) batchRows() int {
	return max(64, min(4096, (16<<20)/max(1, m.NumSupport())))
}

// ScoresBatch writes the decision values of the rows of X (row-major,
// Dims columns) into dst, NumScores per row, the values Scores gives row
// by row: the kernel rows of a few hundred samples at a time come from one
// blocked product with the support vectors packed once
// (gram.Rows.RowsOfEach, the RBF or polynomial function applied tile by
// tile), and each row is reduced with the coefficients while it is still
// in cache (one-vs-one by class groups of support vectors), so no
// samples×support-vectors matrix is ever stored.
func (m *Model[T]) ScoresBatch(dst, X []T) error {
	if err := m.check(); err != nil {
		return err
	}
	if len(X)%m.d != 0 || len(dst) != len(X)/m.d*m.nf {
		return fmt.Errorf("%w: len(X) = %d and len(dst) = %d for %d features and %d scores", ErrDims, len(X), len(dst), m.d, m.nf)
	}
	return m.batch(X, func(lo, hi int, out []T) error {
		copy(dst[lo*m.nf:hi*m.nf], out)
		return nil
	})
}

// PredictBatch writes the predicted label of each row of X into dst.
func (m *Model[T]) PredictBatch(dst []int, X []T) error {
	if err := m.check(); err != nil {
		return err
	}
	if len(X)%m.d != 0 || len(dst) != len(X)/m.d {
		return fmt.Errorf("%w: len(X) = %d and len(dst) = %d for %d features", ErrDims, len(X), len(dst), m.d)
	}
	votes := make([]int, len(m.labels))
	r := m.nf
	return m.batch(X, func(lo, hi int, out []T) error {
		for i := lo; i < hi; i++ {
			dst[i] = m.decide(out[(i-lo)*r:(i-lo+1)*r], votes)
		}
		return nil
	})
}

// Accuracy returns the fraction of rows of X whose predicted label is y.
func (m *Model[T]) Accuracy(X []T, y []int) (float64, error) {
	if err := m.check(); err != nil {
		return 0, err
	}
	if len(X)%m.d != 0 || len(y) != len(X)/m.d || len(y) == 0 {
		return 0, fmt.Errorf("%w: len(X) = %d and len(y) = %d for %d features", ErrDims, len(X), len(y), m.d)
	}
	pred := make([]int, len(y))
	if err := m.PredictBatch(pred, X); err != nil {
		return 0, err
	}
	return fractionEqual(pred, y), nil
}

// batch computes the scores of the rows of X block by block and hands each
// block to use.
func (m *Model[T]) batch(X []T, use func(lo, hi int, out []T) error) error {
	if err := m.check(); err != nil {
		return err
	}
	if len(X)%m.d != 0 {
		return fmt.Errorf("%w: len(X) = %d is not a multiple of %d features", ErrDims, len(X), m.d)
	}
	if !finite(X) {
		for i, v := range X {
			if !finite([]T{v}) {
				return fmt.Errorf("%w: X[%d][%d] (row %d, feature %d) is %v", ErrNonFinite, i/m.d, i%m.d, i/m.d, i%m.d, v)
			}
		}
	}
	n := len(X) / m.d
	r, s := m.nf, m.NumSupport()
	step := m.batchRows()
	out := make([]T, min(n, step)*r)
	var buf, bfs []T // the scaled samples of a block and their bias features
	for lo := 0; lo < n; lo += step {
		hi := min(n, lo+step)
		o := out[:(hi-lo)*r]
		switch {
		case s == 0:
			for i := range hi - lo {
				copy(o[i*r:], m.bias)
			}
		case m.srows != nil:
			err := parallel.FirstError(rowWorkers(hi-lo), func(t int) error {
				w := rowWorkers(hi - lo)
				sc := m.get()
				defer m.pool.Put(sc)
				for i := t * (hi - lo) / w; i < (t+1)*(hi-lo)/w; i++ {
					if err := m.score(sc, o[i*r:(i+1)*r], X[(lo+i)*m.d:(lo+i+1)*m.d]); err != nil {
						return fmt.Errorf("row %d: %w", lo+i, err)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		default:
			Xb := X[lo*m.d : hi*m.d]
			if m.Scaling() != linear.ScaleNone {
				if buf == nil {
					buf, bfs = make([]T, min(n, step)*m.d), make([]T, min(n, step))
				}
				for i := range hi - lo {
					_, bfs[i] = m.scaled(buf[i*m.d:(i+1)*m.d], Xb[i*m.d:(i+1)*m.d])
				}
				Xb = buf[:(hi-lo)*m.d]
			}
			err := m.rows.RowsOfEach(Xb, rowWorkers(hi-lo), func(a, b int, K []T) error {
				part := m.newPart()
				for i := a; i < b; i++ {
					bf := T(1)
					if bfs != nil {
						bf = bfs[i]
					}
					d := o[i*r : (i+1)*r]
					m.scores(d, K[(i-a)*s:(i-a+1)*s], part, bf)
					if err := finiteScores(d); err != nil {
						return fmt.Errorf("row %d: %w", lo+i, err)
					}
				}
				return nil
			})
			if err != nil {
				if errors.Is(err, ErrNonFinite) {
					return err // a score's, wrapped by the callback
				}
				return gramErr(err)
			}
		}
		if err := use(lo, hi, o); err != nil {
			return err
		}
	}
	return nil
}

// rowWorkers is the number of goroutines for a batch of n rows: GOMAXPROCS,
// but at least 64 rows each.
func rowWorkers(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/64))
}

// fractionEqual returns the fraction of the predictions pred equal to the
// labels y (len(y) > 0).
func fractionEqual(pred, y []int) float64 {
	ok := 0
	for i, p := range pred {
		if p == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}
