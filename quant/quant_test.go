package quant

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// trainCase is a model to quantise: its kind, options and shape.
type trainCase struct {
	name    string
	d, cls  int // cls 2: binary
	opt     perceptron.Options
	float64 bool
}

var trainCases = []trainCase{
	{"binary/d=1", 1, 2, perceptron.Options{MaxIter: 3}, false},
	{"binary/d=33/float64", 33, 2, perceptron.Options{MaxIter: 3, Algorithm: linear.Averaged}, true},
	{"ovr10/d=768", 768, 10, perceptron.Options{MaxIter: 2}, false},
	{"ovr3/d=100/normalize", 100, 3, perceptron.Options{MaxIter: 3, Normalize: true}, false},
	{"ovr4/d=70/normalize-nobias", 70, 4, perceptron.Options{MaxIter: 3, Normalize: true, NoBias: true}, false},
	{"argmax5/d=129/features", 129, 5, perceptron.Options{MaxIter: 3, NormalizeFeatures: true, Multiclass: fit.Argmax}, false},
	{"ovr20/d=64/svm", 64, 20, perceptron.Options{MaxIter: 3, Algorithm: linear.SVM}, true},
	{"argmax20/d=64/averaged", 64, 20, perceptron.Options{MaxIter: 3, Algorithm: linear.Averaged, Multiclass: fit.Argmax}, true},
	{"binary/d=40/voted", 40, 2, perceptron.Options{MaxIter: 3, Algorithm: linear.Voted}, false},
	{"ovr3/d=50/voted-normalize", 50, 3, perceptron.Options{MaxIter: 2, Algorithm: linear.Voted, Normalize: true}, true},
}

// randData returns n random samples of d features in [−1, 2) and labels of
// cls classes (−1/+1 for 2).
func randData(rng *rand.Rand, n, d, cls int) ([]float64, []int) {
	X := make([]float64, n*d)
	for i := range X {
		X[i] = 3*rng.Float64() - 1
	}
	y := make([]int, n)
	for i := range y {
		if cls == 2 {
			y[i] = 1 - 2*(i%2)
		} else {
			y[i] = i % cls
		}
	}
	return X, y
}

func train[T kernel.Float](t testing.TB, X []T, d int, y []int, cls int, opt perceptron.Options) *linear.Model[T] {
	t.Helper()
	var m *linear.Model[T]
	var err error
	if cls == 2 {
		m, _, err = perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, opt)
	} else {
		m, _, err = perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, opt)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func to32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

// quantized trains tc's model and quantises it.
func (tc trainCase) quantized(t testing.TB, rng *rand.Rand) *Model {
	t.Helper()
	X, y := randData(rng, 60, tc.d, tc.cls)
	var q *Model
	var err error
	if tc.float64 {
		q, err = New(train(t, X, tc.d, y, tc.cls, tc.opt))
	} else {
		q, err = New(train(t, to32(X), tc.d, y, tc.cls, tc.opt))
	}
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// refScores is the reference: the plain int32 loop over the quantised
// weights and the sample's integers (zero point subtracted per term),
// then the documented rescale (and for a voted model the vote). ints
// holds the sample's integers (u − zero, or v).
func refScores(q *Model, ints []int32, sx float32) []float32 {
	d := q.d
	var sq int64
	for _, v := range ints {
		sq += int64(v) * int64(v)
	}
	mul, bmul := 1.0, 1.0
	n2 := float64(sx) * float64(sx) * float64(sq)
	switch q.scaling {
	case linear.ScaleAugmented:
		f := 1.0
		if q.bias {
			f = 1 / math.Sqrt(n2+1)
		} else if n2 > 0 {
			f = 1 / math.Sqrt(n2)
		}
		mul, bmul = f, f
	case linear.ScaleFeatures:
		if sq > 0 {
			mul = 1 / (float64(sx) * math.Sqrt(float64(sq)))
		}
	}
	rows := make([]float32, len(q.scale))
	for k := range rows {
		var acc int32
		for i, v := range ints {
			acc += int32(q.q[k*d+i]) * v
		}
		rows[k] = float32(float64(q.scale[k])*float64(sx)*float64(acc)*mul + float64(q.b[k])*bmul)
	}
	if q.voff == nil {
		return rows
	}
	out := make([]float32, len(q.voff)-1)
	for k := range out {
		var vote float64
		for j := q.voff[k]; j < q.voff[k+1]; j++ {
			if rows[j] > 0 {
				vote += float64(q.vc[j])
			} else {
				vote -= float64(q.vc[j])
			}
		}
		out[k] = float32(vote)
	}
	return out
}

// refLabel is the label of reference scores.
func refLabel(q *Model, sc []float32) int {
	if len(sc) == 1 { // −1, +1 for a perceptron's model, any two for a linear SVM's
		if sc[0] > 0 {
			return q.labels[1]
		}
		return q.labels[0]
	}
	best := 0
	for k, v := range sc {
		if v > sc[best] {
			best = k
		}
	}
	return q.labels[best]
}

// samples returns unsigned and signed test samples of d features: random,
// extremes (all 255 with zero 0, all 0 with zero 255, −128 and 127).
func samples(rng *rand.Rand, d int) (us [][]uint8, zs []uint8, vs [][]int8) {
	fill := func(f func(i int) int) ([]uint8, []int8) {
		u, v := make([]uint8, d), make([]int8, d)
		for i := range d {
			u[i], v[i] = uint8(f(i)), int8(f(i))
		}
		return u, v
	}
	for _, c := range []struct {
		f func(i int) int
		z uint8
	}{
		{func(int) int { return rng.IntN(256) }, uint8(rng.IntN(256))},
		{func(int) int { return rng.IntN(256) }, 0},
		{func(int) int { return 255 }, 0},
		{func(int) int { return 0 }, 255},
		{func(int) int { return 128 }, 128}, // the zero sample; signed: all −128
		{func(i int) int { return 127 * (i % 2) }, 3},
	} {
		u, v := fill(c.f)
		us, zs, vs = append(us, u), append(zs, c.z), append(vs, v)
	}
	return us, zs, vs
}

// onEachInt8 runs f with q scoring on every int8 implementation this CPU
// has, its rows made ready for the implementation's fused 10-class
// prediction where it has one (setKernels, as OnInt8 does).
func onEachInt8(t *testing.T, q *Model, f func(t *testing.T)) {
	defer q.setKernels(q.k)
	for _, v := range kerneltest.Int8Impls() {
		if !v.Available() {
			continue
		}
		q.setKernels(modelkern.OnInt8(v))
		t.Run("int8="+v.Name(), f)
	}
}

// TestScoresExact: on every int8 implementation, ScoresU8, ScoresI8 and
// Scores equal the plain int32 loop with the documented rescale bit for
// bit, and the Predict forms return the reference label, for binary,
// one-vs-rest and argmax models, with and without normalisation and bias.
func TestScoresExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range trainCases {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.quantized(t, rng)
			us, zs, vs := samples(rng, tc.d)
			xf := make([]float32, tc.d)
			for i := range xf {
				xf[i] = float32(rng.NormFloat64())
			}
			onEachInt8(t, q, func(t *testing.T) {
				got := make([]float32, q.NumScores())
				check := func(what string, ints []int32, sx float32, score func() error, predict func() (int, error)) {
					t.Helper()
					want := refScores(q, ints, sx)
					if err := score(); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					for k := range want {
						if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
							t.Fatalf("%s: score %d = %v, the reference %v", what, k, got[k], want[k])
						}
					}
					l, err := predict()
					if err != nil || l != refLabel(q, want) {
						t.Fatalf("%s: Predict = %d, %v, the reference %d", what, l, err, refLabel(q, want))
					}
				}
				ints := make([]int32, tc.d)
				for j := range us {
					u, z, v := us[j], zs[j], vs[j]
					sx := float32(0.5 + rng.Float64())
					for i := range ints {
						ints[i] = int32(u[i]) - int32(z)
					}
					check(fmt.Sprintf("U8 sample %d", j), ints, sx,
						func() error { return q.ScoresU8(got, u, sx, z) }, func() (int, error) { return q.PredictU8(u, sx, z) })
					for i := range ints {
						ints[i] = int32(v[i])
					}
					check(fmt.Sprintf("I8 sample %d", j), ints, sx,
						func() error { return q.ScoresI8(got, v, sx) }, func() (int, error) { return q.PredictI8(v, sx) })
				}
				u := make([]uint8, tc.d)
				sx, z, err := QuantizeInput(u, xf)
				if err != nil {
					t.Fatal(err)
				}
				for i := range ints {
					ints[i] = int32(u[i]) - int32(z)
				}
				check("float32", ints, sx, func() error { return q.Scores(got, xf) }, func() (int, error) { return q.Predict(xf) })
			})
		})
	}
}

// TestWeightsRounded: every quantised weight is the float weight divided
// by its row's scale, rounded to the nearest integer, and the largest
// weight of a row maps to ±127.
func TestWeightsRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X, y := randData(rng, 60, 50, 4)
	m := train(t, X, 50, y, 4, perceptron.Options{MaxIter: 3})
	q, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	for k := range q.NumScores() {
		w, fb := m.Weights(k)
		qw, s, b := q.Weights(k)
		if b != float32(fb) {
			t.Fatalf("row %d: bias %v, the model's %v", k, b, fb)
		}
		amax := 0
		for i := range w {
			if e := math.Abs(w[i] - float64(s)*float64(qw[i])); e > float64(s)/2*(1+1e-6) {
				t.Fatalf("row %d: weight %d = %v quantised to %d·%v, error %v > scale/2", k, i, w[i], qw[i], s, e)
			}
			amax = max(amax, int(math.Abs(float64(qw[i]))))
		}
		if amax != 127 {
			t.Fatalf("row %d: largest |q| = %d, want 127", k, amax)
		}
	}
}

// TestScoresClose: for a sample the signed bytes represent exactly, the
// quantised score differs from the float model's by at most the weights'
// rounding, Σ (s_k/2)·|x_i| (plus float rounding).
func TestScoresClose(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const d, cls = 300, 10
	X, y := randData(rng, 80, d, cls)
	m := train(t, X, d, y, cls, perceptron.Options{MaxIter: 3})
	q, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	v, x := make([]int8, d), make([]float64, d)
	const sx = 0.01
	for i := range v {
		v[i] = int8(rng.IntN(256) - 128)
		x[i] = sx * float64(v[i])
	}
	want, got := make([]float64, cls), make([]float32, cls)
	if err := m.Scores(want, x); err != nil {
		t.Fatal(err)
	}
	if err := q.ScoresI8(got, v, sx); err != nil {
		t.Fatal(err)
	}
	for k := range cls {
		var l1 float64
		for _, xi := range x {
			l1 += math.Abs(xi)
		}
		bound := float64(q.scale[k])/2*l1 + 1e-5*(math.Abs(want[k])+1)
		if e := math.Abs(float64(got[k]) - want[k]); e > bound {
			t.Fatalf("score %d: %v, the float model's %v: error %v > %v", k, got[k], want[k], e, bound)
		}
	}
}

// TestQuantizeInput: on every int8 implementation the CPU runs (each has
// its own SIMD quantiser), within scale/2 of x, 0 exactly at the zero
// point, the extremes at 0 and 255, and the edge cases; a NaN or ±Inf is
// found wherever it is (the vector body, its tail), and names its feature.
func TestQuantizeInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	rnd := func(n int, lo, hi float64) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(lo + (hi-lo)*rng.Float64())
		}
		x[n/2] = 0
		return x
	}
	cases := []struct {
		name string
		x    []float32
	}{
		{"mixed", rnd(500, -3, 7)},
		{"positive", rnd(100, 0.5, 1)},
		{"negative", rnd(100, -9, -2)},
		{"tiny", rnd(50, -1e-40, 1e-40)},
		{"huge", []float32{-3e38, 3e38, 0, 1, -1e38}},
		{"one", []float32{-2.5}},
		{"d784", rnd(784, -1, 1)},
	}
	for _, v := range kerneltest.Int8Impls() {
		if !v.Available() {
			continue
		}
		k := modelkern.OnInt8(v)
		for _, c := range cases {
			t.Run(v.Name()+"/"+c.name, func(t *testing.T) {
				u := make([]uint8, len(c.x))
				s, z, err := quantizeInput(k, u, c.x)
				if err != nil {
					t.Fatal(err)
				}
				lo, hi := 255, 0
				for i, v := range c.x {
					deq := float64(s) * (float64(u[i]) - float64(z))
					if e := math.Abs(deq - float64(v)); e > float64(s)*0.5001 {
						t.Fatalf("x[%d] = %v → %d (scale %v, zero %d) = %v: error %v > scale/2", i, v, u[i], s, z, deq, e)
					}
					if v == 0 && u[i] != z {
						t.Fatalf("0 → %d, zero point %d", u[i], z)
					}
					lo, hi = min(lo, int(u[i])), max(hi, int(u[i]))
				}
				if (lo != 0 && z != 0) || (hi != 255 && z != 255) {
					t.Fatalf("range %d..%d with zero %d: not the full byte range", lo, hi, z)
				}
			})
		}
		u := make([]uint8, 3)
		if s, z, err := quantizeInput(k, u, []float32{0, 0, 0}); err != nil || s != 1 || z != 0 || u[0]|u[1]|u[2] != 0 {
			t.Fatalf("%s: all zero: %v %v %v %v", v, s, z, u, err)
		}
		x := rnd(784, -1, 1)
		u = make([]uint8, len(x))
		for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
			for _, at := range []int{0, 1, 17, 770, 782, 783} {
				keep := x[at]
				x[at] = bad
				_, _, err := quantizeInput(k, u, x)
				x[at] = keep
				if !errors.Is(err, ErrNonFinite) || !errors.Is(err, linear.ErrNonFinite) || !strings.Contains(err.Error(), fmt.Sprintf("feature %d ", at)) {
					t.Fatalf("%s: %v at %d: err = %v, want ErrNonFinite naming feature %d", v, bad, at, err, at)
				}
			}
		}
		if _, _, err := quantizeInput(k, u[:1], x[:2]); !errors.Is(err, ErrDims) {
			t.Fatalf("%s: short dst: %v", v, err)
		}
	}
	if _, _, err := QuantizeInput(make([]uint8, 1), []float32{1, 2}); !errors.Is(err, ErrDims) {
		t.Fatalf("short dst: %v", err)
	}
}

// TestQuantizeInputSameEverywhere: every int8 implementation's quantiser
// gives the generic (Go) one's scale, zero point and bytes exactly, for
// lengths 0..70 and 768/784, ranges of every sign and magnitude (a range of
// subnormals, where 1/scale overflows float32, included).
func TestQuantizeInputSameEverywhere(t *testing.T) {
	var generic modelkern.Int8Kernels
	for _, v := range kerneltest.Int8Impls() {
		if v.Name() == "generic" {
			generic = modelkern.OnInt8(v)
		}
	}
	rng := rand.New(rand.NewPCG(7, 9))
	lengths := []int{768, 784}
	for n := 0; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	for _, v := range kerneltest.Int8Impls() {
		if !v.Available() {
			continue
		}
		k := modelkern.OnInt8(v)
		for _, n := range lengths {
			for _, r := range [][2]float64{{-1, 1}, {0, 255}, {-7, -3}, {2, 1e4}, {-1e-41, 1e-41}, {-3e38, 3e38}, {-0.5, 1e-3}} {
				x := make([]float32, n)
				for i := range x {
					x[i] = float32(r[0] + (r[1]-r[0])*rng.Float64())
				}
				want, got := make([]uint8, n), make([]uint8, n)
				ws, wz, werr := quantizeInput(generic, want, x)
				gs, gz, gerr := quantizeInput(k, got, x)
				if ws != gs || wz != gz || (werr == nil) != (gerr == nil) || string(want) != string(got) {
					t.Fatalf("%s: n=%d range %v: (%v, %d, %v) %v, generic (%v, %d, %v) %v", v, n, r, gs, gz, gerr, got, ws, wz, werr, want)
				}
			}
		}
	}
}

// TestErrors: bad models, samples, destinations and scales are errors
// wrapping the sentinels, never a panic.
func TestErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	X, y := randData(rng, 40, 5, 3)
	wide := train(t, make([]float32, 2*(MaxDims+1)), MaxDims+1, []int{1, -1}, 2, perceptron.Options{MaxIter: 1})
	if _, err := New(wide); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("%d features: %v", MaxDims+1, err)
	}
	if _, err := New(new(linear.Model[float32])); !errors.Is(err, linear.ErrUntrained) {
		t.Fatalf("untrained: %v", err)
	}
	// A normalised model's B enters its scaling, which quantised files do
	// not record; without Normalize B only shaped training.
	if _, err := New(train(t, X, 5, y, 3, perceptron.Options{MaxIter: 2, Normalize: true, BiasFeature: 0.5})); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("normalised with B = 0.5: %v", err)
	}
	if _, err := New(train(t, X, 5, y, 3, perceptron.Options{MaxIter: 2, BiasFeature: 0.5})); err != nil {
		t.Fatalf("B = 0.5 without Normalize: %v", err)
	}
	q, err := New(train(t, X, 5, y, 3, perceptron.Options{MaxIter: 2}))
	if err != nil {
		t.Fatal(err)
	}
	sc := make([]float32, 3)
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"short U8", q.ScoresU8(sc, make([]uint8, 4), 1, 0), ErrDims},
		{"short I8", func() error { _, err := q.PredictI8(make([]int8, 6), 1); return err }(), ErrDims},
		{"short dst", q.Scores(sc[:2], make([]float32, 5)), ErrDims},
		{"NaN", func() error { _, err := q.Predict([]float32{1, 2, float32(math.NaN()), 4, 5}); return err }(), ErrNonFinite},
		{"zero scale", func() error { _, err := q.PredictU8(make([]uint8, 5), 0, 0); return err }(), ErrScale},
		{"NaN scale", q.ScoresI8(sc, make([]int8, 5), float32(math.NaN())), ErrScale},
		{"Inf scale", q.ScoresU8(sc, make([]uint8, 5), float32(math.Inf(1)), 0), ErrScale},
		{"huge scale", func() error { _, err := q.PredictU8([]uint8{255, 255, 255, 255, 255}, 3e38, 0); return err }(), ErrNonFinite},
		{"huge scale, scores", q.ScoresU8(sc, []uint8{255, 255, 255, 255, 255}, 3e38, 0), ErrNonFinite},
		{"huge scale, signed", func() error { _, err := q.PredictI8([]int8{-128, 127, -128, 127, -128}, 3e38); return err }(), ErrNonFinite},
		{"batch", q.PredictBatch(make([]int, 2), make([]float32, 9)), ErrDims},
		{"scores batch", q.ScoresBatch(make([]float32, 5), make([]float32, 5)), ErrDims},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, c.err, c.want)
		}
	}
}

// TestBatch: PredictBatch and ScoresBatch equal Predict and Scores row by
// row.
func TestBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	q := trainCases[2].quantized(t, rng) // ovr10
	const n = 7
	X := make([]float32, n*q.d)
	for i := range X {
		X[i] = float32(rng.NormFloat64())
	}
	labels, scores := make([]int, n), make([]float32, n*10)
	if err := q.PredictBatch(labels, X); err != nil {
		t.Fatal(err)
	}
	if err := q.ScoresBatch(scores, X); err != nil {
		t.Fatal(err)
	}
	one := make([]float32, 10)
	for i := range n {
		x := X[i*q.d : (i+1)*q.d]
		l, err := q.Predict(x)
		if err != nil || l != labels[i] {
			t.Fatalf("row %d: Predict %d %v, PredictBatch %d", i, l, err, labels[i])
		}
		if err := q.Scores(one, x); err != nil {
			t.Fatal(err)
		}
		for k := range one {
			if one[k] != scores[i*10+k] {
				t.Fatalf("row %d score %d: %v vs %v", i, k, one[k], scores[i*10+k])
			}
		}
	}
}

// TestPredictAllocs: the byte forms allocate nothing for 10 classes, nor
// for 20 or a voted model's many vectors (pooled scratch), nor the float32
// form (pooled).
func TestPredictAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops objects under -race")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tc := range []trainCase{trainCases[2], trainCases[6], trainCases[8]} { // 10 and 20 classes, voted
		q := tc.quantized(t, rng)
		u, v, x := make([]uint8, q.d), make([]int8, q.d), make([]float32, q.d)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		for name, f := range map[string]func(){
			"PredictU8": func() { _, _ = q.PredictU8(u, 0.1, 3) },
			"PredictI8": func() { _, _ = q.PredictI8(v, 0.1) },
			"Predict":   func() { _, _ = q.Predict(x) },
		} {
			if a := testing.AllocsPerRun(100, f); a != 0 {
				t.Errorf("%s %s: %v allocations per call", tc.name, name, a)
			}
		}
	}
}

// TestConcurrent: goroutines predicting at once with every input form get
// the labels one goroutine gets (run with -race for the data races).
func TestConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, tc := range []trainCase{trainCases[2], trainCases[6], trainCases[8]} {
		q := tc.quantized(t, rng)
		const n = 8
		xs := make([][]float32, n)
		want := make([]int, n)
		for i := range xs {
			xs[i] = make([]float32, q.d)
			for j := range xs[i] {
				xs[i][j] = float32(rng.NormFloat64())
			}
			var err error
			if want[i], err = q.Predict(xs[i]); err != nil {
				t.Fatal(err)
			}
		}
		errs := make(chan error, 4)
		for g := range 4 {
			go func() {
				u := make([]uint8, q.d)
				for r := range 50 {
					i := (g + r) % n
					l, err := q.Predict(xs[i])
					if err == nil && l != want[i] {
						err = fmt.Errorf("row %d: %d, want %d", i, l, want[i])
					}
					if err == nil {
						sx, z, _ := QuantizeInput(u, xs[i])
						if l, err = q.PredictU8(u, sx, z); err == nil && l != want[i] {
							err = fmt.Errorf("row %d (bytes): %d, want %d", i, l, want[i])
						}
					}
					if err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
	}
}

// TestRescaleTiesAndNonFinite: equal best scores give the smaller label,
// on PredictU8 and PredictI8 alike and for every int8 implementation; a
// score float32 cannot hold is an error naming it even when it is neither
// the first score nor where the argmax stands, and Scores and Predict
// agree.
func TestRescaleTiesAndNonFinite(t *testing.T) {
	// n = 10: the 10-class model, which avx512vnni predicts in one fused
	// kernel call (modelkern.DotsU8I8RescaleArgmax); n = 4: the other path
	for _, n := range []int{4, 10} {
		// pad extends the first four per-class values with v
		pad := func(four []float32, v float32) []float32 {
			out := append([]float32(nil), four...)
			for len(out) < n {
				out = append(out, v)
			}
			return out
		}
		mk := func(scale, b []float32) *Model {
			labels := make([]int, n)
			w := make([]int8, 2*n)
			for k := range n {
				labels[k] = 10 * (k + 1)
				w[2*k] = 1
			}
			q := &Model{scheme: fit.OneVsRest, d: 2, labels: labels, bias: true,
				q: w, scale: pad(scale, 1), b: pad(b, 0)}
			q.prepare()
			return q
		}
		for _, v := range kerneltest.Int8Impls() {
			if !v.Available() {
				continue
			}
			// all the integer scores are u[0]; the biases decide: 1 and 2 tie
			tie := mk([]float32{1, 1, 1, 1}, []float32{0, 5, 5, 1}).OnInt8(v)
			if l, err := tie.PredictU8([]uint8{0, 9}, 1, 0); err != nil || l != 20 {
				t.Errorf("%s, %d classes: tie PredictU8 = %d, %v; want 20", v, n, l, err)
			}
			if l, err := tie.PredictU8([]uint8{7, 9}, 1, 7); err != nil || l != 20 {
				t.Errorf("%s, %d classes: tie PredictU8 with zero point = %d, %v; want 20", v, n, l, err)
			}
			if l, err := tie.PredictI8([]int8{0, -9}, 1); err != nil || l != 20 {
				t.Errorf("%s, %d classes: tie PredictI8 = %d, %v; want 20", v, n, l, err)
			}
			// score 2 overflows float32 (3e38·100·1), score 1 is the largest finite
			huge := mk([]float32{1, 2, 3e38, 1}, []float32{0, 0, 0, 0}).OnInt8(v)
			sc := make([]float32, n)
			for _, err := range []error{
				huge.ScoresU8(sc, []uint8{100, 0}, 1, 0),
				func() error { _, err := huge.PredictU8([]uint8{100, 0}, 1, 0); return err }(),
				func() error { _, err := huge.PredictI8([]int8{-100, 0}, 1); return err }(),
			} {
				if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "score 2 ") {
					t.Errorf("%s, %d classes: err = %v, want ErrNonFinite naming score 2", v, n, err)
				}
			}
			// without the overflow, Scores and Predict agree on the argmax
			ok := mk([]float32{1, 2, 3, 1}, []float32{0, 0, 0, 0}).OnInt8(v)
			if err := ok.ScoresU8(sc, []uint8{100, 0}, 1, 0); err != nil || sc[2] != 300 {
				t.Errorf("%s, %d classes: scores %v, %v", v, n, sc, err)
			}
			if l, err := ok.PredictU8([]uint8{100, 0}, 1, 0); err != nil || l != 30 {
				t.Errorf("%s, %d classes: PredictU8 = %d, %v; want 30", v, n, l, err)
			}
		}
	}
}
