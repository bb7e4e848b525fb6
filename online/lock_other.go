//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package online

import (
	"os"
	"path/filepath"
)

// lockDir opens dir/LOCK; this platform has no flock(2), so two processes
// are not kept from sharing a directory.
func lockDir(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, "LOCK"), os.O_RDWR|os.O_CREATE, 0o600)
}
