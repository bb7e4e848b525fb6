package svm

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// sparseInt returns an integer data set with about a third of its values
// zero, labels in [0, classes), as dense rows and CSR.
func sparseInt(r *rand.Rand, n, d, classes int) ([]float32, []int, *dataset.CSR[float32]) {
	X := make([]float32, n*d)
	y := make([]int, n)
	for i := range n {
		y[i] = i % classes
		for j := range d {
			if r.IntN(3) == 0 {
				X[i*d+j] = float32(r.IntN(5) - 2 + 2*boolInt(j%classes == y[i]))
			}
		}
	}
	c, err := dataset.FromDense(&dataset.Data[float32]{X: X, Y: y, Rows: n, Cols: d})
	if err != nil {
		panic(err)
	}
	return X, y, c
}

// TestTrainSparseIsDense: on integer data the sparse fit is the dense fit,
// bit for bit — the same support vectors (rows), coefficients αᵢyᵢ, biases
// and SMO iterations — for every kernel and scheme, with the kernel matrix
// precomputed and through the row cache; its scores on the training rows,
// sparse or dense, are the dense model's.
func TestTrainSparseIsDense(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 55))
	const n, d = 90, 24
	for _, classes := range []int{2, 3} {
		X, y, c := sparseInt(r, n, d, classes)
		for _, kern := range []gram.Kernel{gram.Linear{}, gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}, gram.RBF{Gamma: 1.0 / 16}} {
			schemes := []fit.Scheme{fit.OneVsOne}
			if classes > 2 {
				schemes = append(schemes, fit.OneVsRest)
			}
			for _, sch := range schemes {
				for _, cache := range []bool{false, true} {
					name := fmt.Sprintf("classes=%d/%v/%v/cache=%v", classes, kern, sch, cache)
					opts := Options{Kernel: kern, C: 0.5, Multiclass: sch, Tol: 1e-3}
					if cache {
						opts.GramBytes, opts.CacheBytes = -1, 20*n*4
					}
					dm, dinfo, err := trainDense(X, d, y, opts)
					if err != nil {
						t.Fatal(name, err)
					}
					sm, sinfo, err := trainSparse(c, y, opts)
					if err != nil {
						t.Fatal(name, err)
					}
					compareSparseFit(t, name, dm, sm, dinfo, sinfo)
					if sm.SparseSupport() == nil || sm.SupportVectors() != nil {
						t.Fatalf("%s: the sparse fit keeps dense support vectors", name)
					}
					checkScoresAgree(t, name, dm, sm, X, c)
				}
			}
		}
	}
}

func compareSparseFit(t *testing.T, name string, dm, sm *expansion.Model[float32], dinfo, sinfo *Info) {
	t.Helper()
	di, si := dm.SupportIndices(), sm.SupportIndices()
	if len(di) != len(si) || len(di) == 0 {
		t.Fatalf("%s: %d support vectors sparse, %d dense", name, len(si), len(di))
	}
	for k := range di {
		if di[k] != si[k] {
			t.Fatalf("%s: support vector %d is row %d sparse, %d dense", name, k, si[k], di[k])
		}
	}
	for q := range dm.NumScores() {
		dc, db := dm.Coefficients(q)
		sc, sb := sm.Coefficients(q)
		if db != sb {
			t.Fatalf("%s: function %d bias %v sparse, %v dense", name, q, sb, db)
		}
		for k := range dc {
			if dc[k] != sc[k] {
				t.Fatalf("%s: function %d coefficient %d: %v sparse, %v dense", name, q, k, sc[k], dc[k])
			}
		}
		if dinfo.Problems[q].Iterations != sinfo.Problems[q].Iterations || dinfo.Problems[q].Dual != sinfo.Problems[q].Dual {
			t.Fatalf("%s: function %d: %d iterations (dual %v) sparse, %d (%v) dense", name, q,
				sinfo.Problems[q].Iterations, sinfo.Problems[q].Dual, dinfo.Problems[q].Iterations, dinfo.Problems[q].Dual)
		}
	}
	// The sparse support vectors are the dense ones.
	sv, sp := dm.SupportVectors(), sm.SparseSupport()
	spd, err := sp.ToDense(-1)
	if err != nil {
		t.Fatal(err)
	}
	for k := range sv {
		if sv[k] != spd.X[k] {
			t.Fatalf("%s: support vector value %d: %v sparse, %v dense", name, k, spd.X[k], sv[k])
		}
	}
}

func checkScoresAgree(t *testing.T, name string, dm, sm *expansion.Model[float32], X []float32, c *dataset.CSR[float32]) {
	t.Helper()
	d := dm.Dims()
	r := dm.NumScores()
	want, got, got2, got3 := make([]float32, r), make([]float32, r), make([]float32, r), make([]float32, r)
	for i := range c.Rows {
		x := X[i*d : (i+1)*d]
		if err := dm.Scores(want, x); err != nil {
			t.Fatal(err)
		}
		if err := sm.ScoresSparse(got, c.Row(i)); err != nil {
			t.Fatal(err)
		}
		if err := sm.Scores(got2, x); err != nil {
			t.Fatal(err)
		}
		if err := dm.ScoresSparse(got3, c.Row(i)); err != nil {
			t.Fatal(err)
		}
		for q := range want {
			if got[q] != want[q] || got2[q] != want[q] || got3[q] != want[q] {
				t.Fatalf("%s: row %d score %d: sparse model %v (dense sample %v), dense model %v (sparse sample %v)", name, i, q, got[q], got2[q], want[q], got3[q])
			}
		}
	}
	pd := make([]int, c.Rows)
	ps := make([]int, c.Rows)
	pb := make([]int, c.Rows)
	if err := dm.PredictBatch(pd, X); err != nil {
		t.Fatal(err)
	}
	if err := sm.PredictBatchSparse(ps, c); err != nil {
		t.Fatal(err)
	}
	if err := sm.PredictBatch(pb, X); err != nil {
		t.Fatal(err)
	}
	for i := range pd {
		if pd[i] != ps[i] || pd[i] != pb[i] {
			t.Fatalf("%s: row %d predicted %d dense, %d sparse batch, %d sparse model dense batch", name, i, pd[i], ps[i], pb[i])
		}
	}
}

// TestSparseModelFile: a model with sparse support vectors survives the
// binary and the JSON form (same parts, same scores), Inspect says it is
// sparse, and every truncation of the file is expansion.ErrCorrupt, never a panic.
func TestSparseModelFile(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 66))
	_, y, c := sparseInt(r, 60, 40, 3)
	m, _, err := trainSparse(c, y, Options{Kernel: gram.RBF{Gamma: 0.05}, C: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if info, err := Inspect(b); err != nil || !info.Sparse || info.Support != m.NumSupport() {
		t.Fatalf("Inspect: %+v, %v", info, err)
	}
	// EncodedSize asks for the bytes up to the count of stored values, then
	// knows the size.
	size, need, err := EncodedSize(b[:40])
	for steps := 0; err == nil && need > 0 && steps < 4; steps++ {
		size, need, err = EncodedSize(b[:need])
	}
	if err != nil || size != int64(len(b)) {
		t.Fatalf("EncodedSize: %d (need %d), %v; the file has %d", size, need, err, len(b))
	}
	j, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for name, dec := range map[string]func(*expansion.Model[float32]) error{
		"binary": func(m2 *expansion.Model[float32]) error { return m2.UnmarshalBinary(b) },
		"json":   func(m2 *expansion.Model[float32]) error { return m2.UnmarshalJSON(j) },
	} {
		var m2 expansion.Model[float32]
		if err := dec(&m2); err != nil {
			t.Fatal(name, err)
		}
		if m2.SparseSupport() == nil {
			t.Fatalf("%s: decoded model has no sparse support vectors", name)
		}
		b2, err := m2.MarshalBinary()
		if err != nil || string(b2) != string(b) {
			t.Fatalf("%s: re-encoded file differs (%v)", name, err)
		}
		s1, s2 := make([]float32, m.NumScores()), make([]float32, m.NumScores())
		for i := range c.Rows {
			if err := m.ScoresSparse(s1, c.Row(i)); err != nil {
				t.Fatal(err)
			}
			if err := m2.ScoresSparse(s2, c.Row(i)); err != nil {
				t.Fatal(err)
			}
			for q := range s1 {
				if s1[q] != s2[q] {
					t.Fatalf("%s: row %d score %d: %v decoded, %v trained", name, i, q, s2[q], s1[q])
				}
			}
		}
	}
	for n := 0; n < len(b); n++ {
		var m2 expansion.Model[float32]
		if err := m2.UnmarshalBinary(b[:n]); !errors.Is(err, expansion.ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: %v, want expansion.ErrCorrupt", n, err)
		}
	}
}

// TestSparseSampleErrors: a sparse sample wider than the model, with
// unsorted or repeated features, mismatched lengths or a NaN is an error
// (expansion.ErrDims, expansion.ErrNonFinite), never a panic, for sparse and dense models.
func TestSparseSampleErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 77))
	X, y, c := sparseInt(r, 40, 10, 2)
	sm, _, err := trainSparse(c, y, Options{Kernel: gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}})
	if err != nil {
		t.Fatal(err)
	}
	dm, _, err := trainDense(X, 10, y, Options{Kernel: gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}})
	if err != nil {
		t.Fatal(err)
	}
	wide := &dataset.CSR[float32]{Rows: 1, Cols: 11, Ptr: []int{0, 1}, Idx: []int32{10}, Val: []float32{1}, Y: []int{0}}
	for _, m := range []*expansion.Model[float32]{sm, dm} {
		for _, tc := range []struct {
			name string
			x    dataset.SparseRow[float32]
			want error
		}{
			{"wider", dataset.SparseRow[float32]{Idx: []int32{2, 10}, Val: []float32{1, 1}}, expansion.ErrDims},
			{"negative", dataset.SparseRow[float32]{Idx: []int32{-1}, Val: []float32{1}}, expansion.ErrDims},
			{"repeated", dataset.SparseRow[float32]{Idx: []int32{3, 3}, Val: []float32{1, 1}}, expansion.ErrDims},
			{"lengths", dataset.SparseRow[float32]{Idx: []int32{3}, Val: nil}, expansion.ErrDims},
			{"nan", dataset.SparseRow[float32]{Idx: []int32{3}, Val: []float32{float32(math.NaN())}}, expansion.ErrNonFinite},
		} {
			if _, err := m.PredictSparse(tc.x); !errors.Is(err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			}
		}
		if err := m.PredictBatchSparse(make([]int, 1), wide); !errors.Is(err, expansion.ErrDims) {
			t.Errorf("a matrix wider than the model: %v", err)
		}
		if p, err := m.PredictSparse(dataset.SparseRow[float32]{}); err != nil || (p != 0 && p != 1) {
			t.Errorf("empty sample: %d, %v", p, err)
		}
	}
	bad := *c
	bad.Val = append([]float32(nil), c.Val...)
	bad.Val[0] = float32(math.Inf(1))
	if _, _, err := trainSparse(&bad, y, Options{}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Inf in the data: %v", err)
	}
	if _, _, err := trainSparse(c, y[:5], Options{}); !errors.Is(err, ErrDims) {
		t.Errorf("short labels: %v", err)
	}
	if _, _, err := trainSparse[float32](nil, nil, Options{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil matrix: %v", err)
	}
	// Budget errors as for dense data: a cache below one row.
	_, _, errD := trainDense(X, 10, y, Options{GramBytes: -1, CacheBytes: 8})
	_, _, errS := trainSparse(c, y, Options{GramBytes: -1, CacheBytes: 8})
	if !errors.Is(errD, ErrBudget) || !errors.Is(errS, ErrBudget) {
		t.Errorf("cache of 8 bytes: dense %v, sparse %v; want ErrBudget", errD, errS)
	}
}

// FuzzSparseModelFile holds UnmarshalBinary of a sparse model's file with
// a byte changed (and the checksum recomputed, so the decoder sees it) to an error or a model that re-encodes to the
// same bytes, never a panic.
func FuzzSparseModelFile(f *testing.F) {
	r := rand.New(rand.NewPCG(8, 88))
	_, y, c := sparseInt(r, 30, 12, 2)
	m, _, err := trainSparse(c, y, Options{Kernel: gram.RBF{Gamma: 0.1}})
	if err != nil {
		f.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b, uint16(100), byte(7))
	f.Add(b, uint16(len(b)-10), byte(0xff))
	f.Fuzz(func(t *testing.T, data []byte, at uint16, v byte) {
		if len(data) > 0 {
			data = append([]byte(nil), data...)
			data[int(at)%len(data)] ^= v
			if len(data) >= 44 {
				data = reseal(data) // past the checksum, into the decoder
			}
		}
		var m2 expansion.Model[float32]
		if err := m2.UnmarshalBinary(data); err != nil {
			return
		}
		b2, err := m2.MarshalBinary()
		if err != nil || string(b2) != string(data) {
			t.Fatalf("decoded a file that does not re-encode to itself (%v)", err)
		}
	})
}

// TestLinearModelSparse: the linear SVM's sparse predictions are its dense
// ones (integer data: the same scores bit for bit), and a sample wider
// than the model is linear.ErrDims.
func TestLinearModelSparse(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 99))
	X, y, c := sparseInt(r, 80, 16, 3)
	m, _, err := trainLinearDense(X, 16, y, LinearOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, got := make([]float32, 3*c.Rows), make([]float32, 3*c.Rows)
	if err := m.ScoresBatch(want, X); err != nil {
		t.Fatal(err)
	}
	if err := m.ScoresBatchSparse(got, c); err != nil {
		t.Fatal(err)
	}
	pd, ps := make([]int, c.Rows), make([]int, c.Rows)
	if err := m.PredictBatch(pd, X); err != nil {
		t.Fatal(err)
	}
	if err := m.PredictBatchSparse(ps, c); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-5*max(1, math.Abs(float64(want[i]))) {
			t.Fatalf("score %d: sparse %v, dense %v", i, got[i], want[i])
		}
	}
	for i := range pd {
		if pd[i] != ps[i] {
			t.Fatalf("row %d: sparse %d, dense %d", i, ps[i], pd[i])
		}
	}
	if _, err := m.PredictSparse(dataset.SparseRow[float32]{Idx: []int32{16}, Val: []float32{1}}); !errors.Is(err, linear.ErrDims) {
		t.Errorf("a sample wider than the model: %v", err)
	}
}

// TestGammaScaleSparse: GammaScaleSparse is GammaScale of the dense form
// to the last bits, and 1 for constant data.
func TestGammaScaleSparse(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 100))
	X, _, c := sparseInt(r, 50, 13, 2)
	for i := range c.Val {
		c.Val[i] += 0.25
	}
	d, err := c.ToDense(-1)
	if err != nil {
		t.Fatal(err)
	}
	X = d.X
	want, got := GammaScale(dataset.NewData(X, 13, nil)), GammaScale(c)
	if math.Abs(got-want) > 1e-12*want {
		t.Errorf("GammaScaleSparse = %v, GammaScale = %v", got, want)
	}
	empty := &dataset.CSR[float32]{Rows: 2, Cols: 3, Ptr: []int{0, 0, 0}, Y: []int{0, 1}}
	if g := GammaScale(empty); g != GammaScale(dataset.NewData(make([]float32, 6), 3, nil)) {
		t.Errorf("all zeros: %v, GammaScale %v", g, GammaScale(dataset.NewData(make([]float32, 6), 3, nil)))
	}
}
