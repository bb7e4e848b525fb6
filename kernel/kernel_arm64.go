//go:build !purego

package kernel

// archImpls: placeholder until the assembly lands.
func archImpls() []*Impl { return nil }
