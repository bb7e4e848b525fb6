package gram

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/asmcheck"
)

// TestNEONWordEncodings checks every hand-encoded WORD of micro_arm64.s
// against the GNU arm64 assembler. It only reads the file, so it runs on
// every host.
func TestNEONWordEncodings(t *testing.T) { asmcheck.NEONWords(t, "micro_arm64.s") }
