package perceptron

import (
	"slices"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// compactAvg is an averaged model's training state held compactly: the
// running weights and the averaging sums of the columns cols only, rows ×
// len(cols) values each (row k's value of column cols[r] at k·len(cols)+r),
// every other column zero in both. A fit from zero weights on sparse data
// makes it (cols: the columns the data uses), so that the fit writes one
// K×D array (the served average) rather than three; the dense running
// weights and sums are formed (dense) only where they are read: continueDense,
// Update and MarshalJSON (MarshalBinary writes their rows from the compact
// form; the files hold them dense of width D as before).
type compactAvg[T Float] struct {
	cols []int32
	W, U []T
}

// dense returns the running weights and sums as rows × d arrays (fresh).
func (a *compactAvg[T]) dense(rows, d int) (W, U []T) {
	n := len(a.cols)
	W, U = dataset.Alloc[T](rows*d), dataset.Alloc[T](rows*d)
	for k := range rows {
		w, u := W[k*d:(k+1)*d], U[k*d:(k+1)*d]
		aw, au := a.W[k*n:(k+1)*n], a.U[k*n:(k+1)*n]
		for r, j := range a.cols {
			w[j], u[j] = aw[r], au[r]
		}
	}
	return W, U
}

// averaging returns the snapshot's running weights and averaging sums
// dense (formed afresh from a compact state; nil, nil without an averaging
// state).
func (s *state[T]) averaging() (CW, U []T) {
	if s.avg != nil {
		return s.avg.dense(s.rows(), s.d)
	}
	return s.CW, s.U
}

// withDenseAveraging returns s itself, or for a compact averaging state a
// copy of s holding the same state dense (CW, U) in arrays of its own (CB
// and UB copied too), which Update may change in place.
func (s *state[T]) withDenseAveraging() *state[T] {
	if s.avg == nil {
		return s
	}
	c := *s
	c.CW, c.U = s.avg.dense(s.rows(), s.d)
	c.CB, c.UB = slices.Clone(s.CB), slices.Clone(s.UB)
	c.avg = nil
	return &c
}
