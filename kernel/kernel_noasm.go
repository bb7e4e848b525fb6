//go:build purego || !(amd64 || arm64)

package kernel

// archImpls: this build has no assembly; the generic implementation is all.
func archImpls() []*Impl { return nil }
