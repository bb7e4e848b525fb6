package perceptron

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

// fileModels trains one model of every kind and algorithm family.
func fileModels(t testing.TB) map[string]*Model[float32] {
	t.Helper()
	Xb, yb, _, _ := separable(newRand(11), 60, 5, 3, 0.5, true)
	Xm, ym := intMulticlass(newRand(12), 90, 5, 4)
	out := map[string]*Model[float32]{}
	add := func(name string, m *Model[float32], _ *Diagnostics, err error) {
		if err != nil {
			t.Fatal(err)
		}
		out[name] = m
	}
	for a := Online; a < numAlgorithms; a++ {
		m, d, err := Train(to32(Xb), 5, yb, Options{Algorithm: a, MaxIter: 3, Shuffle: true, Normalize: a == Batch, NoBias: a == SVM})
		add("binary-"+a.String(), m, d, err)
		m, d, err = TrainMulticlass(to32(Xm), 5, ym, Options{Algorithm: a, MaxIter: 3})
		add("ovr-"+a.String(), m, d, err)
	}
	m, d, err := TrainMulticlass(to32(Xm), 5, ym, Options{Multiclass: Argmax, Algorithm: Averaged, MaxIter: 3, Eta: 0.25})
	add("argmax-averaged", m, d, err)
	return out
}

func samePredictions(t *testing.T, a, b *Model[float32]) {
	t.Helper()
	rng := newRand(5)
	x := make([]float32, a.Dims())
	sa, sb := make([]float32, a.NumScores()), make([]float32, b.NumScores())
	for range 50 {
		for j := range x {
			x[j] = float32(rng.NormFloat64() * 3)
		}
		if err := a.Scores(sa, x); err != nil {
			t.Fatal(err)
		}
		if err := b.Scores(sb, x); err != nil {
			t.Fatal(err)
		}
		if string(f32bytes(sa)) != string(f32bytes(sb)) {
			t.Fatalf("scores differ after a round trip: %v vs %v", sa, sb)
		}
	}
}

func f32bytes(v []float32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(x*1e6)))
	}
	return b
}

func TestFileRoundTrip(t *testing.T) {
	for name, m := range fileModels(t) {
		t.Run(name, func(t *testing.T) {
			data := mustMarshal(t, m)
			info, err := Inspect(data)
			if err != nil || info.Kind != m.Kind() || info.Algorithm != m.Algorithm() || info.Dims != 5 || info.ElemBits != 32 || info.Version != 1 {
				t.Fatalf("Inspect = %+v, %v", info, err)
			}
			var back Model[float32]
			if err := back.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			if string(mustMarshal(t, &back)) != string(data) {
				t.Fatal("binary round trip changed the file")
			}
			samePredictions(t, m, &back)

			js, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var jback Model[float32]
			if err := json.Unmarshal(js, &jback); err != nil {
				t.Fatalf("%v\n%s", err, js)
			}
			if string(mustMarshal(t, &jback)) != string(data) {
				t.Fatalf("JSON round trip changed the model:\n%s", js)
			}
			if m.Normalized() != back.Normalized() || m.HasBias() != back.HasBias() {
				t.Fatal("flags lost")
			}
			// A float32 file is not a float64 model.
			var m64 Model[float64]
			if err := m64.UnmarshalBinary(data); !errors.Is(err, ErrMismatch) {
				t.Fatalf("float64 model from a float32 file: %v", err)
			}
			if err := json.Unmarshal(js, &m64); !errors.Is(err, ErrMismatch) {
				t.Fatalf("float64 model from float32 JSON: %v", err)
			}
		})
	}
}

// Every truncation and every single-byte change of a file is an error,
// never a panic and never a silently different model.
func TestFileCorruption(t *testing.T) {
	for name, m := range fileModels(t) {
		data := mustMarshal(t, m)
		for n := range len(data) {
			var back Model[float32]
			if err := back.UnmarshalBinary(data[:n]); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s truncated to %d bytes: %v", name, n, err)
			}
		}
		if err := new(Model[float32]).UnmarshalBinary(append(data, 0)); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s with a trailing byte: %v", name, err)
		}
		for i := range data {
			bad := []byte(string(data))
			bad[i] ^= 0x5a
			var back Model[float32]
			err := back.UnmarshalBinary(bad)
			if err == nil {
				t.Fatalf("%s: byte %d changed, no error", name, i)
			}
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
				t.Fatalf("%s: byte %d changed: %v", name, i, err)
			}
		}
	}
}

// reseal recomputes the checksum of a file edited on purpose.
func reseal(b []byte) []byte {
	n := len(b) - 4
	binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], castagnoli))
	return b
}

// Files with a valid checksum but bad content (as a buggy or hostile
// writer would make them) are rejected by the field checks.
func TestFileBadFields(t *testing.T) {
	models := fileModels(t)
	bin := mustMarshal(t, models["binary-online"])
	voted := mustMarshal(t, models["ovr-voted"])
	for _, tc := range []struct {
		name string
		base []byte
		edit func(b []byte)
		want error
	}{
		{"version", bin, func(b []byte) { b[8] = 2 }, ErrVersion},
		{"elem-size", bin, func(b []byte) { b[10] = 3 }, ErrCorrupt},
		{"kind", bin, func(b []byte) { b[11] = 9 }, ErrCorrupt},
		{"kernel-kind", bin, func(b []byte) { b[11] = 16 }, ErrMismatch},
		{"algorithm", bin, func(b []byte) { b[12] = 77 }, ErrCorrupt},
		{"flags", bin, func(b []byte) { b[13] = 0x80 }, ErrCorrupt},
		{"reserved", bin, func(b []byte) { b[14] = 1 }, ErrCorrupt},
		{"dims", bin, func(b []byte) { binary.LittleEndian.PutUint32(b[16:], 0) }, ErrCorrupt},
		{"labels", bin, func(b []byte) { binary.LittleEndian.PutUint64(b[40:], 5) }, ErrCorrupt},
		{"eta", bin, func(b []byte) { binary.LittleEndian.PutUint64(b[32:], 0) }, ErrCorrupt},
		{"nan-weight", bin, func(b []byte) { binary.LittleEndian.PutUint32(b[56:], 0x7fc00000) }, ErrCorrupt},
		{"vector-counts", voted, func(b []byte) {
			off := headerSize + 8*4
			binary.LittleEndian.PutUint32(b[off:], binary.LittleEndian.Uint32(b[off:])+1)
		}, ErrCorrupt},
		{"survival-count", voted, func(b []byte) {
			binary.LittleEndian.PutUint64(b[headerSize+8*4+4*4:], 0)
		}, ErrCorrupt},
		{"huge-vectors", voted, func(b []byte) { binary.LittleEndian.PutUint32(b[24:], 0xffffffff) }, ErrCorrupt},
		{"huge-dims", voted, func(b []byte) { binary.LittleEndian.PutUint32(b[16:], 1<<30) }, ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte(string(tc.base))
			tc.edit(b)
			reseal(b)
			var m Model[float32]
			if err := m.UnmarshalBinary(b); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			// Inspect checks the header; the body's fields need UnmarshalBinary.
			info, err := Inspect(b)
			body := map[string]bool{"labels": true, "nan-weight": true, "vector-counts": true, "survival-count": true}[tc.name]
			if body != (err == nil) || !body && !errors.Is(err, tc.want) {
				t.Fatalf("Inspect: %v", err)
			}
			if tc.name == "kernel-kind" && (info.Kind != 16 || info.ElemBits != 32) {
				t.Fatalf("Inspect of a kernel model: %+v", info)
			}
			if m.Kind() != 0 {
				t.Fatal("a rejected file changed the model")
			}
		})
	}
}

func TestJSONErrors(t *testing.T) {
	js, err := json.Marshal(fileModels(t)["ovr-averaged"])
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	for _, tc := range []struct {
		name, doc string
		want      error
	}{
		{"syntax", s[:len(s)/2], ErrCorrupt},
		{"format", strings.Replace(s, `"rosenblatt-perceptron"`, `"other"`, 1), ErrCorrupt},
		{"version", strings.Replace(s, `"version":1`, `"version":7`, 1), ErrVersion},
		{"type", strings.Replace(s, `"float32"`, `"int8"`, 1), ErrCorrupt},
		{"kind", strings.Replace(s, `"ovr"`, `"tree"`, 1), ErrCorrupt},
		{"algorithm", strings.Replace(s, `"averaged"`, `"magic"`, 1), ErrCorrupt},
		{"dims", strings.Replace(s, `"dims":5`, `"dims":6`, 1), ErrCorrupt},
		{"huge-dims", strings.Replace(s, `"dims":5`, `"dims":1073741824`, 1), ErrCorrupt},
		{"labels-order", strings.Replace(s, `"labels":[-7,3,13,23]`, `"labels":[3,-7,13,23]`, 1), ErrCorrupt},
		{"eta", strings.Replace(s, `"eta":1`, `"eta":-1`, 1), ErrCorrupt},
		{"rows", strings.Replace(s, `"biases":[`, `"biases":[1,`, 1), ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.doc == s {
				t.Fatalf("edit did not apply to %s", s)
			}
			var m Model[float32]
			if err := m.UnmarshalJSON([]byte(tc.doc)); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}
