package dataset

// Check reports whether r is a valid sample of cols features: as many
// values as indices (else an error wrapping ErrMismatch), indices strictly
// increasing and in [0, cols) (ErrIndex: a sample wider than a model, say)
// and finite values (ErrNonFinite). The models' sparse methods check their
// samples with it, so that a bad one is an error, never a panic.
func (r SparseRow[T]) Check(cols int) error {
	if len(r.Idx) != len(r.Val) {
		return errorf(ErrMismatch, "sparse sample of %d indices and %d values", len(r.Idx), len(r.Val))
	}
	prev := int32(-1)
	for k, j := range r.Idx {
		if j <= prev || int(j) >= cols {
			return errorf(ErrIndex, "sparse sample: feature %d (0-based) not increasing (previous %d) or not below %d features", j, prev, cols)
		}
		prev = j
		if !isFinite(r.Val[k]) {
			return errorf(ErrNonFinite, "sparse sample: feature %d is %v", j, float64(r.Val[k]))
		}
	}
	return nil
}
