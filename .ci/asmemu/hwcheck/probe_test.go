package hwcheck

import (
	"bufio"
	"bytes"
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
	b, err := json.Marshal(map[string]any{"conds": cs, "vec": vs, "in": inBits, "ind": ind})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "probe.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
