// Package asmcheck checks hand-encoded instructions in Go assembly files.
//
// The Go arm64 assembler lacks vector FADD, FADDP, FMUL and others, so the
// NEON files emit them as `WORD $0x…` with the mnemonic in a comment.
// NEONWords re-assembles every such mnemonic with the GNU arm64 assembler
// and compares the encodings, on any host that has one.
package asmcheck

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"
)

// wordRE matches a hand-encoded instruction and the mnemonic in its comment.
var wordRE = regexp.MustCompile(`(?m)^\s*WORD\s+\$0x([0-9a-fA-F]{8})\s*//\s*(.+?)\s*$`)

// NEONWords checks that every `WORD $0x… // mnemonic` line of the arm64
// assembly file at path encodes its mnemonic, and that every WORD carries
// one. Without an arm64 GNU assembler (Debian: binutils-aarch64-linux-gnu)
// the check is skipped, except when the CI environment variable is set:
// there a missing assembler is a failure, so CI cannot pass it vacuously.
func NEONWords(t testing.TB, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	matches := wordRE.FindAllStringSubmatch(string(src), -1)
	if len(matches) == 0 {
		t.Fatalf("no WORD instructions found in %s", path)
	}
	if n := len(regexp.MustCompile(`(?m)^\s*WORD\b`).FindAllString(string(src), -1)); n != len(matches) {
		t.Fatalf("%s: %d WORD instructions, but only %d carry a mnemonic comment", path, n, len(matches))
	}
	as := assembler()
	if as == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no arm64 GNU assembler installed (CI must install binutils-aarch64-linux-gnu)")
		}
		t.Skip("no arm64 GNU assembler installed")
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
	if f.Machine != elf.EM_AARCH64 {
		t.Fatalf("%s is not an arm64 assembler (machine %v)", as, f.Machine)
	}
	text := f.Section(".text")
	if text == nil {
		t.Fatal("no .text section")
	}
	code, err := text.Data()
	if err != nil {
		t.Fatal(err)
	}
	if len(code) != 4*len(matches) {
		t.Fatalf("assembled %d bytes for %d instructions", len(code), len(matches))
	}
	for i, m := range matches {
		want, _ := strconv.ParseUint(m[1], 16, 32)
		if got := binary.LittleEndian.Uint32(code[4*i:]); uint32(want) != got {
			t.Errorf("%s: WORD $0x%s // %s: the assembler encodes it as 0x%08x", path, m[1], m[2], got)
		}
	}
}

// assembler returns the path of an arm64 GNU assembler, or "".
func assembler() string {
	for _, name := range []string{"aarch64-linux-gnu-as", "aarch64-linux-gnu-gcc-as"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "arm64" {
		if p, err := exec.LookPath("as"); err == nil {
			return p // the native assembler of an arm64 host
		}
	}
	return ""
}
