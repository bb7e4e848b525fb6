package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// int8Under returns the int8 implementations this CPU can run.
func int8Under(t *testing.T) []*kernel.Int8Impl {
	t.Helper()
	list := kerneltest.AvailableInt8()
	if len(list) == 0 {
		t.Fatal("no int8 implementation available")
	}
	return list
}

// i8Values are the ways the int8 tests fill their inputs.
type i8Values int

const (
	i8Random  i8Values = iota // uniform over every byte value
	i8Extreme                 // only 0, 1, 127, 128 (−128 signed), 255 (−1 signed)
	i8MaxNeg                  // x = 255 (signed: −128), w = −128: the largest |product|, one sign
	i8MaxPos                  // x = 255 (signed: −128), w = 127 (signed: −128): the largest positive products
)

func fillI8[T ~int8 | ~uint8](rng *rand.Rand, s []T, kind i8Values, isW bool) {
	extremes := []uint8{0, 1, 127, 128, 255}
	for i := range s {
		var b uint8
		switch kind {
		case i8Random:
			b = uint8(rng.Uint32())
		case i8Extreme:
			b = extremes[rng.IntN(len(extremes))]
		case i8MaxNeg:
			b = 255
			if isW {
				b = 0x80
			}
		case i8MaxPos:
			b = 255
			if isW {
				b = 127
			}
		}
		s[i] = T(b)
	}
}

// i8Lengths: every length 0..300, around the unroll and flush sizes (256
// bytes per flush on AVX2), and beyond the exactness limits of both forms,
// where the sums wrap modulo 2³².
var i8Lengths = func() []int {
	var ns []int
	for n := 0; n <= 300; n++ {
		ns = append(ns, n)
	}
	return append(ns, 383, 384, 385, 511, 512, 513, 767, 768, 769, 1023, 1024, 1025, 4099, 65793, 65794, 131071, 131072, 200003)
}()

// maxExact are the lengths up to which the sums are guaranteed exact.
const (
	maxExactU8I8 = 65793
	maxExactI8   = 131071
)

func TestInt8Dot(t *testing.T) {
	for _, v := range int8Under(t) {
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			k := v.Kernels()
			rng := rand.New(rand.NewPCG(11, 12))
			for _, kind := range []i8Values{i8Random, i8Extreme, i8MaxNeg, i8MaxPos} {
				for _, n := range i8Lengths {
					if n > 4099 && kind == i8Extreme {
						continue
					}
					for off := range 4 {
						if n > 4099 && off > 0 {
							continue
						}
						what := fmt.Sprintf("n=%d off=%d values=%d", n, off, kind)
						x, xok := kerneltest.GuardedInts[uint8](n, off)
						xs, xsok := kerneltest.GuardedInts[int8](n, (off+1)%4)
						w, wok := kerneltest.GuardedInts[int8](n, (off+2)%4)
						fillI8(rng, x, kind, false)
						fillI8(rng, xs, kind, false)
						fillI8(rng, w, kind, true)
						x0, xs0, w0 := slices.Clone(x), slices.Clone(xs), slices.Clone(w)

						want, exact := kerneltest.DotU8I8(x, w)
						got := k.DotU8I8(x, w)
						if got != want {
							t.Fatalf("DotU8I8 %s: got %d, want %d", what, got, want)
						}
						if n <= maxExactU8I8 && int64(got) != exact {
							t.Fatalf("DotU8I8 %s: got %d, the exact sum is %d", what, got, exact)
						}
						if int32(exact) != got {
							t.Fatalf("DotU8I8 %s: got %d, not the exact sum %d modulo 2³²", what, got, exact)
						}
						want, exact = kerneltest.DotI8(xs, w)
						got = k.DotI8(xs, w)
						if got != want {
							t.Fatalf("DotI8 %s: got %d, want %d", what, got, want)
						}
						if n <= maxExactI8 && int64(got) != exact {
							t.Fatalf("DotI8 %s: got %d, the exact sum is %d", what, got, exact)
						}
						if !slices.Equal(x, x0) || !slices.Equal(xs, xs0) || !slices.Equal(w, w0) {
							t.Fatalf("%s: an input was modified", what)
						}
						for _, ok := range []func() error{xok, xsok, wok} {
							if err := ok(); err != nil {
								t.Fatalf("%s: %v", what, err)
							}
						}
					}
				}
			}
		})
	}
}

// TestInt8Wraps checks the contract at its edges: the largest products of
// one sign up to the exactness limit give the exact sum, one term more
// wraps modulo 2³² on every implementation.
func TestInt8Wraps(t *testing.T) {
	for _, v := range int8Under(t) {
		k := v.Kernels()
		for _, c := range []struct {
			n     int
			xb    uint8
			wb    int8
			dotI8 bool
		}{
			{maxExactU8I8, 255, -128, false}, {maxExactU8I8 + 1, 255, -128, false},
			{maxExactU8I8, 255, 127, false}, {70000, 255, 127, false},
			{maxExactI8, 0x80, -128, true}, {maxExactI8 + 1, 0x80, -128, true},
		} {
			x := make([]uint8, c.n)
			w := make([]int8, c.n)
			for i := range x {
				x[i], w[i] = c.xb, c.wb
			}
			var got int32
			var exact int64
			if c.dotI8 {
				xs := make([]int8, c.n)
				for i := range xs {
					xs[i] = int8(c.xb)
				}
				got = k.DotI8(xs, w)
				_, exact = kerneltest.DotI8(xs, w)
			} else {
				got = k.DotU8I8(x, w)
				_, exact = kerneltest.DotU8I8(x, w)
			}
			fits := exact >= -1<<31 && exact < 1<<31
			if (fits && int64(got) != exact) || int32(exact) != got {
				t.Errorf("%s n=%d x=%d w=%d: got %d, exact sum %d (fits in int32: %v)", v, c.n, c.xb, c.wb, got, exact, fits)
			}
		}
	}
}

// i8Shapes are the (rows, d) shapes of the Dots tests: every row count to
// 13 (blocks of 4, 2, 1; each ending in each block kind) against lengths
// around each vector width, each unroll (the VNNI two-row block takes four
// vectors per iteration for unsigned x, the others two) and the flush
// size, and the serving sizes.
var i8Shapes = func() [][2]int {
	var s [][2]int
	ds := []int{0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 95, 96, 127, 128, 129, 191, 255, 256, 257, 300, 449, 511, 513, 767}
	for rows := 0; rows <= 13; rows++ {
		for _, d := range ds {
			s = append(s, [2]int{rows, d})
		}
	}
	return append(s, [2]int{10, 768}, [2]int{10, 784}, [2]int{37, 784}, [2]int{13, 1025}, [2]int{3, 70000})
}()

func TestInt8Dots(t *testing.T) {
	for _, v := range int8Under(t) {
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			k := v.Kernels()
			rng := rand.New(rand.NewPCG(13, 14))
			for _, kind := range []i8Values{i8Random, i8Extreme, i8MaxNeg, i8MaxPos} {
				for _, sh := range i8Shapes {
					for off := range 4 {
						rows, d := sh[0], sh[1]
						if d > 1025 && off > 0 {
							continue
						}
						what := fmt.Sprintf("rows=%d d=%d off=%d values=%d", rows, d, off, kind)
						W, Wok := kerneltest.GuardedInts[int8](rows*d, off)
						x, xok := kerneltest.GuardedInts[uint8](d, (off+1)%4)
						xs, xsok := kerneltest.GuardedInts[int8](d, (off+3)%4)
						X, Xok := kerneltest.GuardedInts[uint8](rows*d, (off+2)%4) // samples for MatVecU8I8
						fillI8(rng, W, kind, true)
						fillI8(rng, x, kind, false)
						fillI8(rng, xs, kind, false)
						fillI8(rng, X, kind, false)
						W0, x0, xs0, X0 := slices.Clone(W), slices.Clone(x), slices.Clone(xs), slices.Clone(X)
						for _, op := range []struct {
							name string
							call func(dst []int32)
							ref  func(row []int8) int32
						}{
							{"DotsU8I8", func(dst []int32) { k.DotsU8I8(dst, W, x) }, func(row []int8) int32 { r, _ := kerneltest.DotU8I8(x, row); return r }},
							{"DotsI8", func(dst []int32) { k.DotsI8(dst, W, xs) }, func(row []int8) int32 { r, _ := kerneltest.DotI8(xs, row); return r }},
							// MatVecU8I8: the rows of X against the first row of W as the weights.
							{"MatVecU8I8", func(dst []int32) { k.MatVecU8I8(dst, X, W[:min(d, len(W))]) }, nil},
						} {
							if op.name == "MatVecU8I8" && rows == 0 {
								continue // no weight vector of length d in an empty W
							}
							dst, dok := kerneltest.GuardedInts[int32](rows, (off+2)%4)
							for i := range dst {
								dst[i] = 0x7eadbeef // overwritten
							}
							op.call(dst)
							for i := range dst {
								var want int32
								if op.ref != nil {
									want = op.ref(W[i*d : (i+1)*d])
								} else {
									want, _ = kerneltest.DotU8I8(X[i*d:(i+1)*d], W[:d])
								}
								if dst[i] != want {
									t.Fatalf("%s %s: row %d: got %d, want %d", op.name, what, i, dst[i], want)
								}
							}
							if err := dok(); err != nil {
								t.Fatalf("%s %s: dst: %v", op.name, what, err)
							}
						}
						if !slices.Equal(W, W0) || !slices.Equal(x, x0) || !slices.Equal(xs, xs0) || !slices.Equal(X, X0) {
							t.Fatalf("%s: an input was modified", what)
						}
						for _, ok := range []func() error{Wok, xok, xsok, Xok} {
							if err := ok(); err != nil {
								t.Fatalf("%s: %v", what, err)
							}
						}
					}
				}
			}
		})
	}
}

// TestInt8PackageFunctions checks that the package-level functions run the
// active int8 implementation's kernels.
func TestInt8PackageFunctions(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	k := kernel.ActiveImpl().Int8().Kernels()
	for _, d := range []int{0, 5, 33, 100, 768} {
		x, xs, W := make([]uint8, d), make([]int8, d), make([]int8, 7*d)
		fillI8(rng, x, i8Random, false)
		fillI8(rng, xs, i8Random, false)
		fillI8(rng, W, i8Random, true)
		if a, b := kernel.DotU8I8(x, W[:d]), k.DotU8I8(x, W[:d]); a != b {
			t.Errorf("d=%d: DotU8I8 %d, the active implementation's %d", d, a, b)
		}
		if a, b := kernel.DotI8(xs, W[:d]), k.DotI8(xs, W[:d]); a != b {
			t.Errorf("d=%d: DotI8 %d, the active implementation's %d", d, a, b)
		}
		a, b := make([]int32, 7), make([]int32, 7)
		kernel.DotsU8I8(a, W, x)
		k.DotsU8I8(b, W, x)
		if !slices.Equal(a, b) {
			t.Errorf("d=%d: DotsU8I8 %v, the active implementation's %v", d, a, b)
		}
		kernel.DotsI8(a, W, xs)
		k.DotsI8(b, W, xs)
		if !slices.Equal(a, b) {
			t.Errorf("d=%d: DotsI8 %v, the active implementation's %v", d, a, b)
		}
		X := make([]uint8, 7*d)
		fillI8(rng, X, i8Random, false)
		kernel.MatVecU8I8(a, X, W[:d])
		k.MatVecU8I8(b, X, W[:d])
		if !slices.Equal(a, b) {
			t.Errorf("d=%d: MatVecU8I8 %v, the active implementation's %v", d, a, b)
		}
	}
}

func TestInt8LengthMismatchPanics(t *testing.T) {
	k := kernel.ActiveImpl().Int8().Kernels()
	cases := []struct {
		name string
		call func()
		want string
	}{
		{"DotU8I8", func() { kernel.DotU8I8([]uint8{1}, []int8{1, 2}) }, "kernel.DotU8I8: length mismatch: len(x) = 1, len(w) = 2"},
		{"DotI8", func() { kernel.DotI8([]int8{1, 2}, nil) }, "kernel.DotI8: length mismatch: len(x) = 2, len(y) = 0"},
		{"DotsU8I8", func() { kernel.DotsU8I8(make([]int32, 2), make([]int8, 5), make([]uint8, 3)) }, "kernel.DotsU8I8: length mismatch: len(W) = 5, len(dst)·len(x) = 6"},
		{"DotsI8", func() { kernel.DotsI8(make([]int32, 1), make([]int8, 4), make([]int8, 3)) }, "kernel.DotsI8: length mismatch"},
		{"MatVecU8I8", func() { kernel.MatVecU8I8(make([]int32, 2), make([]uint8, 7), make([]int8, 3)) }, "kernel.MatVecU8I8: length mismatch: len(X) = 7, len(dst)·len(w) = 6"},
		{"method MatVecU8I8", func() { k.MatVecU8I8(nil, make([]uint8, 1), nil) }, "kernel.MatVecU8I8: length mismatch"},
		{"method DotU8I8", func() { k.DotU8I8(nil, []int8{1}) }, "kernel.DotU8I8: length mismatch"},
		{"method DotI8", func() { k.DotI8([]int8{1}, nil) }, "kernel.DotI8: length mismatch"},
		{"method DotsU8I8", func() { k.DotsU8I8(nil, make([]int8, 1), make([]uint8, 1)) }, "kernel.DotsU8I8: length mismatch"},
		{"method DotsI8", func() { k.DotsI8(make([]int32, 3), nil, make([]int8, 1)) }, "kernel.DotsI8: length mismatch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Fatalf("recovered %v, want a panic containing %q", r, c.want)
				}
			}()
			c.call()
		})
	}
}

func TestInt8Empty(t *testing.T) {
	for _, v := range int8Under(t) {
		k := v.Kernels()
		if got := k.DotU8I8(nil, nil); got != 0 {
			t.Errorf("%s: DotU8I8(nil, nil) = %d", v, got)
		}
		if got := k.DotI8([]int8{}, []int8{}); got != 0 {
			t.Errorf("%s: DotI8 of empty = %d", v, got)
		}
		k.DotsU8I8(nil, nil, []uint8{1, 2})
		dst := []int32{7, 7, 7}
		k.DotsI8(dst, nil, nil)
		if !slices.Equal(dst, []int32{0, 0, 0}) {
			t.Errorf("%s: DotsI8 with d=0 gave %v, want zeros", v, dst)
		}
		dst = []int32{7, 7}
		k.MatVecU8I8(dst, nil, nil)
		if !slices.Equal(dst, []int32{0, 0}) {
			t.Errorf("%s: MatVecU8I8 with d=0 gave %v, want zeros", v, dst)
		}
		k.MatVecU8I8(nil, nil, []int8{1, 2})
	}
}

// TestInt8BestSelected fails when the package-level int8 functions do not
// run the best int8 implementation this CPU supports for the active
// implementation (unless ROSENBLATT_KERNEL caps it), or when an int8
// implementation is marked available or unavailable against this CPU's
// features.
func TestInt8BestSelected(t *testing.T) {
	want := expectedInt8Available()
	for _, v := range kerneltest.Int8Impls() {
		if v.Available() != want[v.Name()] {
			t.Errorf("int8 implementation %s: Available() = %v, but this CPU's features say %v", v, v.Available(), want[v.Name()])
		}
		delete(want, v.Name())
	}
	for name, ok := range want {
		if ok {
			t.Errorf("int8 implementation %s is supported by this CPU but missing from the build", name)
		}
	}
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		v := im.Int8()
		if !v.Available() || rankOf(v.Impl()) > rankOf(im) {
			t.Errorf("%s.Int8() = %s (of %s), which it cannot run", im, v, v.Impl())
		}
		if w := expectedInt8For(im.Name()); v.Name() != w {
			t.Errorf("%s.Int8() = %s, want %s", im, v, w)
		}
	}
	if os.Getenv(kernel.EnvVar) != "" {
		t.Skipf("%s=%s caps the choice; best-path check not applicable", kernel.EnvVar, os.Getenv(kernel.EnvVar))
	}
	if got, best := kernel.ActiveImpl().Int8().Name(), expectedInt8For(expectedBest()); got != best {
		t.Fatalf("active int8 implementation %s, want %s (the best this CPU supports)", got, best)
	}
	t.Logf("active int8 implementation: %s", kernel.ActiveImpl().Int8())
}

// rankOf orders the implementations as dispatch does: generic below the
// others, avx2 below avx512.
func rankOf(im *kernel.Impl) int {
	return map[string]int{"generic": 0, "avx2": 1, "neon": 1, "avx512": 2}[im.Name()]
}

func TestInt8KernelsUnavailablePanics(t *testing.T) {
	for _, v := range kerneltest.Int8Impls() {
		if v.Available() {
			continue
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "not available") {
					t.Fatalf("%s.Kernels(): recovered %v, want a not-available panic", v, r)
				}
			}()
			v.Kernels()
		}()
	}
}
