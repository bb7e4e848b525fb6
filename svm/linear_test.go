package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// exactBox solves min ½αᵀQα − eᵀα s.t. 0 ≤ α ≤ U (U may be +Inf) exactly,
// by trying every split into α = 0, free and α = U and keeping one whose
// solution meets all KKT conditions (gradient ≥ 0 at 0, = 0 when free,
// ≤ 0 at U).
func exactBox(Q [][]float64, U float64) (float64, []float64, bool) {
	n := len(Q)
	states := 3
	if math.IsInf(U, 1) {
		states = 2
	}
	total := 1
	for range n {
		total *= states
	}
	st := make([]int, n)
	for code := range total {
		c := code
		var free []int
		for i := range n {
			st[i] = c % states
			c /= states
			if st[i] == 1 {
				free = append(free, i)
			}
		}
		alpha := make([]float64, n)
		for i := range n {
			if st[i] == 2 {
				alpha[i] = U
			}
		}
		if len(free) > 0 {
			A := make([][]float64, len(free))
			b := make([]float64, len(free))
			for r, i := range free {
				A[r] = make([]float64, len(free))
				for cc, j := range free {
					A[r][cc] = Q[i][j]
				}
				b[r] = 1
				for j := range n {
					if st[j] == 2 {
						b[r] -= Q[i][j] * U
					}
				}
			}
			x, ok := solveLinear(A, b)
			if !ok {
				continue
			}
			good := true
			for r, i := range free {
				good = good && x[r] > 0 && x[r] < U
				alpha[i] = x[r]
			}
			if !good {
				continue
			}
		}
		ok := true
		obj := 0.0
		for i := range n {
			g := -1.0
			for j := range n {
				g += Q[i][j] * alpha[j]
			}
			obj += alpha[i] * (g - 1) / 2
			switch st[i] {
			case 0:
				ok = ok && g >= -1e-9
			case 2:
				ok = ok && g <= 1e-9
			}
		}
		if ok {
			return obj - 0, alpha, true
		}
	}
	return 0, nil, false
}

// TestLinearMatchesExactQP: on small problems the linear solver's dual
// objective and weights equal an exact solve of LIBLINEAR's dual
// (Q̄ᵢⱼ = yᵢyⱼ(xᵢ·xⱼ + B²) + Dᵢᵢδᵢⱼ), for both losses, with and without
// the bias feature.
func TestLinearMatchesExactQP(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for trial := range 24 {
		n, d := 6, 3
		X, y := randData(r, n, d, 0.3)
		loss := []Loss{Hinge, SquaredHinge}[trial%2]
		C := []float64{0.3, 3}[trial/2%2]
		noBias := trial/4%2 == 1
		B := 1.0
		if noBias {
			B = 0
		}
		Q := make([][]float64, n)
		for i := range Q {
			Q[i] = make([]float64, n)
			for j := range Q[i] {
				dot := B * B
				for k := range d {
					dot += X[i*d+k] * X[j*d+k]
				}
				Q[i][j] = float64(y[i]*y[j]) * dot
			}
		}
		U := C
		if loss == SquaredHinge {
			U = math.Inf(1)
			for i := range Q {
				Q[i][i] += 0.5 / C
			}
		}
		obj, alpha, ok := exactBox(Q, U)
		if !ok {
			t.Fatalf("trial %d: no exact solution", trial)
		}
		m, info, err := trainLinearDense(X, d, y, LinearOptions{C: C, Loss: loss, NoBias: noBias, Tol: 1e-9, MaxIter: 100000})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("trial %d (%v, C=%v, bias=%v)", trial, loss, C, !noBias)
		if got := info.Problems[0].Dual; math.Abs(got-obj) > 1e-9*max(1, math.Abs(obj)) {
			t.Errorf("%s: dual %.12g, exact %.12g", name, got, obj)
		}
		w, b := m.Weights(0)
		for k := range d {
			var want float64
			for i := range n {
				want += alpha[i] * float64(y[i]) * X[i*d+k]
			}
			if math.Abs(w[k]-want) > 1e-6 {
				t.Errorf("%s: w[%d] = %v, exact %v", name, k, w[k], want)
			}
		}
		var wantB float64
		for i := range n {
			wantB += alpha[i] * float64(y[i]) * B * B
		}
		if math.Abs(b-wantB) > 1e-6 {
			t.Errorf("%s: b = %v, exact %v", name, b, wantB)
		}
	}
}

// TestLinearGap: on larger problems, with a small tolerance, the duality
// gap Primal + Dual closes (it is ≥ 0 by weak duality and 0 at the
// optimum), in float64 and float32, binary and one-vs-rest.
func TestLinearGap(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	X, y := randData(r, 400, 8, 0.1)
	y3 := make([]int, len(y))
	for i := range y3 {
		y3[i] = i % 3
		X[i*8] += float64(y3[i])
	}
	for _, loss := range []Loss{Hinge, SquaredHinge} {
		for _, labels := range [][]int{y, y3} {
			_, info, err := trainLinearDense(X, 8, labels, LinearOptions{Loss: loss, C: 2, Tol: 1e-5, MaxIter: 20000})
			if err != nil {
				t.Fatal(err)
			}
			_, info32, err := trainLinearDense(convert32(X), 8, labels, LinearOptions{Loss: loss, C: 2, Tol: 1e-3, MaxIter: 20000})
			if err != nil {
				t.Fatal(err)
			}
			for p, q := range info.Problems {
				gap := q.Primal + q.Dual
				if gap < -1e-9*math.Abs(q.Dual) || gap > 1e-5*math.Abs(q.Dual) || !q.Converged {
					t.Errorf("%v machine %d: primal %v, dual %v, converged %v", loss, p, q.Primal, q.Dual, q.Converged)
				}
				q32 := info32.Problems[p]
				if math.Abs(q32.Dual-q.Dual) > 1e-3*math.Abs(q.Dual) {
					t.Errorf("%v machine %d: float32 dual %v, float64 %v", loss, p, q32.Dual, q.Dual)
				}
			}
		}
	}
}

// TestLinearDeterminism: the same seed gives a bit-identical model
// whatever the number of goroutines; another seed another path to the same
// optimum.
func TestLinearDeterminism(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	X, _ := randData(r, 300, 5, 0)
	y := make([]int, 300)
	for i := range y {
		y[i] = r.IntN(5)
	}
	ref, info, err := trainLinearDense(X, 5, y, LinearOptions{Seed: 7, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range []int{2, 3, 5} {
		m, _, err := trainLinearDense(X, 5, y, LinearOptions{Seed: 7, Workers: th})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(weightsOf(m), weightsOf(ref)) || !slices.Equal(biasesOf(m), biasesOf(ref)) {
			t.Errorf("Threads %d: model differs from Workers 1", th)
		}
	}
	m, info2, err := trainLinearDense(X, 5, y, LinearOptions{Seed: 8, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(weightsOf(m), weightsOf(ref)) {
		t.Error("seeds 7 and 8 give the same model")
	}
	for p := range info.Problems {
		if a, b := info.Problems[p].Dual, info2.Problems[p].Dual; math.Abs(a-b) > 0.02*math.Abs(a) {
			t.Errorf("machine %d: dual %v with seed 7, %v with seed 8", p, a, b)
		}
	}
}

// csr is a minimal compressed-sparse-row matrix implementing Rows, to
// show that the solver runs on sparse data through the interface.
type csr struct {
	ptr []int
	idx []int
	val []float64
	d   int
}

func newCSR(X []float64, d int) *csr {
	m := &csr{d: d, ptr: []int{0}}
	for i := 0; i < len(X)/d; i++ {
		for j, v := range X[i*d : (i+1)*d] {
			if v != 0 {
				m.idx = append(m.idx, j)
				m.val = append(m.val, v)
			}
		}
		m.ptr = append(m.ptr, len(m.idx))
	}
	return m
}

func (m *csr) Len() int { return len(m.ptr) - 1 }
func (m *csr) Dim() int { return m.d }
func (m *csr) Dot(i int, w []float64) float64 {
	var s float64
	for k := m.ptr[i]; k < m.ptr[i+1]; k++ {
		s += m.val[k] * w[m.idx[k]]
	}
	return s
}
func (m *csr) Axpy(i int, a float64, w []float64) {
	for k := m.ptr[i]; k < m.ptr[i+1]; k++ {
		w[m.idx[k]] += a * m.val[k]
	}
}
func (m *csr) SqNorm(i int) float64 {
	var s float64
	for k := m.ptr[i]; k < m.ptr[i+1]; k++ {
		s += m.val[k] * m.val[k]
	}
	return s
}

// TestLinearRows: a sparse matrix through the Rows interface trains the
// same machine as the dense one (to rounding: the sums run in another
// order), and a non-finite sparse value is caught.
func TestLinearRows(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 38))
	X, y := randData(r, 200, 20, 0.05)
	for i := range X {
		if r.IntN(3) > 0 {
			X[i] = 0
		}
	}
	opts := LinearOptions{Tol: 1e-6, MaxIter: 10000}
	dm, dinfo, err := trainLinearDense(X, 20, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	sm, sinfo, err := trainLinearRows[float64](context.Background(), newCSR(X, 20), y, opts)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := sinfo.Problems[0].Dual, dinfo.Problems[0].Dual; math.Abs(a-b) > 1e-8*math.Abs(b) {
		t.Errorf("sparse dual %v, dense %v", a, b)
	}
	ws, _ := sm.Weights(0)
	wd, _ := dm.Weights(0)
	for j := range wd {
		if math.Abs(ws[j]-wd[j]) > 1e-4*max(1, math.Abs(wd[j])) {
			t.Errorf("w[%d]: sparse %v, dense %v", j, ws[j], wd[j])
		}
	}
	bad := newCSR(X, 20)
	bad.val[3] = math.NaN()
	if _, _, err := trainLinearRows[float64](context.Background(), bad, y, opts); err == nil {
		t.Error("NaN in sparse rows accepted")
	}
	if _, _, err := trainLinearRows[float64](context.Background(), newCSR(X, 20), y, LinearOptions{C: math.Inf(1)}); err == nil {
		t.Error("C = Inf on Rows accepted")
	}
}

// TestLinearHardMargin: C = +Inf gives the maximum-margin hyperplane with
// LIBLINEAR's bias feature (MaxMargin with BiasFeature): on AND, w = (2,2)
// and b = −3, margin 1/√17; every training row is on the right side with
// y·f ≥ 1 − Tol.
func TestLinearHardMargin(t *testing.T) {
	X := []float64{0, 0, 0, 1, 1, 0, 1, 1}
	y := []int{-1, -1, -1, 1}
	m, info, err := trainLinearDense(X, 2, y, LinearOptions{C: math.Inf(1), Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	w, b := m.Weights(0)
	if math.Abs(w[0]-2) > 1e-6 || math.Abs(w[1]-2) > 1e-6 || math.Abs(b+3) > 1e-6 {
		t.Errorf("w = %v, b = %v, want (2, 2), −3", w, b)
	}
	if p := info.Problems[0]; math.Abs(p.Primal-8.5) > 1e-6 || math.Abs(p.Dual+8.5) > 1e-6 {
		t.Errorf("primal %v, dual %v, want ±½·17", p.Primal, p.Dual)
	}
	// Multiclass, separable: every row at functional margin ≥ 1 − Tol.
	r := rand.New(rand.NewPCG(39, 40))
	X3, _ := randData(r, 90, 2, 0)
	y3 := make([]int, 90)
	for i := range y3 {
		y3[i] = i % 3
		a := 2 * math.Pi * float64(y3[i]) / 3
		X3[i*2] = 4*math.Cos(a) + 0.5*X3[i*2]
		X3[i*2+1] = 4*math.Sin(a) + 0.5*X3[i*2+1]
	}
	m3, _, err := trainLinearDense(X3, 2, y3, LinearOptions{C: math.Inf(1), Tol: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	sc := make([]float64, 3)
	for i, c := range y3 {
		_ = m3.Scores(sc, X3[i*2:(i+1)*2])
		for k, s := range sc {
			yy := -1.0
			if k == c {
				yy = 1
			}
			if yy*s < 1-1e-6 {
				t.Errorf("row %d, class %d: y·f = %v", i, k, yy*s)
			}
		}
	}
}

// newDCD is the linear SVM of weights W (rows of d) and biases b over
// labels, as linear.New makes it.
func newDCD(W []float64, d int, b []float64, labels []int) (*linear.Model[float64], error) {
	kind := fit.OneVsRest
	if len(b) == 1 {
		kind = fit.Binary
	}
	return linear.New(linear.State[float64]{Scheme: kind, Algorithm: linear.DualCD, Dims: d, Labels: labels, Bias: true, BiasFeature: 1, Eta: 1, W: W, B: b})
}

// weightsOf and biasesOf are a model's weights and biases.
func weightsOf(m *linear.Model[float64]) []float64 { st, _ := m.State(); return st.W }
func biasesOf(m *linear.Model[float64]) []float64  { st, _ := m.State(); return st.B }

// TestLinearModel: linear.New checks a linear SVM's parts; Predict,
// Scores and PredictBatch agree; a binary SVM keeps its two labels.
func TestLinearModel(t *testing.T) {
	if _, err := newDCD([]float64{1, 2}, 2, []float64{0}, []int{1, -1}); err == nil {
		t.Error("unsorted labels accepted")
	}
	if _, err := newDCD([]float64{1, 2}, 2, []float64{0, 1}, []int{1, 2, 3}); err == nil {
		t.Error("2 biases for 3 labels accepted")
	}
	bm, err := newDCD([]float64{1, 2}, 2, []float64{-1}, []int{3, 7})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := bm.Predict([]float64{1, 1}); p != 7 {
		t.Errorf("binary {3, 7}: score 2 predicts %d, want 7", p)
	}
	if p, _ := bm.Predict([]float64{1, 0}); p != 3 {
		t.Errorf("binary {3, 7}: score 0 predicts %d, want 3", p)
	}
	if _, err := bm.Update([]float64{1, 0}, 7); !errors.Is(err, linear.ErrUnsupported) {
		t.Errorf("Update of a linear SVM: %v, want linear.ErrUnsupported", err)
	}
	m, err := newDCD([]float64{1, 0, 0, 1, -1, -1}, 2, []float64{0, 0, 0.5}, []int{4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	X := []float64{2, 1, 1, 2, -1, -1, 0, 0}
	want := []int{4, 5, 6, 6}
	got := make([]int, 4)
	if err := m.PredictBatch(got, X); err != nil || !slices.Equal(got, want) {
		t.Errorf("PredictBatch = %v, %v; want %v", got, err, want)
	}
	for i, w := range want {
		if p, err := m.Predict(X[i*2 : (i+1)*2]); err != nil || p != w {
			t.Errorf("Predict row %d = %d, %v", i, p, err)
		}
	}
	if acc, err := m.Accuracy(X, want); err != nil || acc != 1 {
		t.Errorf("Accuracy = %v, %v", acc, err)
	}
}
