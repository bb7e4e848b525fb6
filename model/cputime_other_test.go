//go:build !linux

package model_test

// threadCPU is unknown here: -1.
func threadCPU() int64 { return -1 }
