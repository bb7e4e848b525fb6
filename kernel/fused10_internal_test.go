package kernel

import (
	"testing"
	"unsafe"
)

// TestFused10Rows checks that Fused10 copies W into rows that start on
// 64-byte boundaries, each a multiple of 64 bytes, zero past d, and that
// aligned64 returns zeroed, aligned memory of the length asked.
func TestFused10Rows(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 7840} {
		b := aligned64(n)
		if len(b) != n || cap(b) != n || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64 != 0 {
			t.Fatalf("aligned64(%d): len %d cap %d at %p", n, len(b), cap(b), unsafe.SliceData(b))
		}
	}
	for _, v := range Int8Impls() {
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
			if ok != (k.RescaleAsm() || v.Name() == "avxvnni") {
				t.Fatalf("%s: ok = %v", v.Name(), ok)
			}
			if !ok {
				continue
			}
			if f.stride%64 != 0 || f.stride < d || f.stride >= d+64 || uintptr(unsafe.Pointer(f.w))%64 != 0 || f.ready != d+1 {
				t.Fatalf("d=%d: stride %d, w at %p, ready %d", d, f.stride, f.w, f.ready)
			}
			rows := unsafe.Slice(f.w, 10*f.stride)
			for r := range 10 {
				for i := range f.stride {
					want := int8(0)
					if i < d {
						want = W[r*d+i]
					}
					if rows[r*f.stride+i] != want {
						t.Fatalf("d=%d: row %d byte %d = %d, want %d", d, r, i, rows[r*f.stride+i], want)
					}
				}
			}
		}
	}
}
