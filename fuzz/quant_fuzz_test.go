package fuzz

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// quantSeeds quantises one small linear model of each kind, scaling and
// element type and returns the files.
func quantSeeds(t testing.TB) [][]byte {
	X, X32, yb, ym := seedData()
	var out [][]byte
	add := func(q *quant.Model, err error) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := q.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	for _, opt := range []perceptron.Options{
		{MaxIter: 3},
		{MaxIter: 3, Algorithm: linear.Averaged, Normalize: true},
		{MaxIter: 3, NormalizeFeatures: true, NoBias: true},
		{MaxIter: 3, Algorithm: linear.Voted},
	} {
		m32, _, err := perceptron.Fit(context.Background(), dataset.NewData(X32, 3, yb), yb, opt)
		if err != nil {
			t.Fatal(err)
		}
		add(quant.New(m32))
		m64, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 3, ym), ym, opt)
		if err != nil {
			t.Fatal(err)
		}
		add(quant.New(m64))
	}
	ma, _, err := perceptron.Fit(context.Background(), dataset.NewData(X32, 3, ym), ym, perceptron.Options{Multiclass: fit.Argmax, MaxIter: 3})
	if err != nil {
		t.Fatal(err)
	}
	add(quant.New(ma))
	return out
}

// FuzzUnmarshalQuant: any bytes give an error wrapping a model-file
// sentinel or a quantised model that re-encodes to exactly the same bytes
// and scores samples in every input form without panicking.
func FuzzUnmarshalQuant(f *testing.F) {
	for _, b := range quantSeeds(f) {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	bins, _ := modelSeeds(f)
	f.Add(bins[0]) // a float model: ErrMismatch
	f.Fuzz(checkQuantFile)
}

// FuzzUnmarshalQuantResealed treats its input as a quantised model file
// without its checksum and appends a valid CRC-32C, so that mutations get
// past the checksum and reach the decoder's field and size checks. The
// checks are FuzzUnmarshalQuant's.
func FuzzUnmarshalQuantResealed(f *testing.F) {
	for _, b := range quantSeeds(f) {
		f.Add(b[:len(b)-4])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		data := binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
		checkQuantFile(t, data)
	})
}

// checkQuantFile: data gives an error wrapping a model-file sentinel or a
// quantised model that re-encodes to the same bytes and scores samples.
func checkQuantFile(t *testing.T, data []byte) {
	q, err := quant.Unmarshal(data)
	if err != nil {
		checkModelError(t, err)
		if !errors.Is(err, quant.ErrCorrupt) && !errors.Is(err, quant.ErrVersion) && !errors.Is(err, quant.ErrMismatch) {
			t.Fatalf("error %q wraps none of quant's sentinels", err)
		}
		return
	}
	again, err := q.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("accepted file does not re-encode to itself (%v)", err)
	}
	if size, need, err := (modelfile.Errors{Corrupt: linear.ErrCorrupt, Version: linear.ErrVersion, Mismatch: linear.ErrMismatch}).EncodedSize(data); err != nil || need != 0 || size != int64(len(data)) {
		t.Fatalf("EncodedSize = %d, %d, %v on an accepted file of %d bytes", size, need, err, len(data))
	}
	if q.Dims() > 1<<12 {
		return
	}
	d := q.Dims()
	sc := make([]float32, q.NumScores())
	u, v, x := make([]uint8, d), make([]int8, d), make([]float32, d)
	for i := range d {
		u[i], v[i], x[i] = uint8(i*37), int8(i*59), float32(i%7)-3
	}
	for _, err := range []error{
		q.ScoresU8(sc, u, 0.5, 7),
		q.ScoresI8(sc, v, 3),
		q.Scores(sc, x),
	} {
		if err != nil && !errors.Is(err, quant.ErrNonFinite) {
			t.Fatal(err)
		}
		for _, s := range sc {
			if err == nil && s-s != 0 {
				t.Fatalf("score %v without an error", s)
			}
		}
	}
	if _, err := q.Predict(x); err != nil && !errors.Is(err, quant.ErrNonFinite) {
		t.Fatal(err)
	}
}
