package dataset

import "testing"

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
