// Package quant serves linear perceptron models with 8-bit integer
// arithmetic: a Model is made from any trained linear (not kernel)
// linear.Model, binary or multiclass, and scores samples with
// the int8 kernels of package kernel (VPDPBUSD on AVX512-VNNI and
// AVX-VNNI, VPMADDWD on AVX2, SDOT/UDOT on arm64).
//
// # Quantisation
//
// Each score row k of the float model (its weights w_k and bias b_k) is
// quantised symmetrically with its own scale:
//
//	s_k = max|w_k[i]| / 127,   q_k[i] = round(w_k[i] / s_k) ∈ [−127, 127]
//
// (a row of zeros gets s_k = 1). The biases stay in float32. A sample is
// given in one of three forms:
//
//   - float32 values (Predict, Scores): quantised per vector to unsigned
//     bytes with a scale and a zero point (QuantizeInput), so that
//     x[i] ≈ sx·(u[i] − z);
//   - unsigned bytes with their scale and zero point (PredictU8,
//     ScoresU8), such as image pixels: a model trained on pixel/255 takes
//     the pixels with sx = 1/255 and z = 0;
//   - signed bytes with their scale (PredictI8, ScoresI8), x[i] ≈ sx·v[i],
//     such as int8 embeddings.
//
// # Exactness
//
// The dot product of the quantised weights and the quantised sample is
// computed exactly in int32 (the kernel's value, minus z·Σ_i q_k[i] for a
// zero point, with two's-complement arithmetic that is exact because the
// result fits: D ≤ MaxDims), identical on every implementation. The score
// is then the float model's formula applied to the dequantised weights and
// sample, evaluated in float64 and rounded once to float32:
//
//	score_k = s_k·sx·acc_k·mul + b_k·bmul
//
// with (mul, bmul) = (1, 1) for an unscaled model, (f, f), f = 1/‖(x̂, 1)‖
// (1/‖x̂‖ without a bias), for linear.ScaleAugmented, and (1/‖x̂‖, 1)
// for linear.ScaleFeatures, x̂ the dequantised sample (its norm
// computed exactly from the integers). Predict returns the label of the
// highest score (ties to the smaller label), or for a binary model +1 when
// the score is > 0.
//
// # Files
//
// MarshalBinary writes the model in the module's model-file envelope
// (package internal/modelfile) with kinds of its own (49 binary, 50
// one-vs-rest, 51 argmax) and a body of its own format version; see
// MarshalBinary.
package quant

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// MaxDims is the most features a quantised model has: every dot product of
// 127·255-bounded terms then fits in an int32, so the integer scores are
// exact.
const MaxDims = math.MaxInt32 / (127 * 255)

// Model is a quantised linear model. It is immutable and safe for
// concurrent use; Predict, PredictU8 and PredictI8 allocate nothing (up to
// 16 weight vectors their integer scores live on the stack; beyond, and
// for the float32 form's bytes, they borrow a scratch buffer from a pool).
type Model struct {
	scheme  fit.Scheme       // the source model's: binary, one-vs-rest or argmax
	algo    linear.Algorithm // 0 for a linear SVM
	svm     bool             // the source is a linear SVM (linear.DualCD)
	d       int
	labels  []int // binary: {−1, +1} for a perceptron's, a linear SVM's two
	bias    bool
	scaling linear.Scaling
	q       []int8    // rows×d quantised weights, row-major (voted: one row per vector)
	scale   []float32 // per row, finite and > 0
	b       []float32 // per row, finite
	rs, rb  []float64 // per row, scale and b in float64 (for rescale)
	sum     []int32   // per row, Σ q (for the zero point)
	// A voted model's vectors: score k's are rows voff[k] to voff[k+1]−1,
	// row j with survival count vc[j] > 0. nil for the other algorithms.
	voff []int
	vc   []int64
	k    modelkern.Int8Kernels
	// f10 is the rows made ready for k's fused prediction, where f10ok
	// (see setKernels)
	f10   modelkern.Fused10
	f10ok bool
	pool  sync.Pool // *scratch of this model's sizes
}

// expMask is float32's exponent bits: all are set in ±Inf and NaN alone.
const expMask = 0x7f800000

// scratch is the per-call memory of the float32 and many-class paths.
type scratch struct {
	u   []uint8
	acc []int32
	sc  []float32 // the float scores, for Predict
}

// Linear is a trained linear model: New quantises a *linear.Model or
// a linear SVM's (svm.FitLinear's), of float32 or float64.
type Linear interface {
	Dims() int
	Classes() []int
	NumScores() int
}

// New quantises a trained linear model: a linear.Model (binary,
// one-vs-rest or argmax, of any algorithm, the linear SVM's of
// svm.FitLinear included), of float32 or float64. A
// voted model's vectors are quantised each with its own scale, and its
// score stays the vote Σ c_j·sign(score_j). Errors wrap ErrUnsupported
// (another model type, more than MaxDims features, weights or biases
// beyond float32's range, a Normalize model whose bias feature is not 1)
// or linear.ErrUntrained.
func New(m Linear) (*Model, error) {
	// modelreg.ElemOf recognises the two models without this package
	// naming them, which would compile their methods here again.
	switch modelreg.ElemOf(modelreg.Linear, m) {
	case 4:
		return from(m.(source[float32]))
	case 8:
		return from(m.(source[float64]))
	}
	return nil, fmt.Errorf("%w: a %T is not a linear model of this module", ErrUnsupported, m)
}

// source is what New reads of a *linear.Model[T].
type source[T kernel.Float] interface {
	Linear
	Scheme() fit.Scheme
	Algorithm() linear.Algorithm
	Scaling() linear.Scaling
	HasBias() bool
	BiasFeature() float64
	Weights(k int) ([]T, T)
	Voted(k int) (vectors [][]T, biases []T, counts []int64)
}

func from[T kernel.Float](m source[T]) (*Model, error) {
	if m.Algorithm() == linear.DualCD {
		return fromSVM(m)
	}
	return fromPerceptron(m)
}

// fromSVM quantises a linear SVM: its weights and biases, as a one-vs-rest
// model's (the largest score wins) or a binary one's (a positive score
// predicts the larger label).
func fromSVM[T kernel.Float](m source[T]) (*Model, error) {
	if m.Dims() > MaxDims {
		return nil, fmt.Errorf("%w: %d features, more than the %d whose int32 sums are exact", ErrUnsupported, m.Dims(), MaxDims)
	}
	q := &Model{scheme: m.Scheme(), svm: true, d: m.Dims(), labels: m.Classes(), bias: true}
	for k := range m.NumScores() {
		w, b := m.Weights(k)
		if err := add(q, w, b); err != nil {
			return nil, err
		}
	}
	q.prepare()
	return q, nil
}

// fromPerceptron quantises a perceptron model.
func fromPerceptron[T kernel.Float](m source[T]) (*Model, error) {
	scheme := m.Scheme()
	if scheme == fit.Auto {
		return nil, fmt.Errorf("quant: %w", linear.ErrUntrained)
	}
	d := m.Dims()
	if B := m.BiasFeature(); m.Scaling() == linear.ScaleAugmented && m.HasBias() && B != 1 {
		// B enters the scaling 1/‖(x, B)‖, which the quantised file
		// does not record; without Normalize it only shaped training.
		return nil, fmt.Errorf("%w: a normalised model with the bias feature B = %v (quantised models scale by ‖(x, 1)‖)", ErrUnsupported, B)
	}
	if d > MaxDims {
		return nil, fmt.Errorf("%w: %d features, more than the %d whose int32 sums are exact", ErrUnsupported, d, MaxDims)
	}
	q := &Model{scheme: scheme, algo: m.Algorithm(), d: d, labels: m.Classes(), bias: m.HasBias(), scaling: m.Scaling()}
	voted := q.algo == linear.Voted
	if voted {
		q.voff = []int{0}
	}
	for k := range m.NumScores() {
		if voted {
			vs, bs, cs := m.Voted(k)
			for i, w := range vs {
				if err := add(q, w, bs[i]); err != nil {
					return nil, err
				}
			}
			q.vc = append(q.vc, cs...)
			q.voff = append(q.voff, len(q.scale))
			continue
		}
		w, b := m.Weights(k)
		if err := add(q, w, b); err != nil {
			return nil, err
		}
	}
	q.prepare()
	return q, nil
}

// add quantises one weight vector and its bias.
func add[T kernel.Float](q *Model, w []T, b T) error {
	j := len(q.scale)
	q.q = append(q.q, make([]int8, q.d)...)
	s, err := quantizeRow(q.q[j*q.d:], w)
	if err != nil {
		return fmt.Errorf("%w: weight vector %d: %v", ErrUnsupported, j, err)
	}
	fb := float32(b)
	if math.IsInf(float64(fb), 0) {
		return fmt.Errorf("%w: bias %d (%v) beyond float32's range", ErrUnsupported, j, b)
	}
	q.scale, q.b = append(q.scale, s), append(q.b, fb)
	return nil
}

// quantizeRow sets dst to the symmetric int8 quantisation of w and returns
// its scale.
func quantizeRow[T kernel.Float](dst []int8, w []T) (float32, error) {
	amax := 0.0
	for _, v := range w {
		amax = max(amax, math.Abs(float64(v)))
	}
	if amax == 0 {
		clear(dst)
		return 1, nil
	}
	s := float32(amax / 127)
	switch {
	case math.IsInf(float64(s), 0):
		return 0, fmt.Errorf("weights up to %v, beyond float32's range", amax)
	case s == 0:
		s = math.SmallestNonzeroFloat32
	}
	inv := 1 / float64(s)
	for i, v := range w {
		dst[i] = int8(min(max(math.Round(float64(v)*inv), -127), 127))
	}
	return s, nil
}

// prepare computes the row sums and resolves the kernels of a model whose
// fields are set.
func (q *Model) prepare() {
	rows := len(q.scale)
	q.sum = make([]int32, rows)
	q.rs, q.rb = make([]float64, rows), make([]float64, rows)
	for k := range rows {
		q.rs[k], q.rb[k] = float64(q.scale[k]), float64(q.b[k])
	}
	for k := range rows {
		var s int32
		for _, v := range q.q[k*q.d : (k+1)*q.d] {
			s += int32(v)
		}
		q.sum[k] = s
	}
	q.setKernels(modelkern.OnInt8(kernel.ActiveImpl().Int8()))
	d := q.d
	q.pool.New = func() any { return &scratch{u: make([]uint8, d), acc: make([]int32, rows), sc: make([]float32, rows)} }
}

// OnInt8 returns a model with q's weights (shared, both immutable) that
// scores with the int8 implementation v instead of kernel.ActiveImpl().Int8(), so
// that tests and benchmarks run every implementation in one process. It
// panics if v is not available on this CPU (see kernel.Int8Impl.Kernels).
func (q *Model) OnInt8(v *kernel.Int8Impl) *Model {
	r := &Model{scheme: q.scheme, algo: q.algo, svm: q.svm, d: q.d, labels: q.labels, bias: q.bias, scaling: q.scaling,
		q: q.q, scale: q.scale, b: q.b, voff: q.voff, vc: q.vc}
	r.prepare()
	r.setKernels(modelkern.OnInt8(v))
	return r
}

// setKernels makes k q's int8 kernels and, if q is the 10-class model of
// an unscaled one-vs-rest and k has the fused prediction (avx512vnni,
// avxvnni and avx2: where modelkern.Int8Kernels.Fused10 is ready), readies q's rows for it: its sums and scores
// are bit for bit those of accU8 (or DotsI8) and rescale (the call is not
// tried elsewhere: measured 8 ns).
func (q *Model) setKernels(k modelkern.Int8Kernels) {
	q.k = k
	q.f10, q.f10ok = modelkern.Fused10{}, false
	if len(q.sum) == 10 && q.scaling == linear.ScaleNone && q.voff == nil {
		q.f10, q.f10ok = k.Fused10(q.q, q.sum, q.rs, q.rb)
	}
}

// Scheme returns the scheme of the model it was made from: fit.Binary,
// fit.OneVsRest or fit.Argmax.
func (q *Model) Scheme() fit.Scheme { return q.scheme }

// Algorithm returns the perceptron algorithm that trained the model it was
// made from (Online, 0, for a linear SVM's, whose String says so).
func (q *Model) Algorithm() linear.Algorithm { return q.algo }

// Dims returns the number of features a sample must have.
func (q *Model) Dims() int { return q.d }

// Classes returns the labels the model predicts, sorted ({−1, +1} for a
// binary model). It returns a copy.
func (q *Model) Classes() []int { return slices.Clone(q.labels) }

// NumScores returns the number of decision values Scores writes: 1 for a
// binary model, the number of classes otherwise.
func (q *Model) NumScores() int {
	if q.voff != nil {
		return len(q.voff) - 1
	}
	return len(q.scale)
}

// HasBias reports whether the model has a bias term.
func (q *Model) HasBias() bool { return q.bias }

// BiasFeature returns 1 for a model with a bias, 0 without: the bias
// feature of its scaling (see linear.Model.BiasFeature). A model
// trained with another B scores alike once trained, unless normalised,
// which New refuses.
func (q *Model) BiasFeature() float64 {
	if q.bias {
		return 1
	}
	return 0
}

// Scaling returns the transform the model applies to a sample before
// scoring it (the source model's).
func (q *Model) Scaling() linear.Scaling { return q.scaling }

// Weights returns a copy of the quantised weights of row k and their
// scale: row k of the float model is approximately scale·w (for a voted
// model, vector k, in the order of the float model's Voted(0), Voted(1),
// …). It returns nil for an out-of-range k.
func (q *Model) Weights(k int) (w []int8, scale float32, bias float32) {
	if k < 0 || k >= len(q.scale) {
		return nil, 0, 0
	}
	return slices.Clone(q.q[k*q.d : (k+1)*q.d]), q.scale[k], q.b[k]
}

func (q *Model) checkLen(n int) error {
	if n == q.d { // small enough to inline
		return nil
	}
	return q.lenError(n)
}

// lenError is checkLen's error, out of line.
func (q *Model) lenError(n int) error {
	return fmt.Errorf("%w: sample has %d features, the model %d", ErrDims, n, q.d)
}

// checkScale checks a caller's input scale.
func checkScale(sx float32) error {
	if sx > 0 && sx <= math.MaxFloat32 { // small enough to inline
		return nil
	}
	return scaleError(sx)
}

// scaleError is checkScale's error, out of line.
func scaleError(sx float32) error {
	return fmt.Errorf("%w: input scale %v (want finite and > 0)", ErrScale, sx)
}

// accU8 sets acc to the exact integer scores of the unsigned sample u with
// zero point z.
func (q *Model) accU8(acc []int32, u []uint8, z uint8) {
	q.k.DotsU8I8(acc, q.q, u)
	if z != 0 {
		for k := range acc {
			acc[k] -= int32(z) * q.sum[k]
		}
	}
}

// factors returns the (mul, bmul) of the model's scaling for a sample
// whose dequantised squared norm is sx²·sq.
func (q *Model) factors(sx float64, sq int64) (mul, bmul float64) {
	switch q.scaling {
	case linear.ScaleAugmented:
		n2 := sx * sx * float64(sq)
		f := 1.0
		switch {
		case q.bias:
			f = 1 / math.Sqrt(n2+1)
		case n2 > 0:
			f = 1 / math.Sqrt(n2)
		}
		return f, f
	case linear.ScaleFeatures:
		if sq > 0 {
			return 1 / (sx * math.Sqrt(float64(sq))), 1
		}
	}
	return 1, 1
}

// sqU8 returns Σ (u[i] − z)², exactly.
func sqU8(u []uint8, z uint8) int64 {
	var s int64
	for _, v := range u {
		t := int64(v) - int64(z)
		s += t * t
	}
	return s
}

// sqI8 returns Σ v[i]², exactly.
func sqI8(v []int8) int64 {
	var s int64
	for _, x := range v {
		s += int64(x) * int64(x)
	}
	return s
}

// rescale writes the float scores of the integer scores acc to dst (which
// may be nil: then only the decision is made, with the scores in tmp, of
// len(acc)) and returns the label of the highest score (ties to the
// smaller label), or for a binary model +1 if its score is > 0 and −1
// otherwise. A score float32 cannot hold (a sample
// scale far beyond the training data's) is an error wrapping ErrNonFinite.
func (q *Model) rescale(dst, tmp []float32, acc []int32, sx float64, mul, bmul float64) (int, error) {
	if q.voff != nil {
		return q.vote(dst, acc, sx, mul, bmul)
	}
	if dst == nil {
		dst = tmp
	}
	// mul and bmul are 1 for an unscaled model, and a product by 1 is
	// exact: modelkern.RescaleArgmax leaves them out (its product rounded
	// before the add, as the general loop's; its argmax ties to the
	// smaller index).
	dst = dst[:len(acc)]
	if mul == 1 && bmul == 1 && q.k.RescaleAsm() {
		if k, ok := q.k.RescaleArgmax(dst, acc, q.rs, q.rb, sx); ok {
			if len(acc) > 1 {
				// dst[k] not read back: a load right after the kernel's
				// masked store would wait for it (measured 2x slower)
				return q.labels[k], nil
			}
			return q.decide(dst[k], k, len(acc))
		}
		return 0, q.nonFinite(dst)
	}
	// Else (the Go loop: inline) two tight passes (measured faster than
	// one with the argmax's branches in it): the scores, then their argmax
	// and a check that all are finite (a non-finite score has its exponent
	// bits all ones).
	rs, rb := q.rs[:len(acc)], q.rb[:len(acc)]
	if mul == 1 && bmul == 1 {
		for k, a := range acc {
			// float64(…) rounds the product as the general loop does (no FMA)
			dst[k] = float32(float64(rs[k]*sx*float64(a)) + rb[k])
		}
	} else {
		for k, a := range acc {
			dst[k] = float32(rs[k]*sx*float64(a)*mul + rb[k]*bmul)
		}
	}
	best, bestK := dst[0], 0
	var exp uint32
	for k, v := range dst {
		e := math.Float32bits(v) & expMask
		exp = max(exp, e)
		if v > best {
			best, bestK = v, k
		}
	}
	if exp == expMask {
		return 0, q.nonFinite(dst)
	}
	return q.decide(best, bestK, len(acc))
}

// nonFinite returns the error naming the first score of dst that is ±Inf
// or NaN (dst has one).
func (q *Model) nonFinite(dst []float32) error {
	for k, v := range dst {
		if math.Float32bits(v)&expMask == expMask {
			return fmt.Errorf("%w: score %d is %v", ErrNonFinite, k, v)
		}
	}
	return fmt.Errorf("%w: a score is not finite", ErrNonFinite)
}

// decide returns the label of the best of r scores, best at index bestK.
func (q *Model) decide(best float32, bestK, r int) (int, error) {
	if r == 1 { // labels −1, +1 for a perceptron; a linear SVM's two
		if best > 0 {
			return q.labels[1], nil
		}
		return q.labels[0], nil
	}
	return q.labels[bestK], nil
}

// vote is rescale for a voted model: score k is Σ c_j·sign(score_j) over
// its vectors j (a score_j ≤ 0 votes −c_j), as perceptron's voted models
// compute it.
func (q *Model) vote(dst []float32, acc []int32, sx float64, mul, bmul float64) (int, error) {
	r := len(q.voff) - 1
	best, bestK := float32(0), 0
	for k := range r {
		var v float64
		for j := q.voff[k]; j < q.voff[k+1]; j++ {
			a := float32(float64(q.scale[j])*sx*float64(acc[j])*mul + float64(q.b[j])*bmul)
			switch {
			case a > 0:
				v += float64(q.vc[j])
			case a <= 0:
				v -= float64(q.vc[j])
			default:
				return 0, fmt.Errorf("%w: the score of vector %d is %v", ErrNonFinite, j, a)
			}
		}
		if dst != nil {
			dst[k] = float32(v)
		}
		if k == 0 || float32(v) > best {
			best, bestK = float32(v), k
		}
	}
	return q.decide(best, bestK, r)
}

// sample is a sample in one of the byte forms: unsigned bytes u with zero
// point z, or (signed) the signed bytes v.
type sample struct {
	signed bool
	u      []uint8
	z      uint8
	v      []int8
}

// eval scores the sample in (its length and dst's checked by the caller)
// with input scale sx: it writes the scores to dst unless dst is nil and
// returns the label.
func (q *Model) eval(dst []float32, in sample, sx float32) (int, error) {
	if err := checkScale(sx); err != nil {
		return 0, err
	}
	if q.f10ok {
		var fbuf [10]float32
		out := &fbuf
		if dst != nil {
			out = (*[10]float32)(dst)
		}
		var k int
		var finite bool
		if in.signed {
			k, finite = q.f10.PredictI8(out, in.v, float64(sx))
		} else {
			k, finite = q.f10.Predict(out, in.u, in.z, float64(sx))
		}
		if finite {
			return q.labels[k], nil
		}
		return 0, q.nonFinite(out[:])
	}
	var buf [16]int32
	var fbuf [16]float32
	acc, tmp, s := q.accBuf(&buf, &fbuf)
	var sq int64
	if in.signed {
		q.k.DotsI8(acc, q.q, in.v)
		if q.scaling != linear.ScaleNone {
			sq = sqI8(in.v)
		}
	} else {
		q.accU8(acc, in.u, in.z)
		if q.scaling != linear.ScaleNone {
			sq = sqU8(in.u, in.z)
		}
	}
	mul, bmul := q.factors(float64(sx), sq)
	l, err := q.rescale(dst, tmp, acc, float64(sx), mul, bmul)
	q.release(s)
	return l, err
}

// PredictU8 returns the label of the sample x[i] ≈ scale·(u[i] − zero)
// given as unsigned bytes. A sample of the wrong length is an error
// wrapping ErrDims, a scale that is not finite and > 0 one wrapping
// ErrScale, a score beyond float32's range (a scale far larger than the
// training data's) one wrapping ErrNonFinite.
func (q *Model) PredictU8(u []uint8, scale float32, zero uint8) (int, error) {
	if err := q.checkLen(len(u)); err != nil {
		return 0, err
	}
	if q.f10ok && checkScale(scale) == nil {
		// eval's fused path, called from here: a Go call layer less
		// (about 4 ns of 40 on Zen 5)
		var fbuf [10]float32
		if k, finite := q.f10.Predict(&fbuf, u, zero, float64(scale)); finite {
			return q.labels[k], nil
		}
		return 0, q.nonFinite(fbuf[:])
	}
	return q.eval(nil, sample{u: u, z: zero}, scale)
}

// ScoresU8 writes the decision values of the sample x[i] ≈
// scale·(u[i] − zero) to dst, which must have length NumScores. Errors are
// PredictU8's.
func (q *Model) ScoresU8(dst []float32, u []uint8, scale float32, zero uint8) error {
	if err := q.checkDst(len(dst), len(u)); err != nil {
		return err
	}
	_, err := q.eval(dst, sample{u: u, z: zero}, scale)
	return err
}

// PredictI8 returns the label of the sample x[i] ≈ scale·v[i] given as
// signed bytes. Errors are PredictU8's.
func (q *Model) PredictI8(v []int8, scale float32) (int, error) {
	if err := q.checkLen(len(v)); err != nil {
		return 0, err
	}
	if q.f10ok && checkScale(scale) == nil {
		// as PredictU8's
		var fbuf [10]float32
		if k, finite := q.f10.PredictI8(&fbuf, v, float64(scale)); finite {
			return q.labels[k], nil
		}
		return 0, q.nonFinite(fbuf[:])
	}
	return q.eval(nil, sample{signed: true, v: v}, scale)
}

// ScoresI8 writes the decision values of the sample x[i] ≈ scale·v[i] to
// dst, which must have length NumScores. Errors are PredictU8's.
func (q *Model) ScoresI8(dst []float32, v []int8, scale float32) error {
	if err := q.checkDst(len(dst), len(v)); err != nil {
		return err
	}
	_, err := q.eval(dst, sample{signed: true, v: v}, scale)
	return err
}

// Predict quantises the float32 sample x with QuantizeInput (on q's int8
// implementation: see OnInt8) and returns its label. A sample of the wrong length is an error wrapping ErrDims,
// one with a NaN or ±Inf value one wrapping ErrNonFinite.
func (q *Model) Predict(x []float32) (int, error) {
	if err := q.checkLen(len(x)); err != nil {
		return 0, err
	}
	s := q.pool.Get().(*scratch)
	defer q.pool.Put(s)
	sx, z, err := quantizeInput(q.k, s.u, x)
	if err != nil {
		return 0, err
	}
	return q.PredictU8(s.u, sx, z)
}

// Scores quantises the float32 sample x with QuantizeInput and writes its
// decision values to dst, which must have length NumScores. Errors are
// Predict's.
func (q *Model) Scores(dst, x []float32) error {
	if err := q.checkDst(len(dst), len(x)); err != nil {
		return err
	}
	s := q.pool.Get().(*scratch)
	defer q.pool.Put(s)
	sx, z, err := quantizeInput(q.k, s.u, x)
	if err != nil {
		return err
	}
	return q.ScoresU8(dst, s.u, sx, z)
}

// PredictBatch writes the labels of the row-major float32 samples X to
// dst, one per row (len(X) must be len(dst)·Dims), each quantised as
// Predict does. Errors name the row.
func (q *Model) PredictBatch(dst []int, X []float32) error {
	if len(X) != len(dst)*q.d {
		return fmt.Errorf("%w: len(X) = %d, want len(dst) = %d rows × %d features", ErrDims, len(X), len(dst), q.d)
	}
	for i := range dst {
		l, err := q.Predict(X[i*q.d : (i+1)*q.d])
		if err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
		dst[i] = l
	}
	return nil
}

// ScoresBatch writes the decision values of the row-major float32 samples
// X to dst (NumScores values per sample, row-major), each quantised as
// Scores does. Errors name the row.
func (q *Model) ScoresBatch(dst, X []float32) error {
	r := q.NumScores()
	if len(dst)%r != 0 || len(X) != len(dst)/r*q.d {
		return fmt.Errorf("%w: len(dst) = %d, len(X) = %d: want rows·%d and rows·%d", ErrDims, len(dst), len(X), r, q.d)
	}
	for i := range len(dst) / r {
		if err := q.Scores(dst[i*r:(i+1)*r], X[i*q.d:(i+1)*q.d]); err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
	}
	return nil
}

// accBuf returns the integer scores' buffer and the float scores' one:
// buf and fbuf for up to 16 scores, else a pooled scratch's (returned too,
// for release).
func (q *Model) accBuf(buf *[16]int32, fbuf *[16]float32) ([]int32, []float32, *scratch) {
	if r := len(q.scale); r <= len(buf) {
		return buf[:r], fbuf[:r], nil
	}
	s := q.pool.Get().(*scratch)
	return s.acc, s.sc, s
}

// release returns a scratch accBuf took from the pool.
func (q *Model) release(s *scratch) {
	if s != nil {
		q.pool.Put(s)
	}
}

func (q *Model) checkDst(nd, nx int) error {
	if err := q.checkLen(nx); err != nil {
		return err
	}
	if nd != q.NumScores() {
		return fmt.Errorf("%w: len(dst) = %d, the model has %d scores", ErrDims, nd, q.NumScores())
	}
	return nil
}
