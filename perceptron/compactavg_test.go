package perceptron

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestCompactAveraging checks the averaged model whose running weights and
// sums a sparse fit from zero weights keeps compact (compactAvg: the used
// columns only) against the same fit from explicit zero Init weights,
// which goes through the trainer's dense K×D W and U, on float32 data
// with non-integer values: the model files (binary and JSON) are the same
// bytes, continueDense gives the same model, and a run of Updates gives the same
// answers and the same model after each (one-vs-rest, the fit that keeps
// the blocks; with and without a bias), so a value in a wrong column or lane, a
// missing zero, or an Update changing the published arrays in place shows.
func TestCompactAveraging(t *testing.T) {
	rng := newRand(93)
	const K, d = 5, 1 << 11
	c := textLike[float32](rng, 300, d, 8, K)
	for k := range c.Val {
		c.Val[k] = float32(rng.Float64()*2 - 0.7)
	}
	for _, workers := range []int{1, 2} {
		for _, noBias := range []bool{false, true} {
			t.Run(fmt.Sprintf("workers=%d/nobias=%v", workers, noBias), func(t *testing.T) {
				o := Options{Algorithm: linear.Averaged, MaxIter: 3, Stop: StopNever, Shuffle: true, Seed: 4, NoBias: noBias, Workers: workers}
				y := c.Y
				compact, _, err := trainMultiSparse(c, y, o)
				if err != nil {
					t.Fatal(err)
				}
				s := snap(compact)
				if s.Avg == nil || s.CW != nil || s.U != nil {
					t.Fatal("the fit did not keep its averaging state compact: the test tests nothing")
				}
				oz := o
				oz.Init = Weights{W: make([]float64, K*d)}
				dense, _, err := trainMultiSparse(c, y, oz)
				if err != nil {
					t.Fatal(err)
				}
				if ds := snap(dense); ds.Avg != nil || len(ds.CW) != partsRows(s)*d {
					t.Fatal("the fit from InitialWeights is not dense")
				}
				assertSameFiles(t, compact, dense)

				oc := o
				oc.MaxIter = 2
				mc, _, err := continueSparse(compact, c, y, oc)
				if err != nil {
					t.Fatal(err)
				}
				md, _, err := continueSparse(dense, c, y, oc)
				if err != nil {
					t.Fatal(err)
				}
				assertSameFiles(t, mc, md)

				before := mustMarshal(t, compact)
				x := make([]float32, d)
				for i := range 40 {
					r := c.Row(i)
					clear(x)
					for k, j := range r.Idx {
						x[j] = r.Val[k]
					}
					yi := y[i]
					if i%4 == 0 { // a wrong label: a step, also on the first Update
						yi = y[slices.IndexFunc(y, func(v int) bool { return v != y[i] })]
					}
					a, err := compact.Update(x, yi)
					if err != nil {
						t.Fatal(err)
					}
					if i == 0 && !a {
						t.Fatal("the first Update took no step: the test tests less than it says")
					}
					b, err := dense.Update(x, yi)
					if err != nil {
						t.Fatal(err)
					}
					if a != b {
						t.Fatalf("update %d: applied %v on the compact model, %v on the dense one", i, a, b)
					}
					assertSameFiles(t, compact, dense)
				}
				if s.Avg == nil || s.CW != nil {
					t.Fatal("Update changed the published compact snapshot")
				}
				if ns := snap(compact); ns.Avg != nil {
					t.Fatal("the model after Update still holds a compact state")
				}
				// The first snapshot is unchanged by the Updates.
				if !bytes.Equal(mustMarshal(t, newModel(s)), before) {
					t.Fatal("Update changed the published compact snapshot's values")
				}
			})
		}
	}
}

// assertSameFiles fails unless a and b write the same binary and JSON
// model files.
func assertSameFiles(t *testing.T, a, b *linear.Model[float32]) {
	t.Helper()
	if !sameModel(t, a, b) {
		t.Fatal("the binary model files differ")
	}
	ja, err := a.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	jb, err := b.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ja, jb) {
		t.Fatal("the JSON model files differ")
	}
}
