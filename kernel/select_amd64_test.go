//go:build !purego

package kernel_test

import "github.com/klauspost/cpuid/v2"

// expectedAvailable says which implementations this CPU must be able to run,
// from cpuid/v2 directly.
func expectedAvailable() map[string]bool {
	return map[string]bool{
		"generic": true,
		"avx2":    cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3),
		"avx512":  cpuid.CPU.Supports(cpuid.AVX512F),
	}
}

func expectedBest() string {
	switch a := expectedAvailable(); {
	case a["avx512"]:
		return "avx512"
	case a["avx2"]:
		return "avx2"
	}
	return "generic"
}
