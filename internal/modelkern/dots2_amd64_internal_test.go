//go:build amd64 && linux && !purego

package modelkern

import (
	"fmt"
	"testing"
)

// TestDots2Fenced runs Dots2's assembly with W, the two samples x and dst
// each ending at a page that cannot be read or written, so that touching
// one element past a slice faults; small integers make every score exact.
func TestDots2Fenced(t *testing.T) {
	for _, im := range asmImpls(t) {
		t.Run(im.Name()+"/f32", func(t *testing.T) { testDots2Fenced[float32](t, On[float32](im)) })
		t.Run(im.Name()+"/f64", func(t *testing.T) { testDots2Fenced[float64](t, On[float64](im)) })
	}
}

func testDots2Fenced[T float32 | float64](t *testing.T, k Kernels[T]) {
	pw, px, pd := fencedPage(t), fencedPage(t), fencedPage(t)
	size := 4
	if !is32[T]() {
		size = 8
	}
	for _, d := range []int{8, 9, 15, 16, 17, 31, 33, 63, 65, 100} {
		for rows := 0; rows <= 11; rows++ {
			if rows*d*size > len(pw) || 2*d*size > len(px) || 2*rows*size > len(pd) {
				continue
			}
			what := fmt.Sprintf("rows=%d d=%d", rows, d)
			W, x, dst := atEnd[T](pw, rows*d), atEnd[T](px, 2*d), atEnd[T](pd, 2*rows)
			for i := range W {
				W[i] = T((i*7+9)%11 - 5)
			}
			for i := range x {
				x[i] = T((i*7+15)%11 - 5)
			}
			k.Dots2(dst, W, x)
			for s := range 2 {
				for i := range rows {
					var want float64
					for j := range d {
						want += float64(W[i*d+j]) * float64(x[s*d+j])
					}
					if float64(dst[s*rows+i]) != want {
						t.Fatalf("%s: sample %d row %d = %v, want %v", what, s, i, dst[s*rows+i], want)
					}
				}
			}
		}
	}
}
