package dataset

import (
	"runtime"
	"testing"
	"unsafe"
)

// TestAllocIgnoredAdvice runs Alloc where madvise succeeds but does
// nothing (as under some emulators): memory the heap reuses must still
// read as zeros.
func TestAllocIgnoredAdvice(t *testing.T) {
	saved := madvise
	defer func() { madvise = saved }()
	madvise = func(b []byte, advice int) error { return nil }
	for range 4 {
		x := Alloc[float32](hugeMin)
		for i, v := range x {
			if v != 0 {
				t.Fatalf("Alloc with ignored advice: [%d] = %v", i, v)
			}
			x[i] = 7
		}
		runtime.GC()
	}
}

// TestAdvisedRanges checks the remembered ranges: containment, merging of
// overlapping and touching ranges, and the bound.
func TestAdvisedRanges(t *testing.T) {
	advisedMu.Lock()
	saved := advised
	advised = nil
	advisedMu.Unlock()
	defer func() { advisedMu.Lock(); advised = saved; advisedMu.Unlock() }()

	rememberAdvised(100, 200)
	rememberAdvised(300, 400)
	for _, c := range []struct {
		lo, hi uintptr
		want   bool
	}{
		{100, 200, true}, {120, 180, true}, {99, 150, false}, {150, 201, false},
		{200, 300, false}, {300, 400, true}, {0, 50, false},
	} {
		if got := advisedBefore(c.lo, c.hi); got != c.want {
			t.Errorf("advisedBefore(%d, %d) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
	rememberAdvised(200, 300) // touches both: one range 100..400
	if len(advised) != 1 || advised[0] != [2]uintptr{100, 400} {
		t.Fatalf("after merging: %v, want [[100 400]]", advised)
	}
	if !advisedBefore(150, 350) {
		t.Error("a range across the merged ends is not inside")
	}
	for i := range maxAdvised + 3 {
		rememberAdvised(uintptr(1000+10*i), uintptr(1005+10*i))
	}
	if len(advised) > maxAdvised {
		t.Fatalf("%d ranges remembered, want at most %d", len(advised), maxAdvised)
	}
}

// TestAllocReusedAdvised allocates, frees and allocates again: where the
// heap gives back the same memory, the second Alloc must not advise or
// release it again, and must still be all zeros.
func TestAllocReusedAdvised(t *testing.T) {
	saved := madvise
	defer func() { madvise = saved }()
	calls := 0
	madvise = func(b []byte, advice int) error { calls++; return saved(b, advice) }
	x := Alloc[float32](hugeMin)
	p := uintptr(unsafe.Pointer(&x[0])) // an address only: x must be freed
	for i := range x {
		x[i] = 3
	}
	x = nil
	runtime.GC()
	calls = 0
	y := Alloc[float32](hugeMin)
	for i, v := range y {
		if v != 0 {
			t.Fatalf("reused Alloc: [%d] = %v", i, v)
		}
	}
	if uintptr(unsafe.Pointer(&y[0])) != p {
		t.Skip("the heap did not reuse the memory; nothing more to check")
	}
	if calls != 0 {
		t.Errorf("Alloc on memory it advised before called madvise %d times", calls)
	}
}
