//go:build !purego

package kernel_test

// expectedAvailable: every arm64 CPU has ASIMD (NEON).
func expectedAvailable() map[string]bool {
	return map[string]bool{"generic": true, "neon": true}
}

func expectedBest() string { return "neon" }
