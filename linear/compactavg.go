package linear

import "slices"

// averaging returns the snapshot's running weights and averaging sums
// dense (formed afresh from a compact state; nil, nil without an averaging
// state).
func (s *state[T]) averaging() (CW, U []T) {
	if s.avg != nil {
		return s.avg.Dense(s.rows(), s.d)
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
	c.CW, c.U = s.avg.Dense(s.rows(), s.d)
	c.CB, c.UB = slices.Clone(s.CB), slices.Clone(s.UB)
	c.avg = nil
	return &c
}
