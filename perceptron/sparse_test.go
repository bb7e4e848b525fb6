package perceptron

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// sparsify zeroes about frac of the values of X (rows of d), keeping the
// labels, and returns the dense data and its CSR form.
func sparsify[T kernel.Float](t testing.TB, rng *rand.Rand, X []float64, d int, y []int, frac float64) ([]T, *dataset.CSR[T]) {
	t.Helper()
	Xt := make([]T, len(X))
	for i, v := range X {
		if rng.Float64() >= frac {
			Xt[i] = T(v)
		}
	}
	c, err := dataset.FromDense(&dataset.Data[T]{X: Xt, Y: y, Rows: len(y), Cols: d})
	if err != nil {
		t.Fatal(err)
	}
	return Xt, c
}

// fitCase is one training configuration of the sparse/dense parity tests.
type fitCase struct {
	name  string
	multi bool // trainMulti (else trainBinary)
	opt   Options
}

// fitCases are every algorithm with the samplings and strategies it takes.
func fitCases() []fitCase {
	var cs []fitCase
	add := func(name string, multi bool, o Options) {
		cs = append(cs, fitCase{name, multi, o})
	}
	for _, algo := range []linear.Algorithm{linear.Online, linear.Batch, linear.MiniBatch, linear.Averaged, linear.Voted, linear.SVM} {
		samplings := []Sampling{SampleSweep, SampleReplace}
		switch algo {
		case linear.Batch:
			samplings = []Sampling{SampleSweep}
		case linear.MiniBatch:
			samplings = append(samplings, SampleSubsets)
		}
		for _, smp := range samplings {
			for _, multi := range []bool{false, true} {
				base := Options{Algorithm: algo, MaxIter: 4, Sampling: smp, Shuffle: true, Seed: 3, BatchSize: 8, Stop: StopNever}
				add(fmt.Sprintf("%v/%v/multi=%v", algo, smp, multi), multi, base)
				nb := base
				nb.NoBias = true
				nb.Workers = 3
				add(fmt.Sprintf("%v/%v/multi=%v/nobias/workers=3", algo, smp, multi), multi, nb)
				if algo != linear.SVM {
					w0 := base
					w0.Shuffle, w0.Sampling = false, SampleDefault
					w0.Eta = 0.5
					add(fmt.Sprintf("%v/multi=%v/eta", algo, multi), multi, w0)
				}
			}
		}
	}
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged} {
		for _, smp := range []Sampling{SampleSweep, SampleReplace} {
			add(fmt.Sprintf("argmax/%v/%v", algo, smp), true, Options{Algorithm: algo, Multiclass: fit.Argmax, MaxIter: 4, Sampling: smp, Shuffle: true, Seed: 5})
		}
	}
	return cs
}

// fit trains on X (dense) or c (sparse) as fc says.
func (fc fitCase) fit(t *testing.T, sparse bool, X []float64, c *dataset.CSR[float64], d int, y []int) (*linear.Model[float64], *Diagnostics, error) {
	t.Helper()
	switch {
	case sparse && fc.multi:
		return trainMultiSparse(c, y, fc.opt)
	case sparse:
		return trainBinarySparse(c, y, fc.opt)
	case fc.multi:
		return trainMulti(X, d, y, fc.opt)
	}
	return trainBinary(X, d, y, fc.opt)
}

// TestSparseMatchesDense trains every algorithm, strategy and sampling on
// integer-valued data with most values zero, dense and as CSR: the models
// and the diagnostics are the same, bit for bit (every sum is an exact
// integer or dyadic, whatever its order), except the SVM's, whose steps
// 1/(λt) are not dyadic: its weights agree up to rounding.
func TestSparseMatchesDense(t *testing.T) {
	rng := newRand(41)
	const d = 40
	Xb, yb, _, _ := separable(rng, 300, d, 3, 1, true)
	Xm, ym := intMulticlass(rng, 300, d, 5)
	Xb, cb := sparsify[float64](t, rng, Xb, d, yb, 0.6)
	Xm, cm := sparsify[float64](t, rng, Xm, d, ym, 0.6)
	for _, fc := range fitCases() {
		t.Run(fc.name, func(t *testing.T) {
			X, c, y := Xb, cb, yb
			if fc.multi {
				X, c, y = Xm, cm, ym
			}
			dm, dd, derr := fc.fit(t, false, X, c, d, y)
			sm, sd, serr := fc.fit(t, true, X, c, d, y)
			if derr != nil || serr != nil {
				t.Fatalf("dense: %v, sparse: %v", derr, serr)
			}
			if fc.opt.Algorithm == linear.SVM {
				for k := range dm.NumScores() {
					wd, bd := dm.Weights(k)
					ws, bs := sm.Weights(k)
					for j := range wd {
						if math.Abs(wd[j]-ws[j]) > 1e-9*(1+math.Abs(wd[j])) {
							t.Fatalf("score %d weight %d: dense %v, sparse %v", k, j, wd[j], ws[j])
						}
					}
					if math.Abs(bd-bs) > 1e-9*(1+math.Abs(bd)) {
						t.Fatalf("score %d bias: dense %v, sparse %v", k, bd, bs)
					}
				}
				return
			}
			if !sameModel(t, dm, sm) {
				t.Fatal("the sparse fit's model differs from the dense fit's")
			}
			// The epochs are the same. So is the final pass over the data,
			// except for Averaged, whose weights w − u/c are not integers
			// (the pass's sums are ordered differently): up to rounding.
			exact := fc.opt.Algorithm != linear.Averaged
			if !sameDiagnostics(dd, sd, exact) {
				t.Fatalf("diagnostics differ:\ndense  %+v\nsparse %+v", *dd, *sd)
			}
			// The sparse model scores sparse samples as the dense model
			// scores dense ones.
			sc, scs := make([]float64, dm.NumScores()), make([]float64, dm.NumScores())
			for i := range c.Rows {
				x := X[i*d : (i+1)*d]
				if err := dm.Scores(sc, x); err != nil {
					t.Fatal(err)
				}
				if err := sm.ScoresSparse(scs, c.Row(i)); err != nil {
					t.Fatal(err)
				}
				for k := range sc {
					if !nearly(sc[k], scs[k], exact) {
						t.Fatalf("row %d: dense scores %v, sparse %v", i, sc, scs)
					}
				}
			}
		})
	}
}

// nearly reports whether a and b are equal, or if not exact, equal up to
// rounding.
func nearly(a, b float64, exact bool) bool {
	if exact {
		return a == b || math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12*(1+math.Abs(a)) || math.IsInf(a, 0) && a == b
}

// sameDiagnostics compares two fits' diagnostics: the epochs exactly, the
// final pass's quantities exactly or up to rounding.
func sameDiagnostics(a, b *Diagnostics, exact bool) bool {
	if !reflect.DeepEqual(a.Epochs, b.Epochs) || a.Converged != b.Converged || a.Updates != b.Updates ||
		a.Evaluated != b.Evaluated || a.Separable != b.Separable || len(a.Classes) != len(b.Classes) {
		return false
	}
	for _, p := range [][2]float64{{a.TrainAccuracy, b.TrainAccuracy}, {a.TrainLoss, b.TrainLoss}, {a.Margin, b.Margin},
		{a.Radius, b.Radius}, {a.Bound, b.Bound}, {a.MarginAugmented, b.MarginAugmented},
		{a.RadiusAugmented, b.RadiusAugmented}, {a.BoundAugmented, b.BoundAugmented}} {
		if !nearly(p[0], p[1], exact) {
			return false
		}
	}
	for c := range a.Classes {
		if !sameDiagnostics(&a.Classes[c], &b.Classes[c], exact) {
			return false
		}
	}
	return true
}

// TestSparseMatchesDenseFloat32 repeats the parity for float32 with one
// case per algorithm, on every kernel implementation.
func TestSparseMatchesDenseFloat32(t *testing.T) {
	rng := newRand(43)
	const d = 33
	// 4 classes on 2 goroutines: blocks of 2; 7 on one: a block of 7,
	// whose scores read 8 lanes.
	for _, kw := range [][2]int{{4, 2}, {7, 1}} {
		Xm, ym := intMulticlass(rng, 200, d, kw[0])
		X, c := sparsify[float32](t, rng, Xm, d, ym, 0.7)
		parityFloat32(t, X, c, d, ym, kw[1])
	}
}

func parityFloat32(t *testing.T, X []float32, c *dataset.CSR[float32], d int, ym []int, workers int) {
	t.Helper()
	for _, im := range availableImpls() {
		for _, algo := range []linear.Algorithm{linear.Online, linear.Batch, linear.MiniBatch, linear.Averaged, linear.Voted} {
			for _, strat := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
				if strat == fit.Argmax && algo != linear.Online && algo != linear.Averaged {
					continue
				}
				o := Options{Algorithm: algo, Multiclass: strat, MaxIter: 3, Shuffle: true, Seed: 9, impl: im, Workers: workers}
				dm, _, err := trainMulti(X, d, ym, o)
				if err != nil {
					t.Fatal(err)
				}
				sm, _, err := trainMultiSparse(c, ym, o)
				if err != nil {
					t.Fatal(err)
				}
				if !sameModel(t, dm, sm) {
					t.Fatalf("%s %v %v workers=%d: the sparse fit's model differs from the dense fit's", im, algo, strat, workers)
				}
			}
		}
	}
}

func TestSparseErrors(t *testing.T) {
	ok := func() *dataset.CSR[float64] {
		return &dataset.CSR[float64]{Ptr: []int{0, 2, 3}, Idx: []int32{0, 2, 1}, Val: []float64{1, 2, 3}, Y: []int{1, -1}, Rows: 2, Cols: 3}
	}
	tests := []struct {
		name   string
		change func(c *dataset.CSR[float64], y *[]int)
		kind   error
	}{
		{"nil", nil, ErrEmpty},
		{"no rows", func(c *dataset.CSR[float64], y *[]int) { *c = dataset.CSR[float64]{Ptr: []int{0}, Cols: 3}; *y = nil }, ErrEmpty},
		{"no columns", func(c *dataset.CSR[float64], y *[]int) { c.Cols = 0 }, linear.ErrDims},
		{"labels", func(c *dataset.CSR[float64], y *[]int) { *y = (*y)[:1] }, linear.ErrDims},
		{"short Ptr", func(c *dataset.CSR[float64], y *[]int) { c.Ptr = c.Ptr[:2] }, linear.ErrDims},
		{"Ptr end", func(c *dataset.CSR[float64], y *[]int) { c.Ptr[2] = 2 }, linear.ErrDims},
		{"Ptr decreasing", func(c *dataset.CSR[float64], y *[]int) { c.Ptr[1] = 4 }, linear.ErrDims},
		{"Idx and Val", func(c *dataset.CSR[float64], y *[]int) { c.Val = c.Val[:2] }, linear.ErrDims},
		{"index at Cols", func(c *dataset.CSR[float64], y *[]int) { c.Idx[2] = 3 }, linear.ErrDims},
		{"negative index", func(c *dataset.CSR[float64], y *[]int) { c.Idx[2] = -1 }, linear.ErrDims},
		{"index not increasing", func(c *dataset.CSR[float64], y *[]int) { c.Idx[1] = 0 }, linear.ErrDims},
		{"NaN", func(c *dataset.CSR[float64], y *[]int) { c.Val[1] = math.NaN() }, linear.ErrNonFinite},
		{"bad label", func(c *dataset.CSR[float64], y *[]int) { (*y)[0] = 2 }, linear.ErrLabels},
		{"one class", func(c *dataset.CSR[float64], y *[]int) { (*y)[1] = 1 }, ErrOneClass},
	}
	for _, tt := range tests {
		c, y := ok(), []int{1, -1}
		if tt.change == nil {
			c = nil
		} else {
			tt.change(c, &y)
		}
		if _, _, err := trainBinarySparse(c, y, Options{}); !errors.Is(err, tt.kind) {
			t.Errorf("%s: trainBinarySparse: %v, want %v", tt.name, err, tt.kind)
		}
		if tt.name == "bad label" {
			continue // any integer labels are fine for trainMultiSparse
		}
		if _, _, err := trainMultiSparse(c, y, Options{}); !errors.Is(err, tt.kind) {
			t.Errorf("%s: trainMultiSparse: %v, want %v", tt.name, err, tt.kind)
		}
	}
	if _, _, err := trainMultiSparse(ok(), []int{1, 2}, Options{Algorithm: linear.Voted, Multiclass: fit.Argmax}); !errors.Is(err, ErrOption) {
		t.Errorf("fit.Argmax with Voted: %v", err)
	}
}

// TestSparseSampleErrors: the linear Model's PredictSparse and ScoresSparse
// check a sample as KernelModel's and the svm package's do, for every kind
// of model: unsorted or repeated indices (which the dot product would
// accept), an index outside [0, Dims()) and mismatched lengths are ErrDims,
// a NaN or Inf value ErrNonFinite; never a panic.
func TestSparseSampleErrors(t *testing.T) {
	rng := newRand(67)
	c := textLike[float32](rng, 120, 16, 4, 3)
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	samples := []struct {
		name string
		x    dataset.SparseRow[float32]
		want error
	}{
		{"unsorted", dataset.SparseRow[float32]{Idx: []int32{5, 2}, Val: []float32{1, 1}}, linear.ErrDims},
		{"repeated", dataset.SparseRow[float32]{Idx: []int32{2, 2}, Val: []float32{1, 1}}, linear.ErrDims},
		{"repeated after others", dataset.SparseRow[float32]{Idx: []int32{0, 3, 7, 7}, Val: []float32{1, 1, 1, 1}}, linear.ErrDims},
		{"at Dims", dataset.SparseRow[float32]{Idx: []int32{1, 16}, Val: []float32{1, 1}}, linear.ErrDims},
		{"negative", dataset.SparseRow[float32]{Idx: []int32{-3}, Val: []float32{1}}, linear.ErrDims},
		{"fewer values", dataset.SparseRow[float32]{Idx: []int32{5}}, linear.ErrDims},
		{"fewer indices", dataset.SparseRow[float32]{Val: []float32{1}}, linear.ErrDims},
		{"NaN", dataset.SparseRow[float32]{Idx: []int32{1, 5}, Val: []float32{1, nan}}, linear.ErrNonFinite},
		{"Inf", dataset.SparseRow[float32]{Idx: []int32{5}, Val: []float32{-inf}}, linear.ErrNonFinite},
	}
	for _, tc := range sparseKinds {
		m := trainSparseKind(t, c, tc.multi, tc.o)
		dst := make([]float32, m.NumScores())
		for _, s := range samples {
			if _, err := m.PredictSparse(s.x); !errors.Is(err, s.want) {
				t.Errorf("%s: %s: PredictSparse: %v, want %v", tc.name, s.name, err, s.want)
			}
			if err := m.ScoresSparse(dst, s.x); !errors.Is(err, s.want) {
				t.Errorf("%s: %s: ScoresSparse: %v, want %v", tc.name, s.name, err, s.want)
			}
		}
		if _, err := m.PredictSparse(c.Row(3)); err != nil {
			t.Errorf("%s: a valid row: %v", tc.name, err)
		}
	}
}

// TestContinueSparse: continuing a model on CSR rows gives the model
// continuing it on the dense rows gives, for every algorithm that resumes
// its state (integer data: bit for bit), and a CSR of another width is
// ErrDims.
func TestContinueSparse(t *testing.T) {
	rng := newRand(59)
	const d = 24
	Xm, ym := intMulticlass(rng, 150, d, 3)
	X, c := sparsify[float64](t, rng, Xm, d, ym, 0.6)
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted, linear.MiniBatch} {
		for _, strat := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
			if strat == fit.Argmax && algo != linear.Online && algo != linear.Averaged {
				continue
			}
			o := Options{Algorithm: algo, Multiclass: strat, MaxIter: 1, Stop: StopNever, Shuffle: true, Seed: 4}
			m, _, err := trainMulti(X, d, ym, o)
			if err != nil {
				t.Fatal(err)
			}
			dm, _, err := continueDense(m, X, d, ym, o)
			if err != nil {
				t.Fatal(err)
			}
			sm, _, err := continueSparse(m, c, ym, o)
			if err != nil {
				t.Fatal(err)
			}
			if !sameModel(t, dm, sm) {
				t.Errorf("%v %v: continueSparse's model differs from continueDense's", algo, strat)
			}
		}
	}
	m, _, err := trainMulti(X, d, ym, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wide := *c
	wide.Cols = d + 1
	if _, _, err := continueSparse(m, &wide, ym, Options{}); !errors.Is(err, linear.ErrDims) {
		t.Errorf("a wider CSR: %v, want ErrDims", err)
	}
}

// TestSqvShort checks the short rows' norm against a float64 sum, within
// the bound γₙ·Σ v² of a float32 sum of n terms, at every length around
// its unrolling and its switch to the kernel's Dot.
func TestSqvShort(t *testing.T) {
	rng := newRand(11)
	k := linmodel.KernelsFor[float32](nil)
	for _, n := range []int{0, 1, 3, 4, 5, 8, 19, 63, 64, 65, 200} {
		v := make([]float32, n)
		var want float64
		for i := range v {
			v[i] = float32(rng.NormFloat64())
			want += float64(v[i]) * float64(v[i])
		}
		got := float64(sqvShort(k, vec[float32]{val: v}))
		gamma := float64(n) * 0x1p-24 / (1 - float64(n)*0x1p-24)
		if d := math.Abs(got - want); d > gamma*want+1e-30 {
			t.Errorf("n=%d: %v, want %v (error %g above %g)", n, got, want, d, gamma*want)
		}
	}
}
