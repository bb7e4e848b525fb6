package perceptron

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// sparseIntSet returns integer data with about half its values zero, as
// dense float32 rows and CSR, with labels of k classes (k = 2: −1/+1).
func sparseIntSet(seed uint64, n, d, k int) ([]float32, []int, *dataset.CSR[float32]) {
	rng := newRand(seed)
	X64, y := intMulticlass(rng, n, d, k)
	for i := range X64 {
		if rng.IntN(2) == 0 {
			X64[i] = 0
		}
	}
	if k == 2 {
		for i := range y {
			y[i] = map[bool]int{true: 1, false: -1}[y[i] > 0]
		}
		y[0], y[1] = -1, 1
	}
	X := to32(X64)
	c, err := dataset.FromDense(&dataset.Data[float32]{X: X, Y: y, Rows: n, Cols: d})
	if err != nil {
		panic(err)
	}
	return X, y, c
}

// sameSparseDense reports whether the sparse fit s and the dense fit u are
// the same model: the same support vectors (training rows, and values),
// coefficients, biases or voted records, bit for bit.
func sameSparseDense[T kernel.Float](t *testing.T, name string, sm, dm *expansion.Model[T]) {
	t.Helper()
	s, u := kernelState(sm), kernelState(dm)
	if s.ssv == nil || s.SV != nil || sm.SupportVectors() != nil {
		t.Fatalf("%s: the sparse fit keeps dense support vectors", name)
	}
	if !slices.Equal(s.idx, u.idx) || s.kind != u.kind || s.algo != u.algo || s.d != u.d || !slices.Equal(s.labels, u.labels) {
		t.Fatalf("%s: support rows %v sparse, %v dense (or kind, algorithm, labels differ)", name, s.idx, u.idx)
	}
	dense, err := s.ssv.ToDense(-1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dense.X, u.SV) {
		t.Fatalf("%s: the sparse support vectors are not the dense ones", name)
	}
	if !slices.Equal(s.Coef, u.Coef) || !slices.Equal(s.B, u.B) ||
		!slices.Equal(s.QOff, u.QOff) || !slices.Equal(s.QIdx, u.QIdx) || !slices.Equal(s.QStep, u.QStep) ||
		!slices.Equal(s.VOff, u.VOff) || !slices.Equal(s.VPre, u.VPre) || !slices.Equal(s.VB, u.VB) || !slices.Equal(s.VC, u.VC) {
		t.Fatalf("%s: coefficients, biases or voted records differ:\nsparse %v %v\ndense  %v %v", name, s.Coef, s.B, u.Coef, u.B)
	}
}

// TestKernelSparseIsDense: on integer data the kernel perceptron trained on
// CSR rows is the one trained on the dense rows, bit for bit — binary,
// one-vs-rest and argmax, plain, averaged and voted, linear, polynomial
// and RBF, with the Gram matrix and through the row cache — and it scores
// the training rows (dense or sparse samples) as the dense model does.
func TestKernelSparseIsDense(t *testing.T) {
	const n, d = 70, 20
	for _, k := range []int{2, 3} {
		X, y, c := sparseIntSet(uint64(30+k), n, d, k)
		for _, kern := range []gram.Kernel{gram.Linear{}, gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}, gram.RBF{Gamma: 1.0 / 32}} {
			for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted} {
				for _, multi := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
					if k == 2 && multi == fit.Argmax || multi == fit.Argmax && algo == linear.Voted {
						continue
					}
					for _, maxBytes := range []int64{0, 8 * n * 4} {
						name := fmt.Sprintf("k=%d/%v/%v/%v/maxBytes=%d", k, kern, algo, multi, maxBytes)
						opt := KernelOptions{Options: Options{Algorithm: algo, Multiclass: multi, MaxIter: 4, Shuffle: true, Seed: 5, Stop: StopNever},
							Kernel: kern, MaxBytes: maxBytes}
						var dm, sm *expansion.Model[float32]
						var err, err2 error
						if k == 2 {
							dm, _, err = trainKernelBinary(X, d, y, opt)
							sm, _, err2 = trainKernelBinarySparse(c, y, opt)
						} else {
							dm, _, err = trainKernelMulti(X, d, y, opt)
							sm, _, err2 = trainKernelMultiSparse(c, y, opt)
						}
						if err != nil || err2 != nil {
							t.Fatalf("%s: dense %v, sparse %v", name, err, err2)
						}
						sameSparseDense(t, name, sm, dm)
						checkKernelScores(t, name, sm, dm, X, c)
					}
				}
			}
		}
	}
}

func checkKernelScores(t *testing.T, name string, sm, dm *expansion.Model[float32], X []float32, c *dataset.CSR[float32]) {
	t.Helper()
	d, r := dm.Dims(), dm.NumScores()
	want := make([]float32, c.Rows*r)
	if err := dm.ScoresBatch(want, X); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, c.Rows*r)
	if err := sm.ScoresBatchSparse(got, c); err != nil {
		t.Fatal(err)
	}
	got2 := make([]float32, c.Rows*r)
	if err := sm.ScoresBatch(got2, X); err != nil {
		t.Fatal(err)
	}
	got3 := make([]float32, c.Rows*r)
	if err := dm.ScoresBatchSparse(got3, c); err != nil {
		t.Fatal(err)
	}
	one := make([]float32, r)
	for i := range c.Rows {
		if err := sm.ScoresSparse(one, c.Row(i)); err != nil {
			t.Fatal(err)
		}
		for q := range r {
			w := want[i*r+q]
			if got[i*r+q] != w || got2[i*r+q] != w || got3[i*r+q] != w || one[q] != w {
				t.Fatalf("%s: row %d score %d: dense %v; sparse model: batch %v, dense samples %v, one %v; dense model, sparse samples %v",
					name, i, q, w, got[i*r+q], got2[i*r+q], one[q], got3[i*r+q])
			}
		}
		p, err := sm.PredictSparse(c.Row(i))
		pd, err2 := dm.Predict(X[i*d : (i+1)*d])
		if err != nil || err2 != nil || p != pd {
			t.Fatalf("%s: row %d predicted %d sparse (%v), %d dense (%v)", name, i, p, err, pd, err2)
		}
	}
}

// TestKernelSparseNormalize: with Normalize and NormalizeFeatures the
// sparse fit scales a copy of the stored values as the dense fit scales
// its rows; the models agree on the training predictions, and the caller's
// matrix is unchanged.
func TestKernelSparseNormalize(t *testing.T) {
	X, y, c := sparseIntSet(40, 60, 16, 3)
	before := slices.Clone(c.Val)
	for _, norm := range []Options{{Normalize: true}, {NormalizeFeatures: true}} {
		opt := KernelOptions{Options: norm, Kernel: gram.RBF{Gamma: 0.5}}
		opt.MaxIter = 5
		dm, _, err := trainKernelMulti(X, 16, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		sm, _, err := trainKernelMultiSparse(c, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		pd, ps := make([]int, c.Rows), make([]int, c.Rows)
		if err := dm.PredictBatch(pd, X); err != nil {
			t.Fatal(err)
		}
		if err := sm.PredictBatchSparse(ps, c); err != nil {
			t.Fatal(err)
		}
		same := 0
		for i := range pd {
			if pd[i] == ps[i] {
				same++
			}
		}
		if same < len(pd)-2 {
			t.Errorf("%+v: the sparse and the dense fit agree on %d of %d training rows", norm, same, len(pd))
		}
	}
	if !slices.Equal(before, c.Val) {
		t.Error("training modified the caller's matrix")
	}
}

// TestKernelSparseErrors: budgets, options and bad samples behave as for
// dense rows: errors wrapping ErrBudget, ErrOption, ErrDims, ErrNonFinite,
// never a panic.
func TestKernelSparseErrors(t *testing.T) {
	X, y, c := sparseIntSet(41, 50, 12, 2)
	budget := KernelOptions{MaxBytes: 10}
	_, _, errD := trainKernelBinary(X, 12, y, budget)
	_, _, errS := trainKernelBinarySparse(c, y, budget)
	if !isErr(errD, ErrBudget) || !isErr(errS, ErrBudget) {
		t.Errorf("MaxBytes below one row: dense %v, sparse %v", errD, errS)
	}
	voted := KernelOptions{Options: Options{Algorithm: linear.Voted, MaxIter: 50, Stop: StopNever, VotedMaxBytes: 64}, Kernel: gram.RBF{Gamma: 0.01}}
	_, _, errD = trainKernelBinary(X, 12, y, voted)
	_, _, errS = trainKernelBinarySparse(c, y, voted)
	if !isErr(errD, ErrBudget) || !isErr(errS, ErrBudget) || errD.Error() != errS.Error() {
		t.Errorf("VotedMaxBytes: dense %v, sparse %v", errD, errS)
	}
	if _, _, err := trainKernelBinarySparse(c, y, KernelOptions{Options: Options{DataMargin: true}}); !isErr(err, ErrOption) {
		t.Errorf("DataMargin: %v", err)
	}
	if _, _, err := trainKernelBinarySparse(c, y[:3], KernelOptions{}); !isErr(err, linear.ErrDims) {
		t.Errorf("short labels: %v", err)
	}
	bad := *c
	bad.Val = slices.Clone(c.Val)
	bad.Val[2] = float32(math.NaN())
	if _, _, err := trainKernelBinarySparse(&bad, y, KernelOptions{}); !isErr(err, linear.ErrNonFinite) {
		t.Errorf("NaN: %v", err)
	}
	sm, _, err := trainKernelBinarySparse(c, y, KernelOptions{Kernel: gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}})
	if err != nil {
		t.Fatal(err)
	}
	dm, _, err := trainKernelBinary(X, 12, y, KernelOptions{Kernel: gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}})
	if err != nil {
		t.Fatal(err)
	}
	wide := &dataset.CSR[float32]{Rows: 1, Cols: 13, Ptr: []int{0, 1}, Idx: []int32{12}, Val: []float32{1}, Y: []int{1}}
	for _, m := range []*expansion.Model[float32]{sm, dm} {
		for _, tc := range []struct {
			name string
			x    dataset.SparseRow[float32]
			want error
		}{
			{"wider", dataset.SparseRow[float32]{Idx: []int32{1, 12}, Val: []float32{1, 1}}, linear.ErrDims},
			{"negative", dataset.SparseRow[float32]{Idx: []int32{-3}, Val: []float32{1}}, linear.ErrDims},
			{"unsorted", dataset.SparseRow[float32]{Idx: []int32{5, 2}, Val: []float32{1, 1}}, linear.ErrDims},
			{"lengths", dataset.SparseRow[float32]{Idx: []int32{5}}, linear.ErrDims},
			{"inf", dataset.SparseRow[float32]{Idx: []int32{5}, Val: []float32{float32(math.Inf(-1))}}, linear.ErrNonFinite},
		} {
			if _, err := m.PredictSparse(tc.x); !isErr(err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			}
		}
		if err := m.PredictBatchSparse(make([]int, 1), wide); !isErr(err, linear.ErrDims) {
			t.Errorf("a matrix wider than the model: %v", err)
		}
		if _, err := m.Predict(make([]float32, 13)); !isErr(err, linear.ErrDims) {
			t.Errorf("a dense sample wider than the model: %v", err)
		}
		x := make([]float32, 12)
		x[3] = float32(math.NaN())
		if _, err := m.Predict(x); !isErr(err, linear.ErrNonFinite) {
			t.Errorf("a dense NaN sample: %v", err)
		}
	}
}

// TestKernelSparseFile: a sparse kernel model survives the binary and the
// JSON form (the same bytes again, the same scores); every truncation is
// ErrCorrupt.
func TestKernelSparseFile(t *testing.T) {
	_, y, c := sparseIntSet(42, 60, 30, 3)
	for _, algo := range []linear.Algorithm{linear.Averaged, linear.Voted} {
		m, _, err := trainKernelMultiSparse(c, y, KernelOptions{Options: Options{Algorithm: algo, MaxIter: 3, Normalize: true}, Kernel: gram.RBF{Gamma: 0.3}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		j, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		for name, dec := range map[string]func(*expansion.Model[float32]) error{
			"binary": func(m2 *expansion.Model[float32]) error { return m2.UnmarshalBinary(b) },
			"json":   func(m2 *expansion.Model[float32]) error { return m2.UnmarshalJSON(j) },
		} {
			m2 := new(expansion.Model[float32])
			if err := dec(m2); err != nil {
				t.Fatal(algo, name, err)
			}
			if m2.SparseSupport() == nil {
				t.Fatalf("%v %s: decoded without sparse support vectors", algo, name)
			}
			if !sameKernelModel(t, m, m2) {
				t.Fatalf("%v %s: re-encoded file differs", algo, name)
			}
			s1, s2 := make([]float32, c.Rows*3), make([]float32, c.Rows*3)
			if err := m.ScoresBatchSparse(s1, c); err != nil {
				t.Fatal(err)
			}
			if err := m2.ScoresBatchSparse(s2, c); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s1, s2) {
				t.Fatalf("%v %s: decoded model scores differently", algo, name)
			}
		}
		if size, need, err := EncodedSize(b[:headerSize]); err != nil || (size != int64(len(b)) && need == 0) {
			t.Fatalf("EncodedSize: %d, %d, %v", size, need, err)
		}
		for n := range len(b) {
			if err := new(expansion.Model[float32]).UnmarshalBinary(b[:n]); !isErr(err, linear.ErrCorrupt) {
				t.Fatalf("%v: truncated to %d bytes: %v", algo, n, err)
			}
		}
	}
}

// FuzzKernelSparseFile holds UnmarshalBinary of a sparse kernel model's
// file with a byte changed (checksum recomputed) to an error or a model
// that re-encodes to the same bytes and predicts without panicking.
func FuzzKernelSparseFile(f *testing.F) {
	_, y, c := sparseIntSet(43, 30, 10, 2)
	m, _, err := trainKernelBinarySparse(c, y, KernelOptions{Kernel: gram.RBF{Gamma: 0.1}})
	if err != nil {
		f.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b, uint16(120), byte(1))
	f.Add(b, uint16(100), byte(0x80))
	f.Fuzz(func(t *testing.T, data []byte, at uint16, v byte) {
		if len(data) > 0 {
			data = slices.Clone(data)
			data[int(at)%len(data)] ^= v
			if len(data) >= headerSize+4 {
				data = reseal(data)
			}
		}
		m2 := new(expansion.Model[float32])
		if err := m2.UnmarshalBinary(data); err != nil {
			return
		}
		b2, err := m2.MarshalBinary()
		if err != nil || string(b2) != string(data) {
			t.Fatalf("decoded a file that does not re-encode to itself (%v)", err)
		}
		_, _ = m2.PredictSparse(c.Row(0))
	})
}
