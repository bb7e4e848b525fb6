package perceptron

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// onImpl returns a model serving m's snapshot with implementation im, so
// that one test process checks every implementation the CPU has.
func onImpl[T kernel.Float](m *linear.Model[T], im *kernel.Impl) *linear.Model[T] {
	s := *snap(m)
	s.Impl = im
	return newModel(&s)
}

// refScores returns the exact (float64) scores of x under snapshot s,
// with the sample factors s computes, and a bound on the error of any
// evaluation order of each. For a voted model ref[k] is the vote of
// the exact vector scores and tol[k] is 0, or +Inf where a vector's
// score is within rounding of 0 (either vote is then right).
func refScores[T kernel.Float](s *linmodel.Parts[T], x []T) (ref, tol []float64) {
	mul, bmul := sampleScale(s, x)
	m, bm := float64(mul), float64(bmul)
	u, d := parity.Unit[T](), s.Dims
	score := func(w []T, b T) (float64, float64) {
		p, S := parity.Dot(w, x)
		a := p*m + float64(b)*bm
		e := (parity.Gamma[T](d)+parity.Gamma[float64](d))*S*math.Abs(m) +
			4*u*(math.Abs(p*m)+math.Abs(float64(b)*bm)) + float64(d)*math.SmallestNonzeroFloat32
		return a, e
	}
	r := partsRows(s)
	ref, tol = make([]float64, r), make([]float64, r)
	for k := range r {
		if !(linear.Algorithm(s.Algorithm) == linear.Voted) {
			ref[k], tol[k] = score(s.W[k*d:(k+1)*d], s.B[k])
			continue
		}
		for j := s.VOff[k]; j < s.VOff[k+1]; j++ {
			a, e := score(s.V[j*d:(j+1)*d], s.VB[j])
			if math.Abs(a) <= e {
				tol[k] = math.Inf(1)
			}
			if a > 0 {
				ref[k] += float64(s.VC[j])
			} else {
				ref[k] -= float64(s.VC[j])
			}
		}
	}
	return ref, tol
}

// argmaxRef returns the label the exact scores give and whether it is
// certain: no other score (or, for a binary model, 0) within the bounds.
func argmaxRef[T kernel.Float](s *linmodel.Parts[T], ref, tol []float64) (int, bool) {
	if s.Scheme == fit.Binary {
		l := -1
		if ref[0] > 0 {
			l = 1
		}
		return l, math.Abs(ref[0]) > tol[0]
	}
	best := 0
	for k := range ref {
		if ref[k] > ref[best] {
			best = k
		}
	}
	for k := range ref {
		if k != best && ref[best]-ref[k] <= tol[best]+tol[k] {
			return s.Labels[best], false
		}
	}
	return s.Labels[best], true
}

type predictCase struct {
	name    string
	classes int // 2: trainBinary (binary), else trainMulti
	opt     Options
}

var predictCases = []predictCase{
	{"binary/online", 2, Options{MaxIter: 3}},
	{"binary/averaged", 2, Options{Algorithm: linear.Averaged, MaxIter: 3}},
	{"binary/voted", 2, Options{Algorithm: linear.Voted, MaxIter: 3}},
	{"binary/normalize", 2, Options{MaxIter: 3, Normalize: true}},
	{"binary/features", 2, Options{MaxIter: 3, NormalizeFeatures: true}},
	{"ovr/online", 5, Options{MaxIter: 3}},
	{"ovr/averaged/normalize", 5, Options{Algorithm: linear.Averaged, MaxIter: 3, Normalize: true}},
	{"ovr/voted", 5, Options{Algorithm: linear.Voted, MaxIter: 4}},
	{"ovr/voted/features", 5, Options{Algorithm: linear.Voted, MaxIter: 2, NormalizeFeatures: true}},
	{"argmax/online", 7, Options{Multiclass: fit.Argmax, MaxIter: 3}},
	{"argmax/averaged", 7, Options{Multiclass: fit.Argmax, Algorithm: linear.Averaged, MaxIter: 3}},
	{"argmax/70 classes", 70, Options{Multiclass: fit.Argmax, MaxIter: 2}},
	{"ovr/svm", 5, Options{Algorithm: linear.SVM, MaxIter: 3, Lambda: 1e-3}},
}

// trainCase fits c's model on n random samples of d features (labels
// 10·class − 3), or on integer data when integer is set.
func trainCase[T kernel.Float](t *testing.T, c predictCase, n, d int, seed uint64) (*linear.Model[T], []T) {
	t.Helper()
	rng := newRand(seed)
	X := make([]T, n*d)
	for i := range X {
		X[i] = T(rng.Float64()*2 - 1)
	}
	y := make([]int, n)
	for i := range y {
		if c.classes == 2 {
			y[i] = 1 - 2*rng.IntN(2)
		} else {
			y[i] = 10*(i%c.classes) - 3
		}
	}
	var m *linear.Model[T]
	var err error
	if c.classes == 2 {
		m, _, err = trainBinary(X, d, y, c.opt)
	} else {
		m, _, err = trainMulti(X, d, y, c.opt)
	}
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return m, X
}

// checkScores checks the blocked Scores, the batched ScoresBatch and the
// labels of Predict and PredictBatch of every row of X against the exact
// scores, on implementation im.
func checkScores[T kernel.Float](t *testing.T, what string, m *linear.Model[T], X []T) {
	t.Helper()
	s := snap(m)
	d, r := s.Dims, partsRows(s)
	n := len(X) / d
	batch := make([]T, n*r)
	if err := m.ScoresBatch(batch, X); err != nil {
		t.Fatalf("%s: ScoresBatch: %v", what, err)
	}
	labels := make([]int, n)
	if err := m.PredictBatch(labels, X); err != nil {
		t.Fatalf("%s: PredictBatch: %v", what, err)
	}
	one := make([]T, r)
	for i := range n {
		x := X[i*d : (i+1)*d]
		if err := m.Scores(one, x); err != nil {
			t.Fatalf("%s: Scores: %v", what, err)
		}
		ref, tol := refScores(s, x)
		for k := range r {
			for _, got := range []struct {
				name string
				v    T
			}{{"Scores", one[k]}, {"ScoresBatch", batch[i*r+k]}} {
				if e := math.Abs(float64(got.v) - ref[k]); !(e <= tol[k]) && !math.IsInf(tol[k], 1) {
					t.Fatalf("%s: row %d score %d: %s = %v, exact %v: |error| %.3g > bound %.3g", what, i, k, got.name, got.v, ref[k], e, tol[k])
				}
			}
		}
		l, err := m.Predict(x)
		if err != nil {
			t.Fatalf("%s: Predict: %v", what, err)
		}
		if want, sure := argmaxRef(s, ref, tol); sure && (l != want || labels[i] != want) {
			t.Fatalf("%s: row %d: Predict %d, PredictBatch %d, exact scores give %d", what, i, l, labels[i], want)
		}
		if l != decideLabel(s.Scheme == fit.Binary, s.Labels, one) || labels[i] != decideLabel(s.Scheme == fit.Binary, s.Labels, batch[i*r:(i+1)*r]) {
			t.Fatalf("%s: row %d: Predict %d, PredictBatch %d, not the labels of their scores", what, i, l, labels[i])
		}
	}
}

func testPredictParity[T kernel.Float](t *testing.T) {
	for _, c := range predictCases {
		for _, d := range []int{1, 37, 130} {
			m, X := trainCase[T](t, c, 150, d, uint64(d))
			if c.opt.Algorithm == linear.Voted && d > 1 {
				if s := snap(m); s.VOff[1]-s.VOff[0] <= scoreChunk {
					t.Fatalf("%s/d=%d: %d vectors in class 0, want more than a chunk", c.name, d, s.VOff[1]-s.VOff[0])
				}
			}
			for _, im := range availableImpls() {
				checkScores(t, fmt.Sprintf("%s/d=%d/%s", c.name, d, im), onImpl(m, im), X)
			}
		}
	}
}

// TestPredictParity checks, on every implementation this CPU has, every
// kind and algorithm's Predict, Scores (blocked over the classes),
// ScoresBatch and PredictBatch (one matrix product) against the exact
// per-class scores, within the reduction bound.
func TestPredictParity(t *testing.T) {
	t.Run("f32", testPredictParity[float32])
	t.Run("f64", testPredictParity[float64])
}

func testPredictIntegerExact[T kernel.Float](t *testing.T) {
	rng := newRand(21)
	Xf, yb, _, _ := separable(rng, 90, 23, 3, 0.5, true)
	Xm, ym := intMulticlass(rng, 150, 23, 6)
	Xw, yw := intMulticlass(rng, 200, 23, 40)
	for _, c := range []struct {
		name  string
		multi bool
		opt   Options
	}{
		{"binary/online", false, Options{MaxIter: 3}},
		{"binary/voted", false, Options{Algorithm: linear.Voted, MaxIter: 3}},
		{"ovr/online", true, Options{MaxIter: 3}},
		{"ovr/voted", true, Options{Algorithm: linear.Voted, MaxIter: 3}},
		{"argmax/online", true, Options{Multiclass: fit.Argmax, MaxIter: 3}},
		{"argmax/40 classes", true, Options{Multiclass: fit.Argmax, MaxIter: 3}},
	} {
		var m *linear.Model[T]
		var X []T
		var err error
		switch {
		case c.name == "argmax/40 classes":
			X = conv[T](Xw)
			m, _, err = trainMulti(X, 23, yw, c.opt)
		case c.multi:
			X = conv[T](Xm)
			m, _, err = trainMulti(X, 23, ym, c.opt)
		default:
			X = conv[T](Xf)
			m, _, err = trainBinary(X, 23, yb, c.opt)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range availableImpls() {
			mi := onImpl(m, im)
			s := snap(mi)
			r, n := partsRows(s), len(X)/23
			batch := make([]T, n*r)
			if err := mi.ScoresBatch(batch, X); err != nil {
				t.Fatal(err)
			}
			one := make([]T, r)
			for i := range n {
				x := X[i*23 : (i+1)*23]
				if err := mi.Scores(one, x); err != nil {
					t.Fatal(err)
				}
				ref, _ := refScores(s, x)
				for k := range r {
					if float64(one[k]) != ref[k] || float64(batch[i*r+k]) != ref[k] {
						t.Fatalf("%s/%s: row %d score %d: Scores %v, ScoresBatch %v, exact %v", c.name, im, i, k, one[k], batch[i*r+k], ref[k])
					}
				}
			}
		}
	}
}

func conv[T kernel.Float](x []float64) []T {
	out := make([]T, len(x))
	for i, v := range x {
		out[i] = T(v)
	}
	return out
}

// TestPredictIntegerExact: on integer data an integer model's scores are
// exact sums, so every path gives them exactly.
func TestPredictIntegerExact(t *testing.T) {
	t.Run("f32", testPredictIntegerExact[float32])
	t.Run("f64", testPredictIntegerExact[float64])
}

// TestPredictBlockedAllocatesNothing: Predict and Scores of every kind,
// with more classes than one stack block and voted models with more
// vectors than one, allocate nothing.
func TestPredictBlockedAllocatesNothing(t *testing.T) {
	for _, c := range predictCases {
		m, X := trainCase[float32](t, c, 150, 37, 5)
		m64, X64 := trainCase[float64](t, c, 150, 37, 5)
		sc, sc64 := make([]float32, m.NumScores()), make([]float64, m64.NumScores())
		x, x64 := X[37:74], X64[37:74]
		for name, f := range map[string]func(){
			"Predict":     func() { _, _ = m.Predict(x) },
			"Scores":      func() { _ = m.Scores(sc, x) },
			"Predict f64": func() { _, _ = m64.Predict(x64) },
			"Scores f64":  func() { _ = m64.Scores(sc64, x64) },
		} {
			if n := testing.AllocsPerRun(50, f); n != 0 {
				t.Errorf("%s: %s: %v allocations per call", c.name, name, n)
			}
		}
	}
}

// TestPredictBatchErrors: wrong shapes wrap ErrDims, a NaN or Inf in a row
// wraps ErrNonFinite and names the row, on the MatVec path (binary), the
// matrix-product path (ovr) and the voted one; nothing panics.
func TestPredictBatchErrors(t *testing.T) {
	for _, c := range []predictCase{predictCases[0], predictCases[5], predictCases[7], predictCases[11]} {
		m, X := trainCase[float32](t, c, 150, 9, 3)
		r := m.NumScores()
		bad := append([]float32(nil), X[:5*9]...)
		bad[3*9+4] = float32(math.Inf(-1))
		for _, tc := range []struct {
			name string
			err  error
			want error
		}{
			{"Predict short", func() error { _, err := m.Predict(X[:8]); return err }(), linear.ErrDims},
			{"Predict long", func() error { _, err := m.Predict(X[:10]); return err }(), linear.ErrDims},
			{"Scores dst", m.Scores(make([]float32, r+1), X[:9]), linear.ErrDims},
			{"Scores x", m.Scores(make([]float32, r), X[:10]), linear.ErrDims},
			{"ScoresBatch dst", m.ScoresBatch(make([]float32, 2*r+1), X[:18]), linear.ErrDims},
			{"ScoresBatch X", m.ScoresBatch(make([]float32, 2*r), X[:19]), linear.ErrDims},
			{"PredictBatch X", m.PredictBatch(make([]int, 2), X[:17]), linear.ErrDims},
			{"Predict Inf", func() error { _, err := m.Predict(bad[3*9 : 4*9]); return err }(), linear.ErrNonFinite},
			{"Scores Inf", m.Scores(make([]float32, r), bad[3*9:4*9]), linear.ErrNonFinite},
			{"ScoresBatch Inf", m.ScoresBatch(make([]float32, 5*r), bad), linear.ErrNonFinite},
			{"PredictBatch Inf", m.PredictBatch(make([]int, 5), bad), linear.ErrNonFinite},
			{"untrained", new(linear.Model[float32]).ScoresBatch(nil, nil), linear.ErrUntrained},
		} {
			if !errors.Is(tc.err, tc.want) {
				t.Errorf("%s: %s: err = %v, want %v", c.name, tc.name, tc.err, tc.want)
			}
		}
		if err := m.ScoresBatch(make([]float32, 5*r), bad); err == nil || !containsRow(err.Error(), 3) {
			t.Errorf("%s: ScoresBatch: err = %v, want one naming row 3", c.name, err)
		}
		if err := m.ScoresBatch(nil, nil); err != nil {
			t.Errorf("%s: empty batch: %v", c.name, err)
		}
	}
}

func containsRow(msg string, i int) bool {
	return strings.Contains(msg, fmt.Sprintf("X[%d]", i)) || strings.Contains(msg, fmt.Sprintf("row %d", i))
}

// TestScoresBatchHugeSample: a sample whose squared norm overflows float32
// (which gram's overflow check rejects) but whose scores are finite is
// scored by the batch as by Scores, not refused.
func TestScoresBatchHugeSample(t *testing.T) {
	for _, c := range []predictCase{predictCases[5], predictCases[7], predictCases[11]} {
		m, X := trainCase[float32](t, c, 150, 9, 4)
		if s := snap(m); c.name != "ovr/online" && !useGEMM(len(s.B)+len(s.VB)) {
			t.Fatalf("%s: %d vectors: not the matrix-product path", c.name, len(s.B)+len(s.VB))
		}
		big := append([]float32(nil), X[:2*9]...)
		for j := range 9 {
			big[9+j] = 3e19 * float32(1+j%3)
		}
		r := m.NumScores()
		batch := make([]float32, 2*r)
		if err := m.ScoresBatch(batch, big); err != nil {
			t.Fatalf("%s: ScoresBatch: %v", c.name, err)
		}
		one := make([]float32, r)
		for i := range 2 {
			if err := m.Scores(one, big[i*9:(i+1)*9]); err != nil {
				t.Fatalf("%s: Scores: %v", c.name, err)
			}
			ref, tol := refScores(snap(m), big[i*9:(i+1)*9])
			for k := range r {
				if e := math.Abs(float64(batch[i*r+k]) - ref[k]); !(e <= tol[k]) && !math.IsInf(tol[k], 1) {
					t.Fatalf("%s: row %d score %d: %v, exact %v", c.name, i, k, batch[i*r+k], ref[k])
				}
			}
		}
	}
}

// TestScoresBatchSplit: a batch large enough to be split over goroutines
// (binary: kernel.MatVec per range; 5 classes: modelkern.Dots2 per pair of
// rows) gives the same values whatever GOMAXPROCS, bit for bit, and the
// values of Scores within twice the reduction bound (the batch sums in
// another order than Scores' single Dot or Dots).
func TestScoresBatchSplit(t *testing.T) {
	const n, d = 700, 400
	defer func(w int) { linmodel.ParallelMinWork = w }(linmodel.ParallelMinWork)
	linmodel.ParallelMinWork = 1 << 17
	for _, c := range []predictCase{predictCases[0], predictCases[3], predictCases[5]} {
		m, X := trainCase[float32](t, c, n, d, 9)
		r := m.NumScores()
		if n*d*r < 2*linmodel.ParallelMinWork {
			t.Fatalf("%s: %d multiply-adds, too few to split", c.name, n*d*r)
		}
		var first []float32
		for _, procs := range []int{1, 2, 3} {
			old := runtime.GOMAXPROCS(procs)
			batch := make([]float32, n*r)
			err := m.ScoresBatch(batch, X)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = batch
			} else if !parity.SameBits(first, batch) {
				t.Fatalf("%s: ScoresBatch on GOMAXPROCS %d differs from GOMAXPROCS 1", c.name, procs)
			}
			one := make([]float32, r)
			for i := range n {
				if err := m.Scores(one, X[i*d:(i+1)*d]); err != nil {
					t.Fatal(err)
				}
				_, tol := refScores(snap(m), X[i*d:(i+1)*d])
				for k := range r {
					if e := math.Abs(float64(one[k]) - float64(batch[i*r+k])); !(e <= 2*tol[k]) {
						t.Fatalf("%s/GOMAXPROCS=%d: row %d score %d: ScoresBatch %v, Scores %v", c.name, procs, i, k, batch[i*r+k], one[k])
					}
				}
			}
		}
	}
}

// TestPredictBatchSizes checks ScoresBatch and PredictBatch against Scores,
// Predict and the exact scores for batch sizes around the two-sample tiles
// of modelkern.Dots2, the stack blocks of PredictBatch and its goroutine split
// (0, 1, 31, 32, 33, 200, 1000 rows), for binary, one-vs-rest and argmax
// models (10, 7 and 40 classes on Dots2, 70 on the matrix product), float32 and
// float64, on every implementation.
func TestPredictBatchSizes(t *testing.T) {
	t.Run("f32", testPredictBatchSizes[float32])
	t.Run("f64", testPredictBatchSizes[float64])
}

func testPredictBatchSizes[T kernel.Float](t *testing.T) {
	const d = 45
	for _, c := range []predictCase{
		{"binary/online", 2, Options{MaxIter: 3}},
		{"ovr10/averaged", 10, Options{Algorithm: linear.Averaged, MaxIter: 2}},
		{"argmax7/normalize", 7, Options{Multiclass: fit.Argmax, MaxIter: 2, Normalize: true}},
		{"argmax40/online", 40, Options{Multiclass: fit.Argmax, MaxIter: 2}},
		{"argmax70/online", 70, Options{Multiclass: fit.Argmax, MaxIter: 2}},
	} {
		m, X := trainCase[T](t, c, 1000, d, 9)
		for _, im := range availableImpls() {
			mi := onImpl(m, im)
			for _, n := range []int{0, 1, 31, 32, 33, 200, 1000} {
				checkScores(t, fmt.Sprintf("%s/%s/n=%d", c.name, im, n), mi, X[:n*d])
			}
		}
	}
}

// TestPredictBatchAllocations: in the steady state PredictBatch of a model
// with few weight vectors allocates nothing on one goroutine and a number
// of small objects independent of the batch size on several, also right
// after a garbage collection; with many (the matrix product) it allocates
// no buffer of the batch's size after a collection (the score and packing
// buffers come from free lists that survive it).
func TestPredictBatchAllocations(t *testing.T) {
	const d = 784
	for _, c := range []predictCase{
		{"binary", 2, Options{MaxIter: 1}},
		{"ovr10", 10, Options{MaxIter: 1}},
	} {
		m, X := trainCase[float32](t, c, 1000, d, 3)
		pred := make([]int, 1000)
		for _, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			small := testing.AllocsPerRun(20, func() { _ = m.PredictBatch(pred[:200], X[:200*d]) })
			large := testing.AllocsPerRun(20, func() {
				runtime.GC()
				_ = m.PredictBatch(pred, X)
			})
			runtime.GOMAXPROCS(old)
			if procs == 1 && (small != 0 || large != 0) {
				t.Errorf("%s, GOMAXPROCS 1: %v and %v allocations per PredictBatch of 200 and 1000, want 0", c.name, small, large)
			}
			if small > 4*float64(procs) || large > 4*float64(procs) {
				t.Errorf("%s, GOMAXPROCS %d: %v and %v allocations per PredictBatch of 200 and 1000, want at most %d", c.name, procs, small, large, 4*procs)
			}
		}
	}
	m, X := trainCase[float32](t, predictCase{"argmax70", 70, Options{Multiclass: fit.Argmax, MaxIter: 1}}, 1000, d, 4)
	if !useGEMM(70) {
		t.Fatal("70 classes do not take the matrix product")
	}
	pred := make([]int, 1000)
	_ = m.PredictBatch(pred, X)
	var before, after runtime.MemStats
	const rounds = 5
	runtime.ReadMemStats(&before)
	for range rounds {
		runtime.GC()
		if err := m.PredictBatch(pred, X); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	// The scores are 1000·70 float32 (280 KB), the packed samples 1000·784
	// (3.1 MB): fresh buffers would be far above this bound per call.
	if per := (after.TotalAlloc - before.TotalAlloc) / rounds; per > 64<<10 {
		t.Errorf("argmax70: PredictBatch of 1000 after a GC allocated %d bytes per call, want under 64 KiB", per)
	}
}
