package svm

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// numFuncs returns the number of decision functions of scheme s for k
// classes, or −1 if one-vs-one's k(k−1)/2 exceeds an int.
func numFuncs(s Scheme, k int) int {
	switch s {
	case Binary:
		return 1
	case OneVsRest:
		return k
	}
	if r := uint64(k) * uint64(k-1) / 2; uint64(k) > 1<<32 || r > math.MaxInt {
		return -1
	}
	return k * (k - 1) / 2
}

// Parts is the content of a kernel model: what a model file stores and
// NewModel takes. Every decision function r is
//
//	f_r(x) = Σᵢ Coef[r·S + i]·K(svᵢ, x) + Bias[r]
//
// over the S shared support vectors svᵢ = SV[i·Dims : (i+1)·Dims], where
// Coef holds αᵢyᵢ of machine r (0 for a support vector of another
// machine) and y = +1 marks the machine's positive class.
type Parts[T Float] struct {
	Kernel gram.Kernel
	Dims   int
	Labels []int // the classes, strictly increasing
	Scheme Scheme
	SV     []T // S×Dims support vectors, row-major (nil when Sparse is set)
	// Sparse holds the support vectors as CSR rows instead of SV (Rows =
	// S, Cols = Dims; its labels are ignored): the form of a model trained
	// on sparse data (trainSparse), whose D may be 2²⁰ or more.
	Sparse *dataset.CSR[T]
	Index  []int // training row of each support vector (optional: nil or S increasing values in [0, 2³¹))
	Coef   []T   // R×S coefficients αᵢyᵢ
	Bias   []T   // R biases b = −ρ
}

// Model is a trained kernel SVM: binary, one-vs-rest or one-vs-one. It is
// immutable; Predict, Scores, the batch methods and the accessors are safe
// for concurrent use, and Predict and Scores allocate nothing in steady
// state (their scratch buffers come from a pool).
type Model[T Float] struct {
	kern   gram.Kernel
	d      int
	labels []int
	scheme Scheme
	sv     []T
	index  []int
	coef   []T
	bias   []T
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
	x     []T     // a sparse sample densified (dense support vectors)
	idx   []int32 // a dense sample's non-zeros (sparse support vectors)
	val   []T
}

// NewModel checks p and builds a model from a copy of it: the way back
// from a model file. Inconsistent sizes, labels that are not strictly
// increasing, a scheme that does not fit the number of labels, indices
// that are not increasing training rows, and NaN or infinite values are
// errors wrapping ErrModel.
func NewModel[T Float](p Parts[T]) (*Model[T], error) {
	return newModel(p, true)
}

// newModel is NewModel; it copies the slices of p only if clone is set
// (a decoder hands over slices it made).
func newModel[T Float](p Parts[T], clone bool) (*Model[T], error) {
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
	switch {
	case p.Scheme == Binary && k != 2,
		p.Scheme != Binary && p.Scheme != OneVsRest && p.Scheme != OneVsOne:
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
	if uint64(len(p.Coef)) != uint64(r)*uint64(s) || len(p.Bias) != r {
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
	}
	m := &Model[T]{
		kern: p.Kernel, d: p.Dims, labels: p.Labels, scheme: p.Scheme,
		sv: p.SV, index: p.Index, coef: p.Coef, bias: p.Bias, ssv: p.Sparse,
	}
	if err := m.init(nil); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	return m, nil
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
	m.red = groupSupport(m.scheme, len(m.labels), len(m.sv)/m.d, m.coef)
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
		Sparse: m.SparseSupport(),
	}
}

// Kernel returns the kernel function.
func (m *Model[T]) Kernel() gram.Kernel { return m.kern }

// Dims returns the number of features a sample must have.
func (m *Model[T]) Dims() int { return m.d }

// Classes returns the labels the model predicts, sorted (a copy).
func (m *Model[T]) Classes() []int { return slices.Clone(m.labels) }

// Scheme returns how the decision functions combine.
func (m *Model[T]) Scheme() Scheme { return m.scheme }

// NumScores returns the number of decision functions, the length of what
// Scores writes: 1 (binary), K (one-vs-rest) or K(K−1)/2 (one-vs-one).
func (m *Model[T]) NumScores() int { return len(m.bias) }

// NumSupport returns the number of support vectors.
func (m *Model[T]) NumSupport() int {
	if m.ssv != nil {
		return m.ssv.Rows
	}
	return len(m.sv) / m.d
}

// SupportVectors returns a copy of the S×Dims support vectors (nil for a
// model with sparse support vectors: see SparseSupport).
func (m *Model[T]) SupportVectors() []T { return slices.Clone(m.sv) }

// SupportIndices returns the training row of each support vector (a copy;
// nil for a model built by NewModel without indices).
func (m *Model[T]) SupportIndices() []int { return slices.Clone(m.index) }

// Coefficients returns a copy of decision function r's coefficients αᵢyᵢ
// (one per support vector) and its bias. It panics if r is out of range.
func (m *Model[T]) Coefficients(r int) ([]T, T) {
	s := m.NumSupport()
	return slices.Clone(m.coef[r*s : (r+1)*s]), m.bias[r]
}

// Pair returns the labels of one-vs-one decision function r: a positive
// value votes for pos, anything else for neg. For a binary model r = 0
// gives the two labels; for one-vs-rest, pos is class r's label and neg
// is 0. It panics if r is out of range.
func (m *Model[T]) Pair(r int) (neg, pos int) {
	switch m.scheme {
	case Binary:
		return m.labels[0], m.labels[1]
	case OneVsRest:
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
	panic(fmt.Sprintf("svm: one-vs-one function %d out of range", r))
}

func (m *Model[T]) get() *scratch[T] {
	if sc, ok := m.pool.Get().(*scratch[T]); ok {
		return sc
	}
	return &scratch[T]{kr: make([]T, m.NumSupport()), out: make([]T, len(m.bias)), votes: make([]int, len(m.labels)), part: m.newPart()}
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
		return fmt.Errorf("%w: sample", ErrNonFinite)
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
// (part: the scratch's, or newPart's).
func (m *Model[T]) scores(dst, kr, part []T) {
	if len(kr) == 0 {
		copy(dst, m.bias)
		return
	}
	if m.red != nil && m.rows != nil {
		m.red.scores(m.k, dst, kr, part, m.bias)
		return
	}
	m.k.Dots(dst, m.coef, kr)
	for r, b := range m.bias {
		dst[r] += b
	}
}

// decide maps decision values to a label.
func (m *Model[T]) decide(sc []T, votes []int) int {
	switch m.scheme {
	case Binary:
		if sc[0] > 0 {
			return m.labels[1]
		}
		return m.labels[0]
	case OneVsRest:
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

// Scores writes the NumScores decision values of x into dst. x must have
// Dims finite values and dst NumScores room.
func (m *Model[T]) Scores(dst, x []T) error {
	if err := m.checkSample(x); err != nil {
		return err
	}
	if len(dst) != len(m.bias) {
		return fmt.Errorf("%w: len(dst) = %d, want %d", ErrDims, len(dst), len(m.bias))
	}
	sc := m.get()
	defer m.pool.Put(sc)
	if err := m.row(sc, x); err != nil {
		return err
	}
	m.scores(dst, sc.kr, sc.part)
	return nil
}

func (m *Model[T]) row(sc *scratch[T], x []T) error {
	if m.srows != nil {
		kr, err := m.srows.RowOf(sc.kr, sc.sparseOf(x))
		if err != nil {
			return gramErr(err)
		}
		sc.kr = kr
		return nil
	}
	if m.rows == nil {
		return nil
	}
	kr, err := m.rows.RowOf(sc.kr, x)
	if err != nil {
		return gramErr(err)
	}
	sc.kr = kr
	return nil
}

// Predict returns the predicted label of x.
func (m *Model[T]) Predict(x []T) (int, error) {
	if err := m.checkSample(x); err != nil {
		return 0, err
	}
	sc := m.get()
	defer m.pool.Put(sc)
	if err := m.row(sc, x); err != nil {
		return 0, err
	}
	m.scores(sc.out, sc.kr, sc.part)
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
// in cache, so no samples×support-vectors matrix is ever stored.
func (m *Model[T]) ScoresBatch(dst, X []T) error {
	if err := m.check(); err != nil {
		return err
	}
	if len(X)%m.d != 0 || len(dst) != len(X)/m.d*len(m.bias) {
		return fmt.Errorf("%w: len(X) = %d and len(dst) = %d for %d features and %d scores", ErrDims, len(X), len(dst), m.d, len(m.bias))
	}
	return m.batch(X, func(lo, hi int, out []T) error {
		copy(dst[lo*len(m.bias):hi*len(m.bias)], out)
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
	r := len(m.bias)
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
		return fmt.Errorf("%w: samples", ErrNonFinite)
	}
	n := len(X) / m.d
	r, s := len(m.bias), m.NumSupport()
	step := m.batchRows()
	out := make([]T, min(n, step)*r)
	for lo := 0; lo < n; lo += step {
		hi := min(n, lo+step)
		o := out[:(hi-lo)*r]
		switch {
		case s == 0:
			for i := range hi - lo {
				copy(o[i*r:], m.bias)
			}
		case m.srows != nil:
			parallelRows(hi-lo, func(a, b int) {
				sc := m.get()
				defer m.pool.Put(sc)
				for i := a; i < b; i++ {
					x := X[(lo+i)*m.d : (lo+i+1)*m.d]
					if kr, err := m.srows.RowOf(sc.kr, sc.sparseOf(x)); err == nil { // X is checked
						sc.kr = kr
					}
					m.scores(o[i*r:(i+1)*r], sc.kr, sc.part)
				}
			})
		default:
			err := m.rows.RowsOfEach(X[lo*m.d:hi*m.d], rowWorkers(hi-lo), func(a, b int, K []T) error {
				part := m.newPart()
				for i := a; i < b; i++ {
					m.scores(o[i*r:(i+1)*r], K[(i-a)*s:(i-a+1)*s], part)
				}
				return nil
			})
			if err != nil {
				return gramErr(err)
			}
		}
		if err := use(lo, hi, o); err != nil {
			return err
		}
	}
	return nil
}

// parallelRows splits [0, n) between GOMAXPROCS goroutines.
func parallelRows(n int, f func(lo, hi int)) {
	w := rowWorkers(n)
	if w <= 1 {
		f(0, n)
		return
	}
	parallel.Run(w, func(t int) { f(t*n/w, (t+1)*n/w) })
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
