package dataset

import (
	"bytes"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/pages"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// hugePage is the size of an x86-64 and arm64 (4 KiB granule) huge page.
const hugePage = 2 << 20

// madvHugepage is MADV_HUGEPAGE (the same value on every Linux
// architecture; the syscall package does not name it).
const madvHugepage = 14

// madvDontneed is MADV_DONTNEED.
const madvDontneed = 4

// madvise is syscall.Madvise; the tests replace it with one that ignores
// the advice, as some emulators do.
var madvise = syscall.Madvise

// adviseHuge asks for transparent huge pages for the 2 MiB-aligned part of
// x, if x is at least hugeMin bytes. x must hold only zeros (Alloc calls it
// on a new slice): if the Go heap reused memory for x that was already
// touched, its pages are 4 KiB pages already, and the advice alone would
// change nothing until the kernel's background collapsing got to them; so
// it first releases them (MADV_DONTNEED: a private anonymous page then
// reads as zeros, which x held anyway), and the first write faults in huge
// pages. It returns madvise's error, which Alloc ignores: the advice is
// only a hint.
func adviseHuge[T kernel.Float](x []T) error {
	p, lo, hi := hugeRange(x)
	if hi <= lo {
		return nil
	}
	// The range lies inside x, which stays alive until the call returns;
	// its ends are 2 MiB-aligned and x's elements at least 4-aligned, so
	// they fall on element boundaries.
	if advisedBefore(lo, hi) {
		// make cleared x, and the range's mapping keeps the advice
		// (madvise flags belong to the mapping, and the Go heap never
		// unmaps): its pages are huge already, or fault in as huge ones.
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(x)), lo-p)), hi-lo)
	if err := madvise(b, madvHugepage); err != nil {
		return err
	}
	// Release the range, with a probe: its first value is made non-zero
	// first, and reads as zero afterwards only if the release took
	// effect. Where it did not (some emulators and sandboxes accept
	// madvise and ignore it), the range may hold what the heap's earlier objects left
	// there, so it is cleared by hand.
	size0 := unsafe.Sizeof(x[0])
	i0, i1 := int((lo-p)/size0), int((hi-p)/size0)
	x[i0] = 1
	err := madvise(b, madvDontneed)
	if err != nil || x[i0] != 0 {
		clear(x[i0:i1])
		return err
	}
	rememberAdvised(lo, hi)
	return nil
}

// hugeRange returns the address p of x and the range [lo, hi) of it that
// adviseHuge advises: its 2 MiB-aligned part if x is at least hugeMin
// bytes and the kernel gives transparent huge pages (thpOff), else an
// empty one (hi ≤ lo).
func hugeRange[T kernel.Float](x []T) (p, lo, hi uintptr) {
	size := uintptr(len(x)) * unsafe.Sizeof(x[0])
	p = uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	if size < hugeMin || thpOff() {
		return p, 0, 0
	}
	return p, (p + hugePage - 1) &^ (hugePage - 1), (p + size) &^ (hugePage - 1)
}

// populateRest has the kernel back the pages of x outside the range
// adviseHuge advises (pages.Populate): all of a slice below hugeMin or
// where transparent huge pages are off, the ends of a larger one (up to
// 2 MiB each, in 4 KiB pages), so that the first writes to them do not
// fault page by page either.
func populateRest[T kernel.Float](x []T) {
	p, lo, hi := hugeRange(x)
	if hi <= lo {
		pages.Populate(x)
		return
	}
	size0 := unsafe.Sizeof(x[0])
	pages.Populate(x[:(lo-p)/size0])
	pages.Populate(x[(hi-p)/size0:])
}

// thpOff reports whether the kernel gives no transparent huge pages to
// advised memory: its setting (/sys/kernel/mm/transparent_hugepage/enabled)
// is "never", or it has none.
var thpOff = sync.OnceValue(func() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err != nil || bytes.Contains(b, []byte("[never]"))
})

// advised holds the address ranges [lo, hi) that adviseHuge has advised
// and released, disjoint, at most maxAdvised of them. The Go
// heap reuses freed memory at the same addresses: an Alloc there (the next
// fit's model, say) would otherwise clear its slice twice, once in make and
// once more in the kernel after the release, and fault every huge page in
// again.
var (
	advisedMu sync.Mutex
	advised   [][2]uintptr
)

// maxAdvised bounds advised; past it the list starts again (a range not
// remembered is only advised and released once more).
const maxAdvised = 256

// advisedBefore reports whether [lo, hi) lies inside one remembered range.
func advisedBefore(lo, hi uintptr) bool {
	advisedMu.Lock()
	defer advisedMu.Unlock()
	for _, r := range advised {
		if r[0] <= lo && hi <= r[1] {
			return true
		}
	}
	return false
}

// rememberAdvised adds [lo, hi) to advised, merging the ranges it overlaps
// or touches.
func rememberAdvised(lo, hi uintptr) {
	advisedMu.Lock()
	defer advisedMu.Unlock()
	out := advised[:0:0]
	for _, r := range advised {
		if r[1] < lo || hi < r[0] {
			out = append(out, r)
			continue
		}
		lo, hi = min(lo, r[0]), max(hi, r[1])
	}
	if len(out) >= maxAdvised {
		out = out[:0]
	}
	advised = append(out, [2]uintptr{lo, hi})
}
