package perceptron

import (
	"fmt"

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
