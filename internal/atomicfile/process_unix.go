//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
	"time"
)

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
