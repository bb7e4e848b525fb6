package modelkern_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// TestDots2 checks Dots2 on every implementation this CPU runs, at row
// counts around the 2×5 tile and lengths around the vector widths (the
// short samples that go to Dots among them): on small integers, whose
// sums every order computes exactly, each score equals the exact dot
// product; on random values each is within Dot's error bound
// (kerneltest.CheckMatVec). Nothing outside dst is written and W and x
// are not modified.
func TestDots2(t *testing.T) {
	testDots2[float32](t)
	testDots2[float64](t)
}

func testDots2[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		k := modelkern.On[T](im)
		for _, rows := range []int{0, 1, 2, 4, 5, 6, 9, 10, 11, 16} {
			for _, d := range []int{0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100, 257} {
				for _, integer := range []bool{true, false} {
					what := fmt.Sprintf("%s %T rows=%d d=%d integer=%v", im.Name(), T(0), rows, d, integer)
					W, x := make([]T, rows*d), make([]T, 2*d)
					for _, s := range [][]T{W, x} {
						for i := range s {
							if integer {
								s[i] = T(rng.IntN(11) - 5)
							} else {
								s[i] = T(rng.NormFloat64())
							}
						}
					}
					W0, x0 := slices.Clone(W), slices.Clone(x)
					dst, intact := kerneltest.Guarded[T](2*rows, rows%3)
					k.Dots2(dst, W, x)
					for s := range 2 {
						xs := x[s*d : (s+1)*d]
						if err := kerneltest.CheckMatVec(dst[s*rows:(s+1)*rows], W, xs); err != nil {
							t.Fatalf("%s: sample %d: %v", what, s, err)
						}
						for i := range rows {
							if ref, _ := parity.Dot(W[i*d:i*d+d], xs); integer && float64(dst[s*rows+i]) != ref {
								t.Fatalf("%s: sample %d row %d: got %v, want exactly %v", what, s, i, dst[s*rows+i], ref)
							}
						}
					}
					if err := intact(); err != nil {
						t.Fatalf("%s: dst: %v", what, err)
					}
					if !slices.Equal(W, W0) || !slices.Equal(x, x0) {
						t.Fatalf("%s: W or x modified", what)
					}
				}
			}
		}
	}
}

// TestDots2Panics: mismatched lengths panic with a message naming Dots2,
// for the package-level function and the method alike.
func TestDots2Panics(t *testing.T) {
	k := modelkern.On[float64](kernel.ActiveImpl())
	for _, c := range []struct {
		name string
		call func()
	}{
		{"odd dst", func() { modelkern.Dots2(make([]float64, 3), make([]float64, 3), make([]float64, 2)) }},
		{"odd x", func() { modelkern.Dots2(make([]float64, 2), make([]float64, 1), make([]float64, 3)) }},
		{"W", func() { k.Dots2(make([]float64, 4), make([]float64, 5), make([]float64, 4)) }},
	} {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, "modelkern.Dots2: length mismatch") {
					t.Errorf("%s: recovered %v, want a length mismatch naming Dots2", c.name, r)
				}
			}()
			c.call()
		}()
	}
}

// TestDots2Active: the package-level Dots2 gives the active
// implementation's Kernels.Dots2 scores, bit for bit.
func TestDots2Active(t *testing.T) {
	const rows, d = 7, 40
	W, x := make([]float32, rows*d), make([]float32, 2*d)
	for i := range W {
		W[i] = float32(i%13) / 7
	}
	for i := range x {
		x[i] = float32(i%5) / 3
	}
	a, b := make([]float32, 2*rows), make([]float32, 2*rows)
	modelkern.Dots2(a, W, x)
	modelkern.On[float32](kernel.ActiveImpl()).Dots2(b, W, x)
	if !slices.Equal(a, b) {
		t.Fatalf("package-level %v, active implementation's %v", a, b)
	}
}
