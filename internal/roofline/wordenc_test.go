package roofline_test

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/asmcheck"
)

// TestNEONWordEncodings checks every hand-encoded WORD of loops_arm64.s
// against the GNU arm64 assembler. It only reads the file, so it runs on
// every host.
func TestNEONWordEncodings(t *testing.T) { asmcheck.NEONWords(t, "loops_arm64.s") }
