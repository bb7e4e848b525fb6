package gram

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// RowsOfEach hands every query's row exactly once, with RowsOf's values
// bit for bit (and so RowOf's), within the bound of the float64 reference,
// on every path, for block sizes that split the queries unevenly, and for
// more goroutines than blocks.
func testRowsOfEach[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, sh := range append(crossShapes, [3]int{700, 23, 19}) {
		na, nb, d := sh[0], sh[1], sh[2]
		A, B := randData[T](rng, na, d), randData[T](rng, nb, d)
		for _, k0 := range testKernels {
			k := kernelFor(k0, d)
			rm := refOf[T](k, statsOf(A, B, d))
			for _, path := range availablePaths() {
				for _, opts := range []*Options{{Impl: path}, smallBlocks(path)} {
					rows, err := NewRows(B, d, k, opts)
					if err != nil {
						t.Fatal(err)
					}
					want := make([]T, na*nb)
					if err := rows.RowsOf(want, A); err != nil {
						t.Fatal(err)
					}
					for _, threads := range []int{0, 1, 2, 5} {
						what := fmt.Sprintf("%s/%v/%v/kc=%d/threads=%d", path, sh, k, opts.kc, threads)
						got := make([]T, na*nb)
						seen := make([]int, na)
						var mu sync.Mutex
						err := rows.RowsOfEach(A, threads, func(lo, hi int, K []T) error {
							if lo < 0 || hi > na || lo >= hi || len(K) < (hi-lo)*nb {
								return fmt.Errorf("block [%d, %d) with %d values", lo, hi, len(K))
							}
							mu.Lock()
							defer mu.Unlock()
							for i := lo; i < hi; i++ {
								seen[i]++
							}
							copy(got[lo*nb:hi*nb], K)
							return nil
						})
						if err != nil {
							t.Fatalf("%s: %v", what, err)
						}
						for i, c := range seen {
							if c != 1 {
								t.Fatalf("%s: query %d handed %d times", what, i, c)
							}
						}
						for i, v := range got {
							if math.Float64bits(float64(v)) != math.Float64bits(float64(want[i])) {
								t.Fatalf("%s: RowsOfEach[%d][%d] = %v, RowsOf = %v", what, i/nb, i%nb, v, want[i])
							}
						}
						checkMatrix(t, what, &Matrix[T]{Rows: na, Cols: nb, Data: got}, rm)
					}
				}
			}
		}
	}
}

func TestRowsOfEach(t *testing.T) {
	t.Run("f32", testRowsOfEach[float32])
	t.Run("f64", testRowsOfEach[float64])
}

func TestRowsOfEachErrors(t *testing.T) {
	B := []float32{1, 0, 0, 1}
	rows, err := NewRows(B, 2, Linear{}, &Options{mc: 6})
	if err != nil {
		t.Fatal(err)
	}
	nop := func(lo, hi int, K []float32) error { return nil }
	many := make([]float32, 2*40)
	for i := range many {
		many[i] = float32(i % 7)
	}
	nanLate := append([]float32(nil), many...)
	nanLate[2*31+1] = float32(math.NaN())
	for _, tc := range []struct {
		name string
		Q    []float32
		want error
	}{
		{"ragged Q", []float32{1, 2, 3}, ErrShape},
		{"empty Q", nil, ErrEmpty},
		{"NaN", []float32{1, float32(math.NaN())}, ErrNonFinite},
		{"NaN in a later block", nanLate, ErrNonFinite},
		{"overflow", []float32{1e30, 1e30}, ErrOverflow},
	} {
		for _, threads := range []int{1, 3} {
			if err := rows.RowsOfEach(tc.Q, threads, nop); !errors.Is(err, tc.want) {
				t.Errorf("%s, %d goroutines: err = %v, want %v", tc.name, threads, err, tc.want)
			}
		}
	}
	// An error of f is returned as it is, the lowest failing block's. The
	// block sizes depend on the path (its micro-kernel's rows), so the
	// blocks are first listed, and every one from the second on fails.
	var mu sync.Mutex
	var starts []int
	if err := rows.RowsOfEach(many, 1, func(lo, hi int, K []float32) error {
		mu.Lock()
		defer mu.Unlock()
		starts = append(starts, lo)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(starts)
	if len(starts) < 3 {
		t.Fatalf("the queries made %d blocks; the test needs three or more", len(starts))
	}
	second := starts[1]
	errBlock := errors.New("block failed")
	for _, threads := range []int{1, 2, 4} {
		err := rows.RowsOfEach(many, threads, func(lo, hi int, K []float32) error {
			if lo >= second {
				return fmt.Errorf("rows %d…: %w", lo, errBlock)
			}
			return nil
		})
		if want := fmt.Sprintf("rows %d…: block failed", second); !errors.Is(err, errBlock) || err.Error() != want {
			t.Errorf("%d goroutines: err = %v, want block %d's", threads, err, second)
		}
	}
}
