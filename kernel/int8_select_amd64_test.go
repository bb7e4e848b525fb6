//go:build !purego

package kernel_test

import "github.com/klauspost/cpuid/v2"

// expectedInt8Available says which int8 implementations this CPU must be
// able to run, from cpuid/v2 directly.
func expectedInt8Available() map[string]bool {
	return map[string]bool{
		"generic":    true,
		"avx2":       cpuid.CPU.Supports(cpuid.AVX2),
		"avxvnni":    cpuid.CPU.Supports(cpuid.AVX2, cpuid.AVXVNNI),
		"avx512vnni": cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VNNI),
	}
}

// expectedInt8For returns the int8 implementation that must run when the
// implementation named impl is active: AVX512_VNNI only within avx512,
// AVX-VNNI and AVX2 within avx2 and avx512.
func expectedInt8For(impl string) string {
	a := expectedInt8Available()
	x86 := impl == "avx2" || impl == "avx512"
	switch {
	case impl == "avx512" && a["avx512vnni"]:
		return "avx512vnni"
	case x86 && a["avxvnni"]:
		return "avxvnni"
	case x86 && a["avx2"]:
		return "avx2"
	}
	return "generic"
}
