package perceptron

import (
	"errors"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

func TestPredictErrors(t *testing.T) {
	var zero linear.Model[float32]
	if _, err := zero.Predict([]float32{1}); !errors.Is(err, linear.ErrUntrained) {
		t.Fatalf("zero model: %v", err)
	}
	if _, err := zero.Update([]float32{1}, 1); !errors.Is(err, linear.ErrUntrained) {
		t.Fatalf("zero model Update: %v", err)
	}
	if _, err := zero.MarshalBinary(); !errors.Is(err, linear.ErrUntrained) {
		t.Fatalf("zero model MarshalBinary: %v", err)
	}
	X, y, _, _ := separable(newRand(1), 50, 3, 3, 1, true)
	m, _, err := trainBinary(to32(X), 3, y, Options{})
	if err != nil {
		t.Fatal(err)
	}
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		x    []float32
		want error
	}{
		{[]float32{1, 2}, linear.ErrDims},
		{[]float32{1, 2, 3, 4}, linear.ErrDims},
		{[]float32{1, nan, 3}, linear.ErrNonFinite},
		{[]float32{inf, 0, 3}, linear.ErrNonFinite},
	} {
		if _, err := m.Predict(tc.x); !errors.Is(err, tc.want) {
			t.Fatalf("Predict(%v): %v, want %v", tc.x, err, tc.want)
		}
		if err := m.Scores(make([]float32, 1), tc.x); !errors.Is(err, tc.want) {
			t.Fatalf("Scores(%v): %v, want %v", tc.x, err, tc.want)
		}
		if _, err := m.Update(tc.x, 1); !errors.Is(err, tc.want) {
			t.Fatalf("Update(%v): %v, want %v", tc.x, err, tc.want)
		}
	}
	if err := m.Scores(make([]float32, 2), []float32{1, 2, 3}); !errors.Is(err, linear.ErrDims) {
		t.Fatalf("Scores with a long dst: %v", err)
	}
	if _, err := m.Update([]float32{1, 2, 3}, 0); !errors.Is(err, linear.ErrLabels) {
		t.Fatalf("Update with label 0: %v", err)
	}
	if err := m.PredictBatch(make([]int, 2), make([]float32, 5)); !errors.Is(err, linear.ErrDims) {
		t.Fatalf("PredictBatch: %v", err)
	}
	if err := m.PredictBatch(make([]int, 2), []float32{1, 2, 3, 4, nan, 6}); !errors.Is(err, linear.ErrNonFinite) {
		t.Fatalf("PredictBatch NaN: %v", err)
	}
}

// Predict, Scores, PredictBatch and ScoresBatch agree with each other and
// with the weights, for every kind.
func TestPredictConsistency(t *testing.T) {
	d := loadSet[float32](t, "digits.train.libsvm", 64)
	test := loadSet[float32](t, "digits.test.libsvm", 64)
	Xb, yb, _, _ := separable(newRand(2), 300, 8, 3, 0.5, true)
	type mk struct {
		name string
		fit  func() (*linear.Model[float32], error)
		X    []float32
		n    int
	}
	trainer := func(f func() (*linear.Model[float32], *Diagnostics, error)) func() (*linear.Model[float32], error) {
		return func() (*linear.Model[float32], error) { m, _, err := f(); return m, err }
	}
	cases := []mk{
		{"binary", trainer(func() (*linear.Model[float32], *Diagnostics, error) {
			return trainBinary(to32(Xb), 8, yb, Options{MaxIter: 5})
		}), to32(Xb), 300},
		{"binary-norm", trainer(func() (*linear.Model[float32], *Diagnostics, error) {
			return trainBinary(to32(Xb), 8, yb, Options{MaxIter: 5, Normalize: true})
		}), to32(Xb), 300},
		{"voted", trainer(func() (*linear.Model[float32], *Diagnostics, error) {
			return trainBinary(to32(Xb), 8, yb, Options{MaxIter: 3, Algorithm: linear.Voted})
		}), to32(Xb), 300},
		{"ovr", trainer(func() (*linear.Model[float32], *Diagnostics, error) {
			return trainMulti(d.X, 64, d.Y, Options{MaxIter: 3, Algorithm: linear.Averaged})
		}), test.X, test.Rows},
		{"ovr-voted", trainer(func() (*linear.Model[float32], *Diagnostics, error) {
			return trainMulti(d.X, 64, d.Y, Options{MaxIter: 2, Algorithm: linear.Voted})
		}), test.X, test.Rows},
		{"argmax", trainer(func() (*linear.Model[float32], *Diagnostics, error) {
			return trainMulti(d.X, 64, d.Y, Options{MaxIter: 3, Multiclass: fit.Argmax})
		}), test.X, test.Rows},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.fit()
			if err != nil {
				t.Fatal(err)
			}
			D, r := m.Dims(), m.NumScores()
			batch := make([]int, tc.n)
			if err := m.PredictBatch(batch, tc.X); err != nil {
				t.Fatal(err)
			}
			sb := make([]float32, tc.n*r)
			if err := m.ScoresBatch(sb, tc.X); err != nil {
				t.Fatal(err)
			}
			sc := make([]float32, r)
			for i := range tc.n {
				x := tc.X[i*D : (i+1)*D]
				p, err := m.Predict(x)
				if err != nil {
					t.Fatal(err)
				}
				if err := m.Scores(sc, x); err != nil {
					t.Fatal(err)
				}
				if p != batch[i] {
					t.Fatalf("row %d: Predict %d, PredictBatch %d", i, p, batch[i])
				}
				// fit.Argmax of the scores (or their sign) is the prediction.
				want := -1
				if r == 1 {
					if sc[0] > 0 {
						want = 1
					}
				} else {
					want = m.Classes()[slices.Index(sc, slices.Max(sc))]
				}
				if p != want {
					t.Fatalf("row %d: Predict %d, scores %v say %d", i, p, sc, want)
				}
				for k := range r {
					a, b := float64(sc[k]), float64(sb[i*r+k])
					// MatVec and Dot may sum in different orders.
					if math.Abs(a-b) > 1e-4*(1+math.Abs(a)) {
						t.Fatalf("row %d score %d: Scores %v, ScoresBatch %v", i, k, a, b)
					}
				}
				if m.Algorithm() != linear.Voted && !m.Normalized() {
					// Scores are w·x + b.
					for k := range r {
						w, b := m.Weights(k)
						ref := float64(b)
						for j := range w {
							ref += float64(w[j]) * float64(x[j])
						}
						if math.Abs(ref-float64(sc[k])) > 1e-4*(1+math.Abs(ref)) {
							t.Fatalf("score %d = %v, w·x+b = %v", k, sc[k], ref)
						}
					}
				}
			}
		})
	}
}

func TestPredictAllocatesNothing(t *testing.T) {
	d := loadSet[float32](t, "digits.train.libsvm", 64)
	ovr, _, err := trainMulti(d.X, 64, d.Y, Options{MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	yb := make([]int, d.Rows)
	for i, l := range d.Y {
		yb[i] = -1
		if l < 5 {
			yb[i] = 1
		}
	}
	bin, _, err := trainBinary(d.X, 64, yb, Options{MaxIter: 2, Normalize: true})
	if err != nil {
		t.Fatal(err)
	}
	x := d.X[:64]
	sc := make([]float32, 10)
	for name, f := range map[string]func(){
		"binary":     func() { _, _ = bin.Predict(x) },
		"ovr":        func() { _, _ = ovr.Predict(x) },
		"ovr-scores": func() { _ = ovr.Scores(sc, x) },
	} {
		if n := testing.AllocsPerRun(200, f); n != 0 {
			t.Fatalf("%s: %v allocations per call", name, n)
		}
	}
}

func TestUpdate(t *testing.T) {
	// Update on a fresh-ish model follows the online rule exactly.
	X, y, _, _ := separable(newRand(3), 40, 4, 3, 1, true)
	m, _, err := trainBinary(X, 4, y, Options{MaxIter: 1, Eta: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	w, b := modelW(t, m, 0)
	for i := range y {
		x := X[i*4 : (i+1)*4]
		mistake := float64(y[i])*(dot(x, w)+b) <= 0
		changed, err := m.Update(x, y[i])
		if err != nil || changed != mistake {
			t.Fatalf("Update row %d: changed %v err %v, want %v", i, changed, err, mistake)
		}
		if mistake {
			for j := range w {
				w[j] += 0.5 * float64(y[i]) * x[j]
			}
			b += 0.5 * float64(y[i])
		}
		gw, gb := modelW(t, m, 0)
		equalExact(t, "weights after Update", append(gw, gb), append(slices.Clone(w), b))
	}
	// Multiclass: argmax and one-vs-rest update and learn.
	Xm, ym := intMulticlass(newRand(4), 400, 5, 3)
	for _, s := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
		mm, _, err := trainMulti(Xm[:5*30], 5, ym[:30], Options{Multiclass: s, MaxIter: 1})
		if err != nil {
			t.Fatal(err)
		}
		before, _ := mm.Accuracy(Xm, ym)
		for range 5 {
			for i := range ym {
				if _, err := mm.Update(Xm[i*5:(i+1)*5], ym[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		after, _ := mm.Accuracy(Xm, ym)
		if after <= before || after < 0.8 {
			t.Fatalf("%v: accuracy %v before updates, %v after", s, before, after)
		}
		if _, err := mm.Update(Xm[:5], 12345); !errors.Is(err, linear.ErrLabels) {
			t.Fatalf("%v: unknown label: %v", s, err)
		}
	}
}

// Update while other goroutines predict: run with -race. Readers must see
// whole snapshots: the model's two weights are always equal here, because
// every update adds the same amount to both.
func TestConcurrentUpdate(t *testing.T) {
	m, _, err := trainBinary([]float32{1, 1, -1, -1}, 2, []int{1, -1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			sc := make([]float32, 1)
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, x := range [][]float32{{1, 1}, {-1, -1}, {0.5, 0.5}} {
					if _, err := m.Predict(x); err != nil {
						t.Error(err)
						return
					}
					if err := m.Scores(sc, x); err != nil {
						t.Error(err)
						return
					}
				}
				w, _ := m.Weights(0)
				if w[0] != w[1] {
					t.Errorf("torn snapshot: %v", w)
					return
				}
				if _, err := m.MarshalBinary(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	updates := 0
	for i := range 2000 {
		// Alternate labels on the same sample: every call is a mistake.
		x := []float32{1, 1}
		y := 1
		if i%2 == 1 {
			y = -1
		}
		changed, err := m.Update(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if changed {
			updates++
		}
	}
	close(stop)
	wg.Wait()
	if updates == 0 {
		t.Fatal("no update changed the model")
	}
}
