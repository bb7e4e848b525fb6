package model_test

import "github.com/rosenblatt-go/rosenblatt/internal/cputime"

// threadCPU is the calling thread's CPU time in nanoseconds.
func threadCPU() int64 { return cputime.Thread() }
