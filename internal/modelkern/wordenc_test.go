package modelkern_test

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/asmcheck"
)

// TestNEONWordEncodings checks every hand-encoded WORD of quantize_arm64.s
// and dots2_arm64.s against the GNU arm64 assembler. It only reads the
// files, so it runs on every host.
func TestNEONWordEncodings(t *testing.T) {
	asmcheck.NEONWords(t, "quantize_arm64.s")
	asmcheck.NEONWords(t, "dots2_arm64.s")
}

// TestX86ByteEncodings checks every hand-encoded instruction of
// rescale_amd64.s (the AVX-VNNI VPDPBUSD, which the Go assembler lacks)
// against the GNU x86-64 assembler.
func TestX86ByteEncodings(t *testing.T) {
	asmcheck.X86Bytes(t, "rescale_amd64.s")
}
