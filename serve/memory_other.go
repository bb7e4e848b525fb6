//go:build !linux

package serve

// physicalMemory returns 4 GiB: this platform's physical memory is not
// read.
func physicalMemory() (int64, string) {
	return 4 << 30, "4 GiB assumed (physical memory not read on this platform)"
}
