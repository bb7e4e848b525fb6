package gram

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// randCSR returns an n×d CSR with about density·d stored values per row:
// small integers (exact products) or values in (−1, 1).
func randCSR[T kernel.Float](rng *rand.Rand, n, d int, density float64, integer bool) *dataset.CSR[T] {
	c := &dataset.CSR[T]{Rows: n, Cols: d, Ptr: []int{0}, Y: make([]int, n)}
	for i := range n {
		for j := range d {
			if rng.Float64() < density {
				v := T(rng.Float64()*2 - 1)
				if integer {
					v = T(rng.IntN(7) - 3)
				}
				c.Idx = append(c.Idx, int32(j))
				c.Val = append(c.Val, v)
			}
		}
		c.Ptr = append(c.Ptr, len(c.Idx))
		c.Y[i] = i % 2
	}
	return c
}

func denseOf[T kernel.Float](t *testing.T, c *dataset.CSR[T]) []T {
	t.Helper()
	d, err := c.ToDense(-1)
	if err != nil {
		t.Fatal(err)
	}
	return d.X
}

func sparseKernels(d int) []Kernel {
	return []Kernel{Linear{}, Polynomial{Gamma: 1, Coef0: 1, Degree: 3}, Polynomial{Gamma: 0.5, Coef0: 2, Degree: 2}, RBF{Gamma: 1 / float64(d)}}
}

// On integer data the sparse Gram matrix is the dense one bit for bit, on
// every implementation (the products are exact and the kernel function is
// the same code); rows, batches and the cache are the matrix's rows.
func testSparseIntegerExact[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, shape := range [][2]int{{1, 1}, {7, 5}, {33, 40}, {70, 300}} {
		n, d := shape[0], shape[1]
		c := randCSR[T](rng, n, d, 0.2, true)
		X := denseOf(t, c)
		for _, im := range availablePaths() {
			for _, k := range sparseKernels(d) {
				what := fmt.Sprintf("%T %dx%d %s %v", T(0), n, d, im.Name(), k)
				opts := &Options{Impl: im, Threads: 3}
				want, err := Compute(X, d, k, opts)
				if err != nil {
					t.Fatal(what, err)
				}
				got, err := ComputeSparse(c, k, opts)
				if err != nil {
					t.Fatal(what, err)
				}
				for p := range want.Data {
					if got.Data[p] != want.Data[p] {
						t.Fatalf("%s: [%d][%d] sparse %v, dense %v", what, p/n, p%n, got.Data[p], want.Data[p])
					}
				}
				checkSparseRows(t, what, c, k, opts, got)
			}
		}
	}
}

// checkSparseRows checks Row, RowBatch, RowOf, Diag and a small cache
// against the matrix G, bit for bit.
func checkSparseRows[T kernel.Float](t *testing.T, what string, c *dataset.CSR[T], k Kernel, opts *Options, G *Matrix[T]) {
	t.Helper()
	n := c.Rows
	r, err := NewSparseRows(c, k, opts)
	if err != nil {
		t.Fatal(what, err)
	}
	diag := r.Diag()
	idx := make([]int, 0, n)
	for i := n - 1; i >= 0; i-- {
		idx = append(idx, i)
	}
	batch := r.RowBatch(nil, idx)
	cache, err := NewSparseCache(c, k, int64(max(1, n/3))*int64(n)*int64(sizeOfT[T]()), opts)
	if err != nil {
		t.Fatal(what, err)
	}
	for i := range n {
		row := r.Row(nil, i)
		of, err := r.RowOf(nil, c.Row(i))
		if err != nil {
			t.Fatal(what, err)
		}
		cr := cache.Row(i)
		for j := range n {
			g := G.At(i, j)
			if row[j] != g || batch[n-1-i][j] != g || cr[j] != g {
				t.Fatalf("%s: row %d col %d: Row %v, RowBatch %v, Cache %v, matrix %v", what, i, j, row[j], batch[n-1-i][j], cr[j], g)
			}
			if j != i && of[j] != g {
				t.Fatalf("%s: RowOf(row %d) col %d = %v, matrix %v", what, i, j, of[j], g)
			}
		}
		if diag[i] != G.At(i, i) {
			t.Fatalf("%s: Diag[%d] = %v, matrix %v", what, i, diag[i], G.At(i, i))
		}
	}
	rows := cache.Fill(nil, idx[:min(len(idx), cache.Capacity())])
	for k, row := range rows {
		for j, v := range row {
			if v != G.At(idx[k], j) {
				t.Fatalf("%s: Fill row %d col %d = %v, matrix %v", what, idx[k], j, v, G.At(idx[k], j))
			}
		}
	}
}

func sizeOfT[T kernel.Float]() int {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	}
	return 8
}

func TestSparseIntegerExact(t *testing.T) {
	t.Run("float32", testSparseIntegerExact[float32])
	t.Run("float64", testSparseIntegerExact[float64])
}

// On real-valued data the sparse matrix is within the γ_D bound of the
// exact (float64) kernel values, exactly symmetric with an RBF diagonal of
// 1, and its rows are the matrix's bit for bit.
func testSparseBound[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shape := range [][2]int{{17, 31}, {60, 200}} {
		n, d := shape[0], shape[1]
		c := randCSR[T](rng, n, d, 0.3, false)
		X := denseOf(t, c)
		rmStats := statsOf(X, X, d)
		for _, k := range sparseKernels(d) {
			what := fmt.Sprintf("%T %dx%d %v", T(0), n, d, k)
			got, err := ComputeSparse(c, k, &Options{Threads: 2})
			if err != nil {
				t.Fatal(what, err)
			}
			checkMatrix(t, what, got, refOf[T](k, rmStats))
			_, rbf := k.(RBF)
			checkSymmetric(t, what, got, rbf)
			checkSparseRows(t, what, c, k, &Options{Threads: 2}, got)
		}
	}
}

func TestSparseBound(t *testing.T) {
	t.Run("float32", testSparseBound[float32])
	t.Run("float64", testSparseBound[float64])
}

func TestSparseErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	c := randCSR[float32](rng, 10, 20, 0.3, true)
	r, err := NewSparseRows(c, RBF{Gamma: 0.1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	nan := *c
	nan.Val = append([]float32(nil), c.Val...)
	nan.Val[0] = float32(nanF())
	bad := *c
	bad.Idx = append([]int32(nil), c.Idx...)
	bad.Idx[len(bad.Idx)-1] = 20
	huge := *c
	huge.Val = append([]float32(nil), c.Val...)
	huge.Val[0] = 1e30
	for _, tc := range []struct {
		name string
		err  error
		f    func() error
	}{
		{"nil", ErrEmpty, func() error { _, err := NewSparseRows[float32](nil, Linear{}, nil); return err }},
		{"kernel", ErrInvalidKernel, func() error { _, err := NewSparseRows(c, RBF{}, nil); return err }},
		{"nonfinite", ErrNonFinite, func() error { _, err := ComputeSparse(&nan, Linear{}, nil); return err }},
		{"index", ErrShape, func() error { _, err := ComputeSparse(&bad, Linear{}, nil); return err }},
		{"overflow", ErrOverflow, func() error { _, err := ComputeSparse(&huge, Linear{}, nil); return err }},
		{"budget", ErrBudget, func() error { _, err := ComputeSparse(c, Linear{}, &Options{MaxBytes: 100}); return err }},
		{"cache budget", ErrBudget, func() error { _, err := NewSparseCache(c, Linear{}, 39, nil); return err }},
		{"query too wide", ErrShape, func() error {
			_, err := r.RowOf(nil, dataset.SparseRow[float32]{Idx: []int32{3, 20}, Val: []float32{1, 1}})
			return err
		}},
		{"query negative", ErrShape, func() error {
			_, err := r.RowOf(nil, dataset.SparseRow[float32]{Idx: []int32{-1}, Val: []float32{1}})
			return err
		}},
		{"query unsorted", ErrShape, func() error {
			_, err := r.RowOf(nil, dataset.SparseRow[float32]{Idx: []int32{4, 4}, Val: []float32{1, 1}})
			return err
		}},
		{"query lengths", ErrShape, func() error {
			_, err := r.RowOf(nil, dataset.SparseRow[float32]{Idx: []int32{4}, Val: []float32{1, 1}})
			return err
		}},
		{"query nan", ErrNonFinite, func() error {
			_, err := r.RowOf(nil, dataset.SparseRow[float32]{Idx: []int32{4}, Val: []float32{float32(nanF())}})
			return err
		}},
	} {
		if err := tc.f(); !errors.Is(err, tc.err) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.err)
		}
	}
	// A cache holding exactly one row works.
	if _, err := NewSparseCache(c, Linear{}, 40, nil); err != nil {
		t.Errorf("cache of one row: %v", err)
	}
}

func nanF() float64 {
	var z float64
	return z / z
}

// FuzzSparseRowOf holds RowOf to an error or the values of the densified
// query against the dense rows (integer data: bit for bit), never a panic,
// whatever the query's indices.
func FuzzSparseRowOf(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200}, []byte{1, 2, 3, 4})
	f.Add([]byte{0, 0}, []byte{5, 5})
	f.Add([]byte{19, 20}, []byte{1, 1})
	rng := rand.New(rand.NewPCG(7, 8))
	c := randCSR[float32](rng, 9, 20, 0.3, true)
	X := denseOf(&testing.T{}, c)
	sr, err := NewSparseRows(c, Polynomial{Gamma: 1, Coef0: 1, Degree: 2}, nil)
	if err != nil {
		f.Fatal(err)
	}
	dr, err := NewRows(X, 20, Polynomial{Gamma: 1, Coef0: 1, Degree: 2}, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, idx, val []byte) {
		q := dataset.SparseRow[float32]{}
		for k, b := range idx {
			q.Idx = append(q.Idx, int32(b)-1)
			if k < len(val) {
				q.Val = append(q.Val, float32(int(val[k])%7-3))
			}
		}
		got, err := sr.RowOf(nil, q)
		valid := len(q.Idx) == len(q.Val)
		for k, j := range q.Idx {
			valid = valid && j >= 0 && j < 20 && (k == 0 || j > q.Idx[k-1])
		}
		if !valid {
			if !errors.Is(err, ErrShape) {
				t.Fatalf("query %v: err = %v, want ErrShape", q, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid query %v: %v", q, err)
		}
		x := make([]float32, 20)
		for k, j := range q.Idx {
			x[j] = q.Val[k]
		}
		want, err := dr.RowOf(nil, x)
		if err != nil {
			t.Fatal(err)
		}
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("query %v: col %d sparse %v dense %v", q, j, got[j], want[j])
			}
		}
	})
}

// textCSR is a hashed-text-like set: n rows of nnz random columns among d.
func textCSR(rng *rand.Rand, n, d, nnz int) *dataset.CSR[float32] {
	c := &dataset.CSR[float32]{Rows: n, Cols: d, Ptr: []int{0}, Y: make([]int, n)}
	for range n {
		cols := map[int32]bool{}
		for len(cols) < nnz {
			cols[int32(rng.IntN(d))] = true
		}
		row := make([]int32, 0, nnz)
		for j := range cols {
			row = append(row, j)
		}
		for a := 1; a < len(row); a++ {
			for b := a; b > 0 && row[b] < row[b-1]; b-- {
				row[b], row[b-1] = row[b-1], row[b]
			}
		}
		for _, j := range row {
			c.Idx = append(c.Idx, j)
			c.Val = append(c.Val, rng.Float32())
		}
		c.Ptr = append(c.Ptr, len(c.Idx))
	}
	return c
}

// BenchmarkSparseDot computes one kernel row (one row against all N)
// by scattering the row into a dense scratch and gathering the others
// (what SparseRows does) and by merging sorted index lists.
func BenchmarkSparseDot(b *testing.B) {
	for _, nnz := range []int{12, 100} {
		for _, d := range []int{1 << 14, 1 << 20} {
			c := textCSR(rand.New(rand.NewPCG(1, 1)), 2000, d, nnz)
			r, err := NewSparseRows(c, Linear{}, &Options{Threads: 1})
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]float32, c.Rows)
			name := fmt.Sprintf("nnz=%d/d=%d", nnz, d)
			b.Run(name+"/path=scatter", func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					r.Row(dst, i%c.Rows)
				}
			})
			b.Run(name+"/path=merge", func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					q := c.Row(i % c.Rows)
					for j := range c.Rows {
						lo, hi := c.Ptr[j], c.Ptr[j+1]
						dst[j] = sparseDot(q.Idx, q.Val, c.Idx[lo:hi], c.Val[lo:hi])
					}
				}
			})
		}
	}
}

// TestSparseMergeWide: past MaxScatterCols the products merge index lists
// (no scratch of D values) and give the scatter path's values bit for bit.
func TestSparseMergeWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	c := randCSR[float32](rng, 30, 50, 0.3, false)
	wide := *c
	wide.Cols = MaxScatterCols + 1
	for _, k := range sparseKernels(50) {
		want, err := ComputeSparse(c, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ComputeSparse(&wide, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		for p := range want.Data {
			if got.Data[p] != want.Data[p] {
				t.Fatalf("%v: [%d] merge %v, scatter %v", k, p, got.Data[p], want.Data[p])
			}
		}
		r, err := NewSparseRows(&wide, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sc := r.scratch(); sc.w != nil {
			t.Fatal("a scratch of D values for data past MaxScatterCols")
		}
		checkSparseRows(t, fmt.Sprint(k), &wide, k, nil, got)
	}
}
