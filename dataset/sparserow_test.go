package dataset

import (
	"errors"
	"math"
	"testing"
)

// TestSparseRowCheck: every way a sparse sample can be bad for a width is
// its own error, and a good one (empty too) passes.
func TestSparseRowCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    SparseRow[float32]
		want error
	}{
		{"good", SparseRow[float32]{Idx: []int32{0, 3, 9}, Val: []float32{1, -2, 0}}, nil},
		{"empty", SparseRow[float32]{}, nil},
		{"lengths", SparseRow[float32]{Idx: []int32{1}}, ErrMismatch},
		{"wider", SparseRow[float32]{Idx: []int32{2, 10}, Val: []float32{1, 1}}, ErrIndex},
		{"negative", SparseRow[float32]{Idx: []int32{-1}, Val: []float32{1}}, ErrIndex},
		{"repeated", SparseRow[float32]{Idx: []int32{4, 4}, Val: []float32{1, 1}}, ErrIndex},
		{"decreasing", SparseRow[float32]{Idx: []int32{5, 4}, Val: []float32{1, 1}}, ErrIndex},
		{"nan", SparseRow[float32]{Idx: []int32{4}, Val: []float32{float32(math.NaN())}}, ErrNonFinite},
	} {
		err := tc.r.Check(10)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}
