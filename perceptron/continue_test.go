package perceptron

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// Training starts from the given w₀, b₀ (Options.Init,
// Weights): the model is the definition's run from there, bit for bit
// on integer data, for the online, batch and mini-batch rules; the
// caller's slices are not modified.
func TestInitialWeights(t *testing.T) {
	X, y, _, _ := separable(newRand(90), 90, 5, 3, 1, true)
	n := len(y)
	w0 := []float64{-3, 2, 0.5, 7, -1}
	b0 := 4.0
	keep := slices.Clone(w0)
	storage := [][]int{}
	for range 40 {
		ord := make([]int, n)
		for i := range ord {
			ord[i] = i
		}
		storage = append(storage, ord)
	}
	for _, tc := range []struct {
		opt    Options
		visits [][]int
		B      int
		step   float64
	}{
		{Options{Algorithm: linear.Online, Eta: 0.5}, storage, 1, 0.5},
		{Options{Algorithm: linear.Batch, Eta: 0.25}, storage, n, 0.25},
		{Options{Algorithm: linear.MiniBatch, BatchSize: 9, Tau: 4.5, Sampling: SampleSweep}, storage, 9, 0.5},
		{Options{Algorithm: linear.MiniBatch, BatchSize: 9, Tau: 4.5, Seed: 3}, subsetDraws(n, 9, 40, 3), 9, 0.5},
		{Options{Algorithm: linear.Online, Sampling: SampleReplace, Seed: 4}, replaceDraws(n, 1, 40, 4), 1, 1},
	} {
		opt := tc.opt
		opt.MaxIter, opt.Init = 40, Weights{W: w0, B: []float64{b0}}
		ref, _, _, converged := refFrom(X, y, 5, tc.visits, tc.B, tc.step, true, w0, b0)
		for _, elem := range []string{"float64", "float32"} {
			var w []float64
			var b float64
			var diag *Diagnostics
			if elem == "float64" {
				m, d, err := trainBinary(X, 5, y, opt)
				if err != nil {
					t.Fatal(err)
				}
				w, b = modelW(t, m, 0)
				diag = d
			} else {
				m, d, err := trainBinary(to32(X), 5, y, opt)
				if err != nil {
					t.Fatal(err)
				}
				w, b = modelW(t, m, 0)
				diag = d
			}
			equalExact(t, opt.Algorithm.String()+" "+elem+" from w₀", append(w, b), append(ref.w, ref.b[0]))
			if len(diag.Epochs) != len(ref.mistakes) || diag.Converged != converged || diag.Epochs[0].Mistakes != ref.mistakes[0] {
				t.Fatalf("%v: %d epochs, converged %v; definition %d, %v", opt.Algorithm, len(diag.Epochs), diag.Converged, len(ref.mistakes), converged)
			}
		}
	}
	if !slices.Equal(w0, keep) {
		t.Fatal("InitialWeights modified")
	}
	// A w₀ that separates the data is the model (no mistake to make).
	u := []float64{3, 0, 0, 0, 0}
	Xs := []float64{1, 2, 3, 4, 5, -1, 0, 1, 0, 0}
	m, d, err := trainBinary(Xs, 5, []int{1, -1}, Options{Init: Weights{W: u, B: []float64{0.5}}})
	if err != nil || d.Updates != 0 || len(d.Epochs) != 1 {
		t.Fatalf("a separating w₀: %v, %d updates in %d epochs", err, d.Updates, len(d.Epochs))
	}
	w, b := modelW(t, m, 0)
	equalExact(t, "separating w₀", append(w, b), append(slices.Clone(u), 0.5))
}

// One-vs-rest from K initial vectors trains each class's binary problem
// from its own row (rows in the order of the sorted labels); with
// Normalize, w₀ weighs the scaled points.
func TestInitialWeightsMulticlass(t *testing.T) {
	X, y := intMulticlass(newRand(91), 120, 4, 3)
	labels, _, _ := multiClasses(y)
	w0 := []float64{1, 0, -2, 3, 0, 0, 1, 1, -4, 2, 2, 0}
	b0 := []float64{1, -1, 2}
	for _, norm := range []bool{false, true} {
		opt := Options{MaxIter: 3, Init: Weights{W: w0, B: b0}, Normalize: norm}
		m, _, err := trainMulti(X, 4, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		for c, l := range labels {
			yc := make([]int, len(y))
			for i, v := range y {
				yc[i] = -1
				if v == l {
					yc[i] = 1
				}
			}
			o := opt
			o.Init = Weights{W: w0[c*4 : (c+1)*4], B: b0[c : c+1]}
			mb, _, err := trainBinary(X, 4, yc, o)
			if err != nil {
				t.Fatal(err)
			}
			w, b := modelW(t, m, c)
			wb, bb := modelW(t, mb, 0)
			equalExact(t, "class from its w₀", append(w, b), append(wb, bb))
		}
	}
	// fit.Argmax from w₀: the first visit's scores are w₀'s.
	ma, da, err := trainMulti(X, 4, y, Options{Multiclass: fit.Argmax, MaxIter: 1, Init: Weights{W: w0, B: b0}})
	if err != nil || ma == nil {
		t.Fatal(err)
	}
	mz, dz, _ := trainMulti(X, 4, y, Options{Multiclass: fit.Argmax, MaxIter: 1})
	if sameModel(t, ma, mz) || da.Epochs[0].Mistakes == dz.Epochs[0].Mistakes && da.Epochs[0].Loss == dz.Epochs[0].Loss {
		t.Fatal("argmax ignored InitialWeights")
	}
}

// Bad initial weights are ErrOption errors.
func TestInitialWeightsErrors(t *testing.T) {
	X := []float64{1, 2, -1, -2}
	y := []int{1, -1}
	for name, opt := range map[string]Options{
		"length":     {Init: Weights{W: []float64{1}}},
		"bias-len":   {Init: Weights{B: []float64{1, 2}}},
		"nan":        {Init: Weights{W: []float64{1, math.NaN()}}},
		"inf-bias":   {Init: Weights{B: []float64{math.Inf(-1)}}},
		"nobias":     {Init: Weights{B: []float64{1}}, NoBias: true},
		"svm":        {Algorithm: linear.SVM, Init: Weights{W: []float64{1, 1}}},
		"multiclass": {Init: Weights{W: []float64{1, 2, 3}}},
	} {
		var err error
		if name == "multiclass" {
			_, _, err = trainMulti(X, 2, y, opt)
		} else {
			_, _, err = trainBinary(X, 2, y, opt)
		}
		if !errors.Is(err, ErrOption) {
			t.Fatalf("%s: %v, want ErrOption", name, err)
		}
	}
	// Finite in float64, not in float32.
	if _, _, err := trainBinary([]float32{1, 2, -1, -2}, 2, y, Options{Init: Weights{W: []float64{1e39, 0}}}); !errors.Is(err, ErrOption) {
		t.Fatalf("1e39 in float32: %v", err)
	}
	if _, _, err := trainBinary(X, 2, y, Options{Init: Weights{W: []float64{1e39, 0}}}); err != nil {
		t.Fatalf("1e39 in float64: %v", err)
	}
	if _, _, err := trainKernelBinary(X, 2, y, KernelOptions{Options: Options{Init: Weights{W: []float64{1, 1}}}}); !errors.Is(err, ErrOption) {
		t.Fatalf("kernel: %v", err)
	}
}

// continueDense resumes the model's algorithm: one epoch, a model file (binary
// or JSON) and one more epoch from it give the two-epoch model, bit for
// bit (integer data; with Normalize the same arithmetic), for every
// algorithm with state, binary, one-vs-rest and argmax.
func TestContinueFromModel(t *testing.T) {
	Xb, yb, _, _ := separable(newRand(92), 100, 5, 3, 0.5, true)
	for i := 0; i < len(yb); i += 9 {
		yb[i] = -yb[i]
	}
	Xm, ym := intMulticlass(newRand(93), 120, 5, 4)
	for _, tc := range []struct {
		name  string
		multi bool
		opt   Options
	}{
		{"online", false, Options{Eta: 0.5}},
		{"batch", false, Options{Algorithm: linear.Batch}},
		{"minibatch", false, Options{Algorithm: linear.MiniBatch, BatchSize: 10, Tau: 5, Sampling: SampleSweep}},
		{"averaged", false, Options{Algorithm: linear.Averaged}},
		{"averaged-normalize", false, Options{Algorithm: linear.Averaged, Normalize: true}},
		{"voted", false, Options{Algorithm: linear.Voted}},
		{"voted-normalize", false, Options{Algorithm: linear.Voted, Normalize: true}},
		{"ovr-averaged", true, Options{Algorithm: linear.Averaged, Eta: 0.5}},
		{"ovr-voted", true, Options{Algorithm: linear.Voted}},
		{"argmax-averaged", true, Options{Algorithm: linear.Averaged, Multiclass: fit.Argmax}},
		{"argmax-online-normalize", true, Options{Multiclass: fit.Argmax, Normalize: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			X, y := Xb, yb
			if tc.multi {
				X, y = Xm, ym
			}
			train := func(epochs int) *linear.Model[float64] {
				o := tc.opt
				o.MaxIter, o.Stop, o.Resumable = epochs, StopNever, true
				var m *linear.Model[float64]
				var err error
				if tc.multi {
					m, _, err = trainMulti(X, 5, y, o)
				} else {
					m, _, err = trainBinary(X, 5, y, o)
				}
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			two := train(2)
			one := train(1)
			before := mustMarshal(t, one)
			for _, format := range []string{"binary", "json"} {
				var saved linear.Model[float64]
				if format == "binary" {
					if err := saved.UnmarshalBinary(before); err != nil {
						t.Fatal(err)
					}
				} else {
					js, _ := json.Marshal(one)
					if err := json.Unmarshal(js, &saved); err != nil {
						t.Fatal(err)
					}
				}
				o := tc.opt
				o.MaxIter, o.Stop, o.Resumable = 1, StopNever, true
				got, diag, err := continueDense(&saved, X, 5, y, o)
				if err != nil {
					t.Fatal(err)
				}
				if !sameModel(t, got, two) {
					t.Fatalf("%s: one epoch, a file and continueDense is not two epochs", format)
				}
				if len(diag.Epochs) != 1 || got.Steps() != 2*int64(len(y)) {
					t.Fatalf("%s: %d epochs, %d steps", format, len(diag.Epochs), got.Steps())
				}
			}
			if string(mustMarshal(t, one)) != string(before) {
				t.Fatal("continueDense modified the model")
			}
		})
	}
}

// continueDense with another algorithm starts from the model's served weights:
// the same as Init: Weights set to them.
func TestContinueOtherAlgorithm(t *testing.T) {
	X, y := intMulticlass(newRand(94), 90, 4, 3)
	avg, _, err := trainMulti(X, 4, y, Options{Algorithm: linear.Averaged, MaxIter: 3})
	if err != nil {
		t.Fatal(err)
	}
	var w0, b0 []float64
	for k := range avg.NumScores() {
		w, b := avg.Weights(k)
		w0, b0 = append(w0, w...), append(b0, b)
	}
	opt := Options{Algorithm: linear.Online, MaxIter: 2}
	got, _, err := continueDense(avg, X, 4, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Init = Weights{W: w0, B: b0}
	want, _, err := trainMulti(X, 4, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !sameModel(t, got, want) {
		t.Fatal("continueDense with Online is not Online from the average")
	}
}

// SVM resumes Pegasos at t = Steps() + 1 with the model's λ (Lambda left
// 0), close to an uninterrupted run (which keeps w as s·v: not bit for
// bit); another λ is an error.
func TestContinueSVM(t *testing.T) {
	X, y, _, _ := separable(newRand(95), 150, 5, 3, 0.5, true)
	two, _, err := trainBinary(X, 5, y, Options{Algorithm: linear.SVM, Lambda: 0.02, MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	one, _, err := trainBinary(X, 5, y, Options{Algorithm: linear.SVM, Lambda: 0.02, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := continueDense(one, X, 5, y, Options{Algorithm: linear.SVM, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	w, b := modelW(t, got, 0)
	ww, wb := modelW(t, two, 0)
	for j, v := range append(w, b) {
		if want := append(ww, wb)[j]; math.Abs(v-want) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("weight %d: continued %v, two epochs %v", j, v, want)
		}
	}
	if _, _, err := continueDense(one, X, 5, y, Options{Algorithm: linear.SVM, Lambda: 0.5}); !errors.Is(err, ErrOption) {
		t.Fatalf("another λ: %v", err)
	}
}

// What continueDense cannot do is an error, never a silently different start.
func TestContinueErrors(t *testing.T) {
	X, y, _, _ := separable(newRand(96), 40, 3, 3, 0.5, true)
	m, _, err := trainBinary(X, 3, y, Options{Algorithm: linear.Averaged, MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	voted, _, _ := trainBinary(X, 3, y, Options{Algorithm: linear.Voted, MaxIter: 2})
	for name, tc := range map[string]struct {
		m    *linear.Model[float64]
		X    []float64
		cols int
		y    []int
		opt  Options
		want error
	}{
		"normalize":       {m, X, 3, y, Options{Algorithm: linear.Averaged, Normalize: true}, ErrOption},
		"nobias":          {m, X, 3, y, Options{Algorithm: linear.Averaged, NoBias: true}, ErrOption},
		"initial-weights": {m, X, 3, y, Options{Algorithm: linear.Averaged, Init: Weights{W: []float64{1, 1, 1}}}, ErrOption},
		"argmax":          {m, X, 3, y, Options{Algorithm: linear.Averaged, Multiclass: fit.Argmax}, ErrOption},
		"to-svm":          {m, X, 3, y, Options{Algorithm: linear.SVM}, ErrOption},
		"voted-to-online": {voted, X, 3, y, Options{Algorithm: linear.Online}, ErrOption},
		"cols":            {m, X[:39*2], 2, y[:39], Options{Algorithm: linear.Averaged}, linear.ErrDims},
		"label":           {m, X, 3, append(slices.Clone(y[:39]), 2), Options{Algorithm: linear.Averaged}, linear.ErrLabels},
	} {
		if _, _, err := continueDense(tc.m, tc.X, tc.cols, tc.y, tc.opt); !errors.Is(err, tc.want) {
			t.Fatalf("%s: %v, want %v", name, err, tc.want)
		}
	}
	// One class only is fine: the model knows both.
	pos := []int{}
	var Xp []float64
	for i, v := range y {
		if v == 1 {
			pos, Xp = append(pos, 1), append(Xp, X[3*i:3*i+3]...)
		}
	}
	if _, _, err := continueDense(m, Xp, 3, pos, Options{Algorithm: linear.Averaged}); err != nil {
		t.Fatalf("a chunk of one class: %v", err)
	}
	// A version-1 averaged model has no state to resume; Online can start
	// from its weights.
	data, err := os.ReadFile("testdata/v1/binary-averaged.model")
	if err != nil {
		t.Fatal(err)
	}
	var v1 linear.Model[float32]
	if err := v1.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	X32 := to32(X)
	if _, _, err := continueDense(&v1, X32, 3, y, Options{Algorithm: linear.Averaged}); !errors.Is(err, linear.ErrUnsupported) {
		t.Fatalf("version-1 averaged: %v", err)
	}
	if _, _, err := continueDense(&v1, X32, 3, y, Options{Algorithm: linear.Online}); err != nil {
		t.Fatalf("version-1 averaged, Online from its weights: %v", err)
	}
}

// A voted model's kept vectors count against the budget of its continueDense.
func TestContinueVotedBudget(t *testing.T) {
	X, y, _, _ := separable(newRand(97), 60, 4, 3, 0.5, true)
	for i := 0; i < len(y); i += 5 {
		y[i] = -y[i]
	}
	m, _, err := trainBinary(X, 4, y, Options{Algorithm: linear.Voted, MaxIter: 3})
	if err != nil {
		t.Fatal(err)
	}
	vs, _, _ := m.Voted(0)
	per := int64(5*8 + 8) // 4 weights and a bias (float64), a count
	_, _, err = continueDense(m, X, 4, y, Options{Algorithm: linear.Voted, MaxIter: 1, VotedMaxBytes: per * int64(len(vs)-1)})
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "starting model") {
		t.Fatalf("%d kept vectors in a budget for fewer: %v", len(vs), err)
	}
	if _, _, err := continueDense(m, X, 4, y, Options{Algorithm: linear.Voted, MaxIter: 1, VotedMaxBytes: -1}); err != nil {
		t.Fatal(err)
	}
}

// SkipEvaluation drops the final pass over the data and nothing else: the
// model is the same, byte for byte, for every linear algorithm and
// strategy, dense and sparse, trained or continued; Evaluated says the
// diagnostics of that pass are absent (and they are zero).
func TestSkipEvaluation(t *testing.T) {
	Xb, yb, _, _ := separable(newRand(94), 120, 6, 3, 0.5, true)
	for i := 0; i < len(yb); i += 7 {
		yb[i] = -yb[i]
	}
	Xm, ym := intMulticlass(newRand(95), 120, 6, 3)
	for _, tc := range []struct {
		name  string
		multi bool
		opt   Options
	}{
		{"online", false, Options{}},
		{"averaged", false, Options{Algorithm: linear.Averaged}},
		{"svm", false, Options{Algorithm: linear.SVM, Lambda: 0.01}},
		{"minibatch", false, Options{Algorithm: linear.MiniBatch, BatchSize: 8}},
		{"ovr-averaged", true, Options{Algorithm: linear.Averaged}},
		{"argmax-online", true, Options{Multiclass: fit.Argmax}},
	} {
		for _, sparse := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/sparse=%v", tc.name, sparse), func(t *testing.T) {
				X, y := Xb, yb
				if tc.multi {
					X, y = Xm, ym
				}
				c, err := dataset.FromDense(&dataset.Data[float64]{X: X, Y: y, Rows: len(y), Cols: 6})
				if err != nil {
					t.Fatal(err)
				}
				fit := func(skip bool, from *linear.Model[float64]) (*linear.Model[float64], *Diagnostics) {
					o := tc.opt
					o.MaxIter, o.Stop, o.SkipEvaluation = 3, StopNever, skip
					var m *linear.Model[float64]
					var d *Diagnostics
					var err error
					switch {
					case from != nil && sparse:
						m, d, err = continueSparse(from, c, y, o)
					case from != nil:
						m, d, err = continueDense(from, X, 6, y, o)
					case sparse && tc.multi:
						m, d, err = trainMultiSparse(c, y, o)
					case sparse:
						m, d, err = trainBinarySparse(c, y, o)
					case tc.multi:
						m, d, err = trainMulti(X, 6, y, o)
					default:
						m, d, err = trainBinary(X, 6, y, o)
					}
					if err != nil {
						t.Fatal(err)
					}
					return m, d
				}
				full, dfull := fit(false, nil)
				skip, dskip := fit(true, nil)
				if !sameModel(t, full, skip) {
					t.Fatal("SkipEvaluation changed the model")
				}
				if !dfull.Evaluated || dskip.Evaluated || dskip.TrainAccuracy != 0 || dskip.TrainLoss != 0 {
					t.Fatalf("Evaluated %v / %v, skipped accuracy %v loss %v", dfull.Evaluated, dskip.Evaluated, dskip.TrainAccuracy, dskip.TrainLoss)
				}
				if dskip.RadiusAugmented != dfull.RadiusAugmented {
					t.Fatalf("radius %v, want %v", dskip.RadiusAugmented, dfull.RadiusAugmented)
				}
				cfull, _ := fit(false, full)
				cskip, dc := fit(true, full)
				if !sameModel(t, cfull, cskip) || dc.Evaluated {
					t.Fatalf("continueDense: SkipEvaluation changed the model or evaluated it (%v)", dc.Evaluated)
				}
			})
		}
	}
}
