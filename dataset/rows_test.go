package dataset

import (
	"errors"
	"slices"
	"testing"
)

// TestRowsAt checks that a dense matrix and its CSR form agree on Dims and
// on every value At gives, stored or not.
func TestRowsAt(t *testing.T) {
	d := &Data[float32]{X: []float32{0, 1.5, 0, -2, 0, 0, 3, 0, 4}, Y: []int{1, 2, 3}, Rows: 3, Cols: 3}
	c, err := FromDense(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Rows[float32]{d, c} {
		if n, m := r.Dims(); n != 3 || m != 3 {
			t.Fatalf("%T: Dims = %d, %d", r, n, m)
		}
		for i := range 3 {
			for j := range 3 {
				if got, want := r.At(i, j), d.X[i*3+j]; got != want {
					t.Errorf("%T: At(%d, %d) = %v, want %v", r, i, j, got, want)
				}
			}
		}
	}
	for _, r := range []Rows[float32]{d, c} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%T: At(0, 3) did not panic", r)
				}
			}()
			r.At(0, 3)
		}()
	}
}

func TestFromRows(t *testing.T) {
	rows := [][]float32{{1, 2}, {3, 4}}
	d, err := FromRows(rows, nil)
	if err != nil || d.Rows != 2 || d.Cols != 2 || d.Y != nil || !slices.Equal(d.X, []float32{1, 2, 3, 4}) {
		t.Fatalf("FromRows = %+v, %v", d, err)
	}
	d.X[0] = 9
	if rows[0][0] != 1 {
		t.Fatal("FromRows shares the caller's rows")
	}
	for _, tc := range []struct {
		rows [][]float32
		y    []int
		want error
	}{
		{nil, nil, ErrEmpty},
		{[][]float32{{}}, nil, ErrEmpty},
		{[][]float32{{1, 2}, {3}}, nil, ErrRagged},
		{[][]float32{{1}, {2}, {3, 4}}, nil, ErrRagged},
		{[][]float32{{1}, {2}}, []int{1}, ErrMismatch},
	} {
		if _, err := FromRows(tc.rows, tc.y); !errors.Is(err, tc.want) {
			t.Fatalf("FromRows(%v, %v): %v, want %v", tc.rows, tc.y, err, tc.want)
		}
	}
}
