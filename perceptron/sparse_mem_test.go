package perceptron

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
)

// textLike returns a CSR matrix shaped like hashed text: n rows of nnz
// stored values (integers 1..3) in d columns, the columns of class y
// drawn mostly from its own stripe, so that the classes are learnable.
func textLike[T kernel.Float](rng *rand.Rand, n, d, nnz, K int) *dataset.CSR[T] {
	c := &dataset.CSR[T]{Ptr: make([]int, 1, n+1), Rows: n, Cols: d}
	seen := make(map[int32]bool, nnz)
	for i := range n {
		y := i % K
		clear(seen)
		var row []int32
		for len(row) < nnz {
			j := int32(rng.IntN(d))
			if rng.IntN(2) == 0 {
				j = int32(y*(d/K) + rng.IntN(d/K))
			}
			if !seen[j] {
				seen[j] = true
				row = append(row, j)
			}
		}
		for a := 1; a < len(row); a++ { // insertion sort: rows are short
			for b := a; b > 0 && row[b] < row[b-1]; b-- {
				row[b], row[b-1] = row[b-1], row[b]
			}
		}
		for _, j := range row {
			c.Idx = append(c.Idx, j)
			c.Val = append(c.Val, T(1+rng.IntN(3)))
		}
		c.Ptr = append(c.Ptr, len(c.Idx))
		c.Y = append(c.Y, y)
	}
	return c
}

// TestSparseFitMemory holds a sparse fit to the memory its input and its
// model justify: everything trainMultiSparse allocates (freed or not)
// stays within 2 × (the CSR matrix's bytes + the model's weights), the
// model's weights being the K×D values a class's score reads (and for
// Averaged, the running weights and averaging sums the model keeps to
// continue, 3·K·D; for Voted, the kept vectors, which the model assembles
// from the trainer's chunk lists). A trainer that allocated D values per sample, or kept
// a dense copy of the data, would exceed it by orders of magnitude.
func TestSparseFitMemory(t *testing.T) {
	rng := newRand(47)
	const n, d, nnz, K = 3000, 1 << 16, 12, 6
	big := textLike[float32](rng, n, d, nnz, K)
	// Voted keeps a vector of D values per mistake: a smaller problem.
	small := textLike[float32](rng, 100, 1<<12, nnz, K)
	var z float32
	for _, algo := range []linear.Algorithm{linear.Online, linear.Batch, linear.MiniBatch, linear.Averaged, linear.Voted, linear.SVM} {
		for _, strat := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
			if strat == fit.Argmax && algo != linear.Online && algo != linear.Averaged {
				continue
			}
			t.Run(fmt.Sprintf("%v/%v", algo, strat), func(t *testing.T) {
				c := big
				if algo == linear.Voted {
					c = small
				}
				o := Options{Algorithm: algo, Multiclass: strat, MaxIter: 3, Shuffle: true, Seed: 1, Stop: StopNever, BatchSize: 64}
				var m *linear.Model[float32]
				var err error
				got := memtest.Allocated(func() { m, _, err = trainMultiSparse(c, c.Y, o) })
				if err != nil {
					t.Fatal(err)
				}
				vectors := int64(K)
				switch algo {
				case linear.Averaged:
					vectors = 3 * K
				case linear.Voted:
					vectors = 0
					for k := range m.NumScores() {
						_, _, counts := m.Voted(k)
						vectors += int64(len(counts))
					}
				}
				weights := vectors * int64(c.Cols) * int64(unsafe.Sizeof(z))
				limit := 2 * (c.Bytes() + weights)
				if algo == linear.Voted {
					// Plus the kept vectors' chunk lists' unused capacity:
					// at most chunkMaxBytes per class (see chunkList).
					limit += K * chunkMaxBytes
				}
				t.Logf("allocated %d bytes; CSR %d, weights %d, limit %d", got, c.Bytes(), weights, limit)
				if int64(got) > limit {
					t.Fatalf("allocated %d bytes, more than 2 × (CSR %d + weights %d) = %d", got, c.Bytes(), weights, limit)
				}
			})
		}
	}
}

// sparseKinds are the kinds of linear model the sparse prediction tests
// train: binary (plain, averaged and scaled, voted) and multiclass.
var sparseKinds = []struct {
	name  string
	multi bool
	o     Options
}{
	{"binary", false, Options{}},
	{"binary/averaged/scaled", false, Options{Algorithm: linear.Averaged, Normalize: true}},
	{"binary/voted", false, Options{Algorithm: linear.Voted, MaxIter: 2}},
	{"ovr", true, Options{}},
	{"ovr/features", true, Options{NormalizeFeatures: true}},
	{"argmax", true, Options{Multiclass: fit.Argmax, Algorithm: linear.Averaged}},
}

// trainSparseKind fits a model to c with options o: multiclass on c.Y, or
// binary on c.Y's parity as −1/+1.
func trainSparseKind[T kernel.Float](t testing.TB, c *dataset.CSR[T], multi bool, o Options) *linear.Model[T] {
	t.Helper()
	var m *linear.Model[T]
	var err error
	if multi {
		m, _, err = trainMultiSparse(c, c.Y, o)
	} else {
		yb := make([]int, c.Rows)
		for i, y := range c.Y {
			yb[i] = 2*(y%2) - 1
		}
		m, _, err = trainBinarySparse(c, yb, o)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSparsePredictAllocs: PredictSparse and ScoresSparse allocate nothing,
// for every kind of model.
func TestSparsePredictAllocs(t *testing.T) {
	rng := newRand(53)
	c := textLike[float64](rng, 200, 1<<12, 12, 4)
	for _, tc := range sparseKinds {
		t.Run(tc.name, func(t *testing.T) {
			m := trainSparseKind(t, c, tc.multi, tc.o)
			x := c.Row(7)
			dst := make([]float64, m.NumScores())
			if a := testing.AllocsPerRun(100, func() {
				if _, err := m.PredictSparse(x); err != nil {
					t.Fatal(err)
				}
			}); a != 0 {
				t.Errorf("PredictSparse: %v allocations per call", a)
			}
			if a := testing.AllocsPerRun(100, func() {
				if err := m.ScoresSparse(dst, x); err != nil {
					t.Fatal(err)
				}
			}); a != 0 {
				t.Errorf("ScoresSparse: %v allocations per call", a)
			}
		})
	}
}
