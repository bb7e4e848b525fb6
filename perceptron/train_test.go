package perceptron

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// modelW returns the weight vector and bias of score k of a linear model.
func modelW[T kernel.Float](t *testing.T, m *linear.Model[T], k int) ([]float64, float64) {
	t.Helper()
	w, b := m.Weights(k)
	if w == nil {
		t.Fatalf("no weights for score %d", k)
	}
	out := make([]float64, len(w))
	for i, v := range w {
		out[i] = float64(v)
	}
	return out, float64(b)
}

func equalExact(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got %v\nwant %v", what, got, want)
	}
}

func TestLinearMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		name    string
		algo    linear.Algorithm
		shuffle bool
		eta     float64
		tau     float64
		bs      int
		noBias  bool
	}{
		{name: "online", algo: linear.Online},
		{name: "online-shuffle", algo: linear.Online, shuffle: true},
		{name: "online-eta0.5-nobias", algo: linear.Online, eta: 0.5, noBias: true},
		{name: "batch", algo: linear.Batch},
		{name: "batch-eta2", algo: linear.Batch, eta: 2},
		{name: "minibatch", algo: linear.MiniBatch, bs: 4, tau: 1},
		{name: "minibatch-shuffle", algo: linear.MiniBatch, bs: 8, tau: 2, shuffle: true},
		{name: "minibatch-B1", algo: linear.MiniBatch, bs: 1, tau: 0.25, eta: 4, shuffle: true},
		{name: "minibatch-short-last", algo: linear.MiniBatch, bs: 7, tau: 1.75, shuffle: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(5) {
				X, y, _, _ := separable(newRand(seed), 96, 6, 3, 1, !tc.noBias)
				// The epoch-permutation scheme (SampleSweep): the reference
				// cuts the same orders into batches; SampleSubsets has its
				// own test.
				opt := Options{Algorithm: tc.algo, Eta: tc.eta, Tau: tc.tau, BatchSize: tc.bs,
					Shuffle: tc.shuffle, Seed: seed, NoBias: tc.noBias, MaxIter: 40, Sampling: SampleSweep}
				eta := tc.eta
				if eta == 0 {
					eta = 1
				}
				ords := orders(len(y), 40, tc.shuffle && tc.algo != linear.Batch, seed)
				bs := 0
				switch tc.algo {
				case linear.Batch:
					bs = len(y)
				case linear.MiniBatch:
					bs = tc.bs
				}
				ref := refLinear(X, y, 6, ords, eta, bs, tc.tau, !tc.noBias, true)
				m64, d64, err := trainBinary(X, 6, y, opt)
				if err != nil {
					t.Fatal(err)
				}
				m32, _, err := trainBinary(to32(X), 6, y, opt)
				if err != nil {
					t.Fatal(err)
				}
				w64, b64 := modelW(t, m64, 0)
				w32, b32 := modelW(t, m32, 0)
				equalExact(t, "float64 weights", append(w64, b64), append(ref.w, ref.b[0]))
				equalExact(t, "float32 weights", append(w32, b32), append(ref.w, ref.b[0]))
				if len(d64.Epochs) != len(ref.mistakes) {
					t.Fatalf("%d epochs, reference %d", len(d64.Epochs), len(ref.mistakes))
				}
				for e, ep := range d64.Epochs {
					if ep.Mistakes != ref.mistakes[e] || math.Abs(ep.Loss-ref.loss[e]) > 1e-12*(1+ref.loss[e]) {
						t.Fatalf("epoch %d: mistakes %d loss %v, reference %d %v", e+1, ep.Mistakes, ep.Loss, ref.mistakes[e], ref.loss[e])
					}
					if want := 1 - float64(ep.Mistakes)/float64(len(y)); ep.Accuracy != want {
						t.Fatalf("epoch %d: accuracy %v, want %v", e+1, ep.Accuracy, want)
					}
				}
				if !d64.Converged {
					t.Fatalf("did not converge on separable data in %d epochs", len(d64.Epochs))
				}
			}
		})
	}
}

func TestAveragedIsNaiveAverage(t *testing.T) {
	for _, shuffle := range []bool{false, true} {
		for seed := range uint64(8) {
			X, y, _, _ := separable(newRand(seed+100), 64, 5, 3, 0.5, true)
			opt := Options{Algorithm: linear.Averaged, Shuffle: shuffle, Seed: seed, MaxIter: 30, Stop: StopClean}
			m, _, err := trainBinary(X, 5, y, opt)
			if err != nil {
				t.Fatal(err)
			}
			ref := refAveraged(X, y, 5, orders(len(y), 30, shuffle, seed), 1, true)
			w, b := modelW(t, m, 0)
			// The model computes w − u/T; the reference Σw/T. Both are exact
			// integers before the division, so they differ by a few roundings.
			scale := 0.0
			for _, v := range append(w, b) {
				scale = max(scale, math.Abs(v))
			}
			for j, v := range append(w, b) {
				want := append(ref.w, ref.b[0])[j]
				if math.Abs(v-want) > 8*0x1p-52*(scale+1) {
					t.Fatalf("shuffle=%v seed %d: averaged weight %d = %v, naive average %v", shuffle, seed, j, v, want)
				}
			}
		}
	}
}

func TestVotedMatchesDefinition(t *testing.T) {
	for seed := range uint64(6) {
		X, y, _, _ := separable(newRand(seed+200), 50, 4, 3, 0.5, true)
		shuffle := seed%2 == 1
		m, _, err := trainBinary(X, 4, y, Options{Algorithm: linear.Voted, Shuffle: shuffle, Seed: seed, MaxIter: 20, Stop: StopClean})
		if err != nil {
			t.Fatal(err)
		}
		ref := refVoted(X, y, 4, orders(len(y), 20, shuffle, seed), 1, true)
		vs, bs, cs := m.Voted(0)
		if len(vs) != len(ref.vw) {
			t.Fatalf("seed %d: %d vectors, definition %d", seed, len(vs), len(ref.vw))
		}
		for k := range vs {
			equalExact(t, fmt.Sprint("vector ", k), append(vs[k], bs[k]), append(ref.vw[k], ref.vb[k]))
			if cs[k] != ref.vc[k] {
				t.Fatalf("count %d = %d, definition %d", k, cs[k], ref.vc[k])
			}
		}
		// Prediction is the weighted vote, on training and fresh points.
		rng := newRand(seed)
		for i := range 200 {
			x := make([]float64, 4)
			for j := range x {
				x[j] = float64(rng.IntN(7)-3) + 0.5*float64(i%2)
			}
			vote := 0.0
			for k := range ref.vw {
				if dot(x, ref.vw[k])+ref.vb[k] > 0 {
					vote += float64(ref.vc[k])
				} else {
					vote -= float64(ref.vc[k])
				}
			}
			want := -1
			if vote > 0 {
				want = 1
			}
			got, err := m.Predict(x)
			if err != nil || got != want {
				t.Fatalf("Predict(%v) = %d, %v; vote %v", x, got, err, vote)
			}
			sc := make([]float64, 1)
			if err := m.Scores(sc, x); err != nil || sc[0] != vote {
				t.Fatalf("Scores = %v, %v; vote %v", sc, err, vote)
			}
		}
	}
}

func TestArgmaxMatchesReference(t *testing.T) {
	for _, averaged := range []bool{false, true} {
		for seed := range uint64(4) {
			X, y := intMulticlass(newRand(seed+300), 120, 5, 4)
			algo := linear.Online
			if averaged {
				algo = linear.Averaged
			}
			m, d, err := trainMulti(X, 5, y, Options{Algorithm: algo, Multiclass: fit.Argmax, Shuffle: true, Seed: seed, MaxIter: 15})
			if err != nil {
				t.Fatal(err)
			}
			labels, cls32, _ := multiClasses(y)
			cls := make([]int, len(cls32))
			for i, c := range cls32 {
				cls[i] = int(c)
			}
			if !slices.Equal(m.Classes(), labels) {
				t.Fatalf("classes %v, want %v", m.Classes(), labels)
			}
			ref := refArgmax(X, cls, 4, 5, orders(len(y), 15, true, seed), 1, true, averaged)
			for e, ep := range d.Epochs {
				if ep.Mistakes != ref.mistakes[e] {
					t.Fatalf("epoch %d: %d mistakes, reference %d", e+1, ep.Mistakes, ref.mistakes[e])
				}
			}
			for c := range 4 {
				w, b := modelW(t, m, c)
				for j, v := range append(w, b) {
					want := append(slices.Clone(ref.w[c*5:(c+1)*5]), ref.b[c])[j]
					if math.Abs(v-want) > 1e-12*(1+math.Abs(want)) {
						t.Fatalf("averaged=%v class %d weight %d = %v, reference %v", averaged, c, j, v, want)
					}
				}
			}
		}
	}
}

// One-vs-rest must train each class exactly as a binary model on the
// relabelled data would, whatever the number of goroutines.
func TestOneVsRestMatchesBinary(t *testing.T) {
	X, y := intMulticlass(newRand(400), 150, 6, 5)
	labels, _, _ := multiClasses(y)
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted, linear.Batch, linear.MiniBatch} {
		for _, workers := range []int{1, 2, 3, 8} {
			opt := Options{Algorithm: algo, Shuffle: true, Seed: 9, MaxIter: 7, Workers: workers, BatchSize: 4}
			m, d, err := trainMulti(X, 6, y, opt)
			if err != nil {
				t.Fatal(err)
			}
			if m.Scheme() != fit.OneVsRest || len(d.Classes) != 5 {
				t.Fatalf("kind %v, %d class diagnostics", m.Scheme(), len(d.Classes))
			}
			for c, l := range labels {
				yb := make([]int, len(y))
				for i := range y {
					yb[i] = -1
					if y[i] == l {
						yb[i] = 1
					}
				}
				opt.Stop = StopNever // one-vs-rest stops only when every class is clean
				bm, bd, err := trainBinary(X, 6, yb, opt)
				if err != nil {
					t.Fatal(err)
				}
				if algo == linear.Voted {
					v1, b1, c1 := m.Voted(c)
					v2, b2, c2 := bm.Voted(0)
					if fmt.Sprint(v1, b1, c1) != fmt.Sprint(v2, b2, c2) {
						t.Fatalf("%v workers=%d class %d: voted vectors differ from the binary model", algo, workers, c)
					}
					continue
				}
				w1, b1 := modelW(t, m, c)
				w2, b2 := modelW(t, bm, 0)
				if len(d.Epochs) == len(bd.Epochs) {
					equalExact(t, fmt.Sprintf("%v workers=%d class %d", algo, workers, c), append(w1, b1), append(w2, b2))
				}
				for e := range d.Epochs {
					if d.Classes[c].Epochs[e].Mistakes != bd.Epochs[e].Mistakes {
						t.Fatalf("%v class %d epoch %d: %d mistakes, binary %d", algo, c, e, d.Classes[c].Epochs[e].Mistakes, bd.Epochs[e].Mistakes)
					}
				}
			}
		}
	}
}

// Novikoff: on separable data the online perceptron makes at most R²/γ²
// mistakes in total, for the margin γ of any separator: the planted one,
// and the returned model (Diagnostics.Bound).
func TestMistakeBound(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	for seed := range uint64(n) {
		rng := newRand(seed + 1000)
		d := 2 + rng.IntN(8)
		bias := seed%3 != 0
		X, y, u, b0 := separable(rng, 20+rng.IntN(100), d, 1+rng.IntN(4), 1+float64(rng.IntN(3)), bias)
		if slices.Min(y) == slices.Max(y) {
			continue
		}
		m, diag, err := trainBinary(X, d, y, Options{NoBias: !bias, Shuffle: seed%2 == 0, Seed: seed, MaxIter: 100000})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, e := range diag.Epochs {
			total += e.Mistakes
		}
		if total != diag.Updates {
			t.Fatalf("seed %d: epochs sum to %d mistakes, Updates = %d", seed, total, diag.Updates)
		}
		if !diag.Converged || !diag.Separable || diag.TrainAccuracy != 1 {
			t.Fatalf("seed %d: converged %v separable %v accuracy %v", seed, diag.Converged, diag.Separable, diag.TrainAccuracy)
		}
		// Planted separator's margin and the radius, computed here.
		R2, gamma := 0.0, math.Inf(1)
		nu := dot(u, u) + b0*b0
		for i := range y {
			x := X[i*d : (i+1)*d]
			r2 := dot(x, x)
			if bias {
				r2++
			}
			R2 = max(R2, r2)
			gamma = min(gamma, float64(y[i])*(dot(x, u)+b0)/math.Sqrt(nu))
		}
		if math.Abs(diag.RadiusAugmented-math.Sqrt(R2)) > 1e-12*diag.RadiusAugmented {
			t.Fatalf("seed %d: augmented radius %v, want %v", seed, diag.RadiusAugmented, math.Sqrt(R2))
		}
		if planted := R2 / (gamma * gamma); float64(total) > planted {
			t.Fatalf("seed %d: %d mistakes > R²/γ² = %v of the planted separator", seed, total, planted)
		}
		if float64(total) > diag.BoundAugmented*(1+1e-9) {
			t.Fatalf("seed %d: %d mistakes > the model's bound %v", seed, total, diag.BoundAugmented)
		}
		// The model's margins, recomputed from its weights (the diagnostics
		// take them from the last, clean epoch instead of a final pass):
		// the geometric margin divides by ‖w‖, the augmented one by
		// ‖(w, b)‖; the geometric bound pairs with max ‖x‖.
		w, b := modelW(t, m, 0)
		mm, r2 := math.Inf(1), 0.0
		for i := range y {
			x := X[i*d : (i+1)*d]
			mm = min(mm, float64(y[i])*(dot(x, w)+b))
			r2 = max(r2, dot(x, x))
		}
		if want := mm / math.Sqrt(dot(w, w)+b*b); math.Abs(diag.MarginAugmented-want) > 1e-12*want {
			t.Fatalf("seed %d: augmented margin %v, recomputed %v", seed, diag.MarginAugmented, want)
		}
		if want := mm / math.Sqrt(dot(w, w)); math.Abs(diag.Margin-want) > 1e-12*want {
			t.Fatalf("seed %d: margin %v, recomputed %v", seed, diag.Margin, want)
		}
		if math.Abs(diag.Radius-math.Sqrt(r2)) > 1e-12*diag.Radius || math.Abs(diag.Bound-r2/(diag.Margin*diag.Margin)) > 1e-9*diag.Bound {
			t.Fatalf("seed %d: radius %v bound %v, want %v and R²/γ²", seed, diag.Radius, diag.Bound, math.Sqrt(r2))
		}
		if diag.Bound > diag.BoundAugmented*(1+1e-12) || (!bias && math.Abs(diag.Bound-diag.BoundAugmented) > 1e-9*diag.Bound) {
			t.Fatalf("seed %d: bound %v, augmented %v: want ≤, and = without a bias", seed, diag.Bound, diag.BoundAugmented)
		}
	}
}

// On integer-valued data every kernel implementation must train the same
// model, bit for bit.
func TestKernelParity(t *testing.T) {
	impls := availableImpls()
	t.Logf("implementations: %v", impls)
	Xb, yb, _, _ := separable(newRand(500), 200, 37, 4, 0.5, true) // 200 = 25 batches of 8: τ/B stays a power of two
	Xm, ym := intMulticlass(newRand(501), 211, 37, 6)
	type run struct {
		name  string
		multi bool
		opt   Options
	}
	runs := []run{
		{"online", false, Options{Algorithm: linear.Online, Shuffle: true, Seed: 1}},
		{"batch", false, Options{Algorithm: linear.Batch, MaxIter: 30}},
		{"minibatch", false, Options{Algorithm: linear.MiniBatch, BatchSize: 8, Tau: 2, Shuffle: true, MaxIter: 30}},
		{"averaged", false, Options{Algorithm: linear.Averaged, Shuffle: true, Seed: 2}},
		{"voted", false, Options{Algorithm: linear.Voted, Shuffle: true, Seed: 3}},
		{"ovr-online", true, Options{Algorithm: linear.Online, MaxIter: 8, Workers: 2}},
		{"ovr-averaged", true, Options{Algorithm: linear.Averaged, MaxIter: 8, Shuffle: true}},
		{"ovr-batch", true, Options{Algorithm: linear.Batch, MaxIter: 8, Workers: 3}},
		{"argmax", true, Options{Algorithm: linear.Averaged, Multiclass: fit.Argmax, MaxIter: 8, Shuffle: true}},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			var ref32, ref64 []byte
			for _, im := range impls {
				opt := r.opt
				opt.impl = im
				var m32 *linear.Model[float32]
				var m64 *linear.Model[float64]
				var err error
				if r.multi {
					m32, _, err = trainMulti(to32(Xm), 37, ym, opt)
					if err == nil {
						m64, _, err = trainMulti(Xm, 37, ym, opt)
					}
				} else {
					m32, _, err = trainBinary(to32(Xb), 37, yb, opt)
					if err == nil {
						m64, _, err = trainBinary(Xb, 37, yb, opt)
					}
				}
				if err != nil {
					t.Fatal(err)
				}
				b32, b64 := mustMarshal(t, m32), mustMarshal(t, m64)
				if ref32 == nil {
					ref32, ref64 = b32, b64
					continue
				}
				if string(b32) != string(ref32) || string(b64) != string(ref64) {
					t.Fatalf("kernel %s trains a different model than %s", im, impls[0])
				}
			}
		})
	}
}

func TestSeedDeterminism(t *testing.T) {
	d := loadSet[float32](t, "breast_cancer_std.train.libsvm", 30)
	for _, algo := range []linear.Algorithm{linear.Online, linear.MiniBatch, linear.Averaged, linear.Voted, linear.SVM} {
		opt := Options{Algorithm: algo, Shuffle: true, Seed: 42, MaxIter: 5, Lambda: 1e-3}
		a, _, err := trainBinary(d.X, d.Cols, d.Y, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, _, _ := trainBinary(d.X, d.Cols, d.Y, opt)
		if !sameModel(t, a, b) {
			t.Fatalf("%v: the same seed gave different models", algo)
		}
		opt.Seed = 43
		c, _, _ := trainBinary(d.X, d.Cols, d.Y, opt)
		if sameModel(t, a, c) {
			t.Fatalf("%v: seeds 42 and 43 gave the same model (is Shuffle ignored?)", algo)
		}
	}
}

// Pegasos reaches the SVM optimum (computed by dual coordinate descent)
// within 1% on small problems, separable or not, with and without bias.
func TestSVMNearOptimum(t *testing.T) {
	for _, tc := range []struct {
		seed   uint64
		lambda float64
		bias   bool
		noise  bool
	}{
		{1, 0.05, true, false},
		{2, 0.01, true, true},
		{3, 0.1, false, true},
		{4, 0.02, false, false},
	} {
		rng := newRand(tc.seed)
		X, y, _, _ := separable(rng, 150, 5, 3, 0.5, tc.bias)
		if tc.noise {
			for i := range y {
				if rng.IntN(10) == 0 {
					y[i] = -y[i]
				}
			}
		}
		opt := Options{Algorithm: linear.SVM, Lambda: tc.lambda, NoBias: !tc.bias, Shuffle: true, Seed: tc.seed, MaxIter: 400}
		m, diag, err := trainBinary(X, 5, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		w, b := modelW(t, m, 0)
		got := svmPrimal(X, y, 5, w, b, tc.lambda)
		opt64 := svmOptimum(X, y, 5, tc.lambda, tc.bias)
		if got > opt64*1.01 || got < opt64*(1-1e-9) {
			t.Fatalf("%+v: Pegasos objective %v, optimum %v (ratio %v)", tc, got, opt64, got/opt64)
		}
		if last := diag.Epochs[len(diag.Epochs)-1].Objective; math.Abs(last-got) > 1e-9*got {
			t.Fatalf("diagnostics objective %v, recomputed %v", last, got)
		}
		// C is the same problem with λ = 1/(C·N).
		opt.Lambda, opt.C = 0, 1/(tc.lambda*float64(len(y)))
		mc, _, err := trainBinary(X, 5, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		wc, bc := modelW(t, mc, 0)
		if gc := svmPrimal(X, y, 5, wc, bc, tc.lambda); gc > opt64*1.01 {
			t.Fatalf("with C: objective %v, optimum %v", gc, opt64)
		}
	}
}

func TestSVMTolStops(t *testing.T) {
	X, y, _, _ := separable(newRand(8), 200, 5, 3, 0.5, true)
	_, d, err := trainBinary(X, 5, y, Options{Algorithm: linear.SVM, Lambda: 0.05, Tol: 1e-2, MaxIter: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Converged || len(d.Epochs) == 1000 {
		t.Fatalf("Tol did not stop training: %d epochs, converged %v", len(d.Epochs), d.Converged)
	}
}

func TestDiagnosticsFinalPass(t *testing.T) {
	// A non-separable set: the final pass must report the model's own
	// mistakes, loss and (negative) margin.
	X := []float64{1, 0, 0, 1, -1, 0, 0, -1, 0.5, 0.5, 2, 2}
	y := []int{1, 1, -1, -1, -1, 1}
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Batch} {
		m, d, err := trainBinary(X, 2, y, Options{Algorithm: algo, MaxIter: 7})
		if err != nil {
			t.Fatal(err)
		}
		w, b := modelW(t, m, 0)
		mis, loss, minM := 0, 0.0, math.Inf(1)
		for i := range y {
			mm := float64(y[i]) * (dot(X[2*i:2*i+2], w) + b)
			if mm <= 0 {
				mis++
				loss -= mm
			}
			minM = min(minM, mm)
		}
		nw := math.Sqrt(dot(w, w) + b*b)
		if !d.Evaluated || d.TrainAccuracy != 1-float64(mis)/6 || math.Abs(d.TrainLoss-loss/6) > 1e-12 ||
			math.Abs(d.MarginAugmented-minM/nw) > 1e-12 || math.Abs(d.Margin-minM/math.Sqrt(dot(w, w))) > 1e-12 ||
			d.Separable != (minM > 0) || (d.BoundAugmented != 0) != d.Separable {
			t.Fatalf("%v: diagnostics %+v; want accuracy %v loss %v margin %v", algo, d, 1-float64(mis)/6, loss/6, minM/nw)
		}
		if len(d.Epochs) != 7 || d.Converged {
			t.Fatalf("%v: %d epochs, converged %v on non-separable data", algo, len(d.Epochs), d.Converged)
		}
	}
}

func TestCallback(t *testing.T) {
	X, y, _, _ := separable(newRand(9), 100, 4, 3, 0, true)
	var seen []int
	_, d, err := trainBinary(X, 4, y, Options{MaxIter: 50, Stop: StopNever, Callback: func(e Epoch) error {
		seen = append(seen, e.Epoch)
		if e.Epoch == 3 {
			return ErrStop
		}
		return nil
	}})
	if err != nil || !d.Stopped || len(d.Epochs) != 3 || !slices.Equal(seen, []int{1, 2, 3}) {
		t.Fatalf("ErrStop: err %v stopped %v epochs %d seen %v", err, d.Stopped, len(d.Epochs), seen)
	}
	boom := errors.New("boom")
	for _, multi := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
		m, _, err := trainMulti(X, 4, y, Options{Multiclass: multi, Callback: func(Epoch) error { return boom }})
		if !errors.Is(err, boom) || m != nil {
			t.Fatalf("%v: callback error: got %v, %v", multi, m, err)
		}
	}
	_, _, err = trainBinary(X, 4, y, Options{Callback: func(Epoch) error { return boom }})
	if !errors.Is(err, boom) {
		t.Fatalf("callback error not returned: %v", err)
	}
}

// Normalize is Novikoff's normalisation: the augmented point (x, 1) is
// scaled to unit length. Training on it is training on those points (with
// the bias as the weight of the last coordinate), the model scores new
// samples the same way, and the Novikoff radius is 1.
func TestNormalize(t *testing.T) {
	X, y, _, _ := separable(newRand(10), 80, 5, 3, 1, true)
	orig := slices.Clone(X)
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted, linear.MiniBatch} {
		opt := Options{Normalize: true, Algorithm: algo, MaxIter: 50, BatchSize: 8, Sampling: SampleSweep}
		m, diag, err := trainBinary(X, 5, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(X, orig) {
			t.Fatal("Normalize modified the caller's data")
		}
		if m.Scaling() != linear.ScaleAugmented || !m.Normalized() {
			t.Fatalf("%v: model scaling %v", algo, m.Scaling())
		}
		// The same training on the augmented unit points, without a bias:
		// the same weights, bit for bit.
		Z := make([]float64, 0, 80*6)
		for i := range 80 {
			x := X[i*5 : (i+1)*5]
			s := 1 / math.Sqrt(dot(x, x)+1)
			for _, v := range x {
				Z = append(Z, v*s)
			}
			Z = append(Z, s)
		}
		plain := opt
		plain.Normalize, plain.NoBias = false, true
		mz, dz, err := trainBinary(Z, 6, y, plain)
		if err != nil {
			t.Fatal(err)
		}
		if algo == linear.Voted {
			vs, vb, vc := m.Voted(0)
			zs, _, zc := mz.Voted(0)
			for k := range zs {
				if !slices.Equal(append(slices.Clone(vs[k]), vb[k]), zs[k]) {
					t.Fatalf("voted vector %d: %v %v, on the augmented points %v", k, vs[k], vb[k], zs[k])
				}
			}
			if !slices.Equal(vc, zc) {
				t.Fatalf("voted counts %v, on the augmented points %v", vc, zc)
			}
		} else {
			w, b := modelW(t, m, 0)
			wz, _ := modelW(t, mz, 0)
			equalExact(t, algo.String()+" weights (w, b) vs on the augmented points", append(w, b), wz)
		}
		if len(diag.Epochs) != len(dz.Epochs) || diag.Updates != dz.Updates {
			t.Fatalf("%v: %d epochs %d updates, on the augmented points %d %d", algo, len(diag.Epochs), diag.Updates, len(dz.Epochs), dz.Updates)
		}
		if algo == linear.Voted || algo == linear.MiniBatch {
			continue
		}
		// Novikoff on the points the perceptron trained on: R = 1.
		if math.Abs(diag.RadiusAugmented-1) > 1e-15 || !diag.Separable || float64(diag.Updates) > diag.BoundAugmented {
			t.Fatalf("%v: R′ = %v, separable %v, %d mistakes, bound 1/γ′² = %v", algo, diag.RadiusAugmented, diag.Separable, diag.Updates, diag.BoundAugmented)
		}
		// The geometric margin is that of the hyperplane for the samples as
		// given, and the radius theirs.
		w, b := modelW(t, m, 0)
		mm, r2 := math.Inf(1), 0.0
		for i := range y {
			x := X[i*5 : (i+1)*5]
			mm = min(mm, float64(y[i])*(dot(x, w)+b))
			r2 = max(r2, dot(x, x))
		}
		if want := mm / math.Sqrt(dot(w, w)); math.Abs(diag.Margin-want) > 1e-9*want || diag.Radius != math.Sqrt(r2) {
			t.Fatalf("%v: margin %v radius %v, want %v and %v", algo, diag.Margin, diag.Radius, want, math.Sqrt(r2))
		}
		// Scores are s·(w·x + b), s = 1/‖(x, 1)‖: never of another sign
		// than w·x + b.
		sc := make([]float64, 1)
		for i := range 20 {
			x := X[i*5 : (i+1)*5]
			if err := m.Scores(sc, x); err != nil {
				t.Fatal(err)
			}
			want := (dot(w, x) + b) / math.Sqrt(dot(x, x)+1)
			if math.Abs(sc[0]-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("%v: score %v, want s·(w·x + b) = %v", algo, sc[0], want)
			}
		}
	}

	// A separable one-dimensional set with every x > 0: the
	// normalisation keeps the points apart and the perceptron converges;
	// NormalizeFeatures maps every x to 1, and training cannot converge.
	X1 := []float64{1, 2, 3, 4, 5, 6}
	y1 := []int{-1, -1, -1, 1, 1, 1}
	m, d, err := trainBinary(X1, 1, y1, Options{Normalize: true, MaxIter: 100000})
	if err != nil || !d.Converged || d.TrainAccuracy != 1 || !d.Separable {
		t.Fatalf("Normalize on a separable 1-D set: %v, converged %v accuracy %v", err, d.Converged, d.TrainAccuracy)
	}
	for i, x := range X1 {
		if p, _ := m.Predict([]float64{x}); p != y1[i] {
			t.Fatalf("x = %v predicted %d", x, p)
		}
	}
	_, d, err = trainBinary(X1, 1, y1, Options{NormalizeFeatures: true, MaxIter: 50})
	if err != nil || d.Converged {
		t.Fatalf("NormalizeFeatures on the 1-D set: %v, converged %v (every point is 1 after it)", err, d.Converged)
	}
	if _, _, err := trainBinary(X1, 1, y1, Options{Normalize: true, NormalizeFeatures: true}); !errors.Is(err, ErrOption) {
		t.Fatalf("both normalisations: %v", err)
	}
}

// NormalizeFeatures keeps the old transform: x/‖x‖, then the bias.
func TestNormalizeFeatures(t *testing.T) {
	X, y, _, _ := separable(newRand(10), 80, 5, 3, 1, false)
	m, _, err := trainBinary(X, 5, y, Options{NormalizeFeatures: true, Algorithm: linear.Averaged})
	if err != nil {
		t.Fatal(err)
	}
	if m.Scaling() != linear.ScaleFeatures {
		t.Fatalf("scaling %v", m.Scaling())
	}
	// Scores do not depend on the sample's scale.
	s1, s2 := make([]float64, 1), make([]float64, 1)
	for i := range 20 {
		x := X[i*5 : (i+1)*5]
		big := slices.Clone(x)
		for j := range big {
			big[j] *= 1024
		}
		if err := m.Scores(s1, x); err != nil {
			t.Fatal(err)
		}
		if err := m.Scores(s2, big); err != nil {
			t.Fatal(err)
		}
		if math.Abs(s1[0]-s2[0]) > 1e-12*(1+math.Abs(s1[0])) {
			t.Fatalf("score %v at scale 1, %v at scale 1024", s1[0], s2[0])
		}
	}
	// Training on pre-normalised rows gives the same model.
	Xn := slices.Clone(X)
	for i := range 80 {
		x := Xn[i*5 : (i+1)*5]
		nx := math.Sqrt(dot(x, x))
		for j := range x {
			x[j] *= 1 / nx
		}
	}
	m2, _, err := trainBinary(Xn, 5, y, Options{Algorithm: linear.Averaged})
	if err != nil {
		t.Fatal(err)
	}
	w1, b1 := modelW(t, m, 0)
	w2, b2 := modelW(t, m2, 0)
	for j := range w1 {
		if math.Abs(w1[j]-w2[j]) > 1e-9 {
			t.Fatalf("weight %d: %v vs %v", j, w1[j], w2[j])
		}
	}
	if math.Abs(b1-b2) > 1e-9 {
		t.Fatalf("bias %v vs %v", b1, b2)
	}
}

// A one-vs-rest perceptron scores each class with its own kernel call, so
// the model does not depend on how many goroutines share the classes, also
// for data that is not integer-valued.
func TestOneVsRestIndependentOfWorkers(t *testing.T) {
	d := loadSet[float32](t, "digits.train.libsvm", 64)
	X := slices.Clone(d.X)
	for i := range X {
		X[i] /= 16.5 // not integer-valued any more
	}
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted} {
		var ref *linear.Model[float32]
		for _, w := range []int{1, 2, 3, 10} {
			m, _, err := trainMulti(X, 64, d.Y, Options{Algorithm: algo, MaxIter: 3, Shuffle: true, Seed: 5, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = m
			} else if !sameModel(t, ref, m) {
				t.Fatalf("%v: Workers = %d trains a different model than Workers = 1", algo, w)
			}
		}
	}
}

// The callback sees exactly the epochs the diagnostics record.
func TestCallbackSeesDiagnostics(t *testing.T) {
	d := loadSet[float32](t, "digits.train.libsvm", 64)
	for _, opt := range []Options{
		{Algorithm: linear.Averaged, MaxIter: 4},
		{Algorithm: linear.SVM, MaxIter: 3, Lambda: 1e-3},
		{Algorithm: linear.Online, Multiclass: fit.Argmax, MaxIter: 4},
	} {
		var seen []Epoch
		opt.Callback = func(e Epoch) error { seen = append(seen, e); return nil }
		_, diag, err := trainMulti(d.X, 64, d.Y, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seen, diag.Epochs) {
			t.Fatalf("%v: callback saw %+v, diagnostics %+v", opt.Algorithm, seen, diag.Epochs)
		}
		for _, e := range seen {
			if e.Accuracy < 0 || e.Accuracy > 1 || e.Loss < 0 || (opt.Algorithm == linear.SVM) != (e.Objective > 0) {
				t.Fatalf("%v: implausible epoch %+v", opt.Algorithm, e)
			}
		}
	}
}

// TestFirstEpochChecks covers the fits that check the data and compute the
// row norms in their first epoch instead of a pass of their own
// (config.checksInFirstEpoch): the radius must be that of the data, and a
// non-finite value anywhere (in shuffled order too) must be an
// ErrNonFinite error naming its row, with the caller's data untouched.
func TestFirstEpochChecks(t *testing.T) {
	rng := newRand(3)
	X, y, _, _ := separable(rng, 200, 5, 4, 0.1, true)
	r2 := 0.0
	for i := range y {
		r2 = max(r2, dot(X[5*i:5*i+5], X[5*i:5*i+5]))
	}
	for _, tc := range []struct {
		opt  Options
		lazy bool // checked in the first epoch, not before it
	}{
		{Options{Algorithm: linear.Online}, true},
		{Options{Algorithm: linear.Averaged, Shuffle: true, Seed: 4}, true},
		{Options{Algorithm: linear.Voted, NoBias: true}, true},
		{Options{Algorithm: linear.MiniBatch, BatchSize: 1, Shuffle: true, Seed: 5, Sampling: SampleSweep}, true},
		{Options{Algorithm: linear.MiniBatch, BatchSize: 1, Seed: 5}, false}, // random subsets need not visit every row
		{Options{Algorithm: linear.Online, Sampling: SampleReplace, Seed: 6}, false},
		{Options{Algorithm: linear.MiniBatch, BatchSize: 7}, false},
		{Options{Algorithm: linear.Online, Normalize: true}, false},
	} {
		opt := tc.opt
		cfg, err := opt.resolve()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.checksInFirstEpoch() != tc.lazy {
			t.Fatalf("%+v: checksInFirstEpoch() = %v", opt, !tc.lazy)
		}
		_, d, err := trainBinary(X, 5, y, opt)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		want := r2
		if !opt.NoBias {
			want++
		}
		if opt.Normalize {
			want = 1 // augmented rows of unit norm
		}
		if math.Abs(d.RadiusAugmented-math.Sqrt(want)) > 1e-6*math.Sqrt(want) || math.Abs(d.Radius-math.Sqrt(r2)) > 1e-12*math.Sqrt(r2) {
			t.Fatalf("%+v: radius %v, augmented %v, want %v and %v", opt, d.Radius, d.RadiusAugmented, math.Sqrt(r2), math.Sqrt(want))
		}
		for _, row := range []int{0, 117, 199} {
			for _, bad := range []float64{math.NaN(), math.Inf(-1), 1e200} {
				Xb := slices.Clone(X)
				Xb[5*row+2] = bad
				before := slices.Clone(Xb)
				m, _, err := trainBinary(Xb, 5, y, opt)
				if !errors.Is(err, linear.ErrNonFinite) || m != nil {
					t.Fatalf("%+v: %v at row %d: model %v, error %v", opt, bad, row, m, err)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("row %d", row)) && !strings.Contains(err.Error(), fmt.Sprintf("X[%d]", row)) {
					t.Fatalf("%+v: error %q does not name row %d", opt, err, row)
				}
				for i := range Xb {
					if math.Float64bits(Xb[i]) != math.Float64bits(before[i]) {
						t.Fatalf("%+v: X[%d] changed", opt, i)
					}
				}
			}
		}
	}
}
