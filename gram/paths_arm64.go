//go:build !purego

package gram

func archPaths() []*path { return nil }
