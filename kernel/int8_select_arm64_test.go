//go:build !purego

package kernel_test

import (
	"encoding/binary"
	"os"
)

// hasASIMDDP reads HWCAP_ASIMDDP (bit 20 of AT_HWCAP) from the auxiliary
// vector itself, independently of the cpuid package the library uses.
// qemu-user serves the emulated CPU's vector for /proc/self/auxv.
func hasASIMDDP() bool {
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		panic("cannot read the auxiliary vector: " + err.Error())
	}
	for ; len(b) >= 16; b = b[16:] {
		if binary.LittleEndian.Uint64(b) == 16 { // AT_HWCAP
			return binary.LittleEndian.Uint64(b[8:])&(1<<20) != 0
		}
	}
	panic("no AT_HWCAP in the auxiliary vector")
}

// expectedInt8Available: every arm64 CPU has ASIMD; the dot product is
// optional.
func expectedInt8Available() map[string]bool {
	return map[string]bool{"generic": true, "neon": true, "neondot": hasASIMDDP()}
}

func expectedInt8For(impl string) string {
	switch {
	case impl == "neon" && hasASIMDDP():
		return "neondot"
	case impl == "neon":
		return "neon"
	}
	return "generic"
}
