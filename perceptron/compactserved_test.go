package perceptron

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/usedcols"
)

// compactPair trains the same averaged one-vs-rest fit twice on sparse
// data with non-integer values: from zero weights, which keeps the served
// weights compact (compactServed), and from explicit zero Init weights,
// which makes them dense. It fails the test if the first is not compact.
func compactPair(t *testing.T, c *dataset.CSR[float32], o Options) (compact, dense *linear.Model[float32]) {
	t.Helper()
	compact, _, err := trainMultiSparse(c, c.Y, o)
	if err != nil {
		t.Fatal(err)
	}
	if s := snap(compact); s.Served == nil || s.W != nil {
		t.Fatal("the fit did not keep its served weights compact: the test tests nothing")
	}
	oz := o
	oz.Init = Weights{W: make([]float64, compact.NumScores()*c.Cols)}
	dense, _, err = trainMultiSparse(c, c.Y, oz)
	if err != nil {
		t.Fatal(err)
	}
	if s := snap(dense); s.Served != nil || s.W == nil {
		t.Fatal("the fit from InitialWeights is not dense")
	}
	return compact, dense
}

// TestCompactServed checks a model whose served weights are compact
// against the same model dense: every sparse method gives the same bits
// (single samples and batches, samples with columns the training data
// never used, samples past the stack buffer of compactIdx), Weights
// gives the same rows without forming the dense weights, and after a dense
// method has formed them (once) the model is dense and answers the same.
func TestCompactServed(t *testing.T) {
	rng := newRand(17)
	const K, d = 4, 1 << 12
	c := textLike[float32](rng, 240, d/2, 9, K) // columns d/2.. never used
	c.Cols = d
	for k := range c.Val {
		c.Val[k] = float32(rng.Float64()*2 - 0.6)
	}
	test := textLike[float32](rng, 60, d, 9, K) // about half the columns unused in training
	long := &dataset.CSR[float32]{Rows: 1, Cols: d, Ptr: []int{0, 300}, Y: []int{0}}
	for j := range 300 {
		long.Idx = append(long.Idx, int32(j*13))
		long.Val = append(long.Val, float32(j%7)-2.5)
	}
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"nobias", Options{NoBias: true}},
		{"bias", Options{}},
		{"normalizefeatures", Options{NormalizeFeatures: true}},
		{"workers2", Options{Workers: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Algorithm, o.MaxIter, o.Stop, o.Shuffle, o.Seed = linear.Averaged, 3, StopNever, true, 5
			compact, dense := compactPair(t, c, o)
			same := func(stage string) {
				t.Helper()
				for _, X := range []*dataset.CSR[float32]{test, long, c} {
					r := compact.NumScores()
					got, want := make([]float32, X.Rows*r), make([]float32, X.Rows*r)
					if err := compact.ScoresBatchSparse(got, X); err != nil {
						t.Fatal(err)
					}
					if err := dense.ScoresBatchSparse(want, X); err != nil {
						t.Fatal(err)
					}
					if !sameBits(got, want) {
						t.Fatalf("%s: ScoresBatchSparse differs from the dense model's", stage)
					}
					for i := range X.Rows {
						g, w := make([]float32, r), make([]float32, r)
						if err := compact.ScoresSparse(g, X.Row(i)); err != nil {
							t.Fatal(err)
						}
						if err := dense.ScoresSparse(w, X.Row(i)); err != nil {
							t.Fatal(err)
						}
						if !sameBits(g, w) {
							t.Fatalf("%s: row %d: ScoresSparse %v, the dense model's %v", stage, i, g, w)
						}
						pg, err1 := compact.PredictSparse(X.Row(i))
						pw, err2 := dense.PredictSparse(X.Row(i))
						if err1 != nil || err2 != nil || pg != pw {
							t.Fatalf("%s: row %d: PredictSparse %d (%v), the dense model's %d (%v)", stage, i, pg, err1, pw, err2)
						}
					}
					pg, pw := make([]int, X.Rows), make([]int, X.Rows)
					if err := compact.PredictBatchSparse(pg, X); err != nil {
						t.Fatal(err)
					}
					if err := dense.PredictBatchSparse(pw, X); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(pg, pw) {
						t.Fatalf("%s: PredictBatchSparse differs", stage)
					}
				}
			}
			same("compact")
			for k := range compact.NumScores() {
				gw, gb := compact.Weights(k)
				ww, wb := dense.Weights(k)
				if !sameBits(gw, ww) || gb != wb {
					t.Fatalf("Weights(%d) differs from the dense model's", k)
				}
			}
			if s := snap(compact); s.Served == nil || s.W != nil {
				t.Fatal("Weights formed the dense weights")
			}
			// The model file is written from the compact weights: the
			// dense model's file, and the model stays compact.
			if got, want := mustMarshal(t, compact), mustMarshal(t, dense); string(got) != string(want) {
				t.Fatal("the compact model's file differs from the dense model's")
			}
			if s := snap(compact); s.Served == nil || s.W != nil || s.Avg == nil {
				t.Fatal("MarshalBinary formed the dense weights")
			}
			// A dense sample forms the dense weights, once.
			x := make([]float32, d)
			for i := range test.Rows {
				clear(x)
				r := test.Row(i)
				for k, j := range r.Idx {
					x[j] = r.Val[k]
				}
				pg, err1 := compact.Predict(x)
				pw, err2 := dense.Predict(x)
				if err1 != nil || err2 != nil || pg != pw {
					t.Fatalf("row %d: Predict %d (%v), the dense model's %d (%v)", i, pg, err1, pw, err2)
				}
			}
			s := snap(compact)
			if s.Served != nil || !sameBits(s.W, snap(dense).W) {
				t.Fatal("after a dense Predict the model is not the dense model")
			}
			same("formed")
			assertSameFiles(t, compact, dense)
		})
	}
}

// sameBits reports whether a and b hold the same float32 bits.
func sameBits(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}

// TestCompactServedConcurrentForm has goroutines form a compact model's
// dense weights at once (Predict) while others read the
// compact ones (Weights, PredictSparse): run with -race, it shows a data
// race in forming them; every goroutine must get the same answers, and the
// dense weights are formed once.
func TestCompactServedConcurrentForm(t *testing.T) {
	rng := newRand(29)
	const K, d = 3, 1 << 10
	c := textLike[float32](rng, 150, d, 6, K)
	o := Options{Algorithm: linear.Averaged, MaxIter: 2, Stop: StopNever, Shuffle: true, Seed: 2}
	compact, dense := compactPair(t, c, o)
	cs := snap(compact).Served
	want, err := dense.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float32, d)
	for k, j := range c.Row(0).Idx {
		x[j] = c.Row(0).Val[k]
	}
	wantP, _ := dense.Predict(x)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 8 {
		wg.Go(func() {
			switch g % 4 {
			case 0:
				if p, err := compact.Predict(x); err != nil || p != wantP {
					errs <- fmt.Errorf("Predict %d (%v), want %d", p, err, wantP)
				}
			case 1:
				if w, _ := compact.Weights(g % K); len(w) != d {
					errs <- fmt.Errorf("Weights: %d values", len(w))
				}
			case 2:
				if b, err := compact.MarshalBinary(); err != nil || string(b) != string(want) {
					errs <- fmt.Errorf("MarshalBinary differs (%v)", err)
				}
			case 3:
				if p, err := compact.PredictSparse(c.Row(0)); err != nil || p != wantP {
					errs <- fmt.Errorf("PredictSparse %d (%v), want %d", p, err, wantP)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s := snap(compact); s.Served != nil || &s.W[0] != &cs.DenseW()[0] {
		t.Error("the published dense weights are not the ones formed once")
	}
}

// TestCompactServedAllocs checks that PredictSparse and ScoresSparse on a
// compact model allocate nothing, for samples within compactIdx's stack
// buffer and past it (a pooled buffer).
func TestCompactServedAllocs(t *testing.T) {
	rng := newRand(41)
	const K, d = 3, 1 << 11
	c := textLike[float32](rng, 200, d, 8, K)
	o := Options{Algorithm: linear.Averaged, MaxIter: 2, Stop: StopNever, Shuffle: true, Seed: 3, NoBias: true}
	compact, _ := compactPair(t, c, o)
	long := dataset.SparseRow[float32]{}
	for j := range 400 {
		long.Idx = append(long.Idx, int32(j*5))
		long.Val = append(long.Val, 0.25)
	}
	dst := make([]float32, K)
	rows := []dataset.SparseRow[float32]{c.Row(3), long}
	if raceEnabled {
		rows = rows[:1] // -race drops pooled buffers at random
	}
	for _, x := range rows {
		if n := testing.AllocsPerRun(100, func() {
			if _, err := compact.PredictSparse(x); err != nil {
				t.Fatal(err)
			}
			if err := compact.ScoresSparse(dst, x); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%d stored values: %v allocations a call", len(x.Idx), n)
		}
	}
	if s := snap(compact); s.Served == nil {
		t.Error("the sparse methods formed the dense weights")
	}
}

// TestCompactServedRemap checks remap's compact columns against the
// ranks of the columns a set of rows uses (and the zero column for the
// others).
func TestCompactServedRemap(t *testing.T) {
	rng := newRand(5)
	for _, d := range []int{1, 63, 64, 65, 1000, 1 << 14} {
		var rows []int32
		for range 2 * d {
			if j := int32(rng.IntN(d)); rng.IntN(3) == 0 {
				rows = append(rows, j)
			}
		}
		m := usedcols.RenumberByCount(make([]int32, len(rows)), rows, d)
		used := map[int32]int32{}
		for r, j := range m.Cols {
			used[j] = int32(r)
		}
		cs := linmodel.NewCompactServed(m, make([]float32, len(m.Cols)+1), d)
		idx := make([]int32, d)
		for j := range idx {
			idx[j] = int32(j)
		}
		got := make([]int32, d)
		cs.Remap(got, idx)
		for j, r := range got {
			want, ok := used[int32(j)]
			if !ok {
				want = int32(len(m.Cols))
			}
			if r != want {
				t.Fatalf("d=%d: column %d mapped to %d, want %d", d, j, r, want)
			}
		}
	}
}

// namedF32 is a named float type: the pools (poolOf) do not pool it, and a
// fit must not panic choosing them.
type namedF32 float32

// TestSparseOvRNamedFloat trains the sparse one-vs-rest fit on a named
// float32 type and checks that it gives the float32 fit's scores, bit for
// bit (the same kernels; only the scratch pools differ).
func TestSparseOvRNamedFloat(t *testing.T) {
	rng := newRand(61)
	c := textLike[float32](rng, 120, 1<<10, 7, 3)
	for k := range c.Val {
		c.Val[k] = float32(rng.Float64() - 0.3)
	}
	n := &dataset.CSR[namedF32]{Rows: c.Rows, Cols: c.Cols, Ptr: c.Ptr, Idx: c.Idx, Y: c.Y}
	for _, v := range c.Val {
		n.Val = append(n.Val, namedF32(v))
	}
	o := Options{Algorithm: linear.Averaged, MaxIter: 3, Stop: StopNever, Shuffle: true, Seed: 8}
	mf, _, err := trainMultiSparse(c, c.Y, o)
	if err != nil {
		t.Fatal(err)
	}
	mn, _, err := trainMultiSparse(n, n.Y, o)
	if err != nil {
		t.Fatal(err)
	}
	gf, gn := make([]float32, 3), make([]namedF32, 3)
	for i := range c.Rows {
		if err := mf.ScoresSparse(gf, c.Row(i)); err != nil {
			t.Fatal(err)
		}
		if err := mn.ScoresSparse(gn, n.Row(i)); err != nil {
			t.Fatal(err)
		}
		for k := range gf {
			if math.Float32bits(gf[k]) != math.Float32bits(float32(gn[k])) {
				t.Fatalf("row %d score %d: %v, the float32 fit's %v", i, k, gn[k], gf[k])
			}
		}
	}
}

// TestCompactServedFloat64 is TestCompactServed's check of the sparse
// scores for float64 models: the compact model's scores are the dense
// model's, bit for bit.
func TestCompactServedFloat64(t *testing.T) {
	rng := newRand(73)
	const K, d = 4, 1 << 11
	c := textLike[float64](rng, 200, d/2, 8, K)
	c.Cols = d
	for k := range c.Val {
		c.Val[k] = rng.Float64()*2 - 0.6
	}
	test := textLike[float64](rng, 50, d, 8, K)
	o := Options{Algorithm: linear.Averaged, MaxIter: 3, Stop: StopNever, Shuffle: true, Seed: 6}
	compact, _, err := trainMultiSparse(c, c.Y, o)
	if err != nil {
		t.Fatal(err)
	}
	if snap(compact).Served == nil {
		t.Fatal("the fit did not keep its served weights compact: the test tests nothing")
	}
	oz := o
	oz.Init = Weights{W: make([]float64, K*d)}
	dense, _, err := trainMultiSparse(c, c.Y, oz)
	if err != nil {
		t.Fatal(err)
	}
	g, w := make([]float64, K), make([]float64, K)
	for i := range test.Rows {
		if err := compact.ScoresSparse(g, test.Row(i)); err != nil {
			t.Fatal(err)
		}
		if err := dense.ScoresSparse(w, test.Row(i)); err != nil {
			t.Fatal(err)
		}
		for k := range g {
			if math.Float64bits(g[k]) != math.Float64bits(w[k]) {
				t.Fatalf("row %d score %d: %v, the dense model's %v", i, k, g[k], w[k])
			}
		}
	}
}

// TestSparseOvRConcurrentFits trains the same sparse one-vs-rest fit on
// several goroutines at once, sharing the scratch pools (slicePool): each
// model file must be the one a fit alone writes, so a pooled array handed
// to two fits, or reused while a model still holds it, shows (and -race
// reports it).
func TestSparseOvRConcurrentFits(t *testing.T) {
	rng := newRand(83)
	c := textLike[float32](rng, 300, 1<<12, 9, 5)
	for k := range c.Val {
		c.Val[k] = float32(rng.Float64() - 0.4)
	}
	o := Options{Algorithm: linear.Averaged, MaxIter: 3, Stop: StopNever, Shuffle: true, Seed: 9}
	alone, _, err := trainMultiSparse(c, c.Y, o)
	if err != nil {
		t.Fatal(err)
	}
	want := mustMarshal(t, alone)
	models := make([]*linear.Model[float32], 4)
	errs := make([]error, len(models))
	for round := range 3 {
		var wg sync.WaitGroup
		for g := range models {
			wg.Go(func() { models[g], _, errs[g] = trainMultiSparse(c, c.Y, o) })
		}
		wg.Wait()
		for g, m := range models {
			if errs[g] != nil {
				t.Fatal(errs[g])
			}
			if got := mustMarshal(t, m); string(got) != string(want) {
				t.Fatalf("round %d, fit %d: the model differs from the fit alone's", round, g)
			}
		}
	}
}

// TestCompactServedUpdateWhilePredicting runs Updates on a compact model
// while other goroutines score sparse samples (-race shows a race on the
// published snapshots), then checks that the model after the Updates is
// the dense model after the same Updates, bit for bit.
func TestCompactServedUpdateWhilePredicting(t *testing.T) {
	rng := newRand(97)
	const K, d = 3, 1 << 10
	c := textLike[float32](rng, 150, d, 6, K)
	for k := range c.Val {
		c.Val[k] = float32(rng.Float64() - 0.3)
	}
	o := Options{Algorithm: linear.Averaged, MaxIter: 2, Stop: StopNever, Shuffle: true, Seed: 4}
	compact, dense := compactPair(t, c, o)
	x := make([]float32, d)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 3 {
		wg.Go(func() {
			dst := make([]float32, K)
			for i := 0; ; i = (i + 1) % c.Rows {
				select {
				case <-stop:
					return
				default:
				}
				if err := compact.ScoresSparse(dst, c.Row(i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for i := range 40 {
		clear(x)
		r := c.Row(i)
		for k, j := range r.Idx {
			x[j] = r.Val[k]
		}
		_, err1 := compact.Update(x, c.Y[i])
		_, err2 := dense.Update(x, c.Y[i])
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
	}
	close(stop)
	wg.Wait()
	if s := snap(compact); s.Served != nil {
		t.Fatal("the model's weights are still compact after Updates")
	}
	assertSameFiles(t, compact, dense)
}
