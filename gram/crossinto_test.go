package gram

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// CrossInto, in either orientation, writes exactly Cross's values (each is
// one chain of multiply-adds in feature order, whichever side of the tile
// a row is on), and those are within the bound of the exact values;
// RowsOf writes exactly RowOf's. The shapes include a few rows against
// many (the transposed orientation on every path) and the reverse.
func testCrossInto[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sh := range crossShapes {
		na, nb, d := sh[0], sh[1], sh[2]
		A, B := randData[T](rng, na, d), randData[T](rng, nb, d)
		rm := map[Kernel]*refMatrix{}
		for _, k0 := range testKernels {
			k := kernelFor(k0, d)
			rm[k] = refOf[T](k, statsOf(A, B, d))
			for _, path := range availablePaths() {
				for _, opts := range []*Options{{Impl: path}, smallBlocks(path)} {
					what := fmt.Sprintf("%s/%v/%v/kc=%d", path, sh, k, opts.kc)
					want, err := Cross(A, B, d, k, opts)
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					got := make([]T, na*nb)
					if err := CrossInto(got, A, B, d, k, opts); err != nil {
						t.Fatalf("%s: CrossInto: %v", what, err)
					}
					for i, v := range got {
						if v != want.Data[i] && !(v != v && want.Data[i] != want.Data[i]) {
							t.Fatalf("%s: CrossInto[%d][%d] = %v, Cross = %v", what, i/nb, i%nb, v, want.Data[i])
						}
					}
					checkMatrix(t, what, &Matrix[T]{Rows: na, Cols: nb, Data: got}, rm[k])

					rows, err := NewRows(B, d, k, opts)
					if err != nil {
						t.Fatal(err)
					}
					batch := make([]T, na*nb)
					if err := rows.RowsOf(batch, A); err != nil {
						t.Fatalf("%s: RowsOf: %v", what, err)
					}
					for i := range na {
						one, err := rows.RowOf(nil, A[i*d:(i+1)*d])
						if err != nil {
							t.Fatal(err)
						}
						for j, v := range one {
							if batch[i*nb+j] != v {
								t.Fatalf("%s: RowsOf[%d][%d] = %v, RowOf = %v", what, i, j, batch[i*nb+j], v)
							}
						}
					}
				}
			}
		}
	}
}

func TestCrossIntoAndRowsOf(t *testing.T) {
	t.Run("f32", testCrossInto[float32])
	t.Run("f64", testCrossInto[float64])
}

// crossShapes are testCrossInto's shapes (rows of A, rows of B, d).
var crossShapes = [][3]int{{1, 1, 1}, {200, 10, 33}, {10, 200, 33}, {1, 40, 7}, {40, 1, 7}, {33, 31, 16}, {5, 3, 257}}

// TestCrossIntoFlips checks that crossShapes exercise both orientations on
// every path whose tile is not square: a few rows against many go on the
// tile's short side.
func TestCrossIntoFlips(t *testing.T) {
	for _, path := range availablePaths() {
		e, err := setup[float32](Linear{}, &Options{Impl: path})
		if err != nil {
			t.Fatal(err)
		}
		if e.mk.mr == e.mk.nr {
			continue // a square tile (generic): no orientation is better
		}
		flips := 0
		for _, sh := range crossShapes {
			if e.flip(sh[0], sh[1]) {
				flips++
			}
		}
		if flips == 0 || flips == len(crossShapes) {
			t.Errorf("%s (%d×%d tile): %d of %d shapes transposed, want some and not all", path, e.mk.mr, e.mk.nr, flips, len(crossShapes))
		}
	}
}

func TestCrossIntoErrors(t *testing.T) {
	A := []float32{1, 2, 3, 4, 5, 6}
	B := []float32{1, 0, 0, 1}
	nan := []float32{1, float32(math.NaN())}
	cases := []struct {
		name string
		dst  []float32
		A, B []float32
		d    int
		k    Kernel
		opts *Options
		want error
	}{
		{"dst short", make([]float32, 5), A, B, 2, Linear{}, nil, ErrShape},
		{"dst long", make([]float32, 7), A, B, 2, Linear{}, nil, ErrShape},
		{"ragged A", make([]float32, 6), A[:5], B, 2, Linear{}, nil, ErrShape},
		{"empty B", nil, A, nil, 2, Linear{}, nil, ErrEmpty},
		{"NaN in B", make([]float32, 3), A, nan, 2, Linear{}, nil, ErrNonFinite},
		{"NaN in A", make([]float32, 2), nan, B, 2, RBF{Gamma: 1}, nil, ErrNonFinite},
		{"bad kernel", make([]float32, 6), A, B, 2, RBF{}, nil, ErrInvalidKernel},
		{"budget", make([]float32, 6), A, B, 2, Linear{}, &Options{MaxBytes: 8}, ErrBudget},
		{"overflow", make([]float32, 3), A, []float32{1e30, 1e30}, 2, Linear{}, nil, ErrOverflow},
	}
	for _, tc := range cases {
		if err := CrossInto(tc.dst, tc.A, tc.B, tc.d, tc.k, tc.opts); !errors.Is(err, tc.want) {
			t.Errorf("%s: CrossInto: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	rows, err := NewRows(B, 2, Linear{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		dst, Q []float32
		want   error
	}{
		{"dst short", make([]float32, 5), A, ErrShape},
		{"ragged Q", make([]float32, 4), A[:3], ErrShape},
		{"empty Q", nil, nil, ErrEmpty},
		{"NaN", make([]float32, 2), nan, ErrNonFinite},
		{"overflow", make([]float32, 2), []float32{1e30, 1e30}, ErrOverflow},
	} {
		if err := rows.RowsOf(tc.dst, tc.Q); !errors.Is(err, tc.want) {
			t.Errorf("%s: RowsOf: err = %v, want %v", tc.name, err, tc.want)
		}
	}
}
