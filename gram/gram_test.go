package gram

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// edgeSizes are the N and D of the edge cases: every tile and block remainder.
var edgeSizes = []int{1, 2, 3, 7, 15, 16, 17, 31, 33, 100, 257}

// testKernels are the kernels every shape is checked with; gamma for RBF is
// scaled by 1/D in kernelFor so values stay away from 0.
var testKernels = []Kernel{
	Linear{},
	Polynomial{Gamma: 0.5, Coef0: 1, Degree: 3},
	RBF{Gamma: 1},
}

func kernelFor(k Kernel, d int) Kernel {
	switch k := k.(type) {
	case RBF:
		return RBF{Gamma: k.Gamma / float64(d)}
	case Polynomial:
		return Polynomial{Gamma: k.Gamma / float64(d), Coef0: k.Coef0, Degree: k.Degree}
	}
	return k
}

// availablePaths returns the implementations of this build the CPU can run.
func availablePaths() []*kernel.Impl {
	var list []*kernel.Impl
	for _, im := range kernel.Impls() {
		if im.Available() {
			list = append(list, im)
		}
	}
	return list
}

func randData[T kernel.Float](rng *rand.Rand, n, d int) []T {
	x := make([]T, n*d)
	for i := range x {
		x[i] = T(rng.Float64()*2 - 1)
	}
	return x
}

func minSubnormal[T kernel.Float]() float64 {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return 0x1p-149
	}
	return 0x1p-1074
}

func unitRoundoff[T kernel.Float]() float64 {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return 0x1p-24
	}
	return 0x1p-53
}

// pairStats are the float64 quantities the reference needs for each pair
// of rows (computed once per data set and reused for every kernel, path
// and option set).
type pairStats struct {
	na, nb, d      int
	dot, abs, dist []float64 // per pair, row-major na×nb
	na2, nb2       []float64 // squared norms
}

func statsOf[T kernel.Float](A, B []T, d int) *pairStats {
	na, nb := len(A)/d, len(B)/d
	ps := &pairStats{na: na, nb: nb, d: d, dot: make([]float64, na*nb), abs: make([]float64, na*nb),
		dist: make([]float64, na*nb), na2: make([]float64, na), nb2: make([]float64, nb)}
	sq := func(x []T) (s float64) {
		for _, v := range x {
			s += float64(v) * float64(v)
		}
		return s
	}
	for i := 0; i < na; i++ {
		ps.na2[i] = sq(A[i*d : (i+1)*d])
	}
	for j := 0; j < nb; j++ {
		ps.nb2[j] = sq(B[j*d : (j+1)*d])
	}
	for i := 0; i < na; i++ {
		x := A[i*d : (i+1)*d]
		for j := 0; j < nb; j++ {
			y := B[j*d : (j+1)*d]
			var dot, abs, dist float64
			for k := range x {
				a, b := float64(x[k]), float64(y[k])
				dot += a * b
				abs += math.Abs(a * b)
				dist += (a - b) * (a - b)
			}
			ps.dot[i*nb+j], ps.abs[i*nb+j], ps.dist[i*nb+j] = dot, abs, dist
		}
	}
	return ps
}

// refEntry is the float64 value of entry (i, j) and its error bound for
// type T.
func refEntry[T kernel.Float](k Kernel, ps *pairStats, i, j int) (ref, tol float64) {
	u := unitRoundoff[T]()
	d := float64(ps.d)
	p := i*ps.nb + j
	dot, abs, dist, nx, ny := ps.dot[p], ps.abs[p], ps.dist[p], ps.na2[i], ps.nb2[j]
	// |s − x·y| ≤ γ_D Σ|xy| with γ_D = Du/(1−Du); a factor 2 of slack.
	gd := 2 * (d + 2) * u / (1 - (d+2)*u)
	tdot := gd*abs + (d+2)*minSubnormal[T]() // underflow: each rounding may lose half a subnormal
	sp := k.spec()
	switch sp.kind {
	case kindLinear:
		return dot, tdot
	case kindPoly:
		g := float64(T(sp.gamma))
		c := float64(T(sp.coef0))
		base := g*dot + c
		db := g*tdot + 4*u*(math.Abs(g*dot)+math.Abs(c))
		m := float64(sp.degree)
		hi := math.Abs(base) + db
		return math.Pow(base, m), m*math.Pow(hi, m-1)*db + 4*(m+1)*u*math.Pow(hi, m) + 4*(m+1)*minSubnormal[T]()
	default:
		g := float64(T(sp.gamma))
		// t = ‖x‖² + ‖y‖² − 2x·y, each term with its own rounding error.
		dt := gd*(nx+ny+2*abs) + 4*u*(nx+ny)
		ref := math.Exp(-g * dist)
		// exp is Lipschitz with constant exp(−g·(dist−dt)) on the interval,
		// plus the approximation's relative error (8u) and one rounding.
		return ref, g*dt*math.Exp(-g*math.Max(dist-dt, 0)) + 8*u*ref + 5e-38
	}
}

// refMatrix holds the reference values and bounds of one kernel on one
// pair of data sets.
type refMatrix struct {
	ps       *pairStats
	ref, tol []float64
}

func refOf[T kernel.Float](k Kernel, ps *pairStats) *refMatrix {
	rm := &refMatrix{ps: ps, ref: make([]float64, ps.na*ps.nb), tol: make([]float64, ps.na*ps.nb)}
	for i := 0; i < ps.na; i++ {
		for j := 0; j < ps.nb; j++ {
			rm.ref[i*ps.nb+j], rm.tol[i*ps.nb+j] = refEntry[T](k, ps, i, j)
		}
	}
	return rm
}

func checkMatrix[T kernel.Float](t *testing.T, what string, got *Matrix[T], rm *refMatrix) {
	t.Helper()
	na, nb := rm.ps.na, rm.ps.nb
	if got.Rows != na || got.Cols != nb || len(got.Data) != na*nb {
		t.Fatalf("%s: shape %d×%d (%d values), want %d×%d", what, got.Rows, got.Cols, len(got.Data), na, nb)
	}
	bad := 0
	for p, v := range got.Data {
		ref, tol := rm.ref[p], rm.tol[p]
		if !(math.Abs(float64(v)-ref) <= tol) {
			if bad < 5 {
				t.Errorf("%s: [%d][%d] = %v, want %v ± %.3g (err %.3g)", what, p/nb, p%nb, v, ref, tol, math.Abs(float64(v)-ref))
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d values out of bound", what, bad, na*nb)
	}
}

func checkSymmetric[T kernel.Float](t *testing.T, what string, m *Matrix[T], rbf bool) {
	t.Helper()
	n := m.Rows
	for i := 0; i < n; i++ {
		if rbf && m.Data[i*n+i] != 1 {
			t.Fatalf("%s: RBF diagonal [%d][%d] = %v, want exactly 1", what, i, i, m.Data[i*n+i])
		}
		for j := 0; j < i; j++ {
			if a, b := m.Data[i*n+j], m.Data[j*n+i]; a != b && !(a != a && b != b) {
				t.Fatalf("%s: not symmetric: [%d][%d] = %v, [%d][%d] = %v", what, i, j, a, j, i, b)
			}
		}
	}
}

// smallBlocks forces several feature blocks, row blocks and column blocks,
// and more goroutines than cores, so every loop of the driver runs.
func smallBlocks(path *kernel.Impl) *Options {
	return &Options{Impl: path, kc: 5, mc: 20, nc: 40, Threads: 3}
}

func testComputeAll[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range edgeSizes {
		for _, d := range edgeSizes {
			if smalltest.Small() && n*n*d > 3<<20 {
				// In a small run (package smalltest), not the two largest
				// shapes: 257 rows still run with up to 33 features and
				// 257 features with up to 100 rows, every remainder.
				continue
			}
			X := randData[T](rng, n, d)
			keep := append([]T(nil), X...)
			ps := statsOf(X, X, d)
			for _, k0 := range testKernels {
				k := kernelFor(k0, d)
				rm := refOf[T](k, ps)
				for _, path := range availablePaths() {
					for _, opts := range []*Options{{Impl: path}, smallBlocks(path)} {
						what := fmt.Sprintf("%s/%v/n=%d/d=%d/kc=%d", path, k, n, d, opts.kc)
						m, err := Compute(X, d, k, opts)
						if err != nil {
							t.Fatalf("%s: %v", what, err)
						}
						checkMatrix(t, what, m, rm)
						_, isRBF := k.(RBF)
						checkSymmetric(t, what, m, isRBF)
					}
				}
			}
			for i := range X {
				if X[i] != keep[i] {
					t.Fatalf("Compute modified X[%d]", i)
				}
			}
		}
	}
}

func TestComputeEveryPathAndShape(t *testing.T) {
	t.Run("f32", testComputeAll[float32])
	t.Run("f64", testComputeAll[float64])
}

func testCross[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := [][3]int{{1, 1, 1}, {3, 17, 7}, {17, 3, 33}, {33, 31, 16}, {100, 15, 257}, {7, 100, 2}}
	for _, sh := range shapes {
		na, nb, d := sh[0], sh[1], sh[2]
		A, B := randData[T](rng, na, d), randData[T](rng, nb, d)
		ps := statsOf(A, B, d)
		for _, k0 := range testKernels {
			k := kernelFor(k0, d)
			rm := refOf[T](k, ps)
			for _, path := range availablePaths() {
				for _, opts := range []*Options{{Impl: path}, smallBlocks(path)} {
					what := fmt.Sprintf("%s/%v/%v/kc=%d", path, sh, k, opts.kc)
					m, err := Cross(A, B, d, k, opts)
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					checkMatrix(t, what, m, rm)
				}
			}
		}
	}
}

func TestCross(t *testing.T) {
	t.Run("f32", testCross[float32])
	t.Run("f64", testCross[float64])
}

// Cross(X, X) is Compute(X) bit for bit: every value is one chain of
// multiply-adds in feature order, wherever it is computed (the RBF diagonal,
// which Compute sets to 1, aside).
func testCrossSelfIsCompute[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, path := range availablePaths() {
		for _, k0 := range testKernels {
			n, d := 45, 37
			k := kernelFor(k0, d)
			X := randData[T](rng, n, d)
			g, err := Compute(X, d, k, smallBlocks(path))
			if err != nil {
				t.Fatal(err)
			}
			c, err := Cross(X, X, d, k, &Options{Impl: path})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if i == j && k.spec().kind == kindRBF {
						continue
					}
					if g.At(i, j) != c.At(i, j) {
						t.Fatalf("%s/%v: Compute[%d][%d] = %v, Cross = %v", path, k, i, j, g.At(i, j), c.At(i, j))
					}
				}
			}
		}
	}
}

func TestCrossSelfIsCompute(t *testing.T) {
	t.Run("f32", testCrossSelfIsCompute[float32])
	t.Run("f64", testCrossSelfIsCompute[float64])
}

// Integer-valued data with small sums are exact on every path.
func testIntegerExact[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n, d := 53, 257
	X := make([]T, n*d)
	for i := range X {
		X[i] = T(rng.IntN(33) - 16)
	}
	for _, path := range availablePaths() {
		m, err := Compute(X, d, Linear{}, smallBlocks(path))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				var want int64
				for k := 0; k < d; k++ {
					want += int64(X[i*d+k]) * int64(X[j*d+k])
				}
				if got := m.At(i, j); got != T(want) {
					t.Fatalf("%s: [%d][%d] = %v, want exactly %d", path, i, j, got, want)
				}
			}
		}
	}
}

func TestIntegerExact(t *testing.T) {
	t.Run("f32", testIntegerExact[float32])
	t.Run("f64", testIntegerExact[float64])
}

// Rows, RowOf and the cache agree with Compute: bit for bit for training
// rows, within the bound for queries.
func testRowsAndCache[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, path := range availablePaths() {
		for _, sh := range [][2]int{{1, 1}, {17, 33}, {100, 15}, {61, 257}} {
			n, d := sh[0], sh[1]
			X := randData[T](rng, n, d)
			for _, k0 := range testKernels {
				k := kernelFor(k0, d)
				what := fmt.Sprintf("%s/n=%d/d=%d/%v", path, n, d, k)
				full, err := Compute(X, d, k, &Options{Impl: path, Threads: 2})
				if err != nil {
					t.Fatal(err)
				}
				rows, err := NewRows(X, d, k, &Options{Impl: path, kc: 7})
				if err != nil {
					t.Fatal(err)
				}
				var buf []T
				for i := 0; i < n; i++ {
					buf = rows.Row(buf, i)
					checkRow(t, what+"/Rows.Row", buf, full, i)
				}
				q := randData[T](rng, 1, d)
				got, err := rows.RowOf(nil, q)
				if err != nil {
					t.Fatal(err)
				}
				checkMatrix(t, what+"/RowOf", &Matrix[T]{Rows: 1, Cols: n, Data: got}, refOf[T](k, statsOf(q, X, d)))

				// A cache of a third of the rows, walked in an order with
				// repeats so that rows are evicted and recomputed.
				var z T
				budget := int64(max(1, n/3)) * int64(n) * int64(unsafe.Sizeof(z))
				c, err := NewCache(X, d, k, budget, &Options{Impl: path})
				if err != nil {
					t.Fatal(err)
				}
				if c.Capacity() != max(1, n/3) {
					t.Fatalf("%s: capacity %d, want %d", what, c.Capacity(), max(1, n/3))
				}
				for step := 0; step < 4*n; step++ {
					i := (step * 7 / 3) % n
					if step%5 == 0 {
						i = 0
					}
					checkRow(t, fmt.Sprintf("%s/Cache.Row (step %d)", what, step), c.Row(i), full, i)
				}
				hits, misses := c.Stats()
				if hits+misses != int64(4*n) || misses < int64(min(n, 1)) {
					t.Fatalf("%s: stats hits=%d misses=%d after %d calls", what, hits, misses, 4*n)
				}
			}
		}
	}
}

func TestRowsAndCacheMatchCompute(t *testing.T) {
	t.Run("f32", testRowsAndCache[float32])
	t.Run("f64", testRowsAndCache[float64])
}

func TestCacheLRU(t *testing.T) {
	X := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	c, err := NewCache(X, 2, Linear{}, 2*4*8, nil) // two rows of four
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		row      int
		wantHits int64
	}{
		{0, 0}, {1, 0}, {0, 1}, {2, 1}, // 2 evicts 1 (least recent)
		{0, 2}, {1, 2}, // 1 was evicted: miss; evicts 2
		{2, 2}, {1, 3},
	}
	for n, call := range calls {
		r := c.Row(call.row)
		if want := X[2*call.row]*X[0] + X[2*call.row+1]*X[1]; r[0] != want {
			t.Fatalf("call %d: row %d [0] = %v, want %v", n, call.row, r[0], want)
		}
		if hits, _ := c.Stats(); hits != call.wantHits {
			t.Fatalf("call %d (row %d): hits = %d, want %d", n, call.row, hits, call.wantHits)
		}
	}
}

// Every entry of kernel.Impls() the CPU runs is accepted;
// one it cannot run is an error.
func TestOptionsImpl(t *testing.T) {
	X := []float32{1, 2, 3, 4, 5, 6}
	want, err := Compute(X, 3, Linear{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range kernel.Impls() {
		m, err := Compute(X, 3, Linear{}, &Options{Impl: im})
		if !im.Available() {
			if !errors.Is(err, ErrImpl) {
				t.Errorf("%s: err = %v, want ErrImpl", im.Name(), err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", im.Name(), err)
		}
		for i := range want.Data {
			if m.Data[i] != want.Data[i] { // integers: exact on every path
				t.Fatalf("%s: %v, want %v", im.Name(), m.Data, want.Data)
			}
		}
	}
}

// TestRegistryComplete fails if an implementation of package kernel in this
// build, available on this CPU or not, has no micro-kernels and tile
// functions registered in gram, or if an entry's tile is inconsistent.
func TestRegistryComplete(t *testing.T) {
	for _, im := range kernel.Impls() {
		mk32, mk64 := microOf[float32](im), microOf[float64](im)
		if mk32 == nil || mk64 == nil {
			t.Errorf("kernel implementation %s (ID %d): gram registered nothing", im.Name(), im.ID())
			continue
		}
		if mk32.kern == nil || mk32.rbf == nil || mk32.poly == nil || mk32.trans == nil || mk32.mr < 1 || mk32.nr < 1 ||
			mk64.kern == nil || mk64.rbf == nil || mk64.poly == nil || mk64.trans == nil || mk64.mr < 1 || mk64.nr < 1 {
			t.Errorf("kernel implementation %s: incomplete entry %+v / %+v", im.Name(), *mk32, *mk64)
		}
	}
	for id, e := range registry {
		found := false
		for _, im := range kernel.Impls() {
			found = found || int(im.ID()) == id
		}
		if e != nil && !found {
			t.Errorf("gram registers ID %d, which is no implementation of kernel in this build", id)
		}
	}
}

func TestErrors(t *testing.T) {
	good := []float32{1, 2, 3, 4}
	nan := []float32{1, float32(math.NaN()), 3, 4}
	inf := []float32{1, 2, float32(math.Inf(-1)), 4}
	huge := []float32{1e20, 1, 1, 1}
	tests := []struct {
		name string
		X    []float32
		d    int
		k    Kernel
		opts *Options
		want error
	}{
		{"nil kernel", good, 2, nil, nil, ErrInvalidKernel},
		{"rbf gamma 0", good, 2, RBF{}, nil, ErrInvalidKernel},
		{"rbf gamma negative", good, 2, RBF{Gamma: -1}, nil, ErrInvalidKernel},
		{"rbf gamma NaN", good, 2, RBF{Gamma: math.NaN()}, nil, ErrInvalidKernel},
		{"rbf gamma Inf", good, 2, RBF{Gamma: math.Inf(1)}, nil, ErrInvalidKernel},
		{"rbf gamma below float32", good, 2, RBF{Gamma: 1e-60}, nil, ErrInvalidKernel},
		{"poly degree 0", good, 2, Polynomial{Gamma: 1, Coef0: 1}, nil, ErrInvalidKernel},
		{"poly degree negative", good, 2, Polynomial{Gamma: 1, Degree: -2}, nil, ErrInvalidKernel},
		{"poly gamma 0", good, 2, Polynomial{Coef0: 1, Degree: 2}, nil, ErrInvalidKernel},
		{"poly coef0 NaN", good, 2, Polynomial{Gamma: 1, Coef0: math.NaN(), Degree: 2}, nil, ErrInvalidKernel},
		{"poly coef0 Inf", good, 2, Polynomial{Gamma: 1, Coef0: math.Inf(1), Degree: 2}, nil, ErrInvalidKernel},
		{"poly coef0 over float32", good, 2, Polynomial{Gamma: 1, Coef0: 1e300, Degree: 2}, nil, ErrInvalidKernel},
		{"d 0", good, 0, Linear{}, nil, ErrShape},
		{"d negative", good, -1, Linear{}, nil, ErrShape},
		{"ragged", good, 3, Linear{}, nil, ErrShape},
		{"empty", nil, 2, Linear{}, nil, ErrEmpty},
		{"NaN", nan, 2, Linear{}, nil, ErrNonFinite},
		{"Inf", inf, 2, RBF{Gamma: 1}, nil, ErrNonFinite},
		{"norm overflow", huge, 2, Linear{}, nil, ErrOverflow},
		{"poly overflow", []float32{1e3, 1e3}, 2, Polynomial{Gamma: 1, Degree: 30}, nil, ErrOverflow},
		{"budget", good, 2, Linear{}, &Options{MaxBytes: 8}, ErrBudget},
		{"unavailable impl", good, 2, Linear{}, &Options{Impl: &kernel.Impl{}}, ErrImpl},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Compute(tc.X, tc.d, tc.k, tc.opts); !errors.Is(err, tc.want) {
				t.Errorf("Compute: err = %v, want %v", err, tc.want)
			}
			if _, err := Cross(good, tc.X, tc.d, tc.k, tc.opts); tc.name != "ragged" && tc.name != "d negative" && tc.name != "d 0" && !errors.Is(err, tc.want) {
				t.Errorf("Cross(good, X): err = %v, want %v", err, tc.want)
			}
			if _, err := Cross(tc.X, good, tc.d, tc.k, tc.opts); tc.name != "ragged" && tc.name != "d negative" && tc.name != "d 0" && !errors.Is(err, tc.want) {
				t.Errorf("Cross(X, good): err = %v, want %v", err, tc.want)
			}
			if tc.name != "budget" {
				if _, err := NewRows(tc.X, tc.d, tc.k, tc.opts); !errors.Is(err, tc.want) {
					t.Errorf("NewRows: err = %v, want %v", err, tc.want)
				}
			}
		})
	}
}

func TestBudget(t *testing.T) {
	X := make([]float64, 1000*2)
	// 1000² float64 = 8,000,000 bytes plus the packed copies.
	if _, err := Compute(X, 2, Linear{}, &Options{MaxBytes: 8_000_000}); !errors.Is(err, ErrBudget) {
		t.Fatalf("8 MB budget: err = %v, want ErrBudget", err)
	}
	if _, err := Compute(X, 2, Linear{}, &Options{MaxBytes: 9_000_000}); err != nil {
		t.Fatalf("9 MB budget: %v", err)
	}
	if _, err := Compute(X, 2, Linear{}, &Options{MaxBytes: -1}); err != nil {
		t.Fatalf("no limit: %v", err)
	}
	if _, err := Cross(X, X[:20], 2, Linear{}, &Options{MaxBytes: 10_000}); !errors.Is(err, ErrBudget) {
		t.Fatalf("cross: err = %v, want ErrBudget", err)
	}
	// A matrix that could never be allocated is an error even without limit.
	e, err := setup[float64](Linear{}, &Options{MaxBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.budget(math.MaxInt64/2, 0, "test"); !errors.Is(err, ErrBudget) {
		t.Fatalf("huge: err = %v, want ErrBudget", err)
	}
	if _, err := NewCache(X, 2, Linear{}, 7999, nil); !errors.Is(err, ErrBudget) {
		t.Fatalf("cache below one row: err = %v, want ErrBudget", err)
	}
	c, err := NewCache(X, 2, Linear{}, 8000*3+100, nil)
	if err != nil || c.Capacity() != 3 {
		t.Fatalf("cache of three rows: %v, capacity %d", err, c.Capacity())
	}
}

func TestRowOfErrors(t *testing.T) {
	r, err := NewRows([]float64{1, 2, 3, 4}, 2, RBF{Gamma: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.RowOf(nil, []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("short query: %v", err)
	}
	if _, err := r.RowOf(nil, []float64{1, math.NaN()}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN query: %v", err)
	}
	if _, err := r.RowOf(nil, []float64{1e200, 1}); !errors.Is(err, ErrOverflow) {
		t.Errorf("huge query: %v", err)
	}
	if r.Len() != 2 || r.Dim() != 2 {
		t.Errorf("Len, Dim = %d, %d", r.Len(), r.Dim())
	}
}

func TestKernelStrings(t *testing.T) {
	for _, tc := range []struct {
		k    Kernel
		want string
	}{
		{Linear{}, "linear"},
		{Polynomial{Gamma: 1, Coef0: 1, Degree: 3}, "poly(gamma=1, coef0=1, degree=3)"},
		{RBF{Gamma: 0.5}, "rbf(gamma=0.5)"},
	} {
		if got := tc.k.String(); got != tc.want {
			t.Errorf("%#v: %q, want %q", tc.k, got, tc.want)
		}
		if err := tc.k.Validate(); err != nil {
			t.Errorf("%v: %v", tc.k, err)
		}
	}
}

// ComputeInto reuses a large enough matrix and gives the same values.
func TestComputeInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	X := randData[float32](rng, 37, 19)
	want, err := Compute(X, 19, RBF{Gamma: 0.1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	big := &Matrix[float32]{Data: make([]float32, 50*50)}
	for i := range big.Data {
		big.Data[i] = -7 // stale contents must all be overwritten
	}
	got, err := ComputeInto(big, X, 19, RBF{Gamma: 0.1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != big || got.Rows != 37 || got.Cols != 37 || &got.Data[0] != &big.Data[0] {
		t.Fatalf("ComputeInto did not reuse the matrix: %p %d×%d", got, got.Rows, got.Cols)
	}
	for i := range want.Data {
		if got.Data[i] != want.Data[i] {
			t.Fatalf("ComputeInto [%d] = %v, Compute = %v", i, got.Data[i], want.Data[i])
		}
	}
	small := &Matrix[float32]{Data: make([]float32, 10)}
	got, err = ComputeInto(small, X, 19, RBF{Gamma: 0.1}, nil)
	if err != nil || got == small || len(got.Data) != 37*37 {
		t.Fatalf("too small a matrix: %v, %p, %d values", err, got, len(got.Data))
	}
}

// Every path's transpose, on shapes around its register blocks.
func TestTranspose(t *testing.T) {
	for _, p := range availablePaths() {
		mk := microOf[float32](p)
		mk64 := microOf[float64](p)
		for _, rows := range []int{0, 1, 3, 4, 8, 9, 17, 252} {
			for _, cols := range []int{0, 1, 4, 7, 8, 12, 16, 33} {
				lds, ldd := cols+3, rows+5
				src := make([]float32, max(1, rows*lds))
				src64 := make([]float64, max(1, rows*lds))
				for i := range src {
					src[i] = float32(i)
					src64[i] = float64(i)
				}
				dst := make([]float32, max(1, cols*ldd))
				dst64 := make([]float64, max(1, cols*ldd))
				for i := range dst {
					dst[i], dst64[i] = -1, -1
				}
				mk.trans(dst, ldd, src, lds, rows, cols)
				mk64.trans(dst64, ldd, src64, lds, rows, cols)
				for c := 0; c < cols; c++ {
					for r := 0; r < ldd; r++ {
						want := float32(-1) // outside the block: untouched
						if r < rows {
							want = src[r*lds+c]
						}
						if dst[c*ldd+r] != want || dst64[c*ldd+r] != float64(want) {
							t.Fatalf("%s %d×%d: dst[%d][%d] = %v / %v, want %v", p.Name(), rows, cols, c, r, dst[c*ldd+r], dst64[c*ldd+r], want)
						}
					}
				}
			}
		}
	}
}

// Rows works on its own copy: changing X afterwards changes nothing.
func TestRowsOwnCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	X := randData[float64](rng, 23, 45)
	want, err := Compute(X, 45, Polynomial{Gamma: 0.1, Coef0: 1, Degree: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRows(X, 45, Polynomial{Gamma: 0.1, Coef0: 1, Degree: 2}, &Options{kc: 16})
	if err != nil {
		t.Fatal(err)
	}
	for i := range X {
		X[i] = 99
	}
	for i := 0; i < 23; i++ {
		row := r.Row(nil, i)
		for j, v := range row {
			if v != want.At(i, j) {
				t.Fatalf("Row(%d)[%d] = %v after X changed, want %v", i, j, v, want.At(i, j))
			}
		}
	}
}

// Every path's tile mirror (where it has one) transposes exactly its
// mr×nr tile between strided rows and touches nothing else.
func TestMirror(t *testing.T) {
	for _, p := range availablePaths() {
		testMirror(t, p.Name(), microOf[float32](p))
		testMirror(t, p.Name(), microOf[float64](p))
	}
}

func testMirror[T kernel.Float](t *testing.T, name string, mk *micro[T]) {
	if mk.mirror == nil {
		return
	}
	mr, nr := mk.mr, mk.nr
	lds, ldd := nr+5, mr+3
	src := make([]T, mr*lds)
	for i := range src {
		src[i] = T(i + 1)
	}
	dst := make([]T, nr*ldd)
	for i := range dst {
		dst[i] = -1
	}
	mk.mirror(dst, ldd, src, lds)
	for c := 0; c < nr; c++ {
		for r := 0; r < ldd; r++ {
			want := T(-1)
			if r < mr {
				want = src[r*lds+c]
			}
			if dst[c*ldd+r] != want {
				t.Fatalf("%s %T: dst[%d][%d] = %v, want %v", name, want, c, r, dst[c*ldd+r], want)
			}
		}
	}
}
