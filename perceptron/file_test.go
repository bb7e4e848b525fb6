package perceptron

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// fileModels trains one model of every kind and algorithm family.
func fileModels(t testing.TB) map[string]*linear.Model[float32] {
	t.Helper()
	Xb, yb, _, _ := separable(newRand(11), 60, 5, 3, 0.5, true)
	Xm, ym := intMulticlass(newRand(12), 90, 5, 4)
	out := map[string]*linear.Model[float32]{}
	add := func(name string, m *linear.Model[float32], _ *Diagnostics, err error) {
		if err != nil {
			t.Fatal(err)
		}
		out[name] = m
	}
	for a := linear.Online; a < numAlgorithms; a++ {
		m, d, err := trainBinary(to32(Xb), 5, yb, Options{Algorithm: a, MaxIter: 3, Shuffle: true, Normalize: a == linear.Batch, NoBias: a == linear.SVM, Resumable: true})
		add("binary-"+a.String(), m, d, err)
		m, d, err = trainMulti(to32(Xm), 5, ym, Options{Algorithm: a, MaxIter: 3, Resumable: true})
		add("ovr-"+a.String(), m, d, err)
	}
	m, d, err := trainMulti(to32(Xm), 5, ym, Options{Multiclass: fit.Argmax, Algorithm: linear.Averaged, MaxIter: 3, Eta: 0.25, Resumable: true})
	add("argmax-averaged", m, d, err)
	return out
}

func samePredictions(t *testing.T, a, b *linear.Model[float32]) {
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
			if err != nil || map[Kind]fit.Scheme{1: fit.Binary, 2: fit.OneVsRest, 3: fit.Argmax}[info.Kind] != m.Scheme() || info.Algorithm != m.Algorithm() || info.Dims != 5 || info.ElemBits != 32 || info.Version != 2 {
				t.Fatalf("Inspect = %+v, %v", info, err)
			}
			var back linear.Model[float32]
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
			var jback linear.Model[float32]
			if err := json.Unmarshal(js, &jback); err != nil {
				t.Fatalf("%v\n%s", err, js)
			}
			if string(mustMarshal(t, &jback)) != string(data) {
				t.Fatalf("JSON round trip changed the model:\n%s", js)
			}
			if m.Scaling() != back.Scaling() || m.HasBias() != back.HasBias() || m.Steps() != back.Steps() || m.Steps() == 0 {
				t.Fatal("flags or state lost")
			}
			// A float32 file is not a float64 model.
			var m64 linear.Model[float64]
			if err := m64.UnmarshalBinary(data); !errors.Is(err, linear.ErrMismatch) {
				t.Fatalf("float64 model from a float32 file: %v", err)
			}
			if err := json.Unmarshal(js, &m64); !errors.Is(err, linear.ErrMismatch) {
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
			var back linear.Model[float32]
			if err := back.UnmarshalBinary(data[:n]); !errors.Is(err, linear.ErrCorrupt) {
				t.Fatalf("%s truncated to %d bytes: %v", name, n, err)
			}
		}
		if err := new(linear.Model[float32]).UnmarshalBinary(append(data, 0)); !errors.Is(err, linear.ErrCorrupt) {
			t.Fatalf("%s with a trailing byte: %v", name, err)
		}
		for i := range data {
			bad := []byte(string(data))
			bad[i] ^= 0x5a
			var back linear.Model[float32]
			err := back.UnmarshalBinary(bad)
			if err == nil {
				t.Fatalf("%s: byte %d changed, no error", name, i)
			}
			if !errors.Is(err, linear.ErrCorrupt) && !errors.Is(err, linear.ErrVersion) {
				t.Fatalf("%s: byte %d changed: %v", name, i, err)
			}
		}
	}
}

// reseal recomputes the checksum of a file edited on purpose.
func reseal(b []byte) []byte {
	n := len(b) - 4
	binary.LittleEndian.PutUint32(b[n:], modelfile.Checksum(b[:n]))
	return b
}

// Files with a valid checksum but bad content (as a buggy or hostile
// writer would make them) are rejected by the field checks.
func TestFileBadFields(t *testing.T) {
	models := fileModels(t)
	bin := mustMarshal(t, models["binary-online"])
	voted := mustMarshal(t, models["ovr-voted"])
	svm := mustMarshal(t, models["binary-svm"])
	avg := mustMarshal(t, models["binary-averaged"])
	for _, tc := range []struct {
		name string
		base []byte
		edit func(b []byte)
		want error
	}{
		{"version", bin, func(b []byte) { b[8] = modelfile.Newest + 1 }, linear.ErrVersion},
		{"v1-with-state", bin, func(b []byte) { b[8] = 1 }, linear.ErrCorrupt},
		{"both-normalisations", bin, func(b []byte) { b[13] |= flagNorm | flagNormX }, linear.ErrCorrupt},
		{"no-state", bin, func(b []byte) { b[13] &^= flagState }, linear.ErrCorrupt},
		{"zero-steps", bin, func(b []byte) { binary.LittleEndian.PutUint64(b[56:], 0) }, linear.ErrCorrupt},
		{"lambda-not-svm", bin, func(b []byte) { binary.LittleEndian.PutUint64(b[64:], 0x3ff0000000000000) }, linear.ErrCorrupt},
		{"svm-lambda", svm, func(b []byte) { binary.LittleEndian.PutUint64(b[64:], 0) }, linear.ErrCorrupt},
		{"averaged-inconsistent", avg, func(b []byte) {
			off := 72 + 4*6 // the running weights, after the served ones
			binary.LittleEndian.PutUint32(b[off:], binary.LittleEndian.Uint32(b[off:])+1)
		}, linear.ErrCorrupt},
		{"elem-size", bin, func(b []byte) { b[10] = 3 }, linear.ErrCorrupt},
		{"kind", bin, func(b []byte) { b[11] = 9 }, linear.ErrCorrupt},
		{"kernel-kind", bin, func(b []byte) { b[11] = 16 }, linear.ErrMismatch},
		{"algorithm", bin, func(b []byte) { b[12] = 77 }, linear.ErrCorrupt},
		{"flags", bin, func(b []byte) { b[13] = 0x80 }, linear.ErrCorrupt},
		{"reserved", bin, func(b []byte) { b[14] = 1 }, linear.ErrCorrupt},
		{"dims", bin, func(b []byte) { binary.LittleEndian.PutUint32(b[16:], 0) }, linear.ErrCorrupt},
		{"labels", bin, func(b []byte) { binary.LittleEndian.PutUint64(b[40:], 5) }, linear.ErrCorrupt},
		{"eta", bin, func(b []byte) { binary.LittleEndian.PutUint64(b[32:], 0) }, linear.ErrCorrupt},
		{"nan-weight", bin, func(b []byte) { binary.LittleEndian.PutUint32(b[72:], 0x7fc00000) }, linear.ErrCorrupt},
		{"vector-counts", voted, func(b []byte) {
			off := headerSize + 8*4 + stateSize
			binary.LittleEndian.PutUint32(b[off:], binary.LittleEndian.Uint32(b[off:])+1)
		}, linear.ErrCorrupt},
		{"survival-count", voted, func(b []byte) {
			binary.LittleEndian.PutUint64(b[headerSize+8*4+stateSize+4*4:], 0)
		}, linear.ErrCorrupt},
		{"huge-vectors", voted, func(b []byte) { binary.LittleEndian.PutUint32(b[24:], 0xffffffff) }, linear.ErrCorrupt},
		{"huge-dims", voted, func(b []byte) { binary.LittleEndian.PutUint32(b[16:], 1<<30) }, linear.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte(string(tc.base))
			tc.edit(b)
			reseal(b)
			var m linear.Model[float32]
			if err := m.UnmarshalBinary(b); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			// Inspect checks the header; the body's fields need UnmarshalBinary.
			info, err := Inspect(b)
			body := map[string]bool{"labels": true, "nan-weight": true, "vector-counts": true, "survival-count": true,
				"zero-steps": true, "lambda-not-svm": true, "svm-lambda": true, "averaged-inconsistent": true}[tc.name]
			if body != (err == nil) || !body && !errors.Is(err, tc.want) {
				t.Fatalf("Inspect: %v", err)
			}
			if tc.name == "kernel-kind" && (info.Kind != 16 || info.ElemBits != 32) {
				t.Fatalf("Inspect of a kernel model: %+v", info)
			}
			if m.Scheme() != 0 {
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
		{"syntax", s[:len(s)/2], linear.ErrCorrupt},
		{"format", strings.Replace(s, `"rosenblatt-perceptron"`, `"other"`, 1), linear.ErrCorrupt},
		{"version", strings.Replace(s, `"version":2`, `"version":7`, 1), linear.ErrVersion},
		{"v1-with-state", strings.Replace(s, `"version":2`, `"version":1`, 1), linear.ErrCorrupt},
		{"both-normalisations", strings.Replace(s, `"normalize":false`, `"normalize":true,"normalize_features":true`, 1), linear.ErrCorrupt},
		{"no-steps", strings.Replace(s, `"steps":270,`, ``, 1), linear.ErrCorrupt},
		{"averaging-rows", strings.Replace(s, `"bias_sums":[`, `"bias_sums":[1,`, 1), linear.ErrCorrupt},
		{"averaging-inconsistent", strings.Replace(s, `"running_biases":[-12,`, `"running_biases":[-11,`, 1), linear.ErrCorrupt},
		{"type", strings.Replace(s, `"float32"`, `"int8"`, 1), linear.ErrCorrupt},
		{"kind", strings.Replace(s, `"ovr"`, `"tree"`, 1), linear.ErrCorrupt},
		{"algorithm", strings.Replace(s, `"averaged"`, `"magic"`, 1), linear.ErrCorrupt},
		{"dims", strings.Replace(s, `"dims":5`, `"dims":6`, 1), linear.ErrCorrupt},
		{"huge-dims", strings.Replace(s, `"dims":5`, `"dims":1073741824`, 1), linear.ErrCorrupt},
		{"labels-order", strings.Replace(s, `"labels":[-7,3,13,23]`, `"labels":[3,-7,13,23]`, 1), linear.ErrCorrupt},
		{"eta", strings.Replace(s, `"eta":1`, `"eta":-1`, 1), linear.ErrCorrupt},
		{"rows", strings.Replace(s, `"biases":[`, `"biases":[1,`, 1), linear.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.doc == s {
				t.Fatalf("edit did not apply to %s", s)
			}
			var m linear.Model[float32]
			if err := m.UnmarshalJSON([]byte(tc.doc)); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// Files of format version 1 (testdata/v1, written by the code before
// version 2) still load, binary and JSON, and score the probe samples as
// that code did (up to the rounding of the kernel implementation: they were
// written on AVX-512); their normalize is ScaleFeatures. They are written
// back as version 2, which loads to the same scores, bit for bit.
func TestVersion1Files(t *testing.T) {
	raw, err := os.ReadFile("testdata/v1/scores.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Probes []float32
		Scores map[string][]float32
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	type model interface {
		UnmarshalBinary([]byte) error
		UnmarshalJSON([]byte) error
		MarshalBinary() ([]byte, error)
		NumScores() int
		ScoresBatch(dst, X []float32) error
	}
	// scaling is the model's Scaling, a kernel model's as this package
	// names it.
	scaling := func(m model) linear.Scaling {
		if km, ok := m.(*expansion.Model[float32]); ok {
			return linear.Scaling(km.Scaling())
		}
		return m.(*linear.Model[float32]).Scaling()
	}
	for name, want := range ref.Scores {
		for _, ext := range []string{".model", ".json"} {
			data, err := os.ReadFile("testdata/v1/" + name + ext)
			if err != nil {
				t.Fatal(err)
			}
			fresh := func() model {
				if strings.HasPrefix(name, "kernel-") {
					return new(expansion.Model[float32])
				}
				return new(linear.Model[float32])
			}
			m := fresh()
			if ext == ".model" {
				if size, need, err := EncodedSize(data); err != nil || need != 0 || size != int64(len(data)) {
					t.Fatalf("%s: EncodedSize %d, %d, %v", name, size, need, err)
				}
				err = m.UnmarshalBinary(data)
			} else {
				err = m.UnmarshalJSON(data)
			}
			if err != nil {
				t.Fatalf("%s%s: %v", name, ext, err)
			}
			if norm := strings.Contains(name, "normalize"); (scaling(m) == linear.ScaleFeatures) != norm || norm == (scaling(m) == linear.ScaleNone) {
				t.Fatalf("%s: scaling %v", name, scaling(m))
			}
			score := func(m model) []float32 {
				sc := make([]float32, 5*m.NumScores())
				if err := m.ScoresBatch(sc, ref.Probes); err != nil {
					t.Fatal(err)
				}
				return sc
			}
			got := score(m)
			// A voted score is a sum of votes cⱼ·sign(wⱼ·x + bⱼ): a vector
			// whose decision value is within rounding of 0 may vote either
			// way on another kernel implementation (the files were written
			// on AVX-512; NEON and the generic path round differently).
			slack := make([]float64, len(got))
			if lm, ok := m.(*linear.Model[float32]); ok && lm.Algorithm() == linear.Voted {
				slack = votedTieSlack(lm, ref.Probes)
			}
			for j := range got {
				if d := math.Abs(float64(got[j] - want[j])); d > 1e-5*(1+math.Abs(float64(want[j])))+slack[j] {
					t.Fatalf("%s%s: scores %v, version-1 code %v (score %d: tie slack %g)", name, ext, got, want, j, slack[j])
				}
			}
			v2, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if info, err := Inspect(v2); (err != nil && !errors.Is(err, linear.ErrMismatch)) || info.Version != 2 {
				t.Fatalf("%s: written back as %+v, %v", name, info, err)
			}
			back := fresh()
			if err := back.UnmarshalBinary(v2); err != nil {
				t.Fatal(err)
			}
			if again := score(back); !slices.Equal(again, got) {
				t.Fatalf("%s: version 2 of it scores %v, want %v", name, again, got)
			}
		}
	}
}

// votedTieSlack returns, for each probe (row of X) and class of the voted
// model m, twice the votes of the kept vectors whose decision value on the
// probe is so close to 0 that its sign depends on rounding: the most a
// score may move between kernel implementations. The decision values are
// recomputed in float64 on the probe as the model scales it (ScaleFeatures:
// x/‖x‖, then the bias), and "close" is 64·(d+2)·2⁻²⁴·(Σ|wᵢxᵢ| + |b|), a
// generous multiple of the float32 dot product's error bound.
func votedTieSlack(m *linear.Model[float32], X []float32) []float64 {
	d, K := m.Dims(), m.NumScores()
	n := len(X) / d
	slack := make([]float64, n*K)
	for i := range n {
		x := make([]float64, d)
		sq := 0.0
		for j := range x {
			x[j] = float64(X[i*d+j])
			sq += x[j] * x[j]
		}
		if m.Scaling() == linear.ScaleFeatures && sq > 0 {
			for j := range x {
				x[j] /= math.Sqrt(sq)
			}
		}
		for k := range K {
			vs, bs, cs := m.Voted(k)
			for v, w := range vs {
				s, mag := float64(bs[v]), math.Abs(float64(bs[v]))
				for j, wj := range w {
					s += float64(wj) * x[j]
					mag += math.Abs(float64(wj) * x[j])
				}
				if math.Abs(s) <= 64*float64(d+2)*0x1p-24*mag {
					slack[i*K+k] += 2 * float64(cs[v])
				}
			}
		}
	}
	return slack
}
