//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package online

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes an exclusive flock(2) on dir/LOCK, held until the file is
// closed (or the process ends, however it ends).
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is in use by another process", ErrLocked, dir)
		}
		return nil, fmt.Errorf("%s: lock: %w", dir, err)
	}
	return f, nil
}
