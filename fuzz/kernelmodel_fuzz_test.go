package fuzz

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// kernelSeeds trains one small kernel model of each kind, algorithm and
// kernel and returns their binary and JSON encodings, float32 and float64.
func kernelSeeds(t testing.TB) (bins, jsons [][]byte) {
	X, X32, yb, ym := seedData()
	enc := encoder(t, &bins, &jsons)
	for _, opt := range []perceptron.KernelOptions{
		{Options: perceptron.Options{Algorithm: linear.Online, MaxIter: 3}},
		{Options: perceptron.Options{Algorithm: linear.Averaged, Normalize: true, MaxIter: 3}, Kernel: gram.RBF{Gamma: 0.5}},
		{Options: perceptron.Options{Algorithm: linear.Online, NormalizeFeatures: true, MaxIter: 3, Sampling: perceptron.SampleReplace}, Kernel: gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 3}},
		{Options: perceptron.Options{Algorithm: linear.Voted, MaxIter: 3, NoBias: true}, Kernel: gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}},
		{Options: perceptron.Options{Algorithm: linear.Voted, MaxIter: 3, BiasFeature: 0.5, Normalize: true}, Kernel: gram.RBF{Gamma: 0.5}}, // version 3
	} {
		m32, _, err := perceptron.FitKernel(context.Background(), dataset.NewData(X32, 3, yb), yb, opt)
		enc(m32, err)
		m64, _, err := perceptron.FitKernel(context.Background(), dataset.NewData(X, 3, yb), yb, opt)
		enc(m64, err)
		mc, _, err := perceptron.FitKernel(context.Background(), dataset.NewData(X32, 3, ym), ym, opt)
		enc(mc, err)
	}
	ma, _, err := perceptron.FitKernel(context.Background(), dataset.NewData(X, 3, ym), ym, perceptron.KernelOptions{
		Options: perceptron.Options{Multiclass: fit.Argmax, Algorithm: linear.Averaged, MaxIter: 3}, Kernel: gram.RBF{Gamma: 1}})
	enc(ma, err)
	return bins, jsons
}

type kernelDecoded interface {
	UnmarshalBinary([]byte) error
	UnmarshalJSON([]byte) error
	MarshalBinary() ([]byte, error)
	MarshalJSON() ([]byte, error)
	Dims() int
	NumScores() int
	NumSupport() int
}

// exerciseKernel scores a decoded kernel model on a few samples and a
// small batch: no panic, and either a result or an error of the package.
func exerciseKernel[T float32 | float64](t *testing.T, m *expansion.Model[T]) {
	t.Helper()
	x := make([]T, m.Dims())
	sc := make([]T, m.NumScores())
	batch := make([]T, 0, 3*m.Dims())
	for _, v := range []T{0, 1, -3} {
		for i := range x {
			x[i] = v
		}
		batch = append(batch, x...)
		if _, err := m.Predict(x); err != nil && !errors.Is(err, linear.ErrNonFinite) {
			t.Fatalf("Predict: %v", err)
		}
		if err := m.Scores(sc, x); err == nil {
			for _, s := range sc {
				if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
					t.Fatal("non-finite score without an error")
				}
			}
		}
	}
	if err := m.PredictBatch(make([]int, 3), batch); err != nil && !errors.Is(err, linear.ErrNonFinite) {
		t.Fatalf("PredictBatch: %v", err)
	}
}

// small reports whether a decoded model is small enough to score quickly.
func small(m kernelDecoded) bool {
	return m.Dims() > 0 && m.Dims() <= 1<<12 && m.NumSupport() <= 1<<12
}

// FuzzUnmarshalKernel: any bytes give an error wrapping a model-file
// sentinel or a kernel model that re-encodes to exactly the same bytes,
// survives a JSON round trip, and scores samples without panicking.
func FuzzUnmarshalKernel(f *testing.F) {
	bins, _ := kernelSeeds(f)
	for _, b := range bins {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	if b, err := os.ReadFile("../perceptron/testdata/v1/kernel-binary-rbf-normalize.model"); err == nil {
		f.Add(b) // version 1
	}
	f.Fuzz(checkKernelFile)
}

// FuzzUnmarshalKernelResealed treats its input as a kernel model file
// without its checksum and appends a valid CRC-32C, so that mutations get
// past the checksum and reach the decoder's field and size checks. The
// checks are FuzzUnmarshalKernel's.
func FuzzUnmarshalKernelResealed(f *testing.F) {
	bins, _ := kernelSeeds(f)
	for _, b := range bins {
		f.Add(b[:len(b)-4])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		data := binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
		checkKernelFile(t, data)
	})
}

// checkKernelFile: data gives an error wrapping a model-file sentinel or a
// kernel model that re-encodes to exactly the same bytes, survives a JSON
// round trip, and scores samples without panicking.
func checkKernelFile(t *testing.T, data []byte) {
	info, ierr := model.Inspect(bytes.NewReader(data))
	var m32 expansion.Model[float32]
	var m64 expansion.Model[float64]
	for _, m := range []kernelDecoded{&m32, &m64} {
		err := m.UnmarshalBinary(data)
		if err != nil {
			checkModelError(t, err)
			continue
		}
		// model.Inspect reads the header of a kernel file.
		if ierr != nil || !info.Kind.Kernel() || info.Dims != m.Dims() || info.Size != 0 && info.Size != int64(len(data)) {
			t.Fatalf("model.Inspect = %+v, %v on an accepted kernel file of %d bytes", info, ierr, len(data))
		}
		again, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		reencoded(t, data, again, func(b []byte) ([]byte, error) {
			if len(b) > 10 && b[10] == 4 {
				var c expansion.Model[float32]
				if err := c.UnmarshalBinary(b); err != nil {
					return nil, err
				}
				return c.MarshalBinary()
			}
			var c expansion.Model[float64]
			if err := c.UnmarshalBinary(b); err != nil {
				return nil, err
			}
			return c.MarshalBinary()
		})
		js, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if err := m.UnmarshalJSON(js); err != nil {
			t.Fatalf("JSON of an accepted model does not decode: %v", err)
		}
		if b, _ := m.MarshalBinary(); !bytes.Equal(b, again) {
			t.Fatal("JSON round trip changed the model")
		}
	}
	if small(&m32) {
		exerciseKernel(t, &m32)
	}
	if small(&m64) {
		exerciseKernel(t, &m64)
	}
}

// FuzzUnmarshalKernelJSON: any JSON document gives an error wrapping a
// model-file sentinel or a kernel model whose binary form decodes back to
// the same model.
func FuzzUnmarshalKernelJSON(f *testing.F) {
	_, jsons := kernelSeeds(f)
	for _, j := range jsons {
		f.Add(j)
	}
	f.Add([]byte(`{"format":"rosenblatt-perceptron","version":1,"type":"float64","kind":"kernel-binary","algorithm":"online","dims":1,"eta":1,"labels":[-1,1],"kernel":{"type":"rbf","gamma":1},"support_indices":[0],"support_vectors":[[1]],"coefficients":[[1]],"biases":[0]}`))
	f.Add([]byte(`{"format":"rosenblatt-perceptron","version":1,"type":"float32","kind":"kernel-ovr","algorithm":"voted","dims":1000000000,"eta":1,"labels":[1,2],"kernel":{"type":"linear"},"support_indices":[],"voted":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m32 expansion.Model[float32]
		var m64 expansion.Model[float64]
		for _, m := range []kernelDecoded{&m32, &m64} {
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
			if again, _ := m.MarshalBinary(); !bytes.Equal(again, b) {
				t.Fatal("binary round trip changed the model")
			}
		}
		if small(&m32) {
			exerciseKernel(t, &m32)
		}
		if small(&m64) {
			exerciseKernel(t, &m64)
		}
	})
}
