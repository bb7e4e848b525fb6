package main

import (
	"runtime"

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
