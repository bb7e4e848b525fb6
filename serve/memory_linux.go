package serve

import "syscall"

// physicalMemory returns the machine's memory (sysinfo(2)).
func physicalMemory() (int64, string) {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err == nil && si.Totalram > 0 {
		return int64(si.Totalram) * int64(si.Unit), "the physical memory"
	}
	return 4 << 30, "4 GiB assumed (sysinfo failed)"
}
