package modelkern_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestDotsU8I8RescaleArgmax checks every int8 implementation's fused
// prediction against DotsU8I8, the zero point's correction and
// RescaleArgmax run one after the other, bit for bit (dst, best, finite),
// for 1..12 rows at d from 0 to 1000 (the 10-row block's whole 128- and
// 64-byte steps and masked tail, 767, 768, 784): rows repeated (equal
// scores: the tie to the smaller index), ±0 scores, all negative, the
// maximum at rows 8, 9 alone or tied, scores of a few values (±0 among
// them) tied at random rows, sums that wrap int32 under the zero point, scores beyond float32 (±Inf at
// any row) and random ones. It also checks that the fused path runs where
// it is documented to (10 rows where RescaleAsm) and nowhere else, and
// that Fused10.Predict on the same rows (where Fused10 is ready: also
// avxvnni, whose tail of d mod 32 bytes and short samples, d < 32, the
// lengths around 32 and 96 cover, and avx2, whose tail is d mod 16 bytes
// and short samples d < 16) gives the same, bit for bit, and
// Fused10.PredictI8 on the sample's bytes read as signed what DotsI8 and
// RescaleArgmax give.
func TestDotsU8I8RescaleArgmax(t *testing.T) {
	for _, v := range kerneltest.AvailableInt8() {
		t.Run(v.Name(), func(t *testing.T) {
			k := modelkern.OnInt8(v)
			rng := rand.New(rand.NewPCG(31, 32))
			for n := 1; n <= 12; n++ {
				for _, d := range []int{0, 1, 3, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 95, 96, 97, 127, 128, 129, 191, 255, 767, 768, 784, 1000} {
					for trial := range 16 {
						W, x := make([]int8, n*d), make([]uint8, d)
						sum, s, b := make([]int32, n), make([]float64, n), make([]float64, n)
						sx := float64(float32(rng.Float64()*2 + 1e-3))
						z := uint8(rng.IntN(256))
						for i := range x {
							x[i] = uint8(rng.Uint32())
						}
						for i := range W {
							W[i] = int8(rng.Uint32())
						}
						for r := range n {
							s[r] = float64(float32(rng.Float64() * 1e-3))
							b[r] = float64(float32(rng.NormFloat64()))
							sum[r] = int32(rng.Uint32()) // any: the wrap of z·sum
						}
						switch trial % 8 {
						case 0: // ties: every row a copy of row 0, the same s, b, sum
							for r := 1; r < n; r++ {
								copy(W[r*d:(r+1)*d], W[:d])
								s[r], b[r], sum[r] = s[0], b[0], sum[0]
							}
						case 1: // ±0: zero scale products, b ±0
							for r := range n {
								s[r], b[r] = 0, []float64{0, math.Copysign(0, -1)}[rng.IntN(2)]
							}
						case 2: // all negative
							for r := range n {
								b[r] = -100 - rng.Float64()
							}
						case 3: // beyond float32 at a random row (±Inf)
							s[rng.IntN(n)] = 1e300
						case 4: // no zero point
							z = 0
						case 5: // the maximum at rows 8, 9 alone, or tied between them
							for r := range n {
								s[r], b[r] = 0, -1
							}
							for _, r := range []int{8, 9}[:1+rng.IntN(2)] {
								if r < n {
									b[r] = 1
								}
							}
						case 6, 7: // scores of a few values, ±0 among them: ties at random rows
							for r := range n {
								s[r] = 0
								b[r] = []float64{-1, math.Copysign(0, -1), 0, 0.5}[rng.IntN(4-(trial%8-6))]
							}
						}
						acc := make([]int32, n)
						want := make([]float32, n)
						k.DotsU8I8(acc, W, x)
						for r := range acc {
							acc[r] -= int32(z) * sum[r]
						}
						wb, wf := k.RescaleArgmax(want, acc, s, b, sx)
						got := make([]float32, n)
						for i := range got {
							got[i] = 12345 // to see that ok = false leaves dst alone
						}
						gb, gf, ok := k.DotsU8I8RescaleArgmax(got, W, x, sum, z, s, b, sx)
						if wantOK := k.RescaleAsm() && n == 10; ok != wantOK {
							t.Fatalf("n=%d d=%d: ok = %v, want %v", n, d, ok, wantOK)
						}
						if !ok {
							for i, g := range got {
								if g != 12345 {
									t.Fatalf("n=%d d=%d: ok = false but dst[%d] written", n, d, i)
								}
							}
						} else {
							if gb != wb || gf != wf {
								t.Fatalf("n=%d d=%d trial %d: (%d, %v), want (%d, %v); acc %v", n, d, trial, gb, gf, wb, wf, acc)
							}
							for i := range got {
								if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
									t.Fatalf("n=%d d=%d trial %d: dst[%d] = %v, want %v", n, d, trial, i, got[i], want[i])
								}
							}
						}
						if n != 10 || !fused10Has(v) {
							continue
						}
						// the same rows made ready once: Fused10.Predict
						f, fok := k.Fused10(W, sum, s, b)
						if !fok {
							t.Fatalf("n=%d d=%d: Fused10 not ok", n, d)
						}
						var out [10]float32
						if pb, pf := f.Predict(&out, x, z, sx); pb != wb || pf != wf {
							t.Fatalf("n=%d d=%d trial %d: Predict (%d, %v), want (%d, %v)", n, d, trial, pb, pf, wb, wf)
						}
						for i := range out {
							if math.Float32bits(out[i]) != math.Float32bits(want[i]) {
								t.Fatalf("n=%d d=%d trial %d: Predict dst[%d] = %v, want %v", n, d, trial, i, out[i], want[i])
							}
						}
						// PredictI8 on x's bytes read as signed: DotsI8 then
						// RescaleArgmax
						v := make([]int8, d)
						for i := range v {
							v[i] = int8(x[i])
						}
						k.DotsI8(acc, W, v)
						wb, wf = k.RescaleArgmax(want, acc, s, b, sx)
						if pb, pf := f.PredictI8(&out, v, sx); pb != wb || pf != wf {
							t.Fatalf("n=%d d=%d trial %d: PredictI8 (%d, %v), want (%d, %v)", n, d, trial, pb, pf, wb, wf)
						}
						for i := range out {
							if math.Float32bits(out[i]) != math.Float32bits(want[i]) {
								t.Fatalf("n=%d d=%d trial %d: PredictI8 dst[%d] = %v, want %v", n, d, trial, i, out[i], want[i])
							}
						}
					}
				}
			}
		})
	}
}

// TestFused10 checks where Fused10 is ready (the implementations whose
// RescaleAsm is true, and avxvnni) and its panics: lengths other than 10 or a W not of
// 10 rows, Predict on a Fused10 not ready (the zero value, or ok = false)
// or with a sample of another length.
func TestFused10(t *testing.T) {
	f64 := make([]float64, 10)
	sum := make([]int32, 10)
	W := make([]int8, 10*5)
	var out [10]float32
	panics := func(name string, call func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		call()
	}
	for _, v := range kerneltest.AvailableInt8() {
		k := modelkern.OnInt8(v)
		f, ok := k.Fused10(W, sum, f64, f64)
		if ok != fused10Has(v) {
			t.Fatalf("%s: Fused10 ok = %v, RescaleAsm %v", v.Name(), ok, k.RescaleAsm())
		}
		if ok {
			f.Predict(&out, make([]uint8, 5), 0, 1) // the right length: no panic
			panics(v.Name()+" Predict len(x) 4", func() { f.Predict(&out, make([]uint8, 4), 0, 1) })
			panics(v.Name()+" Predict len(x) 6", func() { f.Predict(&out, make([]uint8, 6), 0, 1) })
			f.PredictI8(&out, make([]int8, 5), 1)
			panics(v.Name()+" PredictI8 len(v) 4", func() { f.PredictI8(&out, make([]int8, 4), 1) })
		} else {
			panics(v.Name()+" Predict not ready", func() { f.Predict(&out, make([]uint8, 5), 0, 1) })
			panics(v.Name()+" PredictI8 not ready", func() { f.PredictI8(&out, make([]int8, 5), 1) })
		}
		panics(v.Name()+" sum", func() { k.Fused10(W, sum[:9], f64, f64) })
		panics(v.Name()+" s", func() { k.Fused10(W, sum, f64[:9], f64) })
		panics(v.Name()+" b", func() { k.Fused10(W, sum, f64, make([]float64, 11)) })
		panics(v.Name()+" W", func() { k.Fused10(W[:49], sum, f64, f64) })
	}
	var zero modelkern.Fused10
	panics("zero value, empty x", func() { zero.Predict(&out, nil, 0, 1) })
	panics("zero value", func() { zero.Predict(&out, make([]uint8, 5), 0, 1) })
	panics("zero value, PredictI8", func() { zero.PredictI8(&out, nil, 1) })
}

// TestDotsU8I8RescaleArgmaxLengths checks the panics on mismatched
// lengths.
func TestDotsU8I8RescaleArgmaxLengths(t *testing.T) {
	k := modelkern.OnInt8(kerneltest.AvailableInt8()[0])
	f := make([]float64, 10)
	for name, call := range map[string]func(){
		"sum": func() {
			k.DotsU8I8RescaleArgmax(make([]float32, 10), make([]int8, 10), make([]uint8, 1), make([]int32, 9), 0, f, f, 1)
		},
		"W": func() {
			k.DotsU8I8RescaleArgmax(make([]float32, 10), make([]int8, 11), make([]uint8, 1), make([]int32, 10), 0, f, f, 1)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			call()
		}()
	}
}

// fused10Has reports whether Fused10 is documented to be ready on v: the
// implementations whose RescaleAsm is true, avxvnni (amd64's assembly,
// AVX2 and AVX-VNNI alone) and avx2 (AVX2 alone, on rows widened to int16).
func fused10Has(v *kernel.Int8Impl) bool {
	return modelkern.OnInt8(v).RescaleAsm() || v.Name() == "avxvnni" || v.Name() == "avx2"
}
