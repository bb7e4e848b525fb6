package hwcheck

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// dir is where hwcheck.py put cases.jsonl and wants probe.json.
var dir = os.Getenv("HWCHECK_DIR")

// TestGram replays every case drive_gram.py dumped (memory before, the
// interpreter's memory after) on the CPU: the whole address space, guards
// and gaps included, must come out byte for byte as the interpreter left it.
func TestGram(t *testing.T) {
	f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	n, bad := 0, 0
	for sc.Scan() {
		var c struct {
			Name          string
			Kc, Ldc, Acc  int
			A, B, C       int
			Before, After string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		before, err1 := hex.DecodeString(c.Before)
		after, err2 := hex.DecodeString(c.After)
		if err1 != nil || err2 != nil || len(before) != len(after) {
			t.Fatalf("%s: bad case", c.Name)
		}
		back := make([]float64, len(before)/8+1) // 8-byte aligned, as the interpreter's address 0
		buf := unsafe.Slice((*byte)(unsafe.Pointer(&back[0])), len(before))
		copy(buf, before)
		f32 := func(off int) *float32 { return (*float32)(unsafe.Pointer(&buf[off])) }
		f64 := func(off int) *float64 { return (*float64)(unsafe.Pointer(&buf[off])) }
		switch c.Name {
		case "sgemm12x32":
			sgemm12x32(c.Kc, f32(c.A), f32(c.B), f32(c.C), c.Ldc, c.Acc)
		case "dgemm12x16":
			dgemm12x16(c.Kc, f64(c.A), f64(c.B), f64(c.C), c.Ldc, c.Acc)
		case "sgemm6x16":
			sgemm6x16(c.Kc, f32(c.A), f32(c.B), f32(c.C), c.Ldc, c.Acc)
		case "dgemm6x8":
			dgemm6x8(c.Kc, f64(c.A), f64(c.B), f64(c.C), c.Ldc, c.Acc)
		default:
			t.Fatalf("no Go declaration for %s in probe.go", c.Name)
		}
		if !bytes.Equal(buf, after) {
			t.Errorf("%s kc=%d ldc=%d acc=%d: the CPU's memory differs from the interpreter's", c.Name, c.Kc, c.Ldc, c.Acc)
			bad++
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no cases")
	}
	t.Logf("%d gram cases replayed on the CPU, %d differ from the interpreter", n, bad)
}

// Vals are the operands of conds: zero, small values and the edges of the
// 32- and 64-bit signed and unsigned ranges.
var Vals = []int64{0, 1, -1, 2, 7, -7, math.MaxInt64, math.MinInt64, math.MaxInt32, 1 << 31, 1<<32 - 1, math.MinInt32, 1 << 32}

// Masks are the opmasks vec runs with.
var Masks = []uint64{0, 0xffff, 0xa5c3, 0x0001, 0x8000, 0x00ff}

// TestProbe runs conds and vec and writes what the CPU computed to
// probe.json for hwcheck.py.
func TestProbe(t *testing.T) {
	type condCase struct {
		X, Y int64
		Out  []uint64
	}
	type vecCase struct {
		K   uint64
		Out []uint32
	}
	var cs []condCase
	for _, x := range Vals {
		for _, y := range Vals {
			out := make([]uint64, 256)
			conds(x, y, &out[0])
			cs = append(cs, condCase{x, y, out})
		}
	}
	back := make([]float32, 64+16)
	off := 0
	for uintptr(unsafe.Pointer(&back[off]))%64 != 0 {
		off++
	}
	in := back[off : off+64] // 64-byte aligned for VMOVAPS
	for i := range in {
		in[i] = float32((i*7)%23 - 11)
	}
	in[9] = in[17] // equal lanes for VMAXPS/VMINPS
	ind := make([]float64, 32)
	for i := range ind {
		ind[i] = float64((i*5)%17 - 8)
	}
	ind[5] = 3 // VDIVPD divides by ind[4..7]: no zero
	var vs []vecCase
	for _, k := range Masks {
		out := make([]float32, 400)
		for i := range out {
			out[i] = float32(1000 + i)
		}
		vec(&in[0], &ind[0], k, &out[0])
		u := make([]uint32, len(out))
		for i, v := range out {
			u[i] = math.Float32bits(v)
		}
		vs = append(vs, vecCase{k, u})
	}
	inBits := make([]uint32, len(in))
	for i, v := range in {
		inBits[i] = math.Float32bits(v)
	}
	iin := ivecInput()
	type ivecCase struct {
		K   uint64
		Out string
	}
	var is []ivecCase
	for _, k := range Masks {
		out := ivecOut()
		ivec(&iin[0], k, &out[0])
		is = append(is, ivecCase{k, hex.EncodeToString(out)})
	}
	vn := ""
	if os.Getenv("HWCHECK_VNNI") != "" {
		out := ivecOut()[:128] // prefilled as ivec's, so that a byte one side leaves unwritten shows
		vnni(&iin[0], &out[0])
		vn = hex.EncodeToString(out)
	}
	avn := ""
	if os.Getenv("HWCHECK_AVXVNNI") != "" {
		out := ivecOut()[:32]
		avxvnni(&iin[0], &out[0])
		avn = hex.EncodeToString(out)
	}
	b, err := json.Marshal(map[string]any{"conds": cs, "vec": vs, "in": inBits, "ind": ind,
		"iin": hex.EncodeToString(iin), "ivec": is, "vnni": vn, "avxvnni": avn})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "probe.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ivecInput returns the 512 input bytes of ivec (and vnni): pseudo-random
// integer data with the edges of each lane type where the instructions
// saturate, wrap or compare equal, then 32 float32 and 16 float64 values,
// the first half of each exact under every operation of ivec_amd64.s, the
// second half the conversions' edges (±0, halves, the int32 and float32
// range limits and ties, ±Inf, NaNs with payloads).
func ivecInput() []byte {
	in := make([]byte, 512)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range 256 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		in[i] = byte(x >> 24)
	}
	le := binary.LittleEndian
	copy(in[0:], []byte{0, 1, 127, 128, 255, 255, 128, 127})
	copy(in[16:], []byte{0, 0x80, 0, 0x80})   // words −32768: VPMADDWD's 2³¹
	copy(in[24:], []byte{255, 255, 255, 255}) // VPMADDUBSW saturates up and down
	le.PutUint32(in[32:], 0x7fffffff)         // dword edges (packs saturate)
	le.PutUint32(in[36:], 0x80000000)
	le.PutUint32(in[40:], 0xffffffff)
	le.PutUint32(in[44:], 0)
	copy(in[48:], []byte{0, 0x80, 0, 0x80})
	copy(in[56:], []byte{127, 127, 128, 128})
	copy(in[64:76], in[0:12])                 // equal dwords for VPCMPEQD
	le.PutUint64(in[80:], 0xffffffffffffffff) // qword edges
	le.PutUint64(in[88:], 0x8000000000000000)
	le.PutUint64(in[96:], 0x7fffffffffffffff)
	f32 := []float32{1, 2, 3, -4, 0.5, 6, -7, 8, 1.25, -2.5, 10, 11, -12, 0.75, 14, 15,
		0, float32(math.Copysign(0, -1)), 1.5, -1.5, 2.5, -2.7, 2147483520, 2147483648, -2147483648, -2147483904, 3e9,
		float32(math.Inf(1)), float32(math.Inf(-1))}
	for i, v := range f32 {
		le.PutUint32(in[256+4*i:], math.Float32bits(v))
	}
	le.PutUint32(in[256+4*29:], 0x7fc00000) // NaNs: quiet, negative with a payload, signalling
	le.PutUint32(in[256+4*30:], 0xffc12345)
	le.PutUint32(in[256+4*31:], 0x7f800001)
	f64 := []uint64{
		math.Float64bits(1.5), math.Float64bits(-2), math.Float64bits(3.25), math.Float64bits(4),
		math.Float64bits(-5.5), math.Float64bits(6), math.Float64bits(7.125), math.Float64bits(-8),
		math.Float64bits(1.0 / 3), math.Float64bits(1e300), math.Float64bits(-1e-300), 0x7ff8000123456789,
		math.Float64bits(16777217), 0x47efffffefffffff, 0x47effffff0000000, math.Float64bits(math.Copysign(0, -1))}
	for i, v := range f64 {
		le.PutUint64(in[384+8*i:], v)
	}
	return in
}

// ivecOut returns ivec's output buffer, prefilled (hwcheck.py fills the
// interpreter's the same way) so that a byte not written shows.
func ivecOut() []byte {
	out := make([]byte, 4096)
	for i := range out {
		out[i] = byte(i*37 + 11)
	}
	return out
}
