package svm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// fileModels trains one kernel model of each scheme and kernel and one
// linear model of each scheme, on small integer data.
func fileModels(t *testing.T) (kernels []*expansion.Model[float64], linears []*linear.Model[float64], X []float64, d int) {
	t.Helper()
	r := rand.New(rand.NewPCG(71, 72))
	d = 3
	X, y3 := randInt(r, 60, d, 3, 3)
	yb := make([]int, len(y3))
	for i, v := range y3 {
		yb[i] = 2*(v%2) - 1
	}
	for _, tc := range []struct {
		y []int
		o Options
	}{
		{yb, Options{Kernel: gram.RBF{Gamma: 0.5}}},
		{yb, Options{Kernel: gram.Linear{}, C: 0.5}},
		{y3, Options{Kernel: gram.Polynomial{Gamma: 0.5, Coef0: 1, Degree: 2}}},
		{y3, Options{Kernel: gram.RBF{Gamma: 1}, Multiclass: fit.OneVsRest, C: 3}},
	} {
		m, _, err := trainDense(X, d, tc.y, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		kernels = append(kernels, m)
	}
	for _, y := range [][]int{yb, y3} {
		m, _, err := trainLinearDense(X, d, y, LinearOptions{})
		if err != nil {
			t.Fatal(err)
		}
		linears = append(linears, m)
	}
	return kernels, linears, X, d
}

type fileCodec interface {
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
	MarshalJSON() ([]byte, error)
	UnmarshalJSON([]byte) error
}

// TestFileRoundTrip: every model re-encodes to the same bytes after a
// binary and after a JSON round trip, in float64 and float32, predicts
// and scores as before, and Inspect and EncodedSize read its header.
func TestFileRoundTrip(t *testing.T) {
	kernels, linears, X, d := fileModels(t)
	n := len(X) / d
	for i, m := range kernels {
		back := roundTrip(t, m, new(expansion.Model[float64]))
		p, q := m.Parts(), back.Parts()
		if !slices.Equal(p.SV, q.SV) || !slices.Equal(p.Coef, q.Coef) || !slices.Equal(p.Bias, q.Bias) ||
			!slices.Equal(p.Index, q.Index) || !slices.Equal(p.Labels, q.Labels) || p.Kernel != q.Kernel || p.Scheme != q.Scheme {
			t.Fatalf("model %d: parts changed", i)
		}
		s1, s2 := make([]float64, n*m.NumScores()), make([]float64, n*m.NumScores())
		_ = m.ScoresBatch(s1, X)
		_ = back.ScoresBatch(s2, X)
		if !slices.Equal(s1, s2) {
			t.Fatalf("model %d: scores changed", i)
		}
		data, _ := m.MarshalBinary()
		info, err := Inspect(data)
		if err != nil || info.Kind != kernelKind(m.Scheme()) || !info.Kind.IsKernel() || info.Dims != d || info.Support != m.NumSupport() ||
			info.Labels != len(m.Classes()) || info.ElemBits != 64 || !info.Indices || info.Version != 2 {
			t.Fatalf("model %d: Inspect = %+v, %v", i, info, err)
		}
		for _, pre := range []int{0, 10, modelfile.HeaderSize, len(data)} {
			size, need, err := EncodedSize(data[:pre])
			if pre < modelfile.HeaderSize && (err != nil || need != modelfile.HeaderSize) ||
				pre >= modelfile.HeaderSize && (err != nil || size != int64(len(data))) {
				t.Fatalf("model %d: EncodedSize(%d bytes) = %d, %d, %v; file %d", i, pre, size, need, err, len(data))
			}
		}
		// float32: the same parts, rounded, round-trip too.
		p32 := expansion.Parts[float32]{Kernel: p.Kernel, Dims: p.Dims, Labels: p.Labels, Scheme: p.Scheme, SV: convert32(p.SV),
			Index: p.Index, Coef: convert32(p.Coef), Bias: convert32(p.Bias)}
		m32, err := expansion.New(p32)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, m32, new(expansion.Model[float32]))
	}
	for i, m := range linears {
		back := roundTrip(t, m, new(linear.Model[float64]))
		for r := range m.NumScores() {
			w, b := m.Weights(r)
			w2, b2 := back.Weights(r)
			if !slices.Equal(w, w2) || b != b2 {
				t.Fatalf("linear model %d: function %d changed", i, r)
			}
		}
		// The linear SVM is written in package linear's format: kind 1 or
		// 2, algorithm DualCD.
		data, _ := m.MarshalBinary()
		if k := data[11]; k != byte(m.Scheme()) || data[12] != byte(linear.DualCD) {
			t.Fatalf("linear model %d: kind %d, algorithm %d", i, k, data[12])
		}
		st, err := m.State()
		if err != nil {
			t.Fatal(err)
		}
		st32 := linear.State[float32]{Scheme: st.Scheme, Algorithm: st.Algorithm, Dims: st.Dims, Labels: st.Labels,
			Bias: st.Bias, BiasFeature: st.BiasFeature, Eta: st.Eta, W: convert32(st.W), B: convert32(st.B)}
		l32, err := linear.New(st32)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, l32, new(linear.Model[float32]))
	}
}

// roundTrip encodes m in both forms, decodes each into a fresh model made
// by fresh, and checks that both re-encode to the same bytes; it returns
// the model decoded from the binary form.
func roundTrip[M fileCodec](t *testing.T, m M, fresh M) M {
	t.Helper()
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	js, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.UnmarshalBinary(data); err != nil {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	if again, _ := fresh.MarshalBinary(); !bytes.Equal(again, data) {
		t.Fatal("binary round trip changed the file")
	}
	if again, _ := fresh.MarshalJSON(); !bytes.Equal(again, js) {
		t.Fatal("binary round trip changed the JSON form")
	}
	if err := fresh.UnmarshalJSON(js); err != nil {
		t.Fatalf("UnmarshalJSON: %v", err)
	}
	if again, _ := fresh.MarshalBinary(); !bytes.Equal(again, data) {
		t.Fatal("JSON round trip changed the file")
	}
	return fresh
}

// reseal replaces the checksum of a modified file.
func reseal(b []byte) []byte {
	n := len(b) - modelfile.SumSize
	binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

// TestFileCorrupt: every truncation of a file, and every field made
// inconsistent (with a valid checksum), is an error wrapping ErrCorrupt,
// ErrVersion or ErrMismatch as the case is; the receiver is left as it was.
func TestFileCorrupt(t *testing.T) {
	kernels, linears, _, _ := fileModels(t)
	m := kernels[2] // one-vs-one, polynomial, 3 classes
	data, _ := m.MarshalBinary()
	var dst expansion.Model[float64]
	for n := range len(data) {
		if err := dst.UnmarshalBinary(data[:n]); !errors.Is(err, expansion.ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	if dst.Dims() != 0 {
		t.Fatal("a failed decode changed the receiver")
	}
	L := len(m.Classes())
	body := modelfile.HeaderSize + 8*L
	s := m.NumSupport()
	le := binary.LittleEndian
	edit := func(f func(b []byte)) []byte {
		b := slices.Clone(data)
		f(b)
		return reseal(b)
	}
	// Offsets of the body's sections.
	idxOff := body + modelfile.KernelSize
	svOff := idxOff + 4*s
	coefOff := svOff + 8*s*m.Dims()
	biasOff := coefOff + 8*s*m.NumScores()
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"checksum", func() []byte { b := slices.Clone(data); b[body] ^= 1; return b }(), ErrCorrupt},
		{"version 3", edit(func(b []byte) { b[8] = 3 }), ErrVersion},
		{"version 1", edit(func(b []byte) { b[8] = 1 }), ErrCorrupt},
		{"float32 receiver", nil, ErrMismatch},
		{"algorithm", edit(func(b []byte) { b[12] = 1 }), ErrCorrupt},
		{"unknown flag", edit(func(b []byte) { b[13] |= 2 }), ErrCorrupt},
		{"no index flag", edit(func(b []byte) { b[13] = 0 }), ErrCorrupt}, // then the size is wrong
		{"parameter", edit(func(b []byte) { le.PutUint64(b[32:], math.Float64bits(1)) }), ErrCorrupt},
		{"negative zero parameter", edit(func(b []byte) { le.PutUint64(b[32:], math.Float64bits(math.Copysign(0, -1))) }), ErrCorrupt},
		{"support count", edit(func(b []byte) { le.PutUint32(b[24:], uint32(s+1)) }), ErrCorrupt},
		{"huge support count", edit(func(b []byte) { le.PutUint32(b[24:], math.MaxUint32) }), ErrCorrupt},
		{"binary kind", edit(func(b []byte) { b[11] = byte(KindKernelBinary) }), ErrCorrupt},
		{"linear kind", edit(func(b []byte) { b[11] = 41 }), ErrMismatch},
		{"perceptron kind", edit(func(b []byte) { b[11] = 16 }), ErrCorrupt}, // perceptron is not linked in: unknown
		{"labels order", edit(func(b []byte) { le.PutUint64(b[modelfile.HeaderSize:], uint64(99)) }), ErrModel},
		{"kernel code", edit(func(b []byte) { b[body] = 7 }), ErrCorrupt},
		{"kernel degree 0", edit(func(b []byte) { le.PutUint32(b[body+4:], 0) }), ErrCorrupt},
		{"index order", edit(func(b []byte) { le.PutUint32(b[idxOff:], le.Uint32(b[idxOff+4:])) }), ErrModel},
		{"index beyond int32", edit(func(b []byte) { le.PutUint32(b[idxOff+4*(s-1):], math.MaxUint32) }), ErrCorrupt},
		{"NaN support vector", edit(func(b []byte) { le.PutUint64(b[svOff:], math.Float64bits(math.NaN())) }), ErrModel},
		{"Inf coefficient", edit(func(b []byte) { le.PutUint64(b[coefOff:], math.Float64bits(math.Inf(1))) }), ErrModel},
		{"NaN bias", edit(func(b []byte) { le.PutUint64(b[biasOff:], math.Float64bits(math.NaN())) }), ErrModel},
		{"padded", reseal(append(slices.Clone(data), 0, 0, 0, 0, 0, 0, 0, 0)), ErrCorrupt},
	} {
		var err error
		if tc.data == nil {
			err = new(expansion.Model[float32]).UnmarshalBinary(data)
		} else {
			err = dst.UnmarshalBinary(tc.data)
		}
		if !errors.Is(err, kernelErr(tc.want)) || tc.want == ErrModel && !errors.Is(err, expansion.ErrCorrupt) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if dst.Dims() != 0 {
			t.Fatalf("%s: a failed decode changed the receiver", tc.name)
		}
	}
	// A linear model's file is not a kernel model, and the reverse; the
	// JSON forms likewise.
	ld, _ := linears[1].MarshalBinary()
	if err := dst.UnmarshalBinary(ld); !errors.Is(err, expansion.ErrMismatch) {
		t.Errorf("linear file into a Model: %v", err)
	}
	if err := new(linear.Model[float64]).UnmarshalBinary(data); !errors.Is(err, linear.ErrMismatch) {
		t.Errorf("kernel file into a linear.Model: %v", err)
	}
	lj, _ := linears[1].MarshalJSON()
	if err := dst.UnmarshalJSON(lj); !errors.Is(err, expansion.ErrMismatch) && !errors.Is(err, expansion.ErrCorrupt) {
		t.Errorf("linear JSON into a Model: %v", err)
	}
	kj, _ := m.MarshalJSON()
	if err := new(linear.Model[float64]).UnmarshalJSON(kj); !errors.Is(err, linear.ErrMismatch) {
		t.Errorf("kernel JSON into a linear.Model: %v", err)
	}
	if err := new(expansion.Model[float32]).UnmarshalJSON(kj); !errors.Is(err, expansion.ErrMismatch) {
		t.Errorf("float64 JSON into an expansion.Model[float32]: %v", err)
	}
}

// TestJSONCorrupt: JSON documents that disagree with the model's structure
// are errors wrapping ErrCorrupt (ErrVersion for an unknown version).
func TestJSONCorrupt(t *testing.T) {
	kernels, _, _, _ := fileModels(t)
	ovo, _ := kernels[2].MarshalJSON()
	ovr, _ := kernels[3].MarshalJSON()
	mod := func(doc []byte, f func(map[string]any)) []byte {
		var v map[string]any
		if err := json.Unmarshal(doc, &v); err != nil {
			t.Fatal(err)
		}
		f(v)
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	machine := func(v map[string]any, r int) map[string]any { return v["machines"].([]any)[r].(map[string]any) }
	for _, tc := range []struct {
		name   string
		doc    []byte
		linear bool
		want   error
	}{
		{"syntax", []byte(`{"format":`), false, ErrCorrupt},
		{"format", mod(ovo, func(v map[string]any) { v["format"] = "rosenblatt-perceptron" }), false, ErrCorrupt},
		{"version 9", mod(ovo, func(v map[string]any) { v["version"] = 9 }), false, ErrVersion},
		{"version 3", mod(ovo, func(v map[string]any) { v["version"] = 3 }), false, ErrVersion},
		{"version 1", mod(ovo, func(v map[string]any) { v["version"] = 1 }), false, ErrCorrupt},
		{"type", mod(ovo, func(v map[string]any) { v["type"] = "int8" }), false, ErrCorrupt},
		{"algorithm", mod(ovo, func(v map[string]any) { v["algorithm"] = "smo" }), false, ErrCorrupt},
		{"kind", mod(ovo, func(v map[string]any) { v["kind"] = "kernel-argmax" }), false, ErrCorrupt},
		{"dims", mod(ovo, func(v map[string]any) { v["dims"] = 4 }), false, ErrCorrupt},
		{"dims huge", mod(ovo, func(v map[string]any) { v["dims"] = int64(1) << 31 }), false, ErrCorrupt},
		{"pair swapped", mod(ovo, func(v map[string]any) {
			m := machine(v, 1)
			m["negative"], m["positive"] = m["positive"], m["negative"]
		}), false, ErrCorrupt},
		{"pair missing", mod(ovo, func(v map[string]any) { delete(machine(v, 0), "negative") }), false, ErrCorrupt},
		{"machines", mod(ovo, func(v map[string]any) { v["machines"] = v["machines"].([]any)[1:] }), false, ErrCorrupt},
		{"coefficients", mod(ovo, func(v map[string]any) { m := machine(v, 0); m["coefficients"] = m["coefficients"].([]any)[1:] }), false, ErrCorrupt},
		{"indices", mod(ovo, func(v map[string]any) { v["support_indices"] = v["support_indices"].([]any)[1:] }), false, ErrCorrupt},
		{"kernel", mod(ovo, func(v map[string]any) { v["kernel"] = map[string]any{"type": "rbf", "gamma": -1} }), false, ErrModel},
		{"rest missing", mod(ovr, func(v map[string]any) { delete(machine(v, 2), "rest") }), false, ErrCorrupt},
		{"rest class", mod(ovr, func(v map[string]any) { machine(v, 0)["positive"] = 5 }), false, ErrCorrupt},
	} {
		var err error
		err = new(expansion.Model[float64]).UnmarshalJSON(tc.doc)
		want, corrupt := tc.want, error(ErrCorrupt)
		if !tc.linear {
			want, corrupt = kernelErr(want), expansion.ErrCorrupt
		}
		if !errors.Is(err, want) || tc.want == ErrModel && !errors.Is(err, corrupt) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	// The document names the pairs of a one-vs-one model explicitly.
	if !strings.Contains(string(ovo), `"negative":0,"positive":1`) {
		t.Errorf("one-vs-one JSON does not name its pairs: %.300s", ovo)
	}
}

// TestNewModelIndex: support indices must be increasing training rows; a
// pointer kernel is stored as its value (else a file would not say which
// kernel it is).
func TestNewModelIndex(t *testing.T) {
	p := expansion.Parts[float64]{Kernel: &gram.RBF{Gamma: 1}, Dims: 1, Labels: []int{-1, 1}, Scheme: fit.Binary,
		SV: []float64{0, 1}, Index: []int{3, 5}, Coef: []float64{-1, 1}, Bias: []float64{0}}
	m, err := expansion.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kernel() != (gram.RBF{Gamma: 1}) {
		t.Errorf("kernel %#v", m.Kernel())
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back expansion.Model[float64]
	if err := back.UnmarshalBinary(data); err != nil || back.Kernel() != (gram.RBF{Gamma: 1}) {
		t.Fatalf("%v, %v", err, back.Kernel())
	}
	bad := [][]int{{5, 3}, {3, 3}, {-1, 2}}
	if beyond := int64(math.MaxInt32) + 1; strconv.IntSize == 64 {
		bad = append(bad, []int{0, int(beyond)}) // beyond the file's int32 indices
	}
	for _, idx := range bad {
		p.Index = idx
		if _, err := expansion.New(p); !errors.Is(err, expansion.ErrModel) {
			t.Errorf("Index %v: %v", idx, err)
		}
	}
	// No support vectors: no index either way, so the two forms agree.
	e := expansion.Parts[float64]{Kernel: gram.Linear{}, Dims: 2, Labels: []int{1, 2}, Scheme: fit.Binary, Index: []int{}, Bias: []float64{0.5}}
	m, err = expansion.New(e)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, m, new(expansion.Model[float64]))
	if got, _ := m.Predict([]float64{3, 4}); got != 2 {
		t.Errorf("a model without support vectors predicts %d, want 2 (bias 0.5 > 0)", got)
	}
}

// TestLinearScoresBatch: ScoresBatch gives Scores' values row by row.
func TestLinearScoresBatch(t *testing.T) {
	_, linears, X, d := fileModels(t)
	for _, m := range linears {
		r := m.NumScores()
		all := make([]float64, len(X)/d*r)
		if err := m.ScoresBatch(all, X); err != nil {
			t.Fatal(err)
		}
		one := make([]float64, r)
		for i := range len(X) / d {
			_ = m.Scores(one, X[i*d:(i+1)*d])
			if !slices.Equal(one, all[i*r:(i+1)*r]) {
				t.Fatalf("row %d: %v, batch %v", i, one, all[i*r:(i+1)*r])
			}
		}
		if err := m.ScoresBatch(all[1:], X); !errors.Is(err, linear.ErrDims) {
			t.Errorf("short dst: %v", err)
		}
	}
}

// TestLinearBatchNonFinite: the batch methods check the samples through
// their decision values (a NaN or infinite feature makes every one of
// them NaN or infinite, even under zero weights); a NaN or infinity in any
// row, any column, is refused with ErrNonFinite, and so is a finite sample
// whose decision values overflow.
func TestLinearBatchNonFinite(t *testing.T) {
	const d, rows = 5, 300
	W := []float64{1, 0, 0, 2, -1, 0, 0, 0, 0, 0, 3, 1, 0, -2, 0}
	m, err := linear.New(linear.State[float64]{Scheme: fit.OneVsRest, Algorithm: linear.DualCD, Dims: d, Labels: []int{1, 2, 3},
		Bias: true, BiasFeature: 1, Eta: 1, W: W, B: []float64{0.5, -1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	X := make([]float64, rows*d)
	for i := range X {
		X[i] = float64(i%7) - 3
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, at := range []int{0, 1, 2*d + 1, 150*d + 3, rows*d - 1} {
			Y := slices.Clone(X)
			Y[at] = bad
			if err := m.PredictBatch(make([]int, rows), Y); !errors.Is(err, linear.ErrNonFinite) {
				t.Errorf("%v at %d: PredictBatch: %v, want ErrNonFinite", bad, at, err)
			}
			if err := m.ScoresBatch(make([]float64, rows*3), Y); !errors.Is(err, linear.ErrNonFinite) {
				t.Errorf("%v at %d: ScoresBatch: %v, want ErrNonFinite", bad, at, err)
			}
		}
	}
	// A finite sample whose score overflows is refused too: linear.Model
	// serves finite scores only.
	Y := slices.Clone(X)
	Y[7*d] = math.MaxFloat64 // 1·MaxFloat64 + 0.5 is finite; 3·MaxFloat64 overflows
	Y[7*d+3] = math.MaxFloat64
	if err := m.ScoresBatch(make([]float64, rows*3), Y); !errors.Is(err, linear.ErrNonFinite) {
		t.Errorf("an overflowing finite sample: ScoresBatch: %v, want linear.ErrNonFinite", err)
	}
	if err := m.PredictBatch(make([]int, rows), Y); !errors.Is(err, linear.ErrNonFinite) {
		t.Errorf("an overflowing finite sample: PredictBatch: %v, want linear.ErrNonFinite", err)
	}
}
