//go:build unix

package cli

import (
	"os"
	"syscall"
)

// dupFile returns a new descriptor of what descriptor fd has open (dup: the
// same open file, with its offset and flags), as a file named path that
// can be closed without closing fd.
func dupFile(path string, fd int) (*os.File, error) {
	syscall.ForkLock.RLock()
	d, err := syscall.Dup(fd)
	if err == nil {
		syscall.CloseOnExec(d)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, &os.PathError{Op: "dup", Path: path, Err: err}
	}
	return os.NewFile(uintptr(d), path), nil
}
