//go:build !linux

package pages

import "unsafe"

// populate does nothing: MADV_POPULATE_WRITE is Linux's.
func populate(p unsafe.Pointer, size uintptr) {}
