//go:build !unix

package cli

import (
	"errors"
	"os"
)

// dupFile fails: descriptors other than standard output and error are
// written only where the system has dup.
func dupFile(path string, fd int) (*os.File, error) {
	return nil, &os.PathError{Op: "dup", Path: path, Err: errors.ErrUnsupported}
}
