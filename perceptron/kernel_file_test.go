package perceptron

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Every kernel model survives MarshalBinary/UnmarshalBinary and
// MarshalJSON/UnmarshalJSON exactly: the same bytes again and the same
// scores; Inspect names the kernel kind (with ErrMismatch: not a linear
// model).
func TestKernelFileRoundTrip(t *testing.T) {
	testKernelRoundTrip[float32](t)
	testKernelRoundTrip[float64](t)
}

func testKernelRoundTrip[T kernel.Float](t *testing.T) {
	models, X, d := kernelModels[T](t)
	n := len(X) / d
	for name, m := range models {
		bin, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		js, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		info, err := Inspect(bin)
		if !isErr(err, linear.ErrMismatch) || !info.Kind.IsKernel() || info.Kind != kindOf(m) || info.ElemBits != 8*elemSize[T]() ||
			info.Dims != d || info.Labels != len(m.Classes()) || info.Vectors != m.NumSupport() {
			t.Fatalf("%s: Inspect = %+v, %v", name, info, err)
		}
		var fromBin, fromJSON expansion.Model[T]
		if err := fromBin.UnmarshalBinary(bin); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := json.Unmarshal(js, &fromJSON); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, got := range []*expansion.Model[T]{&fromBin, &fromJSON} {
			again, err := got.MarshalBinary()
			if err != nil || !bytes.Equal(again, bin) {
				t.Fatalf("%s: decoded model re-encodes differently (%v)", name, err)
			}
			a := make([]T, n*m.NumScores())
			b := make([]T, n*m.NumScores())
			if err := m.ScoresBatch(a, X); err != nil {
				t.Fatal(err)
			}
			if err := got.ScoresBatch(b, X); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a, b) {
				t.Fatalf("%s: decoded model scores differently", name)
			}
			if kindOf(got) != kindOf(m) || algoOf(got) != algoOf(m) || got.Kernel() != m.Kernel() ||
				normalized(got) != normalized(m) || got.HasBias() != m.HasBias() || !slices.Equal(got.SupportIndices(), m.SupportIndices()) {
				t.Fatalf("%s: accessors differ after decoding", name)
			}
		}
		js2, _ := fromJSON.MarshalJSON()
		if !bytes.Equal(js, js2) {
			t.Fatalf("%s: JSON does not round-trip to the same document", name)
		}
		// The other element type, and the linear model type, refuse it.
		if elemSize[T]() == 4 {
			var other expansion.Model[float64]
			if err := other.UnmarshalBinary(bin); !isErr(err, linear.ErrMismatch) {
				t.Fatalf("%s: float32 file into float64 model: %v", name, err)
			}
			if err := json.Unmarshal(js, &other); !isErr(err, linear.ErrMismatch) {
				t.Fatalf("%s: float32 JSON into float64 model: %v", name, err)
			}
		}
		var lin linear.Model[T]
		if err := lin.UnmarshalBinary(bin); !errors.Is(err, linear.ErrMismatch) {
			t.Fatalf("%s: kernel file into a linear Model: %v", name, err)
		}
	}
	// A linear model's file and JSON are not kernel models.
	lm, _, err := trainBinary(X[:4*d], d, []int{1, -1, 1, -1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lb, _ := lm.MarshalBinary()
	lj, _ := lm.MarshalJSON()
	var km expansion.Model[T]
	if err := km.UnmarshalBinary(lb); !isErr(err, linear.ErrMismatch) {
		t.Fatalf("linear file: %v", err)
	}
	if err := km.UnmarshalJSON(lj); !isErr(err, linear.ErrMismatch) {
		t.Fatalf("linear JSON: %v", err)
	}
}

// Every truncation and a single-bit change of every byte of a kernel model
// file is an error (the checksum, then the size checks), and the model
// keeps what it had.
func TestKernelFileCorruption(t *testing.T) {
	models, _, _ := kernelModels[float32](t)
	for _, name := range []string{"binary-online", "ovr-voted"} {
		b, _ := models[name].MarshalBinary()
		var m expansion.Model[float32]
		for i := range len(b) {
			if err := m.UnmarshalBinary(b[:i]); !isErr(err, linear.ErrCorrupt) {
				t.Fatalf("%s truncated to %d bytes: %v", name, i, err)
			}
		}
		for i := range len(b) { // one bit of every byte, a different one each time
			c := slices.Clone(b)
			c[i] ^= 1 << (i % 8)
			err := m.UnmarshalBinary(c)
			if !isErr(err, linear.ErrCorrupt) && !isErr(err, linear.ErrVersion) {
				t.Fatalf("%s: flipping bit %d of byte %d: %v", name, i%8, i, err)
			}
		}
		if m.Dims() != 0 {
			t.Fatal("a rejected file changed the model")
		}
	}
}

// Files with a valid checksum but bad content (as a buggy or hostile writer
// would make them) are rejected by the field checks.
func TestKernelFileBadFields(t *testing.T) {
	models, _, _ := kernelModels[float32](t)
	bin, _ := models["binary-online"].MarshalBinary() // rbf, 2 labels
	ovr, _ := models["ovr-online"].MarshalBinary()    // poly, 3 labels
	voted, _ := models["binary-voted"].MarshalBinary()
	le := binary.LittleEndian
	spec := func(L int) int { return headerSize + 8*L } // offset of the kernel bytes
	S := func(b []byte) int { return int(le.Uint32(b[24:])) }
	d := 4
	votedCounts := func(b []byte) int { return spec(2) + kernSpecSize + 4*S(b) + 4*S(b)*d }
	for _, tc := range []struct {
		name string
		base []byte
		edit func(b []byte)
		want error
	}{
		{"version", bin, func(b []byte) { b[8] = modelfile.Newest + 1 }, linear.ErrVersion},
		{"v1-normalize-features", bin, func(b []byte) { b[8], b[13] = 1, b[13]|flagNormX }, linear.ErrCorrupt},
		{"state-flag", bin, func(b []byte) { b[13] |= flagState }, linear.ErrCorrupt},
		{"both-normalisations", bin, func(b []byte) { b[13] |= flagNorm | flagNormX }, linear.ErrCorrupt},
		{"elem-size", bin, func(b []byte) { b[10] = 5 }, linear.ErrCorrupt},
		{"elem-mismatch", bin, func(b []byte) { b[10] = 8 }, linear.ErrMismatch},
		{"linear-kind", bin, func(b []byte) { b[11] = byte(fit.Binary) }, linear.ErrMismatch},
		{"kind", bin, func(b []byte) { b[11] = 99 }, linear.ErrCorrupt},
		{"svm-kind", bin, func(b []byte) { b[11] = 40 }, linear.ErrMismatch}, // package svm's linear SVM
		{"algorithm", bin, func(b []byte) { b[12] = byte(linear.SVM) }, linear.ErrCorrupt},
		{"algorithm-unknown", bin, func(b []byte) { b[12] = 99 }, linear.ErrCorrupt},
		{"flags", bin, func(b []byte) { b[13] = 0x10 }, linear.ErrCorrupt},
		{"reserved", bin, func(b []byte) { b[15] = 1 }, linear.ErrCorrupt},
		{"reserved-2", bin, func(b []byte) { b[30] = 1 }, linear.ErrCorrupt},
		{"dims-0", bin, func(b []byte) { le.PutUint32(b[16:], 0) }, linear.ErrCorrupt},
		{"dims-size", bin, func(b []byte) { le.PutUint32(b[16:], 5) }, linear.ErrCorrupt},
		{"dims-huge", bin, func(b []byte) { le.PutUint32(b[16:], 1<<30) }, linear.ErrCorrupt},
		{"labels-1", bin, func(b []byte) { le.PutUint32(b[20:], 1) }, linear.ErrCorrupt},
		{"labels-huge", ovr, func(b []byte) { le.PutUint32(b[20:], 1<<24) }, linear.ErrCorrupt},
		{"support-0", bin, func(b []byte) { le.PutUint32(b[24:], 0) }, linear.ErrCorrupt},
		{"support-huge", bin, func(b []byte) { le.PutUint32(b[24:], 0xffffffff) }, linear.ErrCorrupt},
		{"eta", bin, func(b []byte) { le.PutUint64(b[32:], math.Float64bits(math.Inf(1))) }, linear.ErrCorrupt},
		{"binary-labels", bin, func(b []byte) { le.PutUint64(b[headerSize:], 0) }, linear.ErrCorrupt},
		{"labels-order", ovr, func(b []byte) { le.PutUint64(b[headerSize+8:], 0) }, linear.ErrCorrupt},
		{"kernel-code", bin, func(b []byte) { b[spec(2)] = 7 }, linear.ErrCorrupt},
		{"kernel-reserved", bin, func(b []byte) { b[spec(2)+2] = 1 }, linear.ErrCorrupt},
		{"rbf-degree", bin, func(b []byte) { le.PutUint32(b[spec(2)+4:], 2) }, linear.ErrCorrupt},
		{"rbf-coef0", bin, func(b []byte) { le.PutUint64(b[spec(2)+16:], math.Float64bits(1)) }, linear.ErrCorrupt},
		{"rbf-gamma-0", bin, func(b []byte) { le.PutUint64(b[spec(2)+8:], 0) }, linear.ErrCorrupt},
		{"rbf-gamma-nan", bin, func(b []byte) { le.PutUint64(b[spec(2)+8:], math.Float64bits(math.NaN())) }, linear.ErrCorrupt},
		{"rbf-gamma-f32-range", bin, func(b []byte) { le.PutUint64(b[spec(2)+8:], math.Float64bits(1e300)) }, linear.ErrCorrupt},
		{"linear-gamma", bin, func(b []byte) { b[spec(2)] = kernCodeLinear }, linear.ErrCorrupt},
		{"poly-degree-0", ovr, func(b []byte) { le.PutUint32(b[spec(3)+4:], 0) }, linear.ErrCorrupt},
		{"poly-degree-huge", ovr, func(b []byte) { le.PutUint32(b[spec(3)+4:], 0x80000000) }, linear.ErrCorrupt},
		{"index-order", bin, func(b []byte) {
			le.PutUint32(b[spec(2)+kernSpecSize+4:], le.Uint32(b[spec(2)+kernSpecSize:]))
		}, linear.ErrCorrupt},
		{"index-huge", bin, func(b []byte) {
			le.PutUint32(b[spec(2)+kernSpecSize+4*(S(b)-1):], 0x80000000)
		}, linear.ErrCorrupt},
		{"nan-support-vector", bin, func(b []byte) {
			le.PutUint32(b[spec(2)+kernSpecSize+4*S(b)+8:], 0x7fc00000)
		}, linear.ErrCorrupt},
		{"huge-support-vector", bin, func(b []byte) { // its kernel values would overflow float32
			le.PutUint32(b[spec(2)+kernSpecSize+4*S(b)+8:], math.Float32bits(1e30))
		}, linear.ErrCorrupt},
		{"inf-coefficient", bin, func(b []byte) {
			le.PutUint32(b[spec(2)+kernSpecSize+4*S(b)+4*S(b)*d:], 0x7f800000)
		}, linear.ErrCorrupt},
		{"voted-mistakes-size", voted, func(b []byte) { le.PutUint32(b[votedCounts(b):], le.Uint32(b[votedCounts(b):])+1) }, linear.ErrCorrupt},
		{"voted-mistakes-huge", voted, func(b []byte) { le.PutUint32(b[votedCounts(b):], 0xffffffff) }, linear.ErrCorrupt},
		{"voted-sv-index", voted, func(b []byte) { le.PutUint32(b[votedCounts(b)+8:], uint32(S(b))) }, linear.ErrCorrupt},
		{"voted-prefix", voted, func(b []byte) {
			q := int(le.Uint32(b[votedCounts(b):]))
			le.PutUint32(b[votedCounts(b)+8+8*q:], uint32(q+1)) // 4 bytes index + 4 bytes step per mistake
		}, linear.ErrCorrupt},
		{"voted-prefix-order", voted, func(b []byte) {
			q := int(le.Uint32(b[votedCounts(b):]))
			p := votedCounts(b) + 8 + 8*q
			le.PutUint32(b[p+4:], 0) // the second kept function before the first
		}, linear.ErrCorrupt},
		{"voted-count", voted, func(b []byte) {
			q, v := int(le.Uint32(b[votedCounts(b):])), int(le.Uint32(b[votedCounts(b)+4:]))
			le.PutUint64(b[votedCounts(b)+8+8*q+4*v:], 0)
		}, linear.ErrCorrupt},
		{"voted-nan-step", voted, func(b []byte) {
			q := int(le.Uint32(b[votedCounts(b):]))
			le.PutUint32(b[votedCounts(b)+8+4*q:], 0x7fc00000)
		}, linear.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := slices.Clone(tc.base)
			tc.edit(b)
			reseal(b)
			var m expansion.Model[float32]
			err := m.UnmarshalBinary(b)
			if !isErr(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if tc.want == linear.ErrCorrupt && (errors.Is(err, ErrOption) || errors.Is(err, linear.ErrNonFinite)) {
				t.Fatalf("a corrupt file's error %v also matches a training error", err)
			}
			if m.Dims() != 0 {
				t.Fatal("a rejected file changed the model")
			}
		})
	}
	// Appending bytes (resealed) is corrupt too.
	b := append(slices.Clone(bin[:len(bin)-4]), 0, 0, 0, 0, 0, 0, 0, 0)
	var m expansion.Model[float32]
	if err := m.UnmarshalBinary(reseal(b)); !isErr(err, linear.ErrCorrupt) {
		t.Fatalf("padded file: %v", err)
	}
}

func TestKernelJSONErrors(t *testing.T) {
	models, _, _ := kernelModels[float64](t)
	js, _ := models["ovr-averaged"].MarshalJSON()
	vj, _ := models["binary-voted"].MarshalJSON()
	doc := func(base []byte, edit func(map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(base, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"syntax", []byte(`{"format":`), linear.ErrCorrupt},
		{"format", doc(js, func(m map[string]any) { m["format"] = "x" }), linear.ErrCorrupt},
		{"version", doc(js, func(m map[string]any) { m["version"] = modelfile.Newest + 1 }), linear.ErrVersion},
		{"type", doc(js, func(m map[string]any) { m["type"] = "float32" }), linear.ErrMismatch},
		{"type-bad", doc(js, func(m map[string]any) { m["type"] = "int8" }), linear.ErrCorrupt},
		{"kind-linear", doc(js, func(m map[string]any) { m["kind"] = "ovr" }), linear.ErrMismatch},
		{"kind", doc(js, func(m map[string]any) { m["kind"] = "kernel-x" }), linear.ErrCorrupt},
		{"algorithm", doc(js, func(m map[string]any) { m["algorithm"] = "svm" }), linear.ErrCorrupt},
		{"algorithm-unknown", doc(js, func(m map[string]any) { m["algorithm"] = "nope" }), linear.ErrCorrupt},
		{"kernel", doc(js, func(m map[string]any) { m["kernel"] = map[string]any{"type": "sigmoid"} }), linear.ErrCorrupt},
		{"kernel-linear-params", doc(js, func(m map[string]any) { m["kernel"] = map[string]any{"type": "linear", "gamma": 1} }), linear.ErrCorrupt},
		{"kernel-rbf-degree", doc(js, func(m map[string]any) { m["kernel"] = map[string]any{"type": "rbf", "gamma": 1, "degree": 2} }), linear.ErrCorrupt},
		{"kernel-poly-degree", doc(js, func(m map[string]any) { m["kernel"] = map[string]any{"type": "poly", "gamma": 1} }), linear.ErrCorrupt},
		{"dims", doc(js, func(m map[string]any) { m["dims"] = 3 }), linear.ErrCorrupt},
		{"dims-huge", doc(js, func(m map[string]any) { m["dims"] = int64(1) << 40 }), linear.ErrCorrupt},
		{"labels", doc(js, func(m map[string]any) { m["labels"] = []int{0, 0, 1} }), linear.ErrCorrupt},
		{"indices", doc(js, func(m map[string]any) { m["support_indices"] = []int{1} }), linear.ErrCorrupt},
		{"coefficients", doc(js, func(m map[string]any) { m["coefficients"] = [][]float64{{1}} }), linear.ErrCorrupt},
		{"biases", doc(js, func(m map[string]any) { m["biases"] = []float64{1} }), linear.ErrCorrupt},
		{"voted-in-plain", doc(js, func(m map[string]any) { m["voted"] = []any{}; m["algorithm"] = "voted" }), linear.ErrCorrupt},
		{"voted-lengths", doc(vj, func(m map[string]any) { m["voted"].([]any)[0].(map[string]any)["steps"] = []float64{} }), linear.ErrCorrupt},
		{"voted-index", doc(vj, func(m map[string]any) { m["voted"].([]any)[0].(map[string]any)["mistakes"].([]any)[0] = -1 }), linear.ErrCorrupt},
		{"voted-count", doc(vj, func(m map[string]any) { m["voted"].([]any)[0].(map[string]any)["counts"].([]any)[0] = 0 }), linear.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m expansion.Model[float64]
			if err := m.UnmarshalJSON(tc.data); !isErr(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	if !strings.Contains(string(js), `"kind":"kernel-ovr"`) || !strings.Contains(string(js), `"kernel":{"type":"poly","gamma":0.5,"coef0":1,"degree":2}`) {
		t.Fatalf("unexpected JSON: %.300s", js)
	}
}
