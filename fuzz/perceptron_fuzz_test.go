package fuzz

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// modelSeeds trains one small model of each kind and returns its binary
// and JSON encodings, float32 and float64.
func modelSeeds(t testing.TB) (bins, jsons [][]byte) {
	X := []float64{2, 1, 0, 3, 2, 1, -1, -2, 0, -2, -1, 1, 0.5, 0.25, -3, 1, -1, 2}
	yb := []int{1, 1, -1, -1, 1, -1}
	ym := []int{4, 4, 7, 9, 7, 9}
	X32 := make([]float32, len(X))
	for i, v := range X {
		X32[i] = float32(v)
	}
	add := func(b, j []byte, err error) {
		if err != nil {
			t.Fatal(err)
		}
		bins, jsons = append(bins, b), append(jsons, j)
	}
	enc := func(m interface {
		MarshalBinary() ([]byte, error)
		MarshalJSON() ([]byte, error)
	}, err error) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		j, err := m.MarshalJSON()
		add(b, j, err)
	}
	for _, opt := range []perceptron.Options{
		{Algorithm: perceptron.Online},
		{Algorithm: perceptron.Averaged, Normalize: true},
		{Algorithm: perceptron.Voted, MaxIter: 3},
		{Algorithm: perceptron.SVM, NoBias: true, MaxIter: 3},
	} {
		m32, _, err := perceptron.Train(X32, 3, yb, opt)
		enc(m32, err)
		m64, _, err := perceptron.Train(X, 3, yb, opt)
		enc(m64, err)
		mc, _, err := perceptron.TrainMulticlass(X32, 3, ym, opt)
		enc(mc, err)
	}
	ma, _, err := perceptron.TrainMulticlass(X, 3, ym, perceptron.Options{Multiclass: perceptron.Argmax, Algorithm: perceptron.Averaged})
	enc(ma, err)
	return bins, jsons
}

// checkModelError fails unless err is one of the model decoders' errors.
func checkModelError(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, perceptron.ErrCorrupt) && !errors.Is(err, perceptron.ErrVersion) && !errors.Is(err, perceptron.ErrMismatch) {
		t.Fatalf("error %q wraps none of ErrCorrupt, ErrVersion, ErrMismatch", err)
	}
}

type decoded interface {
	UnmarshalBinary([]byte) error
	UnmarshalJSON([]byte) error
	MarshalBinary() ([]byte, error)
	MarshalJSON() ([]byte, error)
	Dims() int
	NumScores() int
}

// exercise scores a decoded model on a few samples: no panic, and either a
// label or an error.
func exercise[T float32 | float64](t *testing.T, m *perceptron.Model[T]) {
	t.Helper()
	x := make([]T, m.Dims())
	sc := make([]T, m.NumScores())
	for _, v := range []T{0, 1, -3} {
		for i := range x {
			x[i] = v
		}
		if _, err := m.Predict(x); err != nil && !errors.Is(err, perceptron.ErrNonFinite) {
			t.Fatalf("Predict: %v", err)
		}
		if err := m.Scores(sc, x); err == nil {
			for _, s := range sc {
				if math.IsNaN(float64(s)) {
					t.Fatal("NaN score without an error")
				}
			}
		}
	}
}

// FuzzUnmarshalModel: any bytes give an error wrapping a model-file
// sentinel or a model that re-encodes to exactly the same bytes and scores
// samples without panicking.
func FuzzUnmarshalModel(f *testing.F) {
	bins, _ := modelSeeds(f)
	for _, b := range bins {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte("RBLTPCPT"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, ierr := perceptron.Inspect(data)
		var m32 perceptron.Model[float32]
		var m64 perceptron.Model[float64]
		for _, m := range []decoded{&m32, &m64} {
			err := m.UnmarshalBinary(data)
			if err != nil {
				checkModelError(t, err)
				continue
			}
			if ierr != nil {
				t.Fatalf("Inspect failed (%v) on a file UnmarshalBinary accepts", ierr)
			}
			if m.Dims() != info.Dims {
				t.Fatalf("Inspect says %d features, the model %d", info.Dims, m.Dims())
			}
			again, err := m.MarshalBinary()
			if err != nil || !bytes.Equal(again, data) {
				t.Fatalf("accepted file does not re-encode to itself (err %v)", err)
			}
			js, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if err := m.UnmarshalJSON(js); err != nil {
				t.Fatalf("JSON of an accepted model does not decode: %v", err)
			}
			if b, _ := m.MarshalBinary(); !bytes.Equal(b, data) {
				t.Fatal("JSON round trip changed the model")
			}
		}
		if m32.Dims() > 0 && m32.Dims() <= 1<<16 {
			exercise(t, &m32)
		}
		if m64.Dims() > 0 && m64.Dims() <= 1<<16 {
			exercise(t, &m64)
		}
	})
}

// FuzzUnmarshalModelJSON: any JSON document gives an error wrapping a
// model-file sentinel or a model whose binary form decodes back to it.
func FuzzUnmarshalModelJSON(f *testing.F) {
	_, jsons := modelSeeds(f)
	for _, j := range jsons {
		f.Add(j)
	}
	f.Add([]byte(`{"format":"rosenblatt-perceptron","version":1,"type":"float32","kind":"binary","algorithm":"online","dims":1,"eta":1,"labels":[-1,1],"weights":[[1]],"biases":[0]}`))
	f.Add([]byte(`{"format":"rosenblatt-perceptron","version":1,"type":"float64","kind":"ovr","algorithm":"voted","dims":1000000000,"eta":1,"labels":[1,2],"voted":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m32 perceptron.Model[float32]
		var m64 perceptron.Model[float64]
		for _, m := range []decoded{&m32, &m64} {
			if err := m.UnmarshalJSON(data); err != nil {
				checkModelError(t, err)
				continue
			}
			b, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if err := m.UnmarshalBinary(b); err != nil {
				t.Fatalf("binary form of an accepted JSON model does not decode: %v", err)
			}
		}
		if m32.Dims() > 0 && m32.Dims() <= 1<<16 {
			exercise(t, &m32)
		}
		if m64.Dims() > 0 && m64.Dims() <= 1<<16 {
			exercise(t, &m64)
		}
	})
}
