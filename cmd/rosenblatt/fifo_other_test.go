//go:build !unix

package main

import "testing"

// mkfifo returns "": no named pipes here.
func mkfifo(t *testing.T, dir, name string) string { return "" }
