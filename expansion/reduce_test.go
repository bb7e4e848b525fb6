package expansion

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// groupedParts returns a one-vs-one model of k classes whose coefficients
// follow the classes as a trained one's do (some zero), plus a support
// vector with no non-zero coefficient and one whose coefficients belong to
// functions of other classes than its first one's.
func groupedParts[T Float](rng *rand.Rand, k, s, d int, kern gram.Kernel) Parts[T] {
	r := k * (k - 1) / 2
	p := Parts[T]{Kernel: kern, Dims: d, Scheme: fit.OneVsOne, SV: make([]T, s*d), Coef: make([]T, r*s), Bias: make([]T, r)}
	for c := range k {
		p.Labels = append(p.Labels, 10*c+1)
	}
	for i := range p.SV {
		p.SV[i] = T(rng.NormFloat64())
	}
	for f := range p.Bias {
		p.Bias[f] = T(rng.NormFloat64())
	}
	for i := range s {
		c := rng.IntN(k)
		for f := range r {
			a, b := pairOf(k, f)
			switch {
			case i == 0: // all zero
			case i == 1 && f == r-1: // a function of two other classes
				p.Coef[f*s+i] = T(rng.Float64())
			case (c == a || c == b) && rng.IntN(4) > 0:
				v := T(0.1 + rng.Float64())
				if c == a {
					v = -v
				}
				p.Coef[f*s+i] = v
			}
		}
	}
	return p
}

// testGroupedScores: a one-vs-one model's decision values, reduced group
// by group, are within the bound of the float64 sum of coefficients times
// the model's own kernel values (Σ over S+1 terms: γ_{S+1}·(Σ|cᵢKᵢ| + |b|),
// the kernel values themselves are gram's, tested there), ScoresBatch and
// PredictBatch give Scores' and Predict's values bit for bit, on every
// implementation and for every kernel.
func testGroupedScores[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	u := 0x1p-53
	if _, ok := any(T(0)).(float32); ok {
		u = 0x1p-24
	}
	const k, s, d, n = 5, 61, 13, 150
	kerns := []gram.Kernel{gram.RBF{Gamma: 0.05}, gram.Linear{}, gram.Polynomial{Gamma: 0.1, Coef0: 1, Degree: 3}}
	for _, kern := range kerns {
		p := groupedParts[T](rng, k, s, d, kern)
		X := make([]T, n*d)
		for i := range X {
			X[i] = T(rng.NormFloat64())
		}
		for _, im := range kernel.Impls() {
			if !im.Available() {
				continue
			}
			what := fmt.Sprintf("%s/%v", im.Name(), kern)
			m, err := New(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.init(im); err != nil {
				t.Fatal(err)
			}
			if m.red == nil {
				t.Fatalf("%s: a one-vs-one model of %d classes is not grouped", what, k)
			}
			// The reference kernel values, in the support vectors' own order.
			ref, err := gram.NewRows(p.SV, d, kern, &gram.Options{Impl: im})
			if err != nil {
				t.Fatal(err)
			}
			r := m.NumScores()
			batch := make([]T, n*r)
			if err := m.ScoresBatch(batch, X); err != nil {
				t.Fatal(err)
			}
			pred := make([]int, n)
			if err := m.PredictBatch(pred, X); err != nil {
				t.Fatal(err)
			}
			one := make([]T, r)
			for i := range n {
				x := X[i*d : (i+1)*d]
				if err := m.Scores(one, x); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(one, batch[i*r:(i+1)*r]) {
					t.Fatalf("%s: sample %d: ScoresBatch = %v, Scores = %v", what, i, batch[i*r:(i+1)*r], one)
				}
				if l, err := m.Predict(x); err != nil || l != pred[i] {
					t.Fatalf("%s: sample %d: Predict = %d, %v; PredictBatch %d", what, i, l, err, pred[i])
				}
				kr, err := ref.RowOf(nil, x)
				if err != nil {
					t.Fatal(err)
				}
				g := float64(s+1) * u / (1 - float64(s+1)*u)
				for f := range r {
					sum, abs := float64(p.Bias[f]), math.Abs(float64(p.Bias[f]))
					for j, v := range kr {
						c := float64(p.Coef[f*s+j]) * float64(v)
						sum += c
						abs += math.Abs(c)
					}
					if got := float64(one[f]); !(math.Abs(got-sum) <= g*abs) {
						t.Fatalf("%s: sample %d function %d = %v, want %v ± %.3g", what, i, f, got, sum, g*abs)
					}
				}
			}
		}
	}
}

func TestGroupedScores(t *testing.T) {
	t.Run("f32", testGroupedScores[float32])
	t.Run("f64", testGroupedScores[float64])
}

// TestGroupSupport: the groups are the classes in order, each with the
// functions that have a non-zero coefficient in it; one-vs-rest, two
// classes and coefficients that do not save half the work stay dense.
func TestGroupSupport(t *testing.T) {
	// 3 classes, functions (0,1), (0,2), (1,2); support vectors of classes
	// 2, 1, 0, 1 (by their first non-zero coefficient) and one with none.
	coef := []float64{
		0, 1, -1, 2, 0, // (0,1): positive votes for 1
		1, -1, 0, 0, 0, // (0,2)
		1, 0, 1, 0, 0, // (1,2)
	}
	g := groupSupport(fit.OneVsOne, 3, 5, coef)
	// The groups keep 2·1 + 2·2 + 2·1 = 8 of the 15 coefficients: more
	// than half, so this small model stays dense.
	if g != nil {
		t.Fatalf("grouped with %d groups; the work saved is under half", len(g.groups))
	}
	// 6 classes, each support vector in its class's functions only.
	k, s := 6, 60
	r := k * (k - 1) / 2
	coef = make([]float64, r*s)
	for i := range s {
		c := (i * 7) % k
		for f := range r {
			a, b := pairOf(k, f)
			if c == a {
				coef[f*s+i] = -1
			} else if c == b {
				coef[f*s+i] = float64(i + 1)
			}
		}
	}
	g = groupSupport(fit.OneVsOne, k, s, coef)
	if g == nil || len(g.groups) != k || g.most != k-1 {
		t.Fatalf("groups = %+v, want %d of %d functions", g, k, k-1)
	}
	for c, grp := range g.groups {
		if grp.hi-grp.lo != s/k || len(grp.funcs) != k-1 {
			t.Fatalf("group %d: [%d, %d) with %d functions", c, grp.lo, grp.hi, len(grp.funcs))
		}
		for p := grp.lo; p < grp.hi; p++ {
			if i := g.perm[p]; (i*7)%k != c {
				t.Fatalf("group %d holds support vector %d of class %d", c, i, (i*7)%k)
			}
		}
		for t2, f := range grp.funcs {
			for p := grp.lo; p < grp.hi; p++ {
				if grp.coef[t2*(grp.hi-grp.lo)+p-grp.lo] != coef[f*s+g.perm[p]] {
					t.Fatalf("group %d function %d: coefficient of position %d differs", c, f, p)
				}
			}
		}
	}
	if groupSupport(fit.OneVsRest, k, s, coef[:k*s]) != nil || groupSupport(fit.OneVsOne, 2, s, coef[:s]) != nil {
		t.Fatal("a one-vs-rest or two-class model is grouped")
	}
}
