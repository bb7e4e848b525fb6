package gram

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// checkRow fails the test unless row is row i of full, bit for bit.
func checkRow[T kernel.Float](t *testing.T, what string, row []T, full *Matrix[T], i int) {
	t.Helper()
	if len(row) != full.Cols {
		t.Fatalf("%s: row %d has %d values, want %d", what, i, len(row), full.Cols)
	}
	for j, v := range row {
		if v != full.At(i, j) {
			t.Fatalf("%s: row %d [%d] = %v, Compute = %v", what, i, j, v, full.At(i, j))
		}
	}
}

// RowBatch computes its rows as one product of the packed query rows with
// the packed data: with one goroutine or several, with the default blocks
// and with blocks so small that every task, k block and tile edge is
// exercised, the rows are Compute's bit for bit (for RBF the diagonal is
// exactly 1), for any order of the indices, with repeats.
func testRowBatch[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, path := range availablePaths() {
		for _, sh := range [][2]int{{1, 1}, {17, 33}, {100, 15}, {61, 257}} {
			n, d := sh[0], sh[1]
			X := randData[T](rng, n, d)
			for _, k0 := range testKernels {
				k := kernelFor(k0, d)
				full, err := Compute(X, d, k, &Options{Impl: path})
				if err != nil {
					t.Fatal(err)
				}
				for _, opts := range []*Options{
					{Impl: path, Threads: 1},
					{Impl: path, Threads: 3},
					{Impl: path, Threads: 2, kc: 7, mc: 1, nc: 1},
				} {
					what := fmt.Sprintf("%s/n=%d/d=%d/%v/threads=%d/kc=%d", path, n, d, k, opts.Threads, opts.kc)
					r, err := NewRows(X, d, k, opts)
					if err != nil {
						t.Fatal(err)
					}
					all := make([]int, n)
					for i := range all {
						all[i] = n - 1 - i
					}
					some := make([]int, 1+rng.IntN(2*n))
					for q := range some {
						some[q] = rng.IntN(n) // repeats when len > n
					}
					var dst [][]T
					for _, idx := range [][]int{all, some, {n / 2}, {}} {
						dst = r.RowBatch(dst, idx)
						if len(dst) != len(idx) {
							t.Fatalf("%s: %d rows for %d indices", what, len(dst), len(idx))
						}
						for q, i := range idx {
							checkRow(t, what, dst[q], full, i)
						}
					}
				}
			}
		}
	}
}

func TestRowBatchMatchesCompute(t *testing.T) {
	t.Run("f32", testRowBatch[float32])
	t.Run("f64", testRowBatch[float64])
}

// Fill, mixed with Row, in a cache of a third of the rows: every row it
// returns is Compute's, all of a call's rows are valid (and resident)
// together when it returns, rows are evicted and recomputed, and the
// statistics count every index.
func testCacheFill[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, path := range availablePaths() {
		n, d := 97, 70
		X := randData[T](rng, n, d)
		for _, k0 := range testKernels {
			k := kernelFor(k0, d)
			what := fmt.Sprintf("%s/%v", path, k)
			full, err := Compute(X, d, k, &Options{Impl: path})
			if err != nil {
				t.Fatal(err)
			}
			var z T
			c, err := NewCache(X, d, k, int64(n/3)*int64(n)*int64(unsafe.Sizeof(z)), &Options{Impl: path, Threads: 2, kc: 16})
			if err != nil {
				t.Fatal(err)
			}
			var dst [][]T
			var asked, batches int64
			for step := range 300 {
				if step%4 == 3 {
					i := rng.IntN(n)
					checkRow(t, what+"/Row", c.Row(i), full, i)
					asked++
					continue
				}
				idx := make([]int, 1+rng.IntN(c.Capacity()))
				missing := 0
				for q := range idx {
					idx[q] = rng.IntN(n)
					if !c.Contains(idx[q]) && !slices.Contains(idx[:q], idx[q]) {
						missing++
					}
				}
				if missing > 1 {
					batches++
				}
				_, before := c.Stats()
				dst = c.Fill(dst, idx)
				asked += int64(len(idx))
				if _, after := c.Stats(); after-before != int64(missing) {
					t.Fatalf("%s: Fill computed %d rows, %d were missing", what, after-before, missing)
				}
				for q, i := range idx {
					if !c.Contains(i) {
						t.Fatalf("%s: row %d not resident after Fill", what, i)
					}
					checkRow(t, what+"/Fill", dst[q], full, i)
				}
			}
			hits, misses := c.Stats()
			if hits+misses != asked || misses <= int64(c.Capacity()) || batches == 0 {
				t.Fatalf("%s: hits %d + misses %d for %d rows asked, %d batches: the test did not exercise eviction and batches", what, hits, misses, asked, batches)
			}
		}
	}
}

func TestCacheFillMatchesCompute(t *testing.T) {
	t.Run("f32", testCacheFill[float32])
	t.Run("f64", testCacheFill[float64])
}

// Fill leaves its rows most recent in the order given, computes only the
// missing ones and evicts the least recently used.
func TestCacheFillLRU(t *testing.T) {
	X := []float64{1, 0, 0, 1, 1, 1, 2, 0, 0, 2} // five rows of two
	c, err := NewCache(X, 2, Linear{}, 3*5*8, nil)
	if err != nil {
		t.Fatal(err)
	}
	resident := func() []int {
		var out []int
		for i := range 5 {
			if c.Contains(i) {
				out = append(out, i)
			}
		}
		return out
	}
	steps := []struct {
		fill         []int // Fill these, or Row(row) if nil
		row          int
		hits, misses int64
		resident     []int
	}{
		{fill: []int{0, 1, 2}, hits: 0, misses: 3, resident: []int{0, 1, 2}}, // LRU order 0 1 2
		{row: 3, hits: 0, misses: 4, resident: []int{0, 1, 3}},               // evicts 2: 3 0 1
		{fill: []int{2, 1}, hits: 1, misses: 5, resident: []int{1, 2, 3}},    // 1 touched, 2 evicts 0: 2 1 3
		{fill: []int{4, 4}, hits: 2, misses: 6, resident: []int{1, 2, 4}},    // 4 evicts 3, then a hit: 4 2 1
		{row: 0, hits: 2, misses: 7, resident: []int{0, 2, 4}},               // evicts 1: 0 4 2
		{fill: []int{2, 3}, hits: 3, misses: 8, resident: []int{0, 2, 3}},    // 2, the tail, is kept; 3 evicts 4
	}
	for n, s := range steps {
		if s.fill == nil {
			c.Row(s.row)
		} else {
			rows := c.Fill(nil, s.fill)
			for q, i := range s.fill {
				if want := []float64{X[2*i], X[2*i+1]}; rows[q][0] != want[0] || rows[q][1] != want[1] {
					t.Fatalf("step %d: row %d starts %v, want %v", n, i, rows[q][:2], want)
				}
			}
		}
		if h, m := c.Stats(); h != s.hits || m != s.misses {
			t.Fatalf("step %d: stats %d hits %d misses, want %d %d", n, h, m, s.hits, s.misses)
		}
		if got := resident(); !slices.Equal(got, s.resident) {
			t.Fatalf("step %d: resident %v, want %v", n, got, s.resident)
		}
	}
}

// Fill of more rows than the cache holds, or of an index out of range, is
// a programmer error: it panics before it changes the cache.
func TestCacheFillPanics(t *testing.T) {
	X := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	c, err := NewCache(X, 2, Linear{}, 2*4*4, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, idx := range [][]int{{0, 1, 2}, {0, 4}, {-1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Fill(%v) did not panic", idx)
				}
			}()
			c.Fill(nil, idx)
		}()
		for i := range 4 {
			if c.Contains(i) {
				t.Fatalf("Fill(%v) panicked after caching row %d", idx, i)
			}
		}
	}
}

// Caches of several goroutines can share one Rows (run with -race).
func TestCachesShareRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	n, d := 60, 20
	X := randData[float32](rng, n, d)
	k := RBF{Gamma: 0.05}
	full, err := Compute(X, d, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRows(X, d, k, &Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]string, 3)
	for g := range errs {
		c, err := NewCacheOf(r, int64(10*n*4))
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 17))
			var dst [][]float32
			for range 50 {
				idx := []int{rng.IntN(n), rng.IntN(n), rng.IntN(n)}
				dst = c.Fill(dst, idx)
				for q, i := range idx {
					if !slices.Equal(dst[q], full.Row(i)) {
						errs[g] = fmt.Sprintf("goroutine %d: row %d differs from Compute's", g, i)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
}
