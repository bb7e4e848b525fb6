package quant

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// reseal replaces the checksum of a modified file.
func reseal(b []byte) []byte {
	n := len(b) - modelfile.SumSize
	binary.LittleEndian.PutUint32(b[n:], modelfile.Checksum(b[:n]))
	return b
}

// TestFileRoundTrip: every kind and scaling re-encodes to the same bytes,
// scores the same after the round trip, and the file's size follows from
// its header (modelfile's EncodedSize), which names its kind, and a
// linear.Model refuses it.
func TestFileRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, tc := range trainCases {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.quantized(t, rng)
			data, err := q.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			r, err := Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := r.MarshalBinary()
			if !bytes.Equal(data, again) {
				t.Fatal("the decoded model re-encodes differently")
			}
			if r.Scheme() != q.Scheme() || r.Algorithm() != q.Algorithm() || r.Scaling() != q.Scaling() || r.HasBias() != q.HasBias() || r.Dims() != q.Dims() {
				t.Fatalf("decoded %v %v %v %v %d, want %v %v %v %v %d", r.Scheme(), r.Algorithm(), r.Scaling(), r.HasBias(), r.Dims(),
					q.Scheme(), q.Algorithm(), q.Scaling(), q.HasBias(), q.Dims())
			}
			x := make([]float32, q.d)
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			a, b := make([]float32, q.NumScores()), make([]float32, q.NumScores())
			if err := q.Scores(a, x); err != nil {
				t.Fatal(err)
			}
			if err := r.Scores(b, x); err != nil {
				t.Fatal(err)
			}
			for k := range a {
				if a[k] != b[k] {
					t.Fatalf("score %d: %v before, %v after the round trip", k, a[k], b[k])
				}
			}
			if size, need, err := fileErrs.EncodedSize(data[:modelfile.HeaderSize]); err != nil || need != 0 || size != int64(len(data)) {
				t.Fatalf("EncodedSize = %d, %d, %v; the file has %d bytes", size, need, err, len(data))
			}
			info, _, err := fileErrs.Open(data)
			if err != nil || !isKind(info.Kind) || info.Dims != q.d {
				t.Fatalf("Inspect = %+v, %v", info, err)
			}
			var m linear.Model[float32]
			if err := m.UnmarshalBinary(data); !errors.Is(err, linear.ErrMismatch) {
				t.Fatalf("linear.Model.UnmarshalBinary: %v", err)
			}
		})
	}
}

// TestFileErrors: modified, truncated, padded files and files of other
// models are errors wrapping the sentinels.
func TestFileErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	X, y := randData(rng, 40, 6, 3)
	m := train(t, X, 6, y, 3, perceptron.Options{MaxIter: 2})
	q, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := q.MarshalBinary()
	float, _ := m.MarshalBinary()
	body := modelfile.HeaderSize + 8*3 // the body version
	edit := func(f func(b []byte)) []byte {
		b := bytes.Clone(data)
		f(b)
		return reseal(b)
	}
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"float model", float, ErrMismatch},
		{"empty", nil, ErrCorrupt},
		{"truncated", reseal(bytes.Clone(data[:len(data)-5])), ErrCorrupt},
		{"padded", reseal(append(bytes.Clone(data), 0)), ErrCorrupt},
		{"flipped bit", func() []byte { b := bytes.Clone(data); b[len(b)-9] ^= 4; return b }(), ErrCorrupt},
		{"body version", edit(func(b []byte) { b[body] = 2 }), ErrVersion},
		{"reserved", edit(func(b []byte) { b[body+4] = 1 }), ErrCorrupt},
		{"zero scale", edit(func(b []byte) { copy(b[body+8:], []byte{0, 0, 0, 0}) }), ErrCorrupt},
		{"negative scale", edit(func(b []byte) { b[body+11] |= 0x80 }), ErrCorrupt},
		{"NaN bias", edit(func(b []byte) { copy(b[body+8+12:], []byte{0, 0, 0xc0, 0x7f}) }), ErrCorrupt},
		{"weight -128", edit(func(b []byte) { b[body+8+24+5] = 0x80 }), ErrCorrupt},
		{"labels", edit(func(b []byte) { b[modelfile.HeaderSize] = 9 }), ErrCorrupt},
		{"voted without its counts", edit(func(b []byte) { b[12] = byte(linear.Voted) }), ErrCorrupt},
		{"algorithm", edit(func(b []byte) { b[12] = 200 }), ErrCorrupt},
		{"flags", edit(func(b []byte) { b[13] = 6 }), ErrCorrupt},
		{"float64", edit(func(b []byte) { b[10] = 8 }), ErrCorrupt},
		{"count", edit(func(b []byte) { b[24] = 1 }), ErrCorrupt},
		{"parameter", edit(func(b []byte) { b[39] = 0x3f }), ErrCorrupt},
		{"version 1", edit(func(b []byte) { b[8] = 1 }), ErrCorrupt},
		{"version 3", edit(func(b []byte) { b[8] = 3 }), ErrVersion},
		{"version 4", edit(func(b []byte) { b[8] = 4 }), ErrVersion},
	} {
		_, err := Unmarshal(c.data)
		if !errors.Is(err, c.want) || !errors.Is(err, linear.ErrCorrupt) && !errors.Is(err, linear.ErrVersion) && !errors.Is(err, linear.ErrMismatch) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

// TestVotedFileErrors: a voted model's per-score vector counts must add up
// to the header's count, and its survival counts be > 0.
func TestVotedFileErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	X, y := randData(rng, 40, 6, 3)
	q, err := New(train(t, X, 6, y, 3, perceptron.Options{MaxIter: 2, Algorithm: linear.Voted}))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := q.MarshalBinary()
	if _, err := Unmarshal(data); err != nil {
		t.Fatal(err)
	}
	body := modelfile.HeaderSize + 8*3 + 8 // the vectors per score
	for _, c := range []struct {
		name string
		f    func(b []byte)
	}{
		{"counts", func(b []byte) { b[body]++ }},
		{"count overflow", func(b []byte) { binary.LittleEndian.PutUint32(b[body+4:], 0xffffffff) }},
		{"zero survival", func(b []byte) { clear(b[body+12 : body+20]) }},
		{"negative survival", func(b []byte) { b[body+19] = 0x80 }},
	} {
		b := bytes.Clone(data)
		c.f(b)
		if _, err := Unmarshal(reseal(b)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", c.name, err)
		}
	}
}
