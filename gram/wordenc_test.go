package gram

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// wordRE matches a hand-encoded instruction and the mnemonic in its comment.
var wordRE = regexp.MustCompile(`(?m)^\s*WORD\s+\$0x([0-9a-fA-F]{8})\s*//\s*(.+?)\s*$`)

// TestNEONWordEncodings assembles the mnemonic beside every WORD of
// micro_arm64.s with the GNU arm64 assembler and checks the encodings agree.
// It runs on any host (it only reads the file) and is skipped where no
// arm64 assembler is installed.
func TestNEONWordEncodings(t *testing.T) {
	src, err := os.ReadFile("micro_arm64.s")
	if err != nil {
		t.Fatal(err)
	}
	matches := wordRE.FindAllStringSubmatch(string(src), -1)
	if len(matches) == 0 {
		t.Fatal("no WORD instructions found in micro_arm64.s")
	}
	if n := len(regexp.MustCompile(`(?m)^\s*WORD\b`).FindAllString(string(src), -1)); n != len(matches) {
		t.Fatalf("%d WORD instructions, but only %d carry a mnemonic comment", n, len(matches))
	}
	as, err := exec.LookPath("aarch64-linux-gnu-as")
	if err != nil {
		t.Skip("aarch64-linux-gnu-as not installed")
	}
	var asm bytes.Buffer
	for _, m := range matches {
		asm.WriteString(m[2] + "\n")
	}
	dir := t.TempDir()
	in, obj := filepath.Join(dir, "w.s"), filepath.Join(dir, "w.o")
	if err := os.WriteFile(in, asm.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, "-o", obj, in).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", as, err, out)
	}
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text, err := f.Section(".text").Data()
	if err != nil {
		t.Fatal(err)
	}
	if len(text) != 4*len(matches) {
		t.Fatalf("assembled %d bytes for %d instructions", len(text), len(matches))
	}
	for i, m := range matches {
		want := binary.LittleEndian.Uint32(text[4*i:])
		got, _ := strconv.ParseUint(m[1], 16, 32)
		if uint32(got) != want {
			t.Errorf("WORD $0x%s // %s: the assembler encodes it as 0x%08x", m[1], m[2], want)
		}
	}
}
