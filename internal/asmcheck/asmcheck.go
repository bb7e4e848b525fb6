// Package asmcheck checks hand-encoded instructions in Go assembly files.
//
// The Go arm64 assembler lacks vector FADD, FADDP, FMUL, UDOT, SDOT and
// others, so the NEON files emit them as `WORD $0x…` with the mnemonic in a
// comment. NEONWords re-assembles every such mnemonic with the GNU arm64
// assembler and compares the encodings, on any host that has one. The Go
// amd64 assembler lacks the VEX-encoded (AVX-VNNI) VPDPBUSD, emitted as
// `BYTE $0x…; BYTE $0x…; …` with the mnemonic in a comment; X86Bytes does
// the same for those with the GNU x86-64 assembler.
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
// the check is skipped (an assembler for another machine does not count:
// a test binary run under qemu-aarch64 on an x86-64 host has GOARCH arm64
// but finds the host's x86-64 "as"), except when the CI environment variable is set:
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
	// The dot-product instructions (UDOT, SDOT) are optional in ARMv8.2:
	// the assembler accepts them only when told the CPU has them.
	if out, err := exec.Command(as, "-march=armv8.2-a+dotprod", "-o", obj, in).CombinedOutput(); err != nil {
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
	names := []string{"aarch64-linux-gnu-as", "aarch64-linux-gnu-gcc-as"}
	if runtime.GOOS == "linux" && runtime.GOARCH == "arm64" {
		// The native assembler of an arm64 host; but a test binary run
		// under qemu-aarch64 on an x86-64 host also has GOARCH arm64, and
		// its "as" is the host's x86-64 one: targets tells them apart.
		names = append(names, "as")
	}
	return findAssembler(names, elf.EM_AARCH64)
}

// findAssembler returns the path of the first of names on the PATH that
// assembles for machine, or "".
func findAssembler(names []string, machine elf.Machine) string {
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil && targets(p, machine) {
			return p
		}
	}
	return ""
}

// targets reports whether the GNU assembler at path produces object files
// for machine: it assembles an empty file and reads the ELF header.
func targets(path string, machine elf.Machine) bool {
	dir, err := os.MkdirTemp("", "asmcheck")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	in, obj := filepath.Join(dir, "probe.s"), filepath.Join(dir, "probe.o")
	if os.WriteFile(in, nil, 0o644) != nil || exec.Command(path, "-o", obj, in).Run() != nil {
		return false
	}
	f, err := elf.Open(obj)
	if err != nil {
		return false
	}
	defer f.Close()
	return f.Machine == machine
}

// byteLineRE matches a line of hand-encoded x86 bytes and the mnemonic in
// its comment; byteRE one byte of it.
var (
	byteLineRE = regexp.MustCompile(`(?m)^\s*(BYTE\s+\$0x[0-9a-fA-F]{2}(?:\s*;\s*BYTE\s+\$0x[0-9a-fA-F]{2})*)\s*//\s*(.+?)\s*$`)
	byteRE     = regexp.MustCompile(`\$0x([0-9a-fA-F]{2})`)
)

// X86Bytes checks that every `BYTE $0x…; BYTE $0x… // mnemonic` line of the
// amd64 assembly file at path encodes its mnemonic (AT&T syntax, as GNU as
// reads it), and that every BYTE line carries one. Without a GNU x86-64
// assembler the check is skipped, except when the CI environment variable
// is set: there a missing assembler is a failure.
func X86Bytes(t testing.TB, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	matches := byteLineRE.FindAllStringSubmatch(string(src), -1)
	if len(matches) == 0 {
		t.Fatalf("no BYTE instructions found in %s", path)
	}
	if n := len(regexp.MustCompile(`(?m)^\s*BYTE\b`).FindAllString(string(src), -1)); n != len(matches) {
		t.Fatalf("%s: %d BYTE lines, but only %d are whole instructions with a mnemonic comment", path, n, len(matches))
	}
	as := x86Assembler()
	if as == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no x86-64 GNU assembler installed (CI must install binutils)")
		}
		t.Skip("no x86-64 GNU assembler installed")
	}
	// Each instruction is assembled after a label of its own, so the
	// bytes of each can be told apart even if an encoding's length differs.
	var asm bytes.Buffer
	want := make([][]byte, len(matches))
	total := 0
	for i, m := range matches {
		for _, b := range byteRE.FindAllStringSubmatch(m[1], -1) {
			v, _ := strconv.ParseUint(b[1], 16, 8)
			want[i] = append(want[i], byte(v))
		}
		total += len(want[i])
		asm.WriteString(m[2] + "\n")
	}
	dir := t.TempDir()
	in, obj := filepath.Join(dir, "b.s"), filepath.Join(dir, "b.o")
	if err := os.WriteFile(in, asm.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, "--64", "-o", obj, in).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", as, err, out)
	}
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 {
		t.Fatalf("%s is not an x86-64 assembler (machine %v)", as, f.Machine)
	}
	text := f.Section(".text")
	if text == nil {
		t.Fatal("no .text section")
	}
	code, err := text.Data()
	if err != nil {
		t.Fatal(err)
	}
	if len(code) != total {
		t.Fatalf("assembled %d bytes for %d instructions of %d bytes in all", len(code), len(matches), total)
	}
	for i, m := range matches {
		got := code[:len(want[i])]
		code = code[len(want[i]):]
		if !bytes.Equal(got, want[i]) {
			t.Errorf("%s: %s // %s: the assembler encodes it as % x", path, m[1], m[2], got)
		}
	}
}

// x86Assembler returns the path of an x86-64 GNU assembler, or "".
func x86Assembler() string {
	names := []string{"x86_64-linux-gnu-as"}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		names = append(names, "as") // the native assembler, checked as in assembler
	}
	return findAssembler(names, elf.EM_X86_64)
}
