package fuzz

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// svmSeeds trains small SVMs of every file kind (kernel binary, one-vs-rest
// and one-vs-one with each kernel, linear binary and one-vs-rest, a model
// without support indices) and returns their binary and JSON encodings,
// float32 and float64.
func svmSeeds(t testing.TB) (bins, jsons [][]byte) {
	X, X32, yb, ym := seedData()
	enc := encoder(t, &bins, &jsons)
	for _, o := range []svm.Options{
		{Kernel: gram.RBF{Gamma: 0.5}},
		{Kernel: gram.Linear{}, C: math.Inf(1)},
		{Kernel: gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}, Multiclass: fit.OneVsRest},
	} {
		m32, _, err := svm.Fit(context.Background(), dataset.NewData(X32, 3, yb), yb, o)
		enc(m32, err)
		m64, _, err := svm.Fit(context.Background(), dataset.NewData(X, 3, ym), ym, o)
		enc(m64, err)
	}
	for _, o := range []svm.LinearOptions{{}, {Loss: svm.SquaredHinge, NoBias: true}} {
		l32, _, err := svm.FitLinear(context.Background(), dataset.NewData(X32, 3, ym), ym, o)
		enc(l32, err)
		l64, _, err := svm.FitLinear(context.Background(), dataset.NewData(X, 3, yb), yb, o)
		enc(l64, err)
	}
	m, _, err := svm.Fit(context.Background(), dataset.NewData(X, 3, ym), ym, svm.Options{Kernel: gram.RBF{Gamma: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Parts()
	p.Index = nil
	noIdx, err := expansion.New(p)
	enc(noIdx, err)
	return bins, jsons
}

// svmDecoded is what the fuzz targets need of the four SVM receivers.
type svmDecoded interface {
	UnmarshalBinary([]byte) error
	UnmarshalJSON([]byte) error
	MarshalBinary() ([]byte, error)
	MarshalJSON() ([]byte, error)
	Dims() int
	NumScores() int
}

// checkSVMError fails unless err is one of the SVM decoders' errors.
func checkSVMError(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, svm.ErrCorrupt) && !errors.Is(err, svm.ErrVersion) && !errors.Is(err, svm.ErrMismatch) &&
		!errors.Is(err, expansion.ErrCorrupt) && !errors.Is(err, expansion.ErrVersion) && !errors.Is(err, expansion.ErrMismatch) {
		t.Fatalf("error %q wraps none of the svm and expansion packages' ErrCorrupt, ErrVersion, ErrMismatch", err)
	}
}

// svmReceivers returns fresh receivers of the four model types.
func svmReceivers() (*expansion.Model[float32], *expansion.Model[float64], *linear.Model[float32], *linear.Model[float64]) {
	return new(expansion.Model[float32]), new(expansion.Model[float64]), new(linear.Model[float32]), new(linear.Model[float64])
}

// exerciseSVM scores a decoded model on a few samples and a small batch:
// no panic, either a result or an error of the package, and the batch's
// scores equal to the samples' one by one.
func exerciseSVM[T float32 | float64](t *testing.T, m interface {
	svmDecoded
	Predict([]T) (int, error)
	Scores(dst, x []T) error
	PredictBatch([]int, []T) error
	ScoresBatch(dst, X []T) error
}) {
	t.Helper()
	if m.Dims() < 1 || m.Dims() > 1<<12 || m.NumScores() > 1<<12 {
		return
	}
	x := make([]T, m.Dims())
	sc := make([]T, m.NumScores())
	batch := make([]T, 0, 3*m.Dims())
	for _, v := range []T{0, 1, -3} {
		for i := range x {
			x[i] = v
		}
		batch = append(batch, x...)
		if _, err := m.Predict(x); err != nil && !errors.Is(err, svm.ErrNonFinite) {
			t.Fatalf("Predict: %v", err)
		}
		if err := m.Scores(sc, x); err != nil && !errors.Is(err, svm.ErrNonFinite) {
			t.Fatalf("Scores: %v", err)
		}
	}
	if err := m.PredictBatch(make([]int, 3), batch); err != nil && !errors.Is(err, svm.ErrNonFinite) {
		t.Fatalf("PredictBatch: %v", err)
	}
	all := make([]T, 3*m.NumScores())
	err := m.ScoresBatch(all, batch)
	if err != nil && !errors.Is(err, svm.ErrNonFinite) {
		t.Fatalf("ScoresBatch: %v", err)
	}
	if err != nil {
		return
	}
	// The batch gives Scores' values bit for bit (the same kernel values,
	// the same reduction).
	for i := range 3 {
		if err := m.Scores(sc, batch[i*m.Dims():(i+1)*m.Dims()]); err != nil {
			t.Fatalf("Scores fails (%v) where ScoresBatch succeeded", err)
		}
		for r, v := range sc {
			if w := all[i*len(sc)+r]; v != w && (v == v || w == w) {
				t.Fatalf("sample %d score %d: ScoresBatch %v, Scores %v", i, r, w, v)
			}
		}
	}
}

// checkSVMFile: data gives an error wrapping an SVM model-file sentinel in
// every receiver, or a model, in exactly one, that re-encodes to the same
// bytes, survives a JSON round trip, agrees with model.Inspect,
// is refused by the perceptron's decoders as another package's file, and
// scores samples without panicking.
func checkSVMFile(t *testing.T, data []byte) {
	info, ierr := model.Inspect(bytes.NewReader(data))
	k32, k64, l32, l64 := svmReceivers()
	accepted := 0
	for _, m := range []svmDecoded{k32, k64, l32, l64} {
		err := m.UnmarshalBinary(data)
		if err != nil {
			checkSVMError(t, err)
			continue
		}
		accepted++
		if ierr != nil || info.Dims != m.Dims() || info.Size != 0 && info.Size != int64(len(data)) ||
			!info.Kind.Kernel() && info.Kind != model.LinearSVMBinary && info.Kind != model.LinearSVMOneVsRest && info.Kind > model.PerceptronArgmax {
			t.Fatalf("model.Inspect = %+v, %v on an accepted file of %d bytes", info, ierr, len(data))
		}
		again, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, data) {
			t.Fatal("an accepted file does not re-encode to itself")
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
		// The linear model's decoder refuses a kernel SVM's file as another
		// family's (a linear SVM's it reads: its receivers are linear.Model).
		if err := new(linear.Model[float64]).UnmarshalBinary(data); info.Kind.Kernel() && !errors.Is(err, linear.ErrMismatch) {
			t.Fatalf("linear.Model on an SVM file: %v", err)
		}
	}
	if accepted > 1 {
		t.Fatalf("%d receivers accept the same file", accepted)
	}
	exerciseSVM[float32](t, k32)
	exerciseSVM[float64](t, k64)
	exerciseSVM[float32](t, l32)
	exerciseSVM[float64](t, l64)
}

// FuzzUnmarshalSVM: any bytes give an error wrapping an SVM model-file
// sentinel or a model that re-encodes to exactly the same bytes (see
// checkSVMFile). The seeds include perceptron files, which must be
// refused with ErrMismatch.
func FuzzUnmarshalSVM(f *testing.F) {
	bins, _ := svmSeeds(f)
	for _, b := range bins {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	pb, _ := modelSeeds(f)
	kb, _ := kernelSeeds(f)
	f.Add(pb[0])
	f.Add(kb[0])
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSVMFile(t, data)
		if len(data) >= 12 && (data[11] < 32 || data[11] > 41) {
			// Not an SVM kind: the kernel SVM's decoder refuses it, and
			// linear.Model (the linear SVM's) unless it is a linear kind.
			if new(expansion.Model[float64]).UnmarshalBinary(data) == nil {
				t.Fatal("the kernel SVM's decoder accepts a file of another kind")
			}
			if data[11] > 3 && new(linear.Model[float32]).UnmarshalBinary(data) == nil {
				t.Fatal("linear.Model accepts a file of another kind")
			}
		}
	})
}

// FuzzUnmarshalSVMResealed treats its input as an SVM model file without
// its checksum and appends a valid CRC-32C, so that mutations get past the
// checksum and reach the header, size and field checks.
func FuzzUnmarshalSVMResealed(f *testing.F) {
	bins, _ := svmSeeds(f)
	for _, b := range bins {
		f.Add(b[:len(b)-4])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		data := binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
		checkSVMFile(t, data)
	})
}

// FuzzUnmarshalSVMJSON: any JSON document gives an error wrapping an SVM
// model-file sentinel or a model whose binary form decodes back to the
// same model.
func FuzzUnmarshalSVMJSON(f *testing.F) {
	_, jsons := svmSeeds(f)
	for _, j := range jsons {
		f.Add(j)
	}
	f.Add([]byte(`{"format":"rosenblatt-svm","version":2,"type":"float64","kind":"kernel-ovo","algorithm":"svm","dims":1,"labels":[1,2,3],"kernel":{"type":"rbf","gamma":1},"support_vectors":[],"machines":[{"negative":1,"positive":2,"coefficients":[],"bias":0},{"negative":1,"positive":3,"coefficients":[],"bias":1},{"negative":2,"positive":3,"coefficients":[],"bias":-1}]}`))
	f.Add([]byte(`{"format":"rosenblatt-svm","version":2,"type":"float32","kind":"linear-binary","algorithm":"svm","dims":1000000000,"labels":[0,1],"weights":[],"biases":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		k32, k64, l32, l64 := svmReceivers()
		for _, m := range []svmDecoded{k32, k64, l32, l64} {
			if err := m.UnmarshalJSON(data); err != nil {
				checkSVMError(t, err)
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
		exerciseSVM[float32](t, k32)
		exerciseSVM[float64](t, k64)
		exerciseSVM[float32](t, l32)
		exerciseSVM[float64](t, l64)
	})
}
