//go:build unix

package serve

import (
	"os"
	"syscall"
)

// openNonblock opens path for reading without blocking: a FIFO put at the
// path between its stat and its open is opened at once (and then refused
// by its fstat) rather than waiting for a writer.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
