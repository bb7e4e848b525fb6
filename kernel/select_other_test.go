//go:build purego || !(amd64 || arm64)

package kernel_test

// expectedAvailable: builds without assembly have only the portable path.
func expectedAvailable() map[string]bool { return map[string]bool{"generic": true} }

func expectedBest() string { return "generic" }
