package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestDeterministic: two runs of the generator produce the same bytes, so
// the committed files can be compared with a fresh run.
func TestDeterministic(t *testing.T) {
	a, err := generate("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := generate("")
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) || len(a) < 12 {
		t.Fatalf("%d and %d files", len(a), len(b))
	}
	for i := range a {
		if a[i].path != b[i].path || !bytes.Equal(a[i].data, b[i].data) {
			t.Errorf("%s: differs between two runs", a[i].path)
		}
	}
}

// TestISACheck: a function using an instruction set its implementation's
// availability check does not cover fails the generation.
func TestISACheck(t *testing.T) {
	f := newAsmFile()
	g := f.fn(implAVX2, f32, avx512, "bad", "func(x, y []T) T")
	g.zero(0)
	g.VPXORD(zr[1], zr[1], zr[1]) // AVX512F in the avx2 implementation
	g.VZEROUPPER()
	g.RET()
	if _, err := f.render(); err == nil || !strings.Contains(err.Error(), "AVX512F") {
		t.Fatalf("render: %v, want an error naming AVX512F", err)
	}
}

// TestNEONEncodings checks the encoders against encodings produced by the
// GNU assembler (the full check of every emitted WORD is
// internal/asmcheck, run by kernel's and gram's tests).
func TestNEONEncodings(t *testing.T) {
	f := newNeonFile()
	s := &neon{f: f, t: f32}
	d := &neon{f: f, t: f64}
	s.fadd(0, 0, 1)
	d.fadd(2, 2, 3)
	s.faddp(0, 0, 0)
	d.faddp(1, 4, 6)
	s.faddpScalar(0, 0)
	d.faddpScalar(0, 0)
	s.fsub(4, 4, 16)
	d.fsub(7, 7, 19)
	s.fmul(4, 4, 31)
	d.fmul(7, 7, 31)
	s.fmlaElem(0, 24, 28, 0)
	s.fmlaElem(11, 26, 28, 3)
	s.fmlaElem(23, 26, 29, 3)
	d.fmlaElem(5, 26, 29, 1)
	want := []string{
		"$0x4e21d400 // fadd v0.4s, v0.4s, v1.4s",
		"$0x4e63d442 // fadd v2.2d, v2.2d, v3.2d",
		"$0x6e20d400 // faddp v0.4s, v0.4s, v0.4s",
		"$0x6e66d481 // faddp v1.2d, v4.2d, v6.2d",
		"$0x7e30d800 // faddp s0, v0.2s",
		"$0x7e70d800 // faddp d0, v0.2d",
		"$0x4eb0d484 // fsub v4.4s, v4.4s, v16.4s",
		"$0x4ef3d4e7 // fsub v7.2d, v7.2d, v19.2d",
		"$0x6e3fdc84 // fmul v4.4s, v4.4s, v31.4s",
		"$0x6e7fdce7 // fmul v7.2d, v7.2d, v31.2d",
		"$0x4f9c1300 // fmla v0.4s, v24.4s, v28.s[0]",
		"$0x4fbc1b4b // fmla v11.4s, v26.4s, v28.s[3]",
		"$0x4fbd1b57 // fmla v23.4s, v26.4s, v29.s[3]",
	}
	got := f.b.String()
	for _, w := range want {
		if !strings.Contains(got, "WORD\t"+w+"\n") {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
}
