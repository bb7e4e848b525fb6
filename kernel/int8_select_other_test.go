//go:build purego || !(amd64 || arm64)

package kernel_test

// expectedInt8Available: builds without assembly have only the portable
// int8 path.
func expectedInt8Available() map[string]bool { return map[string]bool{"generic": true} }

func expectedInt8For(string) string { return "generic" }
