//go:build !linux

package benchcmd

import "runtime"

// affinityCPUs returns runtime.NumCPU, which is the process's affinity
// where the operating system has one Go reads (FreeBSD, Windows).
func affinityCPUs() (int, string) { return runtime.NumCPU(), "runtime.NumCPU" }

// adviseHugePages does nothing outside Linux.
func adviseHugePages([]uint64) {}
