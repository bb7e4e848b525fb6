package perceptron

import (
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/expansion"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// The kernel perceptron on sparse (CSR) data. The kernel values come from
// gram's sparse products (gram.ComputeSparse, or gram.NewSparseCache's row
// cache beyond KernelOptions.MaxBytes), so no row is densified, and the
// model keeps its support vectors as sparse rows (expansion.Model.SparseSupport;
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
func trainKernelBinarySparse[T Float](X *dataset.CSR[T], y []int, opt KernelOptions) (*expansion.Model[T], *Diagnostics, error) {
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
	return trainDualSparse(&cfg, kern, opt.MaxBytes, opt.trace, X, cls, 1, false, expansion.Binary, []int{-1, 1})
}

// trainKernelMultiSparse is trainKernelMulti for a CSR matrix
// (one-vs-rest or Argmax, any integer labels); see trainKernelBinarySparse.
func trainKernelMultiSparse[T Float](X *dataset.CSR[T], y []int, opt KernelOptions) (*expansion.Model[T], *Diagnostics, error) {
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
func trainDualSparse[T Float](cfg *config, kern gram.Kernel, maxBytes int64, trace func(c, i int), X *dataset.CSR[T], cls []int32, K int, argmax bool, scheme expansion.Scheme, labels []int) (*expansion.Model[T], *Diagnostics, error) {
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
	return t.run(kern, scheme, labels)
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
