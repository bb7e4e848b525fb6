package perceptron

import (
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

// Sparse data. Every trainer of this package accepts a CSR matrix
// (dataset.CSR, which dataset.ReadLIBSVMSparse returns) in place of the
// dense row-major X, and touches only the stored values: an epoch costs
// O(nnz) (times the classes), never O(N·D), so text-sized feature spaces
// (10⁵–10⁷ hashed features, a few hundred stored per row) train in the
// memory of the CSR plus the weights. The models are the same: D dense
// weights per class, the same file format, and the same model (bit for bit
// on integer-valued data, where no rounding depends on the order of a sum)
// as the dense fit of the same data.

// vec is one sample as the trainers see it: a dense row (idx nil, val its
// d values) or a sparse one (the values val in the columns idx).
type vec[T kernel.Float] struct {
	idx []int32
	val []T
}

// dotv returns x·w.
func dotv[T kernel.Float](k modelkern.Kernels[T], x vec[T], w []T) T {
	if x.idx == nil {
		return k.Dot(x.val, w)
	}
	return k.DotSparse(x.idx, x.val, w)
}

// axpyv adds a·x to w.
func axpyv[T kernel.Float](k modelkern.Kernels[T], a T, x vec[T], w []T) {
	if x.idx == nil {
		k.Axpy(a, x.val, w)
		return
	}
	k.AxpySparse(a, x.idx, x.val, w)
}

// sqv returns ‖x‖² as training computes it.
func sqv[T kernel.Float](k modelkern.Kernels[T], x vec[T]) T { return k.Dot(x.val, x.val) }

// sqvShort is ‖x‖² for a fit whose norms serve only the checks and the
// diagnostics (prepareSparse's normsForChecks: a linear perceptron that
// does not scale its samples; not Pegasos, whose steps read them, nor a
// kernel machine, nor a scaled fit, whose norms must be the bits a model's
// sampleScale computes): for a short row (text rows of a few tens of
// values, where the kernel's call costs more than its sum) a Go loop of
// four partial sums, else sqv. On the manual pages' NAME lines (19 values
// a row) this took the norms of a fit from about 1 ms to 0.2.
func sqvShort[T kernel.Float](k modelkern.Kernels[T], x vec[T]) T {
	v := x.val
	if len(v) >= 64 {
		return sqv(k, x)
	}
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(v); i += 4 {
		p := v[i : i+4 : i+4]
		s0 += p[0] * p[0]
		s1 += p[1] * p[1]
		s2 += p[2] * p[2]
		s3 += p[3] * p[3]
	}
	for _, a := range v[i:] {
		s0 += a * a
	}
	return (s0 + s1) + (s2 + s3)
}

// sparseRows are the rows of a CSR matrix (validated: see prepareSparse).
type sparseRows[T kernel.Float] struct {
	ptr []int
	idx []int32
	val []T
}

// vec returns sample i of the training data.
func (dt *data[T]) vec(i int) vec[T] {
	if sp := dt.sp; sp != nil {
		lo, hi := sp.ptr[i], sp.ptr[i+1]
		return vec[T]{idx: sp.idx[lo:hi:hi], val: sp.val[lo:hi:hi]}
	}
	return vec[T]{val: dt.row(i)}
}

// matVec sets dst[j] = x·w for the rows lo..hi−1 (kernel.MatVec, or
// kernel.MatVecSparse).
func (dt *data[T]) matVec(k modelkern.Kernels[T], dst []T, lo, hi int, w []T) {
	if sp := dt.sp; sp != nil {
		k.MatVecSparse(dst, sp.ptr[lo:hi+1], sp.idx, sp.val, w)
		return
	}
	k.MatVec(dst, dt.X[lo*dt.d:hi*dt.d], w)
}

// dots sets dst[c] = W_c·x for sample i (kernel.Dots, or kernel.DotsSparse).
func (dt *data[T]) dots(k modelkern.Kernels[T], dst, W []T, i int) {
	if sp := dt.sp; sp != nil {
		lo, hi := sp.ptr[i], sp.ptr[i+1]
		k.DotsSparse(dst, W, sp.idx[lo:hi], sp.val[lo:hi])
		return
	}
	k.Dots(dst, W, dt.row(i))
}

// checkCSR validates the shape of a CSR matrix and its labels, and returns
// the number of rows. It checks the offsets and indices (they are used to
// index the weights: a bad one would panic); the values are checked by
// prepareSparse.
func checkCSR[T kernel.Float](X *dataset.CSR[T], y []int) (int, error) {
	switch {
	case X == nil || X.Rows == 0:
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	case X.Cols <= 0:
		return 0, fmt.Errorf("%w: %d features (columns); need at least 1", linear.ErrDims, X.Cols)
	case X.Rows < 0 || len(X.Ptr) != X.Rows+1:
		return 0, fmt.Errorf("%w: CSR with %d rows has %d offsets", linear.ErrDims, X.Rows, len(X.Ptr))
	case len(X.Idx) != len(X.Val) || X.Ptr[0] != 0 || X.Ptr[X.Rows] != len(X.Idx):
		return 0, fmt.Errorf("%w: CSR offsets run from %d to %d over %d indices and %d values", linear.ErrDims, X.Ptr[0], X.Ptr[X.Rows], len(X.Idx), len(X.Val))
	case len(y) != X.Rows:
		return 0, fmt.Errorf("%w: len(y) = %d, but X has %d rows", linear.ErrDims, len(y), X.Rows)
	}
	for i := range X.Rows {
		lo, hi := X.Ptr[i], X.Ptr[i+1]
		if hi < lo {
			return 0, fmt.Errorf("%w: CSR offsets decrease at row %d", linear.ErrDims, i)
		}
	}
	for i := range X.Rows {
		prev := int32(-1)
		for _, j := range X.Idx[X.Ptr[i]:X.Ptr[i+1]] {
			if j <= prev || int(j) >= X.Cols {
				return 0, fmt.Errorf("%w: row %d: column %d not increasing (previous %d) or not below the %d features", linear.ErrDims, i, j, prev, X.Cols)
			}
			prev = j
		}
	}
	return X.Rows, nil
}

// prepareSparse is prepare for a CSR matrix (checked by checkCSR): it
// checks the values, computes the row norms and applies the scaling on a
// copy of the values (the caller's matrix is never modified). With
// ScaleAugmented, column and a bias (bf > 0, the bias feature B), the rows
// get the augmented feature sᵢ·B as one more stored value, in column d
// (dt.d = d + 1). normsForChecks
// says the unscaled norms serve only the checks and the diagnostics
// (sqvShort).
func prepareSparse[T kernel.Float](k modelkern.Kernels[T], X *dataset.CSR[T], scaling linear.Scaling, bf float64, column, normsForChecks bool) (*data[T], error) {
	dt := &data[T]{sp: &sparseRows[T]{ptr: X.Ptr, idx: X.Idx, val: X.Val}, n: X.Rows, d: X.Cols, sq: make([]float64, X.Rows)}
	norm := sqv[T]
	if normsForChecks && scaling == linear.ScaleNone {
		norm = sqvShort[T]
	}
	return dt, dt.scaleRows(k, scaling, bf, column, norm)
}

// checkVec records the squared norm s of sample i, or explains why it is
// not finite.
func (dt *data[T]) checkVec(i int, x vec[T], s T) error {
	if f := float64(s); !math.IsNaN(f) && !math.IsInf(f, 0) {
		dt.sq[i] = f
		return nil
	}
	for k, v := range x.val {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			j := k
			if x.idx != nil {
				j = int(x.idx[k])
			}
			return fmt.Errorf("%w: X[%d][%d] = %v", linear.ErrNonFinite, i, j, f)
		}
	}
	return fmt.Errorf("%w: the squared norm of row %d overflows", linear.ErrNonFinite, i)
}
