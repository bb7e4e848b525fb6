package perceptron

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/stretchr/testify/require"
)

// testBiasFeature is the bias feature of the parity tests: a power of two,
// so that b = B·w_B and every step's B² are exact.
const testBiasFeature = 0.5

// withColumn returns the n rows of X (d values each) with one more column,
// of value v.
func withColumn(X []float64, d int, v float64) []float64 {
	n := len(X) / d
	out := make([]float64, 0, n*(d+1))
	for i := range n {
		out = append(append(out, X[i*d:(i+1)*d]...), v)
	}
	return out
}

// csrOf returns X as a CSR matrix.
func csrOf(t testing.TB, X []float64, d int, y []int) *dataset.CSR[float64] {
	t.Helper()
	c, err := dataset.FromDense(&dataset.Data[float64]{X: X, Y: y, Rows: len(y), Cols: d})
	require.NoError(t, err)
	return c
}

// TestBiasFeatureMatchesColumn trains every algorithm, strategy and
// sampling with BiasFeature B, and without a bias on the data with a
// constant column B appended: the two are the same perceptron, so on
// integer-valued data with B a power of two they make the same mistakes
// and give the same weights, with b = B·w_B, bit for bit — dense and
// sparse, with and without Normalize (which scales (x, B) and the
// appended row alike). Pegasos keeps ‖θ‖² as ‖v‖² + (vb/B)² where the
// column's fit sums it over d+1 values: its weights agree up to rounding.
// Updates on the trained models agree too.
func TestBiasFeatureMatchesColumn(t *testing.T) {
	const B, d = testBiasFeature, 12
	rng := newRand(43)
	Xb, yb, _, _ := separable(rng, 160, d, 3, 1, true)
	Xm, ym := intMulticlass(rng, 160, d, 4)
	for _, fc := range fitCases() {
		if fc.opt.NoBias {
			continue
		}
		for _, norm := range []bool{false, true} {
			for _, sparse := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/normalize=%v/sparse=%v", fc.name, norm, sparse), func(t *testing.T) {
					X, y := Xb, yb
					if fc.multi {
						X, y = Xm, ym
					}
					Xc := withColumn(X, d, B)
					withB, col := fc, fc
					withB.opt.BiasFeature, withB.opt.Normalize = B, norm
					col.opt.NoBias, col.opt.Normalize = true, norm
					ma, da, err := withB.fit(t, sparse, X, csrOf(t, X, d, y), d, y)
					require.NoError(t, err)
					mc, dc, err := col.fit(t, sparse, Xc, csrOf(t, Xc, d+1, y), d+1, y)
					require.NoError(t, err)
					require.Equal(t, B, ma.BiasFeature())
					exact := fc.opt.Algorithm != linear.SVM
					if exact {
						require.Equal(t, dc.Epochs, da.Epochs, "the epochs' mistakes and losses")
					}
					sameAsColumn(t, ma, mc, B, exact)
					require.InDelta(t, dc.RadiusAugmented, da.RadiusAugmented, 1e-12*dc.RadiusAugmented)
					if da.Evaluated && fc.opt.Multiclass != fit.Argmax && !fc.multi {
						require.InDelta(t, dc.MarginAugmented, da.MarginAugmented, 1e-9*(1+math.Abs(dc.MarginAugmented)))
					}
					scoreAlike(t, ma, mc, X, Xc, d)
					if fc.opt.Algorithm == linear.SVM || fc.opt.Algorithm == linear.Voted || ma.Steps() == 0 {
						return
					}
					// Update goes on alike: the step's b += η·y·B²·s (with
					// Normalize up to rounding: the kernels' Axpy may fuse
					// the weights' multiply-adds, the bias's is Go's).
					for i := range 10 {
						ca, erra := ma.Update(X[i*d:(i+1)*d], y[i])
						cc, errc := mc.Update(Xc[i*(d+1):(i+1)*(d+1)], y[i])
						require.NoError(t, erra)
						require.NoError(t, errc)
						require.Equal(t, cc, ca, "update %d changed the model", i)
					}
					sameAsColumn(t, ma, mc, B, !norm)
				})
			}
		}
	}
}

// scorer is a model that scores dense samples: Model or KernelModel.
type scorer interface {
	NumScores() int
	Scores(dst, x []float64) error
}

// scoreAlike checks that model a (bias feature B) scores the rows of X (d
// values each) as model c (no bias) scores the rows of Xc (the column B
// appended), up to rounding: the column's sums are ordered differently.
func scoreAlike(t *testing.T, a, c scorer, X, Xc []float64, d int) {
	t.Helper()
	sa, sc := make([]float64, a.NumScores()), make([]float64, c.NumScores())
	for i := range len(X) / d {
		require.NoError(t, a.Scores(sa, X[i*d:(i+1)*d]))
		require.NoError(t, c.Scores(sc, Xc[i*(d+1):(i+1)*(d+1)]))
		for k := range sa {
			require.InDelta(t, sc[k], sa[k], 1e-9*(1+math.Abs(sc[k])), "row %d score %d", i, k)
		}
	}
}

// sameAsColumn checks that model a (bias feature B) and model c (no bias,
// trained with a last column B) have the same weights, and a's biases are
// B times c's last weights: exactly, or up to rounding.
func sameAsColumn(t *testing.T, a, c *linear.Model[float64], B float64, exact bool) {
	t.Helper()
	near := func(want, got float64, what string, k, j int) {
		t.Helper()
		if exact && want != got || !exact && math.Abs(want-got) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("score %d %s %d: column fit %v, bias feature %v", k, what, j, want, got)
		}
	}
	d := a.Dims()
	require.Equal(t, d+1, c.Dims())
	for k := range a.NumScores() {
		if a.Algorithm() == linear.Voted {
			va, ba, na := a.Voted(k)
			vc, _, nc := c.Voted(k)
			require.Equal(t, nc, na, "score %d: survival counts", k)
			for j := range va {
				for i := range d {
					near(vc[j][i], va[j][i], "vector weight", k, j*d+i)
				}
				near(B*vc[j][d], ba[j], "vector bias", k, j)
			}
			continue
		}
		wa, ba := a.Weights(k)
		wc, bc := c.Weights(k)
		require.Zero(t, bc)
		for i := range d {
			near(wc[i], wa[i], "weight", k, i)
		}
		near(B*wc[d], ba, "bias", k, 0)
	}
}

// TestKernelBiasFeatureMatchesColumn is the parity for the kernel
// perceptrons with the linear kernel: a bias on the feature B is the
// column B appended to every row, whose kernel is x·x′ + B².
func TestKernelBiasFeatureMatchesColumn(t *testing.T) {
	const B, d = testBiasFeature, 8
	rng := newRand(44)
	Xb, yb, _, _ := separable(rng, 80, d, 3, 1, true)
	Xm, ym := intMulticlass(rng, 80, d, 3)
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted} {
		for _, strat := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
			if strat == fit.Argmax && algo == linear.Voted {
				continue
			}
			for _, multi := range []bool{false, true} {
				if strat == fit.Argmax && !multi {
					continue
				}
				for _, norm := range []bool{false, true} {
					t.Run(fmt.Sprintf("%v/%v/multi=%v/normalize=%v", algo, strat, multi, norm), func(t *testing.T) {
						X, y := Xb, yb
						train := trainKernelBinary[float64]
						if multi {
							X, y, train = Xm, ym, trainKernelMulti[float64]
						}
						base := Options{Algorithm: algo, Multiclass: strat, MaxIter: 4, Shuffle: true, Seed: 9, Stop: StopNever, Normalize: norm}
						oa, oc := base, base
						oa.BiasFeature = B
						oc.NoBias = true
						Xc := withColumn(X, d, B)
						ma, da, err := train(X, d, y, KernelOptions{Options: oa, Kernel: gram.Linear{}})
						require.NoError(t, err)
						mc, dc, err := train(Xc, d+1, y, KernelOptions{Options: oc, Kernel: gram.Linear{}})
						require.NoError(t, err)
						require.Equal(t, B, ma.BiasFeature())
						if norm { // the bias term's sums are ordered apart from the kernel's
							for e := range dc.Epochs {
								require.Equal(t, dc.Epochs[e].Mistakes, da.Epochs[e].Mistakes, "epoch %d's mistakes", e)
								require.InDelta(t, dc.Epochs[e].Loss, da.Epochs[e].Loss, 1e-12)
							}
						} else {
							require.Equal(t, dc.Epochs, da.Epochs, "the epochs' mistakes and losses")
						}
						require.InDelta(t, dc.RadiusAugmented, da.RadiusAugmented, 1e-12*dc.RadiusAugmented)
						scoreAlike(t, ma, mc, X, Xc, d)
					})
				}
			}
		}
	}
}

// TestBiasFeatureOptions checks the option's errors and continueDense's rule:
// BiasFeature 0 keeps the model's, another value is an error.
func TestBiasFeatureOptions(t *testing.T) {
	X, y, _, _ := separable(newRand(45), 40, 3, 3, 1, true)
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"negative", Options{BiasFeature: -1}},
		{"nan", Options{BiasFeature: math.NaN()}},
		{"inf", Options{BiasFeature: math.Inf(1)}},
		{"nobias", Options{BiasFeature: 2, NoBias: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := trainBinary(X, 3, y, tc.opt)
			require.ErrorIs(t, err, ErrOption)
			_, _, err = trainKernelBinary(X, 3, y, KernelOptions{Options: tc.opt})
			require.ErrorIs(t, err, ErrOption)
		})
	}
	// B² must be finite and nonzero in the element type.
	X32 := to32(X)
	for _, b := range []float64{1e20, 1e-23} {
		_, _, err := trainBinary(X32, 3, y, Options{BiasFeature: b})
		require.ErrorIs(t, err, ErrOption, "float32, B = %v", b)
		_, _, err = trainBinary(X, 3, y, Options{BiasFeature: b})
		require.NoError(t, err, "float64, B = %v", b)
	}

	m, _, err := trainBinary(X, 3, y, Options{Algorithm: linear.Averaged, BiasFeature: 0.25, MaxIter: 2})
	require.NoError(t, err)
	m1, _, err := trainBinary(X, 3, y, Options{Algorithm: linear.Averaged, MaxIter: 2})
	require.NoError(t, err)
	require.Equal(t, 1.0, m1.BiasFeature())
	m0, _, err := trainBinary(X, 3, y, Options{Algorithm: linear.Averaged, MaxIter: 2, NoBias: true})
	require.NoError(t, err)
	require.Equal(t, 0.0, m0.BiasFeature())

	// continueDense keeps the model's B: two epochs and a continueDense of one more
	// give three epochs' model.
	m3, _, err := trainBinary(X, 3, y, Options{Algorithm: linear.Averaged, BiasFeature: 0.25, MaxIter: 3, Stop: StopNever})
	require.NoError(t, err)
	m2, _, err := trainBinary(X, 3, y, Options{Algorithm: linear.Averaged, BiasFeature: 0.25, MaxIter: 2, Stop: StopNever})
	require.NoError(t, err)
	mc, _, err := continueDense(m2, X, 3, y, Options{Algorithm: linear.Averaged, MaxIter: 1, Stop: StopNever})
	require.NoError(t, err)
	require.Equal(t, 0.25, mc.BiasFeature())
	require.True(t, sameModel(t, m3, mc), "continueDense with the model's bias feature")
	_, _, err = continueDense(m, X, 3, y, Options{Algorithm: linear.Averaged, BiasFeature: 1})
	require.ErrorIs(t, err, ErrOption)
	_, _, err = continueDense(m1, X, 3, y, Options{Algorithm: linear.Averaged, BiasFeature: 0.25})
	require.ErrorIs(t, err, ErrOption)
}

// TestBiasFeatureFiles round-trips models with B ≠ 1 through both file
// forms (version 3, B kept), checks that B = 1 is still written as
// version 2, and that bad bias-feature fields are errors.
func TestBiasFeatureFiles(t *testing.T) {
	const d = 6
	rng := newRand(46)
	X, y, _, _ := separable(rng, 60, d, 3, 1, true)
	Xm, ym := intMulticlass(rng, 60, d, 3)
	models := map[string]*linear.Model[float32]{}
	for _, tc := range []struct {
		name  string
		multi bool
		opt   Options
	}{
		{"binary-averaged-normalize", false, Options{Algorithm: linear.Averaged, Normalize: true}},
		{"ovr-voted", true, Options{Algorithm: linear.Voted}},
		{"binary-svm", false, Options{Algorithm: linear.SVM}},
		{"argmax", true, Options{Multiclass: fit.Argmax}},
	} {
		tc.opt.BiasFeature, tc.opt.MaxIter = 0.1, 3
		var m *linear.Model[float32]
		var err error
		if tc.multi {
			m, _, err = trainMulti(to32(Xm), d, ym, tc.opt)
		} else {
			m, _, err = trainBinary(to32(X), d, y, tc.opt)
		}
		require.NoError(t, err, tc.name)
		models[tc.name] = m
	}
	for name, m := range models {
		t.Run(name, func(t *testing.T) {
			b := mustMarshal(t, m)
			info, err := Inspect(b)
			require.NoError(t, err)
			require.Equal(t, 3, info.Version)
			var r linear.Model[float32]
			require.NoError(t, r.UnmarshalBinary(b))
			require.Equal(t, 0.1, r.BiasFeature())
			require.True(t, sameModel(t, m, &r))
			j, err := m.MarshalJSON()
			require.NoError(t, err)
			var rj linear.Model[float32]
			require.NoError(t, rj.UnmarshalJSON(j))
			require.Equal(t, 0.1, rj.BiasFeature())
			require.True(t, sameModel(t, m, &rj))
			size, _, err := EncodedSize(b[:headerSize])
			require.NoError(t, err)
			require.Equal(t, int64(len(b)), size)
		})
	}
	plain, _, err := trainBinary(to32(X), d, y, Options{Algorithm: linear.Averaged, MaxIter: 2})
	require.NoError(t, err)
	info, err := Inspect(mustMarshal(t, plain))
	require.NoError(t, err)
	require.Equal(t, 2, info.Version, "a model with B = 1 stays version 2")

	// Bad fields, behind a valid checksum.
	bin := mustMarshal(t, models["binary-averaged-normalize"])
	at := headerSize + 8*2 // B, after the two labels
	putB := func(v float64) func(b []byte) {
		return func(b []byte) { binary.LittleEndian.PutUint64(b[at:], math.Float64bits(v)) }
	}
	for _, tc := range []struct {
		name string
		edit func(b []byte)
		want error
	}{
		{"negative", putB(-0.1), linear.ErrCorrupt},
		{"one", putB(1), linear.ErrCorrupt},
		{"zero", putB(0), linear.ErrCorrupt},
		{"nan", putB(math.NaN()), linear.ErrCorrupt},
		{"inf", putB(math.Inf(1)), linear.ErrCorrupt},
		{"square-overflows-float32", putB(1e20), linear.ErrCorrupt},
		{"no-bias", func(b []byte) { b[13] &^= flagBias }, linear.ErrCorrupt},
		{"version-2-flag", func(b []byte) { b[8] = 2 }, linear.ErrCorrupt},
		{"version-3-no-flag", func(b []byte) { b[13] &^= flagBiasFeat }, linear.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte(string(bin))
			tc.edit(b)
			reseal(b)
			var m linear.Model[float32]
			err := m.UnmarshalBinary(b)
			require.ErrorIs(t, err, tc.want)
		})
	}
}

// TestBiasFeatureJSONErrors: the JSON documents' bias feature is checked
// as the binary files' is.
func TestBiasFeatureJSONErrors(t *testing.T) {
	X, y, _, _ := separable(newRand(48), 40, 4, 3, 1, true)
	m, _, err := trainBinary(X, 4, y, Options{BiasFeature: 0.5, MaxIter: 2})
	require.NoError(t, err)
	j, err := m.MarshalJSON()
	require.NoError(t, err)
	edit := func(f func(map[string]any)) []byte {
		var v map[string]any
		require.NoError(t, json.Unmarshal(j, &v))
		f(v)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return b
	}
	for _, tc := range []struct {
		name string
		doc  []byte
		want error
	}{
		{"version-2-with-B", edit(func(v map[string]any) { v["version"] = 2 }), linear.ErrCorrupt},
		{"version-3-without-B", edit(func(v map[string]any) { delete(v, "bias_feature") }), linear.ErrCorrupt},
		{"one", edit(func(v map[string]any) { v["bias_feature"] = 1 }), linear.ErrCorrupt},
		{"negative", edit(func(v map[string]any) { v["bias_feature"] = -0.5 }), linear.ErrCorrupt},
		{"no-bias", edit(func(v map[string]any) { v["bias"] = false }), linear.ErrCorrupt},
		{"version-4", edit(func(v map[string]any) { v["version"] = 4 }), linear.ErrVersion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r linear.Model[float64]
			require.ErrorIs(t, r.UnmarshalJSON(tc.doc), tc.want)
			var k expansion.Model[float64]
			require.Error(t, k.UnmarshalJSON(tc.doc))
		})
	}
	var r linear.Model[float64]
	require.NoError(t, r.UnmarshalJSON(edit(func(map[string]any) {})), "the document as written")
}

// TestKernelBiasFeatureFiles round-trips a kernel model with B ≠ 1.
func TestKernelBiasFeatureFiles(t *testing.T) {
	const d = 5
	X, y, _, _ := separable(newRand(47), 50, d, 3, 1, true)
	for _, tc := range []struct {
		sparse bool
		algo   linear.Algorithm
	}{{false, linear.Averaged}, {true, linear.Averaged}, {false, linear.Voted}, {true, linear.Voted}} {
		sparse := tc.sparse
		t.Run(fmt.Sprintf("sparse=%v/%v", sparse, tc.algo), func(t *testing.T) {
			o := KernelOptions{Options: Options{Algorithm: tc.algo, BiasFeature: 0.1, MaxIter: 3, Normalize: true}, Kernel: gram.RBF{Gamma: 0.5}}
			var m *expansion.Model[float64]
			var err error
			if sparse {
				m, _, err = trainKernelBinarySparse(csrOf(t, X, d, y), y, o)
			} else {
				m, _, err = trainKernelBinary(X, d, y, o)
			}
			require.NoError(t, err)
			b, err := m.MarshalBinary()
			require.NoError(t, err)
			require.Equal(t, uint16(3), binary.LittleEndian.Uint16(b[8:]))
			var r expansion.Model[float64]
			require.NoError(t, r.UnmarshalBinary(b))
			require.Equal(t, 0.1, r.BiasFeature())
			j, err := m.MarshalJSON()
			require.NoError(t, err)
			var rj expansion.Model[float64]
			require.NoError(t, rj.UnmarshalJSON(j))
			require.Equal(t, 0.1, rj.BiasFeature())
			// EncodedSize from the header, asking for more bytes as it
			// needs them (a voted model's counts follow the support
			// vectors, 8 bytes later with B).
			size, need, err := EncodedSize(b[:headerSize])
			for err == nil && size == 0 {
				require.Greater(t, need, int64(headerSize))
				require.LessOrEqual(t, need, int64(len(b)))
				size, need, err = EncodedSize(b[:need])
			}
			require.NoError(t, err)
			require.Equal(t, int64(len(b)), size)
			sa, sr, sj := make([]float64, 1), make([]float64, 1), make([]float64, 1)
			for i := range y {
				x := X[i*d : (i+1)*d]
				require.NoError(t, m.Scores(sa, x))
				require.NoError(t, r.Scores(sr, x))
				require.NoError(t, rj.Scores(sj, x))
				require.Equal(t, sa, sr)
				require.Equal(t, sa, sj)
			}
			bad := []byte(string(b))
			binary.LittleEndian.PutUint64(bad[headerSize+16:], math.Float64bits(-1))
			require.ErrorIs(t, r.UnmarshalBinary(reseal(bad)), kernelErr(linear.ErrCorrupt))
		})
	}
}
