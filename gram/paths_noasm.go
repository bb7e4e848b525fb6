//go:build purego || !(amd64 || arm64)

package gram

// archPaths: this build has no assembly; the generic path is all.
func archPaths() []*path { return nil }
