package asmcheck

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTargetsTellsMachinesApart: the GNU assembler on the PATH ("as")
// produces objects for exactly one of x86-64 and arm64, and findAssembler
// returns it for that machine only. This is what keeps NEONWords from
// running an x86-64 host's "as" on arm64 mnemonics when a test binary runs
// under qemu-aarch64 (GOARCH arm64, host binaries on the PATH).
func TestTargetsTellsMachinesApart(t *testing.T) {
	as, err := exec.LookPath("as")
	if err != nil {
		t.Skip("no GNU assembler on the PATH")
	}
	x86, arm := targets(as, elf.EM_X86_64), targets(as, elf.EM_AARCH64)
	if x86 == arm {
		t.Fatalf("%s: targets x86-64 %v, arm64 %v: want exactly one", as, x86, arm)
	}
	own, other := elf.Machine(elf.EM_X86_64), elf.Machine(elf.EM_AARCH64)
	if arm {
		own, other = other, own
	}
	if got := findAssembler([]string{"as"}, own); got != as {
		t.Errorf("findAssembler(as, %v) = %q, want %q", own, got, as)
	}
	if got := findAssembler([]string{"as"}, other); got != "" {
		t.Errorf("findAssembler(as, %v) = %q, want none: %s assembles for %v", other, got, as, own)
	}
}

// TestTargetsRejectsNonAssembler: a program that succeeds without writing
// an object file is not an assembler for any machine.
func TestTargetsRejectsNonAssembler(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "as")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, m := range []elf.Machine{elf.EM_X86_64, elf.EM_AARCH64} {
		if targets(fake, m) {
			t.Errorf("a script that writes nothing counts as an assembler for %v", m)
		}
	}
}
