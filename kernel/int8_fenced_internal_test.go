//go:build (amd64 || arm64) && linux && !purego

package kernel

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
)

// The int8 assembly on memory fenced by inaccessible pages: every slice
// ends at the last byte before a PROT_NONE page, or starts at the first
// byte after one, so a kernel that reads or writes one byte outside a
// slice dies with SIGSEGV instead of passing by luck (a load of a whole
// vector where the tail needs a few bytes, a masked load with the wrong
// element size). Under qemu-aarch64 the pages are fenced the same way.

// i8At returns n elements of T at the end (end true) or the start of page.
func i8At[T int8 | uint8 | int32](page []byte, n int, end bool) []T {
	if n == 0 {
		return []T{}
	}
	var z T
	size := int(unsafe.Sizeof(z))
	at := 0
	if end {
		at = len(page) - n*size
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&page[at])), n)
}

func TestInt8Fenced(t *testing.T) {
	pw, px, pd := memtest.FencedPage(t), memtest.FencedPage(t), memtest.FencedPage(t)
	for _, v := range int8Impls[1:] {
		if !v.available {
			t.Logf("%s: not available on this CPU, not tested here", v.name)
			continue
		}
		k := Int8Kernels{im: v}
		for _, end := range []bool{true, false} {
			for rows := 0; rows <= 5; rows++ {
				for d := 0; d <= 200; d++ {
					if rows*d > len(pw) {
						continue
					}
					what := fmt.Sprintf("%s end=%v rows=%d d=%d", v.name, end, rows, d)
					W := i8At[int8](pw, rows*d, end)
					x := i8At[uint8](px, d, end)
					xs := i8At[int8](px, d, end)
					dst := i8At[int32](pd, rows, end)
					for i := range W {
						W[i] = int8(i*7 - 100)
					}
					for i := range x {
						x[i] = uint8(i*13 + 5)
					}
					k.DotsU8I8(dst, W, x)
					for r := range dst {
						if want := dotU8I8Generic(x, W[r*d:(r+1)*d]); dst[r] != want {
							t.Fatalf("DotsU8I8 %s: row %d: got %d, want %d", what, r, dst[r], want)
						}
					}
					k.DotsI8(dst, W, xs)
					for r := range dst {
						if want := dotI8Generic(xs, W[r*d:(r+1)*d]); dst[r] != want {
							t.Fatalf("DotsI8 %s: row %d: got %d, want %d", what, r, dst[r], want)
						}
					}
					// MatVecU8I8: the rows of x's page against the first d of W
					// (at the start of its page, or its end when rows = 1).
					if rows*d <= len(px) {
						X := i8At[uint8](px, rows*d, end)
						for i := range X {
							X[i] = uint8(i*29 + 3)
						}
						w := W[:min(d, len(W))]
						if rows == 0 {
							w = i8At[int8](pw, d, end)
						}
						k.MatVecU8I8(dst, X, w)
						for r := range dst {
							if want := dotU8I8Generic(X[r*d:(r+1)*d], w); dst[r] != want {
								t.Fatalf("MatVecU8I8 %s: row %d: got %d, want %d", what, r, dst[r], want)
							}
						}
					}
					if rows == 1 {
						if got, want := k.DotU8I8(x, W), dotU8I8Generic(x, W); got != want {
							t.Fatalf("DotU8I8 %s: got %d, want %d", what, got, want)
						}
						if got, want := k.DotI8(xs, W), dotI8Generic(xs, W); got != want {
							t.Fatalf("DotI8 %s: got %d, want %d", what, got, want)
						}
					}
				}
			}
		}
	}
}
