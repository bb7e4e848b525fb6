package benchcmd

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// affinityCPUs returns the number of CPUs of the process's affinity mask
// (sched_getaffinity), or runtime.NumCPU if the call fails.
func affinityCPUs() (int, string) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err == nil && set.Count() > 0 {
		return set.Count(), "sched_getaffinity"
	}
	return runtime.NumCPU(), "runtime.NumCPU"
}

// hugePage is the transparent huge page size adviseHugePages aligns to.
const hugePage = 2 << 20

// adviseHugePages asks the kernel to back the not yet touched words of buf
// with transparent huge pages (MADV_HUGEPAGE, for the kernels whose THP
// mode is "madvise"): the bench's arena of up to 256 MiB then costs 512
// page faults instead of 65536, which in a virtual machine take seconds
// (1.2 s of the 4 s of a -quick run on the Zen 5 guest, 0.35 s with huge
// pages). It is advice: an error leaves the small pages.
func adviseHugePages(buf []uint64) {
	if len(buf) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), len(buf)*8)
	off := (hugePage - int(uintptr(unsafe.Pointer(&b[0]))%hugePage)) % hugePage
	if n := (len(b) - off) / hugePage * hugePage; off < len(b) && n > 0 {
		_ = unix.Madvise(b[off:off+n], unix.MADV_HUGEPAGE)
	}
}
