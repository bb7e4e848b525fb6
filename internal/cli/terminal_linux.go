package cli

import "golang.org/x/sys/unix"

// fdIsTerminal reports whether fd is a terminal: whether it has terminal
// attributes.
func fdIsTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
