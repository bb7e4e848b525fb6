//go:build !unix

package main

import (
	"errors"
	"os"
)

// dupFile fails: descriptors other than standard output and error are
// written only where the system has dup.
func dupFile(path string, fd int) (*os.File, error) {
	return nil, &os.PathError{Op: "dup", Path: path, Err: errors.ErrUnsupported}
}

// processAlive cannot tell here: a temporary file of another process is
// stale only by its age.
func processAlive(pid int) (alive, known bool) { return false, false }

// raise does nothing here: the caller exits with the signal's status.
func raise(sig os.Signal) {}
