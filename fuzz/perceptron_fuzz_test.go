package fuzz

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// seedData is the data set the model seeds are trained on: six samples of
// three features (float64 and float32), binary and multiclass labels.
func seedData() (X []float64, X32 []float32, yb, ym []int) {
	X = []float64{2, 1, 0, 3, 2, 1, -1, -2, 0, -2, -1, 1, 0.5, 0.25, -3, 1, -1, 2}
	X32 = make([]float32, len(X))
	for i, v := range X {
		X32[i] = float32(v)
	}
	return X, X32, []int{1, 1, -1, -1, 1, -1}, []int{4, 4, 7, 9, 7, 9}
}

// codec is what the seeds' models encode with.
type codec interface {
	MarshalBinary() ([]byte, error)
	MarshalJSON() ([]byte, error)
}

// encoder returns a function that appends the binary and JSON encodings of
// a model trained with error err to bins and jsons.
func encoder(t testing.TB, bins, jsons *[][]byte) func(m codec, err error) {
	return func(m codec, err error) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		j, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		*bins, *jsons = append(*bins, b), append(*jsons, j)
	}
}

// modelSeeds trains one small model of each kind and returns its binary
// and JSON encodings, float32 and float64.
func modelSeeds(t testing.TB) (bins, jsons [][]byte) {
	X, X32, yb, ym := seedData()
	enc := encoder(t, &bins, &jsons)
	for _, opt := range []perceptron.Options{
		{Algorithm: linear.Online},
		{Algorithm: linear.Averaged, Normalize: true},
		{Algorithm: linear.Averaged, NormalizeFeatures: true, MaxIter: 2},
		{Algorithm: linear.Voted, MaxIter: 3},
		{Algorithm: linear.Voted, MaxIter: 2, Normalize: true, Sampling: perceptron.SampleReplace},
		{Algorithm: linear.SVM, NoBias: true, MaxIter: 3},
		{Algorithm: linear.SVM, MaxIter: 2, Lambda: 0.5},
		{Algorithm: linear.MiniBatch, BatchSize: 2, MaxIter: 2},
		{Algorithm: linear.Averaged, BiasFeature: 0.1, Normalize: true, MaxIter: 2}, // version 3
		{Algorithm: linear.Voted, BiasFeature: 3, MaxIter: 2},
	} {
		m32, _, err := perceptron.Fit(context.Background(), dataset.NewData(X32, 3, yb), yb, opt)
		enc(m32, err)
		m64, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 3, yb), yb, opt)
		enc(m64, err)
		mc, _, err := perceptron.Fit(context.Background(), dataset.NewData(X32, 3, ym), ym, opt)
		enc(mc, err)
	}
	ma, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 3, ym), ym, perceptron.Options{Multiclass: fit.Argmax, Algorithm: linear.Averaged})
	enc(ma, err)
	return bins, jsons
}

// reencoded checks that a model decoded from data re-encodes to data, or,
// for a version-1 file, to a version-2 file (with the version-2 flags)
// that decodes to a model encoding to it again: written back, version 1
// becomes version 2.
func reencoded(t *testing.T, data, again []byte, decode func([]byte) ([]byte, error)) {
	t.Helper()
	if bytes.Equal(again, data) {
		return
	}
	if len(data) < 10 || data[8] != 1 || len(again) < 10 || again[8] != 2 {
		t.Fatalf("accepted file does not re-encode to itself")
	}
	back, err := decode(again)
	if err != nil || !bytes.Equal(back, again) {
		t.Fatalf("the version-2 form of a version-1 file does not re-encode to itself (%v)", err)
	}
}

// checkModelError fails unless err is one of the model decoders' errors.
func checkModelError(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, linear.ErrCorrupt) && !errors.Is(err, linear.ErrVersion) && !errors.Is(err, linear.ErrMismatch) &&
		!errors.Is(err, expansion.ErrCorrupt) && !errors.Is(err, expansion.ErrVersion) && !errors.Is(err, expansion.ErrMismatch) {
		t.Fatalf("error %q wraps none of the perceptron and expansion packages' ErrCorrupt, ErrVersion, ErrMismatch", err)
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
func exercise[T float32 | float64](t *testing.T, m *linear.Model[T]) {
	t.Helper()
	x := make([]T, m.Dims())
	sc := make([]T, m.NumScores())
	for _, v := range []T{0, 1, -3} {
		for i := range x {
			x[i] = v
		}
		if _, err := m.Predict(x); err != nil && !errors.Is(err, linear.ErrNonFinite) {
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
	for _, name := range []string{"binary-averaged", "binary-online-normalize", "binary-svm", "ovr-voted-normalize"} {
		if b, err := os.ReadFile("../perceptron/testdata/v1/" + name + ".model"); err == nil {
			f.Add(b) // version 1
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		info, ierr := model.Inspect(bytes.NewReader(data))
		var m32 linear.Model[float32]
		var m64 linear.Model[float64]
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
			if err != nil {
				t.Fatal(err)
			}
			reencoded(t, data, again, func(b []byte) ([]byte, error) {
				var c linear.Model[float64]
				if len(b) > 10 && b[10] == 4 {
					var c32 linear.Model[float32]
					if err := c32.UnmarshalBinary(b); err != nil {
						return nil, err
					}
					return c32.MarshalBinary()
				}
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
	f.Add([]byte(`{"format":"rosenblatt-perceptron","version":2,"type":"float64","kind":"binary","algorithm":"averaged","dims":1,"bias":true,"normalize":true,"eta":1,"labels":[-1,1],"steps":2,"weights":[[0.5]],"biases":[0.5],"averaging":{"running_weights":[[1]],"running_biases":[1],"sums":[[1]],"bias_sums":[1]}}`))
	f.Add([]byte(`{"format":"rosenblatt-perceptron","version":1,"type":"float64","kind":"ovr","algorithm":"voted","dims":1000000000,"eta":1,"labels":[1,2],"voted":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m32 linear.Model[float32]
		var m64 linear.Model[float64]
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

// divergedAt finds the epoch and the sample a divergence error names.
var divergedAt = regexp.MustCompile(`: in epoch ([0-9]+)(?:, sample ([0-9]+))?`)

// trainSentinels are the errors training may return.
var trainSentinels = []error{perceptron.ErrEmpty, linear.ErrDims, linear.ErrNonFinite,
	linear.ErrLabels, perceptron.ErrOneClass, perceptron.ErrOption, linear.ErrDiverged,
	perceptron.ErrBudget}

// finiteAll reports whether every value is finite.
func finiteAll[T float32 | float64](vs ...[]T) bool {
	for _, v := range vs {
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return false
			}
		}
	}
	return true
}

// FuzzTrain trains every kind of model with extreme options and data
// decoded from the input: step sizes from 2⁻⁶⁴ to 2¹⁹¹ (far beyond float32),
// λ down to 2⁻²⁵⁵, values scaled by up to 2¹⁵⁵, tiny voted budgets. Training
// must return an error wrapping one of the package's sentinels (a
// message naming an epoch that ran and a sample of the data for
// ErrDiverged), or a model whose weights are all finite and whose file
// decodes again (the decoders reject non-finite values).
//
// A trained linear model then takes Updates on its first samples and a
// Continue of one epoch: each ends with an error wrapping a sentinel, or a
// finite model whose file decodes again.
//
// Input: 8 header bytes (algorithm, model kind, flags, η and λ exponents,
// epochs, batch size and sampling, features, value exponent), then rows of
// d value bytes (int8, scaled) and a label byte.
func FuzzTrain(f *testing.F) {
	row := []byte{3, 1, 0xfe, 1, 2, 0xfd, 0, 0x81, 1, 0x7f, 2, 0xf0, 0, 3, 1}
	for _, h := range [][8]byte{
		{0, 0, 0, 190, 10, 3, 1, 100},     // online, η ≈ 2¹²⁶ float32: diverges
		{0, 0, 1, 190, 10, 3, 1, 100},     // the same in float64: trains
		{0, 0, 0, 200, 10, 3, 1, 100},     // η = 2¹³⁶: ErrOption in float32
		{3, 1, 0x10, 160, 10, 7, 1, 120},  // averaged one-vs-rest, large η
		{3, 2, 0x11, 250, 10, 7, 2, 130},  // averaged argmax, float64: trains
		{4, 0, 0x30, 64, 10, 7, 1, 100},   // voted, tiny budget
		{5, 4, 0x30, 64, 10, 7, 1, 100},   // kernel voted one-vs-rest, tiny budget
		{5, 0, 0, 64, 200, 7, 1, 100},     // SVM, λ = 2⁻²⁰⁰: ErrOption in float32
		{5, 1, 0, 64, 120, 7, 1, 110},     // SVM one-vs-rest, λ = 2⁻¹²⁰
		{2, 1, 0x12, 150, 3, 0x1f, 2, 90}, // minibatch, shuffled
		{1, 3, 0x44, 180, 3, 5, 2, 110},   // kernel RBF, no bias
		{0, 0, 0, 64, 10, 3, 1, 255},      // values × 2¹⁵⁵: ErrNonFinite
	} {
		f.Add(append(h[:], row...))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 8 {
			return
		}
		h, rest := in[:8], in[8:]
		if h[2]&1 != 0 {
			fuzzTrain[float64](t, h, rest)
		} else {
			fuzzTrain[float32](t, h, rest)
		}
	})
}

func fuzzTrain[T float32 | float64](t *testing.T, h, rest []byte) {
	d := 1 + int(h[6]%4)
	n := min(len(rest)/(d+1), 32)
	mode := h[1] % 5 // binary, one-vs-rest, argmax, kernel binary, kernel one-vs-rest
	scale := math.Ldexp(1, int(h[7])-100)
	X := make([]T, n*d)
	y := make([]int, n)
	for i := range n {
		for j := range d {
			X[i*d+j] = T(float64(int8(rest[i*(d+1)+j])) * scale)
		}
		lb := rest[i*(d+1)+d]
		if mode == 0 || mode == 3 {
			y[i] = 1 - 2*int(lb&1)
		} else {
			y[i] = int(lb % 4)
		}
	}
	algo := linear.Algorithm(h[0] % 6)
	if mode >= 2 {
		algo = []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted}[h[0]%3]
	}
	if mode == 2 && algo == linear.Voted {
		algo = linear.Averaged
	}
	opt := perceptron.Options{
		Algorithm: algo,
		MaxIter:   1 + int(h[5]%8),
		BatchSize: 1 + int(h[5]>>3%4),
		Eta:       math.Ldexp(1.5, int(h[3])-64),
		Tau:       math.Ldexp(1.25, int(h[3])-64),
		Lambda:    math.Ldexp(1, -int(h[4])),
		Shuffle:   h[2]&2 != 0,
		Seed:      uint64(h[5]),
		NoBias:    h[2]&4 != 0,
		Normalize: h[2]&8 != 0,
		Stop:      perceptron.Stopping(h[2] >> 4 & 3 % 3),
		Workers:   2,
		Sampling:  []perceptron.Sampling{perceptron.SampleDefault, perceptron.SampleSweep, perceptron.SampleReplace, perceptron.SampleSubsets}[h[5]>>5&3],
	}
	if h[2]&0x80 != 0 {
		opt.Normalize, opt.NormalizeFeatures = false, h[2]&8 != 0
	}
	if opt.Sampling == perceptron.SampleSubsets && algo != linear.MiniBatch {
		opt.Sampling = perceptron.SampleDefault
	}
	if h[2]&0x20 != 0 {
		opt.VotedMaxBytes = 1 + int64(h[4])*8
	}
	if mode == 2 {
		opt.Multiclass = fit.Argmax
	}
	var kern gram.Kernel = gram.Linear{}
	if h[2]&0x40 != 0 {
		kern = gram.RBF{Gamma: 0.5}
	}
	type model interface {
		MarshalBinary() ([]byte, error)
		NumScores() int
	}
	var m model
	var err error
	var lin *linear.Model[T]
	var km *expansion.Model[T]
	switch mode {
	case 0:
		lin, _, err = perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, opt)
	case 1, 2:
		lin, _, err = perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, opt)
	case 3:
		km, _, err = perceptron.FitKernel(context.Background(), dataset.NewData(X, d, y), y, perceptron.KernelOptions{Options: opt, Kernel: kern})
	case 4:
		km, _, err = perceptron.FitKernel(context.Background(), dataset.NewData(X, d, y), y, perceptron.KernelOptions{Options: opt, Kernel: kern})
	}
	if err != nil {
		known := false
		for _, s := range trainSentinels {
			known = known || errors.Is(err, s)
		}
		if !known {
			t.Fatalf("error %q wraps none of the training sentinels", err)
		}
		if errors.Is(err, linear.ErrDiverged) {
			// The message names the epoch, and the sample unless none is
			// to blame (the average, formed after the last epoch).
			m := divergedAt.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("%v: names no epoch", err)
			}
			ep, _ := strconv.Atoi(m[1])
			sample := -1
			if m[2] != "" {
				sample, _ = strconv.Atoi(m[2])
			}
			if ep < 1 || ep > opt.MaxIter || sample >= n {
				t.Fatalf("%v: epoch %d of %d, sample %d of %d", err, ep, opt.MaxIter, sample, n)
			}
		}
		return
	}
	if lin != nil {
		m = lin
		for k := range lin.NumScores() {
			w, b := lin.Weights(k)
			vs, vb, _ := lin.Voted(k)
			if !finiteAll(w, []T{b}, vb) || !finiteAll(vs...) {
				t.Fatalf("a trained %v model has non-finite weights", algo)
			}
		}
	} else {
		m = km
		for k := range km.NumScores() {
			if c, b := km.Coefficients(k); !finiteAll(c, []T{b}) {
				t.Fatalf("a trained %v kernel model has non-finite coefficients", algo)
			}
		}
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if lin != nil {
		err = new(linear.Model[T]).UnmarshalBinary(b)
	} else {
		err = new(expansion.Model[T]).UnmarshalBinary(b)
	}
	if err != nil {
		t.Fatalf("the file of a trained model does not decode: %v", err)
	}
	if lin == nil {
		return
	}
	checkLinear := func(what string, m *linear.Model[T]) {
		for k := range m.NumScores() {
			w, b := m.Weights(k)
			vs, vb, _ := m.Voted(k)
			if !finiteAll(w, []T{b}, vb) || !finiteAll(vs...) {
				t.Fatalf("%s: non-finite weights", what)
			}
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := new(linear.Model[T]).UnmarshalBinary(b); err != nil {
			t.Fatalf("%s: the file does not decode: %v", what, err)
		}
	}
	for i := range min(n, 4) {
		_, err := lin.Update(X[i*d:(i+1)*d], y[i])
		if err != nil && !errors.Is(err, linear.ErrDiverged) && !errors.Is(err, linear.ErrNonFinite) {
			t.Fatalf("Update: %v", err)
		}
	}
	checkLinear("after Update", lin)
	opt.MaxIter, opt.Init = 1, lin
	c, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, opt)
	if err != nil {
		known := false
		for _, s := range trainSentinels {
			known = known || errors.Is(err, s)
		}
		if !known {
			t.Fatalf("Continue: error %q wraps none of the training sentinels", err)
		}
		return
	}
	checkLinear("Continue", c)
}
