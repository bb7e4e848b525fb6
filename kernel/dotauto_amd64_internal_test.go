//go:build amd64 && linux && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// The package-level Dot and SqDist on amd64 are the assembly dotAuto and
// sqdistAuto, which pick the implementation themselves from activeID. These
// tests set activeID to every implementation this CPU runs (and to
// generic), so each of their bodies — AVX-512 and AVX2, float32 and
// float64, with the short AVX-512 paths for one vector (≤ 64 bytes) and for
// two to four (≤ 256 bytes), and AVX2's for up to 128 bytes — and their
// jumps to Go are checked in one process.

// dotAutoLengths are every length 0..80 (the AVX-512 short paths end at 16
// and 64 float32, 8 and 32 float64; AVX2's at 4, 8 and 32 float32, 2, 4 and
// 16 float64) and the lengths around the unrolled blocks, the loop, and
// the AVX2 switch from four partial sums to eight at 4096 bytes (1024
// float32, 512 float64).
var dotAutoLengths = func() []int {
	var ns []int
	for n := 0; n <= 80; n++ {
		ns = append(ns, n)
	}
	return append(ns, 95, 96, 97, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 1027, 2047, 2048, 2049, 4099)
}()

// withActiveID runs f with dotAuto dispatching to implementation id.
func withActiveID(t *testing.T, id ID, f func()) {
	t.Helper()
	saved := activeID
	activeID = id
	defer func() { activeID = saved }()
	f()
}

func dotAutoImpls(t *testing.T) []*Impl {
	return append([]*Impl{impls[0]}, asmImpls(t)...)
}

// autoKernel is one of the kernels with an assembly entry of its own
// (dotAuto, sqdistAuto): the exported function for each element type and
// the exact value of its sum on small integers (a float64 accumulation).
type autoKernel struct {
	name  string
	f32   func(x, y []float32) float32
	f64   func(x, y []float64) float64
	terms func(x, y float64) (term, abs float64) // a term of the sum and its magnitude
}

var autoKernels = []autoKernel{
	{"Dot", Dot[float32], Dot[float64], func(x, y float64) (float64, float64) { return x * y, math.Abs(x * y) }},
	{"SqDist", SqDist[float32], SqDist[float64], func(x, y float64) (float64, float64) { return (x - y) * (x - y), (x - y) * (x - y) }},
}

// call runs k's function of element type T.
func (k autoKernel) call(x, y any) float64 {
	switch x := x.(type) {
	case []float32:
		return float64(k.f32(x, y.([]float32)))
	case []float64:
		return k.f64(x, y.([]float64))
	}
	panic("element type")
}

// TestDotAutoExact checks Dot and SqDist on every implementation against
// the exact sum on small integers, with slices that end at an inaccessible
// page (a read past the end faults) or start at one, at every element
// offset.
func TestDotAutoExact(t *testing.T) {
	for _, k := range autoKernels {
		for _, im := range dotAutoImpls(t) {
			t.Run(k.name+"/"+im.name+"/f32", func(t *testing.T) { withActiveID(t, im.id, func() { testDotAutoExact[float32](t, k) }) })
			t.Run(k.name+"/"+im.name+"/f64", func(t *testing.T) { withActiveID(t, im.id, func() { testDotAutoExact[float64](t, k) }) })
		}
	}
}

func testDotAutoExact[T float32 | float64](t *testing.T, k autoKernel) {
	px, py := fencedPage(t), fencedPage(t)
	for _, at := range []func([]byte, int) []T{atEnd[T], atStart[T]} {
		for _, n := range dotAutoLengths {
			var x, y []T
			if n*int(unsafe.Sizeof(T(0))) > len(px) {
				// Longer than the fenced page: ordinary slices, the
				// loops and their ends exact all the same.
				x, y = make([]T, n), make([]T, n)
			} else {
				x, y = at(px, n), at(py, n)
			}
			fillSmall(x, 1)
			fillSmall(y, 2)
			var want float64
			for i := range x {
				term, _ := k.terms(float64(x[i]), float64(y[i]))
				want += term
			}
			if got := k.call(x, y); got != want {
				t.Fatalf("n=%d: %s = %v, want %v", n, k.name, got, want)
			}
		}
	}
}

// TestDotAutoBound checks Dot and SqDist on every implementation against
// the float64 sum of random values of both signs, within γₙ·Σ|x·y| (for
// SqDist γₙ₊₁·Σ(x−y)²: the bounds of kernel.go), on slices starting 0 to 3
// elements past an allocation's start (misaligned for the vector loads).
func TestDotAutoBound(t *testing.T) {
	for _, k := range autoKernels {
		for _, im := range dotAutoImpls(t) {
			t.Run(k.name+"/"+im.name+"/f32", func(t *testing.T) { withActiveID(t, im.id, func() { testDotAutoBound[float32](t, k) }) })
			t.Run(k.name+"/"+im.name+"/f64", func(t *testing.T) { withActiveID(t, im.id, func() { testDotAutoBound[float64](t, k) }) })
		}
	}
}

func testDotAutoBound[T float32 | float64](t *testing.T, k autoKernel) {
	var z T
	u := 0x1p-24
	if unsafe.Sizeof(z) == 8 {
		u = 0x1p-53
	}
	rng := rand.New(rand.NewPCG(14, 5))
	for _, n := range dotAutoLengths {
		for off := 0; off < 4; off++ {
			bx, by := make([]T, n+off+1), make([]T, n+off+1)
			for i := range bx {
				bx[i], by[i] = T(rng.Float64()*2-1), T(rng.Float64()*2-1)
			}
			x, y := bx[off:off+n], by[off:off+n]
			var ref, abs float64
			for i := range x {
				term, a := k.terms(float64(x[i]), float64(y[i]))
				ref += term
				abs += a
			}
			got := k.call(x, y)
			m := float64(n)
			if k.name == "SqDist" {
				m++ // the rounding of each difference
			}
			gamma := m * u / (1 - m*u)
			if d := math.Abs(got - ref); d > gamma*abs {
				t.Fatalf("n=%d off=%d: %s = %v, float64 sum %v: error %g over the bound %g", n, off, k.name, got, ref, d, gamma*abs)
			}
		}
	}
}

// TestDotAutoLengthPanic checks that every implementation's path of Dot
// and SqDist panics, with both lengths in the message, when len(x) !=
// len(y).
func TestDotAutoLengthPanic(t *testing.T) {
	for _, k := range autoKernels {
		for _, im := range dotAutoImpls(t) {
			for _, c := range []struct{ nx, ny int }{{3, 4}, {17, 16}, {0, 1}, {64, 65}} {
				t.Run(fmt.Sprintf("%s/%s/%d,%d", k.name, im.name, c.nx, c.ny), func(t *testing.T) {
					msg := func() (msg string) {
						defer func() { msg = fmt.Sprint(recover()) }()
						withActiveID(t, im.id, func() { k.call(make([]float32, c.nx), make([]float32, c.ny)) })
						return "no panic"
					}()
					want := fmt.Sprintf("kernel.%s: length mismatch: len(x) = %d, len(y) = %d", k.name, c.nx, c.ny)
					if !strings.Contains(msg, want) {
						t.Errorf("got %q, want %q", msg, want)
					}
				})
			}
		}
	}
}
