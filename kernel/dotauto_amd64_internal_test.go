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

// The package-level Dot on amd64 is the assembly dotAuto, which picks the
// implementation itself from activeID. These tests set activeID to every
// implementation this CPU runs (and to generic), so each of dotAuto's
// bodies — AVX-512 and AVX2, float32 and float64, with the short AVX-512
// paths for one vector (≤ 64 bytes) and for two to four (≤ 256 bytes) — and
// its jumps to Go are checked in one process.

// dotAutoLengths are every length 0..80 (the AVX-512 short paths end at 16
// and 64 float32, 8 and 32 float64; AVX2's at 8 and 4 elements) and the
// lengths around the unrolled blocks and the loop.
var dotAutoLengths = func() []int {
	var ns []int
	for n := 0; n <= 80; n++ {
		ns = append(ns, n)
	}
	return append(ns, 95, 96, 97, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000, 1027)
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

// TestDotAutoExact checks Dot on every implementation against the exact
// sum on small integers, with slices that end at an inaccessible page (a
// read past the end faults) or start at one, at every element offset.
func TestDotAutoExact(t *testing.T) {
	for _, im := range dotAutoImpls(t) {
		t.Run(im.name+"/f32", func(t *testing.T) { withActiveID(t, im.id, func() { testDotAutoExact[float32](t) }) })
		t.Run(im.name+"/f64", func(t *testing.T) { withActiveID(t, im.id, func() { testDotAutoExact[float64](t) }) })
	}
}

func testDotAutoExact[T float32 | float64](t *testing.T) {
	px, py := fencedPage(t), fencedPage(t)
	for _, at := range []func([]byte, int) []T{atEnd[T], atStart[T]} {
		for _, n := range dotAutoLengths {
			if n*int(unsafe.Sizeof(T(0))) > len(px) {
				continue
			}
			x, y := at(px, n), at(py, n)
			fillSmall(x, 1)
			fillSmall(y, 2)
			var want float64
			for i := range x {
				want += float64(x[i]) * float64(y[i])
			}
			if got := Dot(x, y); float64(got) != want {
				t.Fatalf("n=%d: Dot = %v, want %v", n, got, want)
			}
		}
	}
}

// TestDotAutoBound checks Dot on every implementation against the float64
// sum of random values of both signs, within γₙ·Σ|x·y| (the bound of
// kernel.go), on slices starting 0 to 3 elements past an allocation's start
// (misaligned for the vector loads).
func TestDotAutoBound(t *testing.T) {
	for _, im := range dotAutoImpls(t) {
		t.Run(im.name+"/f32", func(t *testing.T) { withActiveID(t, im.id, func() { testDotAutoBound[float32](t) }) })
		t.Run(im.name+"/f64", func(t *testing.T) { withActiveID(t, im.id, func() { testDotAutoBound[float64](t) }) })
	}
}

func testDotAutoBound[T float32 | float64](t *testing.T) {
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
				p := float64(x[i]) * float64(y[i])
				ref += p
				abs += math.Abs(p)
			}
			got := float64(Dot(x, y))
			gamma := float64(n) * u / (1 - float64(n)*u)
			if d := math.Abs(got - ref); d > gamma*abs {
				t.Fatalf("n=%d off=%d: Dot = %v, float64 sum %v: error %g over γₙ·Σ|x·y| = %g", n, off, got, ref, d, gamma*abs)
			}
		}
	}
}

// TestDotAutoLengthPanic checks that every implementation's path panics,
// with both lengths in the message, when len(x) != len(y).
func TestDotAutoLengthPanic(t *testing.T) {
	for _, im := range dotAutoImpls(t) {
		for _, c := range []struct{ nx, ny int }{{3, 4}, {17, 16}, {0, 1}, {64, 65}} {
			t.Run(fmt.Sprintf("%s/%d,%d", im.name, c.nx, c.ny), func(t *testing.T) {
				msg := func() (msg string) {
					defer func() { msg = fmt.Sprint(recover()) }()
					withActiveID(t, im.id, func() { Dot(make([]float32, c.nx), make([]float32, c.ny)) })
					return "no panic"
				}()
				want := fmt.Sprintf("kernel.Dot: length mismatch: len(x) = %d, len(y) = %d", c.nx, c.ny)
				if !strings.Contains(msg, want) {
					t.Errorf("got %q, want %q", msg, want)
				}
			})
		}
	}
}
