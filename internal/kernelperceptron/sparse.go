package kernelperceptron

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
)

// Training on sparse (CSR) data. The kernel values come from
// gram's sparse products (gram.ComputeSparse, or gram.NewSparseCache's row
// cache beyond Config.MaxBytes), so no row is densified, and the
// model keeps its support vectors as sparse rows (expansion.Model.SparseSupport;
// a file flag, see expansion.Model.MarshalBinary): S support vectors over D = 2²⁰ hashed
// features hold their stored values, not S·D of them. On integer-valued
// data the kernel values are the dense ones bit for bit (see package gram),
// so the sparse fit is the dense fit's model.

// setupSparseKernel is setupKernel for sparse rows: the full matrix from
// gram.ComputeSparse if full, else gram's row cache over gram.SparseRows.
func (t *Trainer[T]) setupSparseKernel(kern gram.Kernel, maxBytes, rowBytes int64, full bool, opts *gram.Options) error {
	c := t.dt.CSR
	if full {
		G, err := gram.ComputeSparse(c, kern, opts)
		if err != nil {
			return gramError(err)
		}
		t.G = G
		return nil
	}
	if maxBytes < rowBytes {
		return fmt.Errorf("%w: MaxBytes = %d is less than one kernel row (%d samples × %d bytes = %d bytes); training needs at least one", perceptrontrain.ErrBudget, maxBytes, t.dt.N, rowBytes/int64(max(1, t.dt.N)), rowBytes)
	}
	cache, err := gram.NewSparseCache(c, kern, maxBytes, opts)
	if err != nil {
		return gramError(err)
	}
	t.cache = cache
	return nil
}

// sparseSupport returns the training rows idx (as trained on) as a CSR.
func (t *Trainer[T]) sparseSupport(idx []int) *dataset.CSR[T] {
	sp := t.dt.CSR
	out := &dataset.CSR[T]{Rows: len(idx), Cols: t.dt.D, Ptr: make([]int, 1, len(idx)+1), Y: make([]int, len(idx))}
	for _, i := range idx {
		lo, hi := sp.Ptr[i], sp.Ptr[i+1]
		out.Idx = append(out.Idx, sp.Idx[lo:hi]...)
		out.Val = append(out.Val, sp.Val[lo:hi]...)
		out.Ptr = append(out.Ptr, len(out.Idx))
	}
	if out.Idx == nil {
		out.Idx, out.Val = []int32{}, []T{}
	}
	return out
}
