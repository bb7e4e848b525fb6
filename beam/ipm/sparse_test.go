package ipm

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// sparseSet returns rows of 2¹⁸ features with 8 small integers stored
// each, labelled by the sign of a planted ±1 weight vector (rows on the
// hyperplane are left out): separable, and 3 GB (3000 rows) as a dense float32
// matrix.
func sparseSet(rows int, seed uint64) *dataset.CSR[float32] {
	const cols = 1 << 18
	r := rand.New(rand.NewPCG(seed, 3))
	u := func(j int32) float32 { return float32(int(uint32(j)*2654435761>>31)*2 - 1) }
	c := &dataset.CSR[float32]{Ptr: []int{0}, Cols: cols}
	for c.Rows < rows {
		seen := map[int32]bool{}
		var idx []int32
		for len(idx) < 8 {
			j := int32(r.IntN(cols))
			if !seen[j] {
				seen[j] = true
				idx = append(idx, j)
			}
		}
		for i := 1; i < len(idx); i++ { // sort
			for k := i; k > 0 && idx[k] < idx[k-1]; k-- {
				idx[k], idx[k-1] = idx[k-1], idx[k]
			}
		}
		s := float32(0)
		val := make([]float32, len(idx))
		for k, j := range idx {
			val[k] = float32(r.IntN(7) - 3)
			if val[k] == 0 {
				val[k] = 1
			}
			s += u(j) * val[k]
		}
		if s == 0 {
			continue
		}
		y := 1
		if s < 0 {
			y = -1
		}
		c.Idx, c.Val, c.Y = append(c.Idx, idx...), append(c.Val, val...), append(c.Y, y)
		c.Ptr = append(c.Ptr, len(c.Idx))
		c.Rows++
	}
	return c
}

// Shards of 2¹⁸-feature rows train on CSR matrices (3 GB dense; a shard
// that densified could not run here): one shard of the averaged
// perceptron gives perceptron.Fit's model on the CSR byte for byte, two
// shards of the online perceptron and of the SVM fit ≥ 97% of the separable
// training set.
func TestSparseShards(t *testing.T) {
	ctx := context.Background()
	c := sparseSet(3000, 5)
	if denseFor(c) != nil {
		t.Fatal("denseFor densifies a 3 GB shard")
	}
	if d, err := dataset.FromDense(intData(50, 12, 1, 6)); err != nil || denseFor(d) == nil {
		t.Fatalf("denseFor keeps a 2/3-dense shard sparse (%v)", err)
	}
	dir := t.TempDir()
	for i := range 2 {
		lo, hi := c.Rows*i/2, c.Rows*(i+1)/2
		part := &dataset.CSR[float32]{Ptr: make([]int, 0, hi-lo+1), Idx: c.Idx[c.Ptr[lo]:c.Ptr[hi]], Val: c.Val[c.Ptr[lo]:c.Ptr[hi]],
			Y: c.Y[lo:hi], Rows: hi - lo, Cols: c.Cols}
		for r := lo; r <= hi; r++ {
			part.Ptr = append(part.Ptr, c.Ptr[r]-c.Ptr[lo])
		}
		var b bytes.Buffer
		if err := dataset.WriteLIBSVMSparse(&b, part); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "part-"+strconv.Itoa(i)+".svm"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pattern := filepath.Join(dir, "part-*.svm")
	run := func(alg linear.Algorithm, shards, epochs int) string {
		out := filepath.Join(dir, alg.String()+strconv.Itoa(shards)+".bin")
		if _, err := Run(ctx, Config{Inputs: []string{pattern}, Dims: c.Cols, Algorithm: alg, Shards: shards, Epochs: epochs,
			Output: out}, runPrism); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got, err := os.ReadFile(run(linear.Averaged, 1, 3))
	if err != nil {
		t.Fatal(err)
	}
	opt := Options(linear.Averaged, 1)
	opt.MaxIter = 3
	single, _, err := perceptron.Fit(context.Background(), c, c.Y, opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := mustBinary(t, single); !bytes.Equal(got, want) {
		t.Fatal("one sparse shard differs from perceptron.Fit on the CSR")
	}
	acc := func(pred func(dataset.SparseRow[float32]) (int, error)) float64 {
		ok := 0
		for i := range c.Rows {
			p, err := pred(c.Row(i))
			if err != nil {
				t.Fatal(err)
			}
			if p == c.Y[i] {
				ok++
			}
		}
		return float64(ok) / float64(c.Rows)
	}
	pm := readModel(t, run(linear.Online, 2, 10))
	a := acc(pm.PredictSparse)
	t.Logf("2 shards, 10 epochs: online perceptron %.4f", a)
	if a < 0.97 {
		t.Errorf("2 shards, online perceptron: training accuracy %.4f", a)
	}
	sm := readSVM[float32](t, run(linear.SVM, 2, 10))
	a = acc(func(r dataset.SparseRow[float32]) (int, error) {
		s := float32(0)
		w, b := sm.Weights(0)
		for k, j := range r.Idx {
			s += w[j] * r.Val[k]
		}
		if s+b > 0 {
			return 1, nil
		}
		return -1, nil
	})
	t.Logf("2 shards, 10 epochs: SVM %.4f", a)
	if a < 0.97 {
		t.Errorf("2 shards, SVM: training accuracy %.4f", a)
	}
}

func mustBinary(t *testing.T, m *linear.Model[float32]) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
