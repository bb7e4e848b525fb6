// Package emutest tells a test whether it runs under an instruction
// emulator, so that a test of portable code, whose full-size case the
// native run already covers, can run a smaller case there.
//
// CI runs the arm64 tests under qemu-aarch64 and the AVX2 path under
// qemu-x86_64 -cpu Haswell, tens of times slower than the host, with
// ROSENBLATT_TEST_EMULATED=1 in the environment (go test -exec passes it
// on). A test that shrinks under emulation still runs every code path it
// runs natively, assembly included: only the number of random cases or the
// size of generated input goes down, never below what the path needs
// (a kernel's tails, a parser's fast and slow paths).
package emutest

import (
	"os"
	"strconv"
)

// Env is the environment variable that marks an emulated run: a value that
// strconv.ParseBool reads as true.
const Env = "ROSENBLATT_TEST_EMULATED"

// Emulated reports whether Env marks this run as emulated.
func Emulated() bool {
	v, err := strconv.ParseBool(os.Getenv(Env))
	return err == nil && v
}

// N is full natively and emulated under emulation.
func N(full, emulated int) int {
	if Emulated() {
		return emulated
	}
	return full
}
