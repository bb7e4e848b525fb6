//go:build !unix

package modelcmd

import "time"

// processCPU returns -1: the process's CPU time is read on Unix only.
func processCPU() time.Duration { return -1 }
