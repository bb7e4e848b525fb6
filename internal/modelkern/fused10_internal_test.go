package modelkern

import (
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
)

// TestFused10Rows checks that Fused10 copies W into rows that start on
// 64-byte boundaries, each a multiple of 64 bytes, zero past d (for avx2,
// whose assembly multiplies int16, each element widened to int16), and that
// aligned64 returns zeroed, aligned memory of the length asked.
func TestFused10Rows(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 7840} {
		b := aligned64(n)
		if len(b) != n || cap(b) != n || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64 != 0 {
			t.Fatalf("aligned64(%d): len %d cap %d at %p", n, len(b), cap(b), unsafe.SliceData(b))
		}
	}
	for _, v := range kerneltest.Int8Impls() {
		if !v.Available() {
			continue
		}
		k := OnInt8(v)
		for _, d := range []int{0, 1, 64, 768, 784} {
			W := make([]int8, 10*d)
			for i := range W {
				W[i] = int8(i%251 + 1)
			}
			f, ok := k.Fused10(W, make([]int32, 10), make([]float64, 10), make([]float64, 10))
			if ok != (k.RescaleAsm() || v.Name() == "avxvnni" || v.Name() == "avx2") {
				t.Fatalf("%s: ok = %v", v.Name(), ok)
			}
			if !ok {
				continue
			}
			size := 1 // bytes an element
			if v.Name() == "avx2" {
				size = 2
			}
			if (f.kind == fused10AVX2) != (size == 2) {
				t.Fatalf("%s: kind %d", v.Name(), f.kind)
			}
			elems := f.stride / size
			if f.stride%64 != 0 || elems < max(d, 32*(size-1)) || elems >= max(d, 1)+64/size || uintptr(unsafe.Pointer(f.w))%64 != 0 || f.ready != d+1 {
				t.Fatalf("%s d=%d: stride %d bytes, w at %p, ready %d", v.Name(), d, f.stride, f.w, f.ready)
			}
			bytes := unsafe.Slice(f.w, 10*f.stride)
			for r := range 10 {
				for i := range elems {
					want := int16(0)
					if i < d {
						want = int16(W[r*d+i])
					}
					got := int16(bytes[r*f.stride+i])
					if size == 2 {
						got = *(*int16)(unsafe.Pointer(&bytes[r*f.stride+2*i]))
					}
					if got != want {
						t.Fatalf("%s d=%d: row %d element %d = %d, want %d", v.Name(), d, r, i, got, want)
					}
				}
			}
		}
	}
}
