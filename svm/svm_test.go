package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

var testKernels = []gram.Kernel{
	gram.RBF{Gamma: 0.7},
	gram.Polynomial{Gamma: 0.5, Coef0: 1, Degree: 2},
	gram.Linear{},
}

// TestDualMatchesExactQP: on small problems the dual objective, the α and
// the bias equal those of an exact solve by enumeration of the KKT
// systems (helpers_test.go's exactDual).
func TestDualMatchesExactQP(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 30 {
		n := 5 + trial%4
		d := 3
		k := testKernels[trial%len(testKernels)]
		if _, ok := k.(gram.Linear); ok {
			d = n // keep Q non-singular
		}
		C := []float64{0.1, 1, 10}[trial%3]
		X, y := randData(r, n, d, 0.2)
		m, info, err := trainDense(X, d, y, Options{Kernel: k, C: C, Tol: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		yf := make([]float64, n)
		for i, v := range y {
			yf[i] = float64(v)
		}
		ex, ok := exactDual(refGram(k, X, d), yf, C)
		if !ok {
			t.Fatalf("trial %d: no exact solution found", trial)
		}
		p := info.Problems[0]
		if math.Abs(p.Dual-ex.obj) > 1e-8*max(1, math.Abs(ex.obj)) {
			t.Errorf("trial %d (%v, C=%v): dual %.12g, exact %.12g", trial, k, C, p.Dual, ex.obj)
		}
		// α through the model's coefficients.
		coef, b := m.Coefficients(0)
		got := make([]float64, n)
		for j, i := range m.SupportIndices() {
			got[i] = coef[j] * yf[i]
		}
		for i := range n {
			if math.Abs(got[i]-ex.alpha[i]) > 1e-6*max(1, C) {
				t.Errorf("trial %d: α[%d] = %v, exact %v", trial, i, got[i], ex.alpha[i])
			}
		}
		if free := slices.ContainsFunc(ex.alpha, func(a float64) bool { return a > 1e-9 && a < C-1e-9 }); free && math.Abs(b-ex.b) > 1e-6 {
			t.Errorf("trial %d: b = %v, exact %v", trial, b, ex.b)
		}
		if p.Primal+p.Dual < -1e-9 || p.Primal+p.Dual > 1e-6*max(1, math.Abs(p.Dual)) {
			t.Errorf("trial %d: duality gap %v", trial, p.Primal+p.Dual)
		}
	}
}

// TestKKT: at the returned solution of larger problems, every KKT
// condition of the C-SVC holds within the tolerance, recomputed in
// float64 from the data and the model (not from the solver's gradient),
// for binary, one-vs-one and one-vs-rest machines, with and without
// shrinking.
func TestKKT(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range testKernels {
		for _, C := range []float64{0.5, 20} {
			for _, shrink := range []bool{true, false} {
				X, y := randData(r, 150, 4, 0.1)
				tol := 1e-3
				m, _, err := trainDense(X, 4, y, Options{Kernel: k, C: C, Tol: tol, NoShrinking: !shrink})
				if err != nil {
					t.Fatal(err)
				}
				t.Run(fmt.Sprintf("%v/C=%v/shrink=%v", k, C, shrink), func(t *testing.T) {
					checkKKT(t, m, 0, X, 4, y, 1, C, tol+1e-9)
				})
			}
		}
	}
	// Multiclass: every machine on its own rows.
	X, _ := randData(r, 180, 3, 0)
	y := make([]int, 180)
	for i := range y {
		y[i] = i % 3
		X[i*3] += float64(y[i])
	}
	for _, sch := range []fit.Scheme{fit.OneVsOne, fit.OneVsRest} {
		m, info, err := trainDense(X, 3, y, Options{Kernel: gram.RBF{Gamma: 1}, C: 2, Multiclass: sch})
		if err != nil {
			t.Fatal(err)
		}
		for r, p := range info.Problems {
			var Xs []float64
			var ys []int
			for i, v := range y {
				if v == p.Positive || p.Rest || v == p.Negative {
					Xs = append(Xs, X[i*3:(i+1)*3]...)
					ys = append(ys, v)
				}
			}
			// Restrict the model's support vectors to this machine: the
			// coefficients of other machines' vectors are 0.
			t.Run(fmt.Sprintf("%v/%d", sch, r), func(t *testing.T) {
				sub := subModel(m, r, y)
				checkKKT(t, sub, 0, Xs, 3, ys, p.Positive, 2, 1e-3+1e-9)
			})
		}
	}
}

// subModel returns machine r of m as a binary model over the training
// rows' indices renumbered to the machine's own rows.
func subModel(m *expansion.Model[float64], r int, y []int) *expansion.Model[float64] {
	p := m.Parts()
	s := m.NumSupport()
	neg, pos := m.Pair(r)
	rows := map[int]int{} // training row → machine row
	for i, v := range y {
		if v == pos || m.Scheme() == fit.OneVsRest || v == neg {
			rows[i] = len(rows)
		}
	}
	q := expansion.Parts[float64]{Kernel: p.Kernel, Dims: p.Dims, Labels: []int{math.MinInt, pos}, Scheme: fit.Binary,
		Bias: []float64{p.Bias[r]}}
	for j := range s {
		c := p.Coef[r*s+j]
		if c == 0 {
			continue
		}
		q.SV = append(q.SV, p.SV[j*p.Dims:(j+1)*p.Dims]...)
		q.Index = append(q.Index, rows[p.Index[j]])
		q.Coef = append(q.Coef, c)
	}
	sub, err := expansion.New(q)
	if err != nil {
		panic(err)
	}
	return sub
}

// TestHardMarginKnown: C = +Inf and MaxMargin give the maximum margins of
// sets whose margins are known in closed form, in every bias mode.
func TestHardMarginKnown(t *testing.T) {
	sq := [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	flat := slices.Concat(sq...)
	and := []int{-1, -1, -1, 1}
	or := []int{-1, 1, 1, 1}
	cases := []struct {
		name  string
		X     []float64
		d     int
		y     []int
		mode  biasMode
		gamma float64
	}{
		// AND, b free: the hulls {(1,1)} and {(0,0),(0,1),(1,0)} are √2/2 apart.
		{"and/free", flat, 2, and, biasFree, math.Sqrt2 / 4},
		// AND with a bias feature 1: w = (2,2), w_B = −3, ‖(2,2,−3)‖ = √17.
		{"and/feature", flat, 2, and, biasFeature, 1 / math.Sqrt(17)},
		// OR with a bias feature 1: w = (2,2), w_B = −1.
		{"or/feature", flat, 2, or, biasFeature, 1.0 / 3},
		// Two points 4 apart on a line: margin 2 with a free bias.
		{"pair/free", []float64{3, -1}, 1, []int{1, -1}, biasFree, 2},
		// 1-D, through the origin: x = 2 (+), x = −1 (−): the margin is the
		// smaller |x|, 1.
		{"line/none", []float64{2, -1}, 1, []int{1, -1}, biasNone, 1},
		// 1-D with a bias feature: z = (1, 1) and −(0, 1): the nearest point
		// of that segment to the origin is (2/5, −1/5).
		{"line/feature", []float64{1, 0}, 1, []int{1, -1}, biasFeature, 1 / math.Sqrt(5)},
		// (0,0) and (2,−1) against (0,−1) with a bias feature 1: the
		// augmented yᵢ(xᵢ, 1) all lie on the plane v₁ + 2v₂ + v₃ = 1 and
		// their triangle holds its foot (1, 2, 1)/6: margin 1/√6 = 0.408.
		{"sixth/feature", []float64{0, 0, 2, -1, 0, -1}, 2, []int{1, 1, -1}, biasFeature, 1 / math.Sqrt(6)},
		// (1,1) and (2,0) against (0,0) with a bias feature: the segment
		// from (1,1,1) to (0,0,−1) is nearest at (1,1,−1)/3.
		{"third/feature", []float64{1, 1, 2, 0, 0, 0}, 2, []int{1, 1, -1}, biasFeature, 1 / math.Sqrt(3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mg, err := MaxMargin(context.Background(), dataset.NewData(c.X, c.d, nil), c.y, c.mode.opts(MarginOptions{Tol: 1e-10}))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(mg.Gamma-c.gamma) > 1e-8 || math.Abs(mg.Upper-c.gamma) > 1e-8 {
				t.Errorf("γ in [%.10f, %.10f], want %.10f", mg.Gamma, mg.Upper, c.gamma)
			}
			if mg.Gamma > mg.Upper*(1+1e-12) {
				t.Errorf("Gamma %v > Upper %v", mg.Gamma, mg.Upper)
			}
			if c.mode != biasFree {
				return
			}
			// trainDense with C = +Inf: the same margin.
			_, info, err := trainDense(c.X, c.d, c.y, Options{C: math.Inf(1), Kernel: gram.Linear{}, Tol: 1e-10})
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Problems[0].Margin; math.Abs(got-c.gamma) > 1e-8 {
				t.Errorf("trainDense(C=Inf) margin %v, want %v", got, c.gamma)
			}
		})
	}
}

// TestHardMarginMatchesExact: on random small separable sets the hard
// margin equals the exact solution of the C = +Inf dual (γ = 1/√Σα*),
// for the three kernels, and MaxMargin's Gamma ≤ γ ≤ Upper.
func TestHardMarginMatchesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	done := 0
	for trial := 0; done < 20 && trial < 200; trial++ {
		n, d := 6+trial%3, 2
		k := testKernels[trial%len(testKernels)]
		X, y := randData(r, n, d, 0)
		yf := make([]float64, n)
		for i, v := range y {
			yf[i] = float64(v)
		}
		ex, ok := exactDual(refGram(k, X, d), yf, math.Inf(1))
		if !ok {
			continue // not separable by this kernel (or degenerate)
		}
		done++
		var sa float64
		for _, a := range ex.alpha {
			sa += a
		}
		want := 1 / math.Sqrt(sa)
		mg, err := MaxMargin(context.Background(), dataset.NewData(X, d, nil), y, MarginOptions{Kernel: k, Tol: 1e-9})
		if err != nil {
			t.Fatalf("trial %d (%v): %v", trial, k, err)
		}
		if !(mg.Gamma <= want*(1+1e-9) && want <= mg.Upper*(1+1e-9)) || math.Abs(mg.Gamma-want) > 1e-6*want {
			t.Errorf("trial %d (%v): exact γ %.10g not in [%.10g, %.10g]", trial, k, want, mg.Gamma, mg.Upper)
		}
		m, info, err := trainDense(X, d, y, Options{Kernel: k, C: math.Inf(1), Tol: 1e-9})
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if got := info.Problems[0].Dual; math.Abs(got-ex.obj) > 1e-6*math.Abs(ex.obj) {
			t.Errorf("trial %d: hard-margin dual %.10g, exact %.10g", trial, got, ex.obj)
		}
		if acc, _ := m.Accuracy(X, y); acc != 1 {
			t.Errorf("trial %d: a hard-margin model misclassifies its training data (accuracy %v)", trial, acc)
		}
	}
	if done < 20 {
		t.Fatalf("only %d separable trials", done)
	}
}

// TestNotSeparable: C = +Inf on data whose hulls intersect is an error
// wrapping ErrNotSeparable, for trainDense (binary and one-vs-one), trainLinearDense
// and MaxMargin, in float32 and float64, quickly.
func TestNotSeparable(t *testing.T) {
	// XOR: not linearly separable, with or without bias.
	X := []float64{0, 0, 1, 1, 0, 1, 1, 0}
	y := []int{1, 1, -1, -1}
	inf := math.Inf(1)
	checks := map[string]func() error{
		"train": func() error { _, _, err := trainDense(X, 2, y, Options{C: inf, Kernel: gram.Linear{}}); return err },
		"train32": func() error {
			_, _, err := trainDense(convert32(X), 2, y, Options{C: inf, Kernel: gram.Linear{}})
			return err
		},
		"linear": func() error { _, _, err := trainLinearDense(X, 2, y, LinearOptions{C: inf}); return err },
		"margin/free": func() error {
			_, err := MaxMargin(context.Background(), dataset.NewData(X, 2, nil), y, MarginOptions{})
			return err
		},
		"margin/none": func() error {
			_, err := MaxMargin(context.Background(), dataset.NewData(X, 2, nil), y, MarginOptions{NoBias: true})
			return err
		},
		"margin/feat32": func() error {
			_, err := MaxMargin(context.Background(), dataset.NewData(convert32(X), 2, nil), y, MarginOptions{BiasFeature: 1})
			return err
		},
		"ovo": func() error {
			_, _, err := trainDense(append(slices.Clone(X), 5, 5), 2, append(slices.Clone(y), 7), Options{C: inf, Kernel: gram.Linear{}})
			return err
		},
		// heart_scale is not linearly separable.
		"heart": func() error {
			ds := load(t, "heart_scale.libsvm", 13)
			_, _, err := trainDense(ds.X, 13, ds.Y, Options{C: inf, Kernel: gram.Linear{}})
			return err
		},
	}
	for name, f := range checks {
		err := f()
		if !errors.Is(err, ErrNotSeparable) {
			t.Errorf("%s: err = %v, want ErrNotSeparable", name, err)
		}
		// The bound in the message is also a number; the hulls touch.
		var ns *NotSeparableError
		if !errors.As(err, &ns) || !ns.Resolved || !(ns.Upper >= 0 && ns.Upper < 1e-2) || !strings.Contains(err.Error(), "at most") {
			t.Errorf("%s: %#v", name, ns)
		}
	}
	// With more than two classes, the error names the machine that failed.
	X3, y3 := append(slices.Clone(X), 5, 5), append(slices.Clone(y), 7)
	for _, mc := range []struct {
		m    fit.Scheme
		want string
	}{{fit.OneVsOne, "class 1 against -1: "}, {fit.OneVsRest, "against the rest: "}} {
		_, _, err := trainDense(X3, 2, y3, Options{C: inf, Kernel: gram.Linear{}, Multiclass: mc.m})
		if !errors.Is(err, ErrNotSeparable) || !strings.Contains(err.Error(), mc.want) {
			t.Errorf("%v: err = %v, want ErrNotSeparable naming %q", mc.m, err, mc.want)
		}
	}
	// The same data is separable by an RBF machine.
	if _, _, err := trainDense(X, 2, y, Options{C: inf, Kernel: gram.RBF{Gamma: 1}}); err != nil {
		t.Errorf("RBF on XOR: %v", err)
	}
}

// TestSourcesIdentical: the kernel sources — the N×N matrix, the
// one-vs-one class blocks, per-machine matrices and the LRU row cache —
// give bit-identical models, since gram computes every kernel value
// identically on one implementation and SMO's arithmetic does not depend
// on where a column came from.
func TestSourcesIdentical(t *testing.T) {
	// Ten classes: one-vs-one takes the class blocks (Σn_c² + 2·max l²
	// on two goroutines, below N²); three: the N×N matrix (smaller than
	// the blocks there).
	for _, k := range []int{8, 3} {
		r := rand.New(rand.NewPCG(7, uint64(k)))
		const n = 240
		X, y := randInt(r, n, 5, 3, k)
		counts := make([]int64, k)
		for _, c := range y {
			counts[c]++
		}
		var diag, lmax int64
		for a, na := range counts {
			diag += na * na
			for _, nb := range counts[a+1:] {
				lmax = max(lmax, na+nb)
			}
		}
		blocks := (diag + 2*lmax*lmax) * 8
		full := int64(n*n) * 8
		perMachine := 2 * lmax * lmax * 8
		if k == 8 && !(perMachine < blocks && blocks < full) {
			t.Fatalf("test data: want per-machine %d < blocks %d < N×N %d bytes", perMachine, blocks, full)
		}
		if k == 3 && !(perMachine < full && full < blocks) {
			t.Fatalf("test data: want per-machine %d < N×N %d < blocks %d bytes", perMachine, full, blocks)
		}
		// For one-vs-one the smaller of the class blocks and the N×N
		// matrix where it fits, then per-machine matrices; for one-vs-rest
		// the N×N matrix; then the cache.
		paths := []struct {
			sch    fit.Scheme
			budget int64
			pre    bool
		}{
			{fit.OneVsOne, 0, true}, {fit.OneVsOne, min(blocks, full), true}, {fit.OneVsOne, max(blocks, full), true},
			{fit.OneVsOne, perMachine, false}, {fit.OneVsOne, -1, false},
			{fit.OneVsRest, 0, true}, {fit.OneVsRest, full - 1, false}, {fit.OneVsRest, -1, false},
		}
		for _, kern := range testKernels {
			ref := map[fit.Scheme]*expansion.Model[float64]{}
			for _, p := range paths {
				m, info, err := trainDense(X, 5, y, Options{Kernel: kern, C: 1, Multiclass: p.sch, GramBytes: p.budget, CacheBytes: n * 8 * 60, Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				if info.Precomputed != p.pre {
					t.Errorf("%d classes, %v GramBytes %d: Precomputed = %v", k, p.sch, p.budget, info.Precomputed)
				}
				r := ref[p.sch]
				if r == nil {
					ref[p.sch] = m
					continue
				}
				if !slices.Equal(m.Parts().Coef, r.Parts().Coef) || !slices.Equal(m.Parts().Bias, r.Parts().Bias) || !slices.Equal(m.SupportIndices(), r.SupportIndices()) {
					t.Errorf("%d classes, %v, %v, GramBytes %d: model differs from GramBytes 0's", k, kern, p.sch, p.budget)
				}
			}
		}
	}
}

// TestThreadsIdentical: the model does not depend on the number of
// goroutines.
func TestThreadsIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	X, y := randInt(r, 200, 4, 5, 4)
	for _, sch := range []fit.Scheme{fit.OneVsOne, fit.OneVsRest} {
		a, _, err := trainDense(X, 4, y, Options{Multiclass: sch, Workers: 1, Kernel: gram.RBF{Gamma: 0.05}})
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := trainDense(X, 4, y, Options{Multiclass: sch, Workers: 3, Kernel: gram.RBF{Gamma: 0.05}})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Parts().Coef, b.Parts().Coef) || !slices.Equal(a.Parts().Bias, b.Parts().Bias) {
			t.Errorf("%v: Workers 1 and 3 give different models", sch)
		}
	}
}

// TestImplementations: on integer data with the linear and polynomial
// kernels every kernel value is exact, so the kernel matrices are equal on
// every implementation the CPU runs, and the machines differ only by the
// rounding of the solver's vector operations (fused multiply-add or not),
// which can change SMO's path but not its end point beyond the tolerance.
// In float64 with a tight tolerance the support vectors are the same and
// the coefficients agree to 10⁻⁶; in float32 (default tolerance) the dual
// objectives agree to 10⁻³, support vectors can differ only by α < 10⁻²·C,
// and every test prediction whose decision values are not within 10⁻² of
// a tie is the same.
func TestImplementations(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	X, y := randInt(r, 120, 6, 4, 3)
	Xt, _ := randInt(r, 200, 6, 4, 3)
	const C = 0.01
	for _, k := range []gram.Kernel{gram.Linear{}, gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}} {
		var ref *expansion.Model[float64]
		var ref32 *expansion.Model[float32]
		var refInfo *Info
		var refPred []int
		for _, im := range kernel.Impls() {
			if !im.Available() {
				continue
			}
			name := fmt.Sprintf("%v/%s", k, im.Name())
			m, _, err := trainDense(X, 6, y, Options{Kernel: k, C: C, Impl: im, Tol: 1e-9})
			if err != nil {
				t.Fatal(err)
			}
			m32, info32, err := trainDense(convert32(X), 6, y, Options{Kernel: k, C: C, Impl: im})
			if err != nil {
				t.Fatal(err)
			}
			pred := make([]int, 200)
			if err := m32.PredictBatch(pred, convert32(Xt)); err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref, ref32, refInfo, refPred = m, m32, info32, pred
				continue
			}
			compareModels(t, name, m.Parts().Coef, ref.Parts().Coef, m.SupportIndices(), ref.SupportIndices(), 1e-6)
			for p := range info32.Problems {
				if a, b := info32.Problems[p].Dual, refInfo.Problems[p].Dual; math.Abs(a-b) > 1e-3*math.Abs(b) {
					t.Errorf("%s/f32: machine %d dual %v, first implementation %v", name, p, a, b)
				}
			}
			alpha := func(m *expansion.Model[float32]) map[int]float64 {
				a := map[int]float64{}
				s := m.NumSupport()
				for j, i := range m.SupportIndices() {
					for rr := range m.NumScores() {
						a[i] = max(a[i], math.Abs(float64(m.Parts().Coef[rr*s+j])))
					}
				}
				return a
			}
			a1, a2 := alpha(m32), alpha(ref32)
			for i, v := range a1 {
				if _, ok := a2[i]; !ok && v > 1e-2*C {
					t.Errorf("%s/f32: row %d is a support vector (α %v) only here", name, i, v)
				}
			}
			for i, v := range a2 {
				if _, ok := a1[i]; !ok && v > 1e-2*C {
					t.Errorf("%s/f32: row %d is a support vector (α %v) only on the first implementation", name, i, v)
				}
			}
			sc := make([]float32, ref32.NumScores())
			for i := range pred {
				if pred[i] == refPred[i] {
					continue
				}
				_ = ref32.Scores(sc, convert32(Xt[i*6:(i+1)*6]))
				near := false
				for _, v := range sc {
					near = near || math.Abs(float64(v)) < 1e-2
				}
				if !near {
					t.Errorf("%s/f32: test row %d predicted %d, first implementation %d (scores %v)", name, i, pred[i], refPred[i], sc)
				}
			}
		}
	}
}

func compareModels(t *testing.T, name string, coef, ref []float64, idx, refIdx []int, tol float64) {
	t.Helper()
	if !slices.Equal(idx, refIdx) {
		t.Errorf("%s: support vectors %v, want %v", name, idx, refIdx)
		return
	}
	scale := 0.0
	for _, v := range ref {
		scale = max(scale, math.Abs(v))
	}
	for i := range coef {
		if math.Abs(coef[i]-ref[i]) > tol*scale {
			t.Errorf("%s: coef[%d] = %v, want %v", name, i, coef[i], ref[i])
			return
		}
	}
}

// TestPredictPaths: Predict, Scores, PredictBatch and ScoresBatch agree,
// and the scores are the decision functions recomputed in float64.
func TestPredictPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	X, y := randInt(r, 150, 3, 4, 4)
	Xt, _ := randInt(r, 300, 3, 5, 4)
	for _, sch := range []fit.Scheme{fit.OneVsOne, fit.OneVsRest} {
		m, _, err := trainDense(X, 3, y, Options{Kernel: gram.RBF{Gamma: 0.3}, Multiclass: sch})
		if err != nil {
			t.Fatal(err)
		}
		n := len(Xt) / 3
		R := m.NumScores()
		batch := make([]float64, n*R)
		if err := m.ScoresBatch(batch, Xt); err != nil {
			t.Fatal(err)
		}
		pred := make([]int, n)
		if err := m.PredictBatch(pred, Xt); err != nil {
			t.Fatal(err)
		}
		sv := m.SupportVectors()
		sc := make([]float64, R)
		for i := range n {
			x := Xt[i*3 : (i+1)*3]
			if err := m.Scores(sc, x); err != nil {
				t.Fatal(err)
			}
			p, err := m.Predict(x)
			if err != nil {
				t.Fatal(err)
			}
			if p != pred[i] {
				t.Fatalf("%v row %d: Predict %d, PredictBatch %d", sch, i, p, pred[i])
			}
			for rr := range R {
				coef, b := m.Coefficients(rr)
				want := b
				for j, c := range coef {
					want += c * refKernel(m.Kernel(), sv[j*3:(j+1)*3], x)
				}
				if math.Abs(sc[rr]-want) > 1e-9*max(1, math.Abs(want)) || math.Abs(batch[i*R+rr]-want) > 1e-9*max(1, math.Abs(want)) {
					t.Fatalf("%v row %d score %d: Scores %v, ScoresBatch %v, want %v", sch, i, rr, sc[rr], batch[i*R+rr], want)
				}
			}
		}
	}
}

// TestErrors: bad input is an error wrapping the right sentinel, never a
// panic.
func TestErrors(t *testing.T) {
	X := []float64{0, 0, 1, 1, 2, 2}
	y := []int{1, -1, 1}
	nan := []float64{0, math.NaN(), 1, 1, 2, 2}
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"no rows", train(nil, 2, nil, Options{}), ErrEmpty},
		{"d=0", train(X, 0, y, Options{}), ErrDims},
		{"ragged", train(X[:5], 2, y, Options{}), ErrDims},
		{"labels", train(X, 2, y[:2], Options{}), ErrDims},
		{"nan", train(nan, 2, y, Options{}), ErrNonFinite},
		{"inf", train([]float64{math.Inf(1), 0, 1, 1, 2, 2}, 2, y, Options{}), ErrNonFinite},
		{"overflow", train([]float64{1e200, 0, 1, 1, 2, 2}, 2, y, Options{Kernel: gram.Linear{}}), ErrNonFinite},
		{"one class", train(X, 2, []int{4, 4, 4}, Options{}), ErrLabels},
		{"C<0", train(X, 2, y, Options{C: -1}), ErrOption},
		{"C nan", train(X, 2, y, Options{C: math.NaN()}), ErrOption},
		{"tol<0", train(X, 2, y, Options{Tol: -1}), ErrOption},
		{"tol inf", train(X, 2, y, Options{Tol: math.Inf(1)}), ErrOption},
		{"kernel", train(X, 2, y, Options{Kernel: gram.RBF{Gamma: -1}}), ErrOption},
		{"poly", train(X, 2, y, Options{Kernel: gram.Polynomial{Gamma: 1, Degree: 0}}), ErrOption},
		{"scheme", train(X, 2, []int{1, 2, 3}, Options{Multiclass: fit.Scheme(7)}), ErrOption},
		{"argmax", train(X, 2, []int{1, 2, 3}, Options{Multiclass: fit.Argmax}), ErrOption},
		{"argmax-2", train(X, 2, y, Options{Multiclass: fit.Argmax}), ErrOption},
		{"binary-3", train(X, 2, []int{1, 2, 3}, Options{Multiclass: fit.Binary}), ErrOption},
		{"maxiter", train(X, 2, y, Options{MaxIter: -1}), ErrOption},
		{"cache", train(X, 2, y, Options{GramBytes: -1, CacheBytes: 8}), ErrBudget},
		{"cache<0", train(X, 2, y, Options{CacheBytes: -8}), ErrOption},
		{"margin 3 labels", margin(X, 2, []int{1, 2, 3}, MarginOptions{}), ErrLabels},
		{"margin bias", margin(X, 2, y, MarginOptions{NoBias: true, BiasFeature: 1}), ErrOption},
		{"margin B", margin(X, 2, y, MarginOptions{BiasFeature: -1}), ErrOption},
		{"margin B NaN", margin(X, 2, y, MarginOptions{BiasFeature: math.NaN()}), ErrOption},
		{"linear nan", trainLin(nan, 2, y, LinearOptions{}), ErrNonFinite},
		{"linear loss", trainLin(X, 2, y, LinearOptions{Loss: Loss(5)}), ErrOption},
		{"linear bias", trainLin(X, 2, y, LinearOptions{BiasFeature: math.Inf(1)}), ErrOption},
		{"linear C", trainLin(X, 2, y, LinearOptions{C: -2}), ErrOption},
		{"linear one class", trainLin(X, 2, []int{0, 0, 0}, LinearOptions{}), ErrLabels},
		{"linear rows nil", func() error {
			_, _, err := trainLinearRows[float64](context.Background(), nil, y, LinearOptions{})
			return err
		}(), ErrEmpty},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, c.err, c.want)
		}
	}
	// Scoring errors.
	m, _, err := trainDense(X, 2, y, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict([]float64{1}); !errors.Is(err, expansion.ErrDims) {
		t.Errorf("short sample: %v", err)
	}
	if _, err := m.Predict([]float64{1, math.NaN()}); !errors.Is(err, expansion.ErrNonFinite) {
		t.Errorf("NaN sample: %v", err)
	}
	if err := m.PredictBatch(make([]int, 2), X); !errors.Is(err, expansion.ErrDims) {
		t.Errorf("short dst: %v", err)
	}
	if err := m.ScoresBatch(make([]float64, 2), X); !errors.Is(err, expansion.ErrDims) {
		t.Errorf("short score dst: %v", err)
	}
	var zero expansion.Model[float64]
	if _, err := zero.Predict([]float64{1, 2}); !errors.Is(err, expansion.ErrModel) {
		t.Errorf("zero model: %v", err)
	}
}

func train(X []float64, d int, y []int, o Options) error {
	_, _, err := trainDense(X, d, y, o)
	return err
}

func margin(X []float64, d int, y []int, o MarginOptions) error {
	_, err := MaxMargin(context.Background(), dataset.NewData(X, d, nil), y, o)
	return err
}

func trainLin(X []float64, d int, y []int, o LinearOptions) error {
	_, _, err := trainLinearDense(X, d, y, o)
	return err
}

// TestNoModify: training never changes the caller's slices, and the
// model's support vectors are copies.
func TestNoModify(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	X, y := randData(r, 80, 3, 0.1)
	X0, y0 := slices.Clone(X), slices.Clone(y)
	m, _, err := trainDense(X, 3, y, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := trainLinearDense(X, 3, y, LinearOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := trainDense(X, 3, y, Options{C: math.Inf(1), Kernel: gram.RBF{Gamma: 5}}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(X, X0) || !slices.Equal(y, y0) {
		t.Fatal("training modified its input")
	}
	before, _ := m.Predict(X[:3])
	for i := range X {
		X[i] = 100
	}
	if after, _ := m.Predict(X0[:3]); after != before {
		t.Error("the model shares memory with the training data")
	}
}

// TestCancel: a cancelled context stops training with an error wrapping
// context.Canceled.
func TestCancel(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	X, y := randData(r, 300, 3, 0.3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := trainDenseContext(ctx, X, 3, y, Options{C: 100}); !errors.Is(err, context.Canceled) {
		t.Errorf("trainDense: %v", err)
	}
	if _, _, err := trainLinearDenseContext(ctx, X, 3, y, LinearOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("trainLinearDense: %v", err)
	}
	if _, err := MaxMargin(ctx, dataset.NewData(X, 3, nil), y, MarginOptions{Kernel: gram.RBF{Gamma: 30}}); !errors.Is(err, context.Canceled) {
		t.Errorf("MaxMargin: %v", err)
	}
}

// TestMaxIter: reaching the iteration cap returns a usable model and
// reports it.
func TestMaxIter(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	X, y := randData(r, 200, 3, 0.2)
	m, info, err := trainDense(X, 3, y, Options{C: 10, MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	if info.Converged || info.Problems[0].Converged || info.Problems[0].Iterations != 5 {
		t.Errorf("info = %+v, want 5 iterations, not converged", info.Problems[0])
	}
	if _, err := m.Predict(X[:3]); err != nil {
		t.Error(err)
	}
	_, linfo, err := trainLinearDense(X, 3, y, LinearOptions{C: 10, MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	if linfo.Converged || linfo.Problems[0].Iterations != 2 {
		t.Errorf("linear info = %+v", linfo.Problems[0])
	}
}

// TestNewModel: Parts round-trips through NewModel, and inconsistent parts
// are errors.
func TestNewModel(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	X, y := randInt(r, 90, 3, 3, 3)
	m, _, err := trainDense(X, 3, y, Options{Kernel: gram.Polynomial{Gamma: 0.5, Coef0: 1, Degree: 3}})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Parts()
	m2, err := expansion.New(p)
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([]int, 90), make([]int, 90)
	_ = m.PredictBatch(a, X)
	_ = m2.PredictBatch(b, X)
	if !slices.Equal(a, b) {
		t.Error("expansion.New(Parts()) predicts differently")
	}
	bad := []func(*expansion.Parts[float64]){
		func(p *expansion.Parts[float64]) { p.Kernel = nil },
		func(p *expansion.Parts[float64]) { p.Dims = 0 },
		func(p *expansion.Parts[float64]) { p.Labels = []int{2, 1, 3} },
		func(p *expansion.Parts[float64]) { p.Scheme = fit.Binary },
		func(p *expansion.Parts[float64]) { p.Coef = p.Coef[1:] },
		func(p *expansion.Parts[float64]) { p.Bias = append(p.Bias, 0) },
		func(p *expansion.Parts[float64]) { p.SV = p.SV[1:] },
		func(p *expansion.Parts[float64]) { p.Index = p.Index[1:] },
		func(p *expansion.Parts[float64]) { p.Coef[0] = math.NaN() },
		func(p *expansion.Parts[float64]) { p.SV[0] = math.Inf(1) },
		func(p *expansion.Parts[float64]) { p.Kernel = gram.RBF{} },
	}
	for i, f := range bad {
		q := m.Parts()
		f(&q)
		if _, err := expansion.New(q); !errors.Is(err, expansion.ErrModel) {
			t.Errorf("case %d: %v", i, err)
		}
	}
}

// TestNovikoff: MaxMargin's Bound is Novikoff's: Rosenblatt's perceptron,
// cycling through separable data until an epoch without mistakes, makes
// at most R²/γ_D² mistakes — with the bias as a weight on a constant
// feature 1 (BiasFeature) or without bias (NoBias). The test runs the
// perceptron itself, in float64, and checks that the bound holds and is
// not vacuous.
func TestNovikoff(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for trial := range 12 {
		d := 2 + trial%4
		X, _ := randData(r, 60, d, 0)
		w := make([]float64, d)
		for j := range w {
			w[j] = r.NormFloat64()
		}
		bias := trial%2 == 0
		y := make([]int, 60)
		var Xs []float64
		var ys []int
		for i := range y {
			s := 0.0
			for j := range d {
				s += w[j] * X[i*d+j]
			}
			if bias {
				s += 0.2
			}
			if math.Abs(s) < 0.15 { // keep a margin
				continue
			}
			Xs = append(Xs, X[i*d:(i+1)*d]...)
			ys = append(ys, int(math.Copysign(1, s)))
		}
		if !slices.Contains(ys, 1) || !slices.Contains(ys, -1) {
			continue // one class only: nothing to separate
		}
		mode := biasNone
		if bias {
			mode = biasFeature
		}
		mg, err := MaxMargin(context.Background(), dataset.NewData(Xs, d, nil), ys, mode.opts(MarginOptions{}))
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		// The perceptron on (x, 1) or x.
		n := len(ys)
		v := make([]float64, d+1)
		mistakes := 0
		for epoch := 0; epoch < 100000; epoch++ {
			clean := true
			for i := range n {
				s := 0.0
				for j := range d {
					s += v[j] * Xs[i*d+j]
				}
				if bias {
					s += v[d]
				}
				if float64(ys[i])*s <= 0 {
					clean = false
					mistakes++
					for j := range d {
						v[j] += float64(ys[i]) * Xs[i*d+j]
					}
					if bias {
						v[d] += float64(ys[i])
					}
				}
			}
			if clean {
				break
			}
		}
		t.Logf("trial %d: %d mistakes, bound %.1f", trial, mistakes, mg.Bound)
		if float64(mistakes) > mg.Bound {
			t.Errorf("trial %d: %d mistakes > R²/γ² = %v", trial, mistakes, mg.Bound)
		}
		if mg.Bound > 1e6 {
			t.Errorf("trial %d: bound %v is vacuous for this data", trial, mg.Bound)
		}
	}
}

// biasMode names the three separators MaxMargin measures.
type biasMode int

const (
	biasFree    biasMode = iota // b free and unregularised (the default)
	biasNone                    // NoBias
	biasFeature                 // BiasFeature 1
)

// opts sets o's bias options to mode's.
func (mode biasMode) opts(o MarginOptions) MarginOptions {
	o.NoBias, o.BiasFeature = mode == biasNone, 0
	if mode == biasFeature {
		o.BiasFeature = 1
	}
	return o
}
