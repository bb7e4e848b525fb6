package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestInt8NEONEncodings checks the int8 encoders against encodings produced
// by the GNU assembler (-march=armv8.2-a+dotprod); internal/asmcheck
// re-checks every WORD of the generated file.
func TestInt8NEONEncodings(t *testing.T) {
	f := newNeonFile()
	a := &neonI8{neon: &neon{f: f, t: f32}}
	a.udot(8, 16, 31)
	a.sdot(3, 17, 23)
	a.xtl(true, false, 24, 20)
	a.xtl(true, true, 25, 20)
	a.xtl(false, false, 17, 16)
	a.xtl(false, true, 18, 16)
	a.smlal(false, 5, 17, 26)
	a.smlal(true, 7, 18, 31)
	a.smull(false, 24, 16, 20)
	a.smull(true, 25, 16, 21)
	a.sadalp(6, 31)
	want := []string{
		"$0x6e9f9608 // udot v8.4s, v16.16b, v31.16b",
		"$0x4e979623 // sdot v3.4s, v17.16b, v23.16b",
		"$0x0f08a698 // sxtl v24.8h, v20.8b",
		"$0x4f08a699 // sxtl2 v25.8h, v20.16b",
		"$0x2f08a611 // uxtl v17.8h, v16.8b",
		"$0x6f08a612 // uxtl2 v18.8h, v16.16b",
		"$0x0e7a8225 // smlal v5.4s, v17.4h, v26.4h",
		"$0x4e7f8247 // smlal2 v7.4s, v18.8h, v31.8h",
		"$0x0e34c218 // smull v24.8h, v16.8b, v20.8b",
		"$0x4e35c219 // smull2 v25.8h, v16.16b, v21.16b",
		"$0x4e606be6 // sadalp v6.4s, v31.8h",
	}
	got := f.b.String()
	for _, w := range want {
		if !strings.Contains(got, "WORD\t"+w+"\n") {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
}

// TestVEXEncoding checks the AVX-VNNI VPDPBUSD encoder against the GNU
// assembler's encodings of {vex} vpdpbusd, with registers on both sides of
// 8 in every field.
func TestVEXEncoding(t *testing.T) {
	for _, c := range []struct {
		dst, src1, src2 int
		want            []byte
	}{
		{9, 0, 15, []byte{0xc4, 0x42, 0x7d, 0x50, 0xcf}},
		{2, 14, 1, []byte{0xc4, 0xe2, 0x0d, 0x50, 0xd1}},
		{10, 9, 8, []byte{0xc4, 0x42, 0x35, 0x50, 0xd0}},
		{0, 8, 12, []byte{0xc4, 0xc2, 0x3d, 0x50, 0xc4}},
	} {
		if got := vexVPDPBUSD(c.dst, c.src1, c.src2); !bytes.Equal(got, c.want) {
			t.Errorf("vpdpbusd %%ymm%d, %%ymm%d, %%ymm%d: % x, want % x", c.src2, c.src1, c.dst, got, c.want)
		}
	}
	out, err := encodeVEX([]byte("\tVPDPBUSDVEX Y15, Y0, Y9\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "\tBYTE $0xc4; BYTE $0x42; BYTE $0x7d; BYTE $0x50; BYTE $0xcf // {vex} vpdpbusd %ymm15, %ymm0, %ymm9\n"; string(out) != want {
		t.Errorf("encodeVEX: %q, want %q", out, want)
	}
}

// TestInt8ISACheck: an int8 function whose hand-emitted instruction needs a
// feature its variant's check does not list fails the generation.
func TestInt8ISACheck(t *testing.T) {
	f := newAsmFile()
	extra := map[string][]string{}
	g := &i8x86{x86: f.fn(i8AVX2.spec, f32, avx2, "bad", "func(dst []int32, w []int8, x []uint8)"),
		v: i8AVXVNNI, W: 32, name: "bad", extra: extra}
	g.vpdpbusd(yr[1], yr[2], yr[3])
	g.RET()
	if isa := extra["bad"]; len(isa) != 1 || isa[0] != "AVXVNNI" || i8AVX2.spec.covers(isa[0]) {
		t.Fatalf("recorded %v; the avx2 check must not cover it", isa)
	}
	if !i8AVXVNNI.spec.covers("AVXVNNI") || !i8AVX512VNNI.spec.covers("AVX512VNNI") || !i8AVX512VNNI.spec.covers("AVX512BW") {
		t.Fatal("the VNNI variants' checks must cover their instructions")
	}
}
