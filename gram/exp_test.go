package gram

import (
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// expErr evaluates every path's RBF tile function as exp(−x) (ni = x,
// nj = s = 0, gamma = 1) on a dense grid of x in [0, xmax] and returns the
// largest error relative to math.Exp in units of u (for results above the
// flush limit) and the largest absolute error below it.
func expErr[T kernel.Float](mk *micro[T], u, flush, xmax float64) (rel, abs float64) {
	const n = 3 << 14 // a multiple of every tile width
	xs := make([]T, n)
	dst := make([]T, n)
	for i := range xs {
		xs[i] = T(xmax * float64(i) / n)
	}
	xs[1] = T(1e-30) // tiny arguments
	for i := 0; i < n; i += mk.nr {
		mk.rbf(dst[i:i+mk.nr], 0, xs[i:i+mk.nr], 1)
	}
	for i, x := range xs {
		want := math.Exp(-float64(x))
		got := float64(dst[i])
		if want < flush {
			abs = max(abs, math.Abs(got-want))
			continue
		}
		rel = max(rel, math.Abs(got-want)/want/u)
	}
	return rel, abs
}

// TestExpAccuracy checks the documented error bound of every path's
// exponential: 4 units of roundoff relative (2⁻²⁴ or 2⁻⁵³), and results
// below e^−86 (float32) or e^−708 (float64) within 5·10⁻³⁸ or 4·10⁻³⁰⁸.
func TestExpAccuracy(t *testing.T) {
	// The Go version of the polynomial (the NEON path's) is checked on
	// every machine.
	type entry struct {
		name string
		f32  *micro[float32]
		f64  *micro[float64]
	}
	list := []entry{{"go-poly", &micro[float32]{nr: 4, rbf: rbfPoly[float32]}, &micro[float64]{nr: 4, rbf: rbfPoly[float64]}}}
	for _, im := range kernel.Impls() {
		if im.Available() {
			list = append(list, entry{im.Name(), microOf[float32](im), microOf[float64](im)})
		}
	}
	for _, p := range list {
		rel, abs := expErr(p.f32, 0x1p-24, math.Exp(-86), 120)
		t.Logf("%s f32: max rel err %.2f u, abs below flush %.3g", p.name, rel, abs)
		if rel > 4 || abs > 5e-38 {
			t.Errorf("%s f32: rel err %.2f u (bound 4), abs %.3g (bound 5e-38)", p.name, rel, abs)
		}
		rel, abs = expErr(p.f64, 0x1p-53, math.Exp(-708), 800)
		t.Logf("%s f64: max rel err %.2f u, abs below flush %.3g", p.name, rel, abs)
		if rel > 4 || abs > 4e-308 {
			t.Errorf("%s f64: rel err %.2f u (bound 4), abs %.3g (bound 4e-308)", p.name, rel, abs)
		}
	}
}
