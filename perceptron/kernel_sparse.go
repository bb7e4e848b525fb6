package perceptron

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
)

// The kernel perceptron on sparse (CSR) data. The kernel values come from
// gram's sparse products (gram.ComputeSparse, or gram.NewSparseCache's row
// cache beyond KernelOptions.MaxBytes), so no row is densified, and the
// model keeps its support vectors as sparse rows (KernelModel.SparseSupport;
// a file flag, see MarshalBinary): S support vectors over D = 2²⁰ hashed
// features hold their stored values, not S·D of them. On integer-valued
// data the kernel values are the dense ones bit for bit (see package gram),
// so the sparse fit is the dense fit's model.

// trainKernelBinarySparse is trainKernelBinary for a CSR matrix: the binary kernel
// perceptron on the rows of X (labels y[i] ∈ {−1, +1}), with the options of
// trainKernelBinary except DataMargin (ErrOption: the hard-margin solve takes
// dense rows). Normalize and NormalizeFeatures scale a copy of the stored
// values. Errors are trainKernelBinary's, with ErrDims also for an inconsistent
// CSR.
func trainKernelBinarySparse[T Float](X *dataset.CSR[T], y []int, opt KernelOptions) (*KernelModel[T], *Diagnostics, error) {
	cfg, kern, err := opt.resolveKernel(false)
	if err != nil {
		return nil, nil, err
	}
	if _, err := checkCSR(X, y); err != nil {
		return nil, nil, err
	}
	cls, err := binaryClasses(y)
	if err != nil {
		return nil, nil, err
	}
	return trainDualSparse(&cfg, kern, opt.MaxBytes, opt.trace, X, cls, 1, false, KindKernelBinary, []int{-1, 1})
}

// trainKernelMultiSparse is trainKernelMulti for a CSR matrix
// (one-vs-rest or Argmax, any integer labels); see trainKernelBinarySparse.
func trainKernelMultiSparse[T Float](X *dataset.CSR[T], y []int, opt KernelOptions) (*KernelModel[T], *Diagnostics, error) {
	cfg, kern, err := opt.resolveKernel(true)
	if err != nil {
		return nil, nil, err
	}
	if _, err := checkCSR(X, y); err != nil {
		return nil, nil, err
	}
	labels, cls, err := multiClasses(y)
	if err != nil {
		return nil, nil, err
	}
	argmax, kind := cfg.kernelKind()
	return trainDualSparse(&cfg, kern, opt.MaxBytes, opt.trace, X, cls, len(labels), argmax, kind, labels)
}

// trainDualSparse is trainDual on CSR rows.
func trainDualSparse[T Float](cfg *config, kern gram.Kernel, maxBytes int64, trace func(c, i int), X *dataset.CSR[T], cls []int32, K int, argmax bool, kind Kind, labels []int) (*KernelModel[T], *Diagnostics, error) {
	if cfg.margin {
		return nil, nil, fmt.Errorf("%w: DataMargin solves the hard-margin SVM on dense rows; not on a CSR matrix", ErrOption)
	}
	if err := checkElem[T](cfg, X.Rows); err != nil {
		return nil, nil, err
	}
	k := kernelsFor[T](cfg.impl)
	dt, err := prepareSparse(k, X, cfg.scaling, cfg.bfeat, false, false)
	if err != nil {
		return nil, nil, err
	}
	t, err := newDualTrainerOn(cfg, kern, maxBytes, trace, k, dt, cls, K, argmax)
	if err != nil {
		return nil, nil, err
	}
	return t.run(kern, kind, labels)
}

// csrOf returns the trainer's rows (as scaled for training) as a CSR for
// package gram.
func (t *dualTrainer[T]) csrOf() *dataset.CSR[T] {
	sp := t.dt.sp
	return &dataset.CSR[T]{Ptr: sp.ptr, Idx: sp.idx, Val: sp.val, Rows: t.dt.n, Cols: t.dt.d, Y: make([]int, t.dt.n)}
}

// setupSparseKernel is setupKernel for sparse rows: the full matrix from
// gram.ComputeSparse if full, else gram's row cache over gram.SparseRows.
func (t *dualTrainer[T]) setupSparseKernel(kern gram.Kernel, maxBytes, rowBytes int64, full bool, opts *gram.Options) error {
	c := t.csrOf()
	if full {
		G, err := gram.ComputeSparse(c, kern, opts)
		if err != nil {
			return gramError(err)
		}
		t.G = G
		return nil
	}
	if maxBytes < rowBytes {
		return fmt.Errorf("%w: MaxBytes = %d is less than one kernel row (%d samples × %d bytes = %d bytes); training needs at least one", ErrBudget, maxBytes, t.dt.n, rowBytes/int64(max(1, t.dt.n)), rowBytes)
	}
	cache, err := gram.NewSparseCache(c, kern, maxBytes, opts)
	if err != nil {
		return gramError(err)
	}
	t.cache = cache
	return nil
}

// sparseSupport returns the training rows idx (as trained on) as a CSR.
func (t *dualTrainer[T]) sparseSupport(idx []int) *dataset.CSR[T] {
	sp := t.dt.sp
	out := &dataset.CSR[T]{Rows: len(idx), Cols: t.dt.d, Ptr: make([]int, 1, len(idx)+1), Y: make([]int, len(idx))}
	for _, i := range idx {
		lo, hi := sp.ptr[i], sp.ptr[i+1]
		out.Idx = append(out.Idx, sp.idx[lo:hi]...)
		out.Val = append(out.Val, sp.val[lo:hi]...)
		out.Ptr = append(out.Ptr, len(out.Idx))
	}
	if out.Idx == nil {
		out.Idx, out.Val = []int32{}, []T{}
	}
	return out
}

// SparseSupport returns a copy of the support vectors of a model trained on
// sparse rows (or decoded from such a model's file) as CSR rows (Rows =
// NumSupport, Cols = Dims, as trained on: scaled for a normalising model),
// or nil for a model with dense support vectors (SupportVectors).
func (m *KernelModel[T]) SparseSupport() *dataset.CSR[T] {
	s := m.st.Load()
	if s == nil || s.ssv == nil {
		return nil
	}
	return cloneCSR(s.ssv)
}

func cloneCSR[T Float](c *dataset.CSR[T]) *dataset.CSR[T] {
	return &dataset.CSR[T]{Rows: c.Rows, Cols: c.Cols, Ptr: slices.Clone(c.Ptr), Idx: slices.Clone(c.Idx),
		Val: slices.Clone(c.Val), Y: make([]int, c.Rows)}
}

// checkSparse checks sparse support vectors: S rows of d columns, a valid
// CSR (indices increasing and below d, finite values).
func (s *kstate[T]) checkSparse() error {
	c := s.ssv
	if len(s.SV) != 0 || c.Rows != len(s.idx) || c.Cols != s.d {
		return fmt.Errorf("%w: %d sparse support vectors of %d columns (and %d dense values) for %d indices and %d features", ErrCorrupt, c.Rows, c.Cols, len(s.SV), len(s.idx), s.d)
	}
	cc := *c
	cc.Y = make([]int, max(0, c.Rows))
	if err := cc.Validate(); err != nil {
		return fmt.Errorf("%w: sparse support vectors: %w", ErrCorrupt, err)
	}
	return nil
}

// checkSparseSample checks a sparse sample for a model of d features.
func checkSparseSample[T Float](x dataset.SparseRow[T], d int) error {
	if err := x.Check(d); err != nil {
		if errors.Is(err, dataset.ErrNonFinite) {
			return fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return fmt.Errorf("%w: %w (the model has %d features)", ErrDims, err, d)
	}
	return nil
}

// scoresSparse writes the R scores of the sparse sample x to dst.
func (s *kstate[T]) scoresSparse(sc *kscratch[T], dst []T, x dataset.SparseRow[T]) error {
	if err := checkSparseSample(x, s.d); err != nil {
		return err
	}
	if s.srows == nil {
		// Dense support vectors: the sample densified (the model holds
		// S·d values already).
		if cap(sc.xd) < s.d {
			sc.xd = make([]T, s.d)
		}
		xd := sc.xd[:s.d]
		for k, j := range x.Idx {
			xd[j] = x.Val[k]
		}
		err := s.scores(sc, dst, xd)
		for _, j := range x.Idx {
			xd[j] = 0
		}
		return err
	}
	bf := T(1)
	if s.scaling != ScaleNone {
		sc.val = append(sc.val[:0], x.Val...)
		switch s.scaling {
		case ScaleFeatures:
			if nx := float64(s.k.Dot(sc.val, sc.val)); nx > 0 && !math.IsInf(nx, 0) {
				s.k.Scale(T(1/math.Sqrt(nx)), sc.val)
			}
		case ScaleAugmented:
			bf = T(augScaleOf(s.k, x.Val, s.bfeat))
			s.k.Scale(bf, sc.val)
		}
		x.Val = sc.val
	}
	kr, err := s.srows.RowOf(sc.kr, x)
	if err != nil {
		return gramError(err)
	}
	sc.kr = kr
	s.combine(dst, kr, bf)
	for r, a := range dst {
		if !finite(a) {
			return fmt.Errorf("%w: score %d is %v", ErrNonFinite, r, a)
		}
	}
	return nil
}

// sparseOf returns the non-zeros of the dense x as a sparse row in the
// scratch's buffers.
func (sc *kscratch[T]) sparseOf(x []T) dataset.SparseRow[T] {
	idx, val := sc.sidx[:0], sc.sval[:0]
	for j, v := range x {
		if v != 0 || !finite(v) {
			idx = append(idx, int32(j))
			val = append(val, v)
		}
	}
	sc.sidx, sc.sval = idx, val
	return dataset.SparseRow[T]{Idx: idx, Val: val}
}

// ScoresSparse writes the decision values of the sparse sample x to dst
// (NumScores values), as Scores does for its dense form. It works for
// either kind of model (sparse or dense support vectors); a feature at or
// beyond Dims, or unsorted features, wrap ErrDims, a NaN or Inf
// ErrNonFinite.
func (m *KernelModel[T]) ScoresSparse(dst []T, x dataset.SparseRow[T]) error {
	s, sc, err := m.scoring(dst)
	if err != nil {
		return err
	}
	defer s.pool.Put(sc)
	return s.scoresSparse(sc, dst, x)
}

// PredictSparse returns the label of the sparse sample x; see ScoresSparse.
func (m *KernelModel[T]) PredictSparse(x dataset.SparseRow[T]) (int, error) {
	s, err := m.load()
	if err != nil {
		return 0, err
	}
	sc := s.get()
	defer s.pool.Put(sc)
	if err := s.scoresSparse(sc, sc.out, x); err != nil {
		return 0, err
	}
	return s.decide(sc.out), nil
}

// ScoresBatchSparse writes the decision values of the rows of c to dst
// (NumScores per row), the rows spread over GOMAXPROCS goroutines. c may
// have fewer columns than the model, not more (ErrDims).
func (m *KernelModel[T]) ScoresBatchSparse(dst []T, c *dataset.CSR[T]) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	if err := checkCSRShape(c, s.d); err != nil {
		return err
	}
	r := s.nrows()
	if len(dst) != c.Rows*r {
		return fmt.Errorf("%w: len(dst) = %d for %d scores of a matrix of %d rows", ErrDims, len(dst), r, c.Rows)
	}
	return s.rowsParallel(c.Rows, func(sc *kscratch[T], i int) error {
		return s.scoresSparse(sc, dst[i*r:(i+1)*r], c.Row(i))
	})
}

// PredictBatchSparse writes the label of each row of c to dst (len(dst) =
// c.Rows); see ScoresBatchSparse.
func (m *KernelModel[T]) PredictBatchSparse(dst []int, c *dataset.CSR[T]) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	if err := checkCSRShape(c, s.d); err != nil {
		return err
	}
	if len(dst) != c.Rows {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %d rows", ErrDims, len(dst), c.Rows)
	}
	return s.rowsParallel(c.Rows, func(sc *kscratch[T], i int) error {
		if err := s.scoresSparse(sc, sc.out, c.Row(i)); err != nil {
			return err
		}
		dst[i] = s.decide(sc.out)
		return nil
	})
}

// AccuracySparse returns the fraction of the rows of c whose predicted
// label equals y.
func (m *KernelModel[T]) AccuracySparse(c *dataset.CSR[T], y []int) (float64, error) {
	s, err := m.load()
	if err != nil {
		return 0, err
	}
	if err := checkCSRShape(c, s.d); err != nil {
		return 0, err
	}
	if len(y) == 0 {
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	pred := make([]int, len(y))
	if err := m.PredictBatchSparse(pred, c); err != nil {
		return 0, err
	}
	return fractionEqual(pred, y), nil
}

// rowsParallel runs f(sc, i) for the n rows over GOMAXPROCS goroutines,
// each with its own scratch; the first error by row wins.
func (s *kstate[T]) rowsParallel(n int, f func(sc *kscratch[T], i int) error) error {
	w := workers(n, s.nsv()*16)
	return parallel.FirstError(w, func(t int) error {
		sc := s.get()
		defer s.pool.Put(sc)
		lo, hi := rangeOf(n, t, w)
		return parallel.Each(lo, hi, func(i int) error { return f(sc, i) })
	})
}

// sparseFlag returns the header without the sparse-support flag, and
// whether it was set (a version-2 flag: a version-1 file keeps it, and its
// flag check rejects it).
func sparseFlag(h *modelfile.Header) (modelfile.Header, bool) {
	hh := *h
	if h.Version >= 2 && h.Flags&flagSparseSV != 0 {
		hh.Flags &^= flagSparseSV
		return hh, true
	}
	return hh, false
}
