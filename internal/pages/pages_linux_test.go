package pages

import (
	"errors"
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// TestPopulateRange: the advice covers exactly the whole pages inside the
// slice, and only for slices of minBytes or more.
func TestPopulateRange(t *testing.T) {
	saved := madvise
	defer func() { madvise = saved }()
	var calls [][2]uintptr
	madvise = func(b []byte, advice int) error {
		if advice != madvPopulateWrite {
			t.Fatalf("advice %d", advice)
		}
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		calls = append(calls, [2]uintptr{p, p + uintptr(len(b))})
		return nil
	}
	pg := int(pageSize)
	x := make([]byte, 16*pg+minBytes)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	for _, c := range [][2]int{{0, len(x)}, {1, len(x) - 1}, {100, 100 + minBytes + pg}, {5, 5 + minBytes - 1}, {pg - 1, pg - 1 + minBytes}} {
		calls = nil
		Populate(x[c[0]:c[1]])
		lo, hi := base+uintptr(c[0]), base+uintptr(c[1])
		whole := (hi&^(pageSize-1))-((lo+pageSize-1)&^(pageSize-1)) >= pageSize // a whole page inside
		if c[1]-c[0] < minBytes || !whole {
			if len(calls) != 0 {
				t.Fatalf("%v: advised a slice below minBytes or without a whole page", c)
			}
			continue
		}
		if len(calls) != 1 {
			t.Fatalf("%v: %d calls", c, len(calls))
		}
		a := calls[0]
		if a[0]%pageSize != 0 || a[1]%pageSize != 0 || a[0] < lo || a[1] > hi || a[0]-lo >= pageSize || hi-a[1] >= pageSize {
			t.Fatalf("%v: advised [%#x, %#x) for the slice [%#x, %#x)", c, a[0], a[1], lo, hi)
		}
	}
}

// TestPopulateBacks: on memory never touched (a fresh mapping), Populate
// backs the pages, so that writing them then faults none in. It first
// asks for MADV_POPULATE_WRITE (23, written out: not the constant under
// test) on a probe mapping, and skips where the kernel does not know the
// advice or where it is accepted and ignored (qemu's user-mode emulation,
// which CI runs the arm64 tests under: the probe's pages still fault).
func TestPopulateBacks(t *testing.T) {
	runtime.LockOSThread() // the faults are counted for this thread
	defer runtime.UnlockOSThread()
	const probePages = 16
	probe, err := syscall.Mmap(-1, 0, probePages*int(pageSize), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	err = syscall.Madvise(probe, 23)
	f0 := minorFaults(t)
	for i := 0; i < len(probe); i += int(pageSize) {
		probe[i] = 1
	}
	ignored := minorFaults(t)-f0 >= probePages/2
	syscall.Munmap(probe)
	switch {
	case errors.Is(err, syscall.EINVAL):
		t.Skip("this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)")
	case err != nil:
		t.Skipf("MADV_POPULATE_WRITE refused: %v", err)
	case ignored:
		t.Skip("MADV_POPULATE_WRITE is accepted and ignored here (an emulator)")
	}
	const size = 4 << 20
	for _, populated := range []bool{false, true} {
		b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			t.Fatal(err)
		}
		if populated {
			Populate(b)
		}
		f0 := minorFaults(t)
		for i := 0; i < size; i += int(pageSize) {
			b[i] = 1
		}
		f := minorFaults(t) - f0
		syscall.Munmap(b)
		pages := int64(size / pageSize)
		t.Logf("populated %v: %d faults for %d pages", populated, f, pages)
		if populated && f > pages/8 {
			t.Errorf("populated: writing %d pages faulted %d", pages, f)
		}
		if !populated && f < pages/2 {
			t.Errorf("not populated: writing %d pages faulted only %d: the test cannot tell", pages, f)
		}
	}
}

func minorFaults(t *testing.T) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		t.Fatal(err)
	}
	return int64(ru.Minflt) // int32 on 32-bit systems
}

// TestPopulateUnsupported: once the kernel refuses the advice as unknown
// (EINVAL, Linux before 5.14), Populate stops asking.
func TestPopulateUnsupported(t *testing.T) {
	saved := madvise
	defer func() { madvise = saved; unsupported.Store(false) }()
	calls := 0
	madvise = func(b []byte, advice int) error { calls++; return syscall.EINVAL }
	x := make([]byte, 4*minBytes)
	Populate(x)
	Populate(x)
	if calls != 1 {
		t.Fatalf("%d calls after EINVAL, want 1", calls)
	}
}
