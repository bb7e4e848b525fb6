package kernel_test

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/asmcheck"
)

// TestNEONWordEncodings checks every hand-encoded WORD of kernel_arm64.s
// and int8_arm64.s against the GNU arm64 assembler. It only reads the
// files, so it runs on every host.
func TestNEONWordEncodings(t *testing.T) {
	asmcheck.NEONWords(t, "kernel_arm64.s")
	asmcheck.NEONWords(t, "int8_arm64.s")
}

// TestX86ByteEncodings checks every hand-encoded instruction of
// int8_amd64.s (the AVX-VNNI VPDPBUSD, which the Go
// assembler lacks) against the GNU x86-64 assembler.
func TestX86ByteEncodings(t *testing.T) {
	asmcheck.X86Bytes(t, "int8_amd64.s")
}
