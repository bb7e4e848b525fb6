//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
	"time"
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

// processAlive tells whether process pid exists (kill(pid, 0): EPERM
// means it does, under another user); known is false where that cannot be
// told.
func processAlive(pid int) (alive, known bool) {
	err := syscall.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, syscall.EPERM):
		return true, true
	case errors.Is(err, syscall.ESRCH):
		return false, true
	}
	return false, false
}

// raise sends sig to the process itself, whose default action (with the
// handler reset) ends it.
func raise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second) // the signal is delivered meanwhile
	}
}
