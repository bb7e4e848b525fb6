//go:build !unix

package atomicfile

import "os"

// processAlive cannot tell here: a temporary file of another process is
// stale only by its age.
func processAlive(pid int) (alive, known bool) { return false, false }

// raise does nothing here: the caller exits with the signal's status.
func raise(sig os.Signal) {}
