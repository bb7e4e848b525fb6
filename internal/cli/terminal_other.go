//go:build !linux

package cli

import "os"

// fdIsTerminal reports whether fd is a character device, the nearest
// portable test for a terminal (it also holds for /dev/null, where a bar
// drawn is harmless).
func fdIsTerminal(fd uintptr) bool {
	fi, err := os.NewFile(fd, "").Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
