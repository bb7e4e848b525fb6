package perceptron

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/gram"
)

// mistake is one update of a trainer: score row (class) c, training row j.
type mistake struct{ c, j int }

// refDualTrace runs the primal perceptron (binary or one-vs-rest, all
// classes in lockstep per epoch, or the multiclass perceptron) in plain
// float64 from its textbook definition and returns the mistakes per score
// row in order, and the number of epochs run. cls are class indices; for a
// binary problem K = 1 and class 0 is +1.
func refDualTrace(X []float64, cls []int, K, d int, ords [][]int, eta float64, bias, argmax bool) ([][]int, int) {
	R := K
	if argmax {
		R = K
	}
	W, B := make([]float64, R*d), make([]float64, R)
	trace := make([][]int, R)
	epochs := 0
	for _, ord := range ords {
		epochs++
		mis := 0
		for _, i := range ord {
			x := X[i*d : (i+1)*d]
			if argmax {
				yc := cls[i]
				p, sp := -1, 0.0
				for c := range K {
					if c == yc {
						continue
					}
					if s := dot(x, W[c*d:(c+1)*d]) + B[c]; p < 0 || s > sp {
						p, sp = c, s
					}
				}
				if dot(x, W[yc*d:(yc+1)*d])+B[yc] > sp {
					continue
				}
				mis++
				trace[yc] = append(trace[yc], i)
				for k := range d {
					W[yc*d+k] += eta * x[k]
					W[p*d+k] -= eta * x[k]
				}
				if bias {
					B[yc] += eta
					B[p] -= eta
				}
				continue
			}
			for c := range K {
				y := -1.0
				if cls[i] == c {
					y = 1
				}
				if y*(dot(x, W[c*d:(c+1)*d])+B[c]) > 0 {
					continue
				}
				mis++
				trace[c] = append(trace[c], i)
				for k := range d {
					W[c*d+k] += eta * y * x[k]
				}
				if bias {
					B[c] += eta * y
				}
			}
		}
		if mis == 0 {
			break
		}
	}
	return trace, epochs
}

// recorder collects a trainer's mistakes per score row (safe for the
// one-vs-rest goroutines).
type recorder struct {
	mu    sync.Mutex
	trace [][]int
}

func (r *recorder) add(c, j int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.trace) <= c {
		r.trace = append(r.trace, nil)
	}
	r.trace[c] = append(r.trace[c], j)
}

// primalOf returns the linear weights Σᵢ coefᵢ·svᵢ and the bias of score
// row k of a non-voted kernel model, in float64.
func primalOf[T kernel.Float](s *kstate[T], k int) ([]float64, float64) {
	S := s.nsv()
	w := make([]float64, s.d)
	for i := range S {
		for f := range s.d {
			w[f] += float64(s.Coef[k*S+i]) * float64(s.SV[i*s.d+f])
		}
	}
	return w, float64(s.B[k])
}

// votedOf reconstructs the kept vectors of score row k of a voted kernel
// model as linear weights (prefix sums of the mistakes).
func votedOf[T kernel.Float](s *kstate[T], k int) (vs [][]float64, bs []float64, cs []int64) {
	w := make([]float64, s.d)
	q := s.QOff[k]
	for v := s.VOff[k]; v < s.VOff[k+1]; v++ {
		for end := s.QOff[k] + int(s.VPre[v]); q < end; q++ {
			sv := s.SV[int(s.QIdx[q])*s.d:]
			for f := range s.d {
				w[f] += float64(s.QStep[q]) * float64(sv[f])
			}
		}
		vs = append(vs, slices.Clone(w))
		bs = append(bs, float64(s.VB[v]))
		cs = append(cs, s.VC[v])
	}
	return vs, bs, cs
}

// The dual perceptron with the linear kernel makes exactly the mistakes of
// the primal perceptron, in the same order, on integer-valued data, on
// every kernel implementation (for both the kernel package's vector kernels
// and gram's micro-kernels), for float32 and float64; and its model is the
// primal model (exactly for the plain and voted perceptron, up to rounding
// of the final division for the averaged one).
func TestDualMatchesPrimal(t *testing.T) {
	const d = 23
	Xb, yb, _, _ := separable(newRand(900), 150, d, 3, 0.5, true)
	Xn, yn := func() ([]float64, []int) { // not separable: the perceptron runs all epochs
		X, y, _, _ := separable(newRand(901), 120, d, 3, 0.5, true)
		for i := 0; i < len(y); i += 7 {
			y[i] = -y[i]
		}
		return X, y
	}()
	Xm, ym := intMulticlass(newRand(902), 140, d, 5)
	type run struct {
		name  string
		X     []float64
		y     []int
		multi bool
		opt   Options
	}
	runs := []run{
		{"binary-online", Xb, yb, false, Options{Algorithm: linear.Online, Shuffle: true, Seed: 1}},
		{"binary-online-nonsep", Xn, yn, false, Options{Algorithm: linear.Online, MaxIter: 6, Eta: 2}},
		{"binary-online-nobias", Xn, yn, false, Options{Algorithm: linear.Online, MaxIter: 5, NoBias: true, Shuffle: true, Seed: 4}},
		{"binary-averaged", Xn, yn, false, Options{Algorithm: linear.Averaged, MaxIter: 5, Shuffle: true, Seed: 2, Eta: 1}},
		{"binary-voted", Xn, yn, false, Options{Algorithm: linear.Voted, MaxIter: 4, Shuffle: true, Seed: 3}},
		{"ovr-online", Xm, ym, true, Options{Algorithm: linear.Online, MaxIter: 6, Workers: 2}},
		{"ovr-averaged", Xm, ym, true, Options{Algorithm: linear.Averaged, MaxIter: 5, Shuffle: true, Seed: 5, Workers: 3, Eta: 0.5}},
		{"ovr-voted", Xm, ym, true, Options{Algorithm: linear.Voted, MaxIter: 4, Shuffle: true, Seed: 6}},
		{"argmax-online", Xm, ym, true, Options{Algorithm: linear.Online, Multiclass: fit.Argmax, MaxIter: 6, Shuffle: true, Seed: 7}},
		{"argmax-averaged", Xm, ym, true, Options{Algorithm: linear.Averaged, Multiclass: fit.Argmax, MaxIter: 5, Eta: 1}},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			n := len(r.y)
			var cls []int
			K := 1
			if r.multi {
				labels, c32, err := multiClasses(r.y)
				if err != nil {
					t.Fatal(err)
				}
				K = len(labels)
				for _, c := range c32 {
					cls = append(cls, int(c))
				}
			} else {
				for _, v := range r.y {
					cls = append(cls, (1-v)/2) // +1 → 0, −1 → 1 (never 0 for class 0)
				}
			}
			cfg, _ := r.opt.resolve()
			want, epochs := refDualTrace(r.X, cls, K, d, orders(n, cfg.epochs, r.opt.Shuffle, r.opt.Seed), cfg.eta, !r.opt.NoBias, r.opt.Multiclass == fit.Argmax && r.multi)
			for _, im := range availableImpls() {
				t.Run(im.Name(), func(t *testing.T) {
					opt := r.opt
					opt.impl = im
					dualPrimal[float64](t, r.X, r.y, d, r.multi, opt, want, epochs)
					dualPrimal[float32](t, to32(r.X), r.y, d, r.multi, opt, want, epochs)
				})
			}
		})
	}
}

func dualPrimal[T kernel.Float](t *testing.T, X []T, y []int, d int, multi bool, opt Options, want [][]int, epochs int) {
	t.Helper()
	rec := &recorder{}
	kopt := KernelOptions{Options: opt, trace: rec.add}
	var pm *linear.Model[T]
	var km *expansion.Model[T]
	var pd, kd *Diagnostics
	var err error
	if multi {
		if pm, pd, err = trainMulti(X, d, y, opt); err == nil {
			km, kd, err = trainKernelMulti(X, d, y, kopt)
		}
	} else {
		if pm, pd, err = trainBinary(X, d, y, opt); err == nil {
			km, kd, err = trainKernelBinary(X, d, y, kopt)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("%T", X[0])
	for c := range want {
		var got []int
		if c < len(rec.trace) {
			got = rec.trace[c]
		}
		if !slices.Equal(got, want[c]) {
			t.Fatalf("%s: score row %d: dual mistakes %v\nprimal reference %v", name, c, got, want[c])
		}
	}
	if len(pd.Epochs) != epochs || len(kd.Epochs) != epochs {
		t.Fatalf("%s: epochs primal %d, dual %d, reference %d", name, len(pd.Epochs), len(kd.Epochs), epochs)
	}
	for e := range pd.Epochs {
		if pd.Epochs[e] != kd.Epochs[e] {
			t.Fatalf("%s: epoch %d: primal %+v, dual %+v", name, e+1, pd.Epochs[e], kd.Epochs[e])
		}
	}
	ps, ks := snap(pm), kernelState(km)
	for k := range partsRows(ps) {
		if linear.Algorithm(ps.Algorithm) == linear.Voted {
			pv, pb, pc := pm.Voted(k)
			kv, kb, kc := votedOf(ks, k)
			if len(pv) != len(kv) || !slices.Equal(pc, kc) {
				t.Fatalf("%s: row %d: voted counts primal %v, dual %v", name, k, pc, kc)
			}
			for i := range pv {
				for f := range d {
					if float64(pv[i][f]) != kv[i][f] {
						t.Fatalf("%s: row %d vector %d differs", name, k, i)
					}
				}
				if float64(pb[i]) != kb[i] {
					t.Fatalf("%s: row %d bias %d: %v vs %v", name, k, i, pb[i], kb[i])
				}
			}
			continue
		}
		pw, pb := pm.Weights(k)
		kw, kb := primalOf(ks, k)
		// Exact for the plain perceptron. For the averaged one, primal
		// w − u/steps and dual Σ (cᵢ − uᵢ/steps)·xᵢ round differently:
		// with Nᵢ the mistakes touching row i, |cᵢ| and |uᵢ/steps| are at
		// most η·Nᵢ, so each side is within a few roundings of
		// Σᵢ η·Nᵢ·|xᵢ| per coordinate (the bias: xᵢ = 1).
		tol := func(f int) float64 { return 0 }
		if linear.Algorithm(ps.Algorithm) == linear.Averaged {
			eps := 0x1p-52
			if elemSize[T]() == 4 {
				eps = 0x1p-23
			}
			touch := map[int]float64{}
			for _, tr := range rec.trace {
				for _, j := range tr {
					touch[j]++
				}
			}
			tol = func(f int) float64 {
				sum := 0.0
				for j, cnt := range touch {
					x := 1.0
					if f >= 0 {
						x = math.Abs(float64(X[j*d+f]))
					}
					sum += opt.Eta * cnt * x
				}
				return 4 * float64(len(touch)+4) * eps * sum
			}
			if opt.Eta == 0 {
				t.Fatal("set Eta explicitly in averaged runs")
			}
		}
		for f := range d {
			if math.Abs(float64(pw[f])-kw[f]) > tol(f) {
				t.Fatalf("%s: row %d: primal w[%d] = %v, dual %v", name, k, f, pw[f], kw[f])
			}
		}
		if math.Abs(float64(pb)-kb) > tol(-1) {
			t.Fatalf("%s: row %d: primal b = %v, dual %v", name, k, pb, kb)
		}
	}
	if pd.Converged != kd.Converged || pd.Evaluated != kd.Evaluated {
		t.Fatalf("%s: diagnostics primal %+v, dual %+v", name, pd, kd)
	}
	if pd.Evaluated && linear.Algorithm(ps.Algorithm) == linear.Online && (pd.TrainAccuracy != kd.TrainAccuracy || pd.Separable != kd.Separable) {
		t.Fatalf("%s: final diagnostics primal acc %v sep %v, dual acc %v sep %v", name, pd.TrainAccuracy, pd.Separable, kd.TrainAccuracy, kd.Separable)
	}
	if pd.Separable && linear.Algorithm(ps.Algorithm) == linear.Online && math.Abs(pd.Margin-kd.Margin) > 1e-9*math.Abs(pd.Margin) {
		t.Fatalf("%s: margin primal %v, dual %v", name, pd.Margin, kd.Margin)
	}
	// Same predictions on the training data.
	pp := make([]int, len(y))
	kp := make([]int, len(y))
	if err := pm.PredictBatch(pp, X); err != nil {
		t.Fatal(err)
	}
	if err := km.PredictBatch(kp, X); err != nil {
		t.Fatal(err)
	}
	if linear.Algorithm(ps.Algorithm) != linear.Averaged && !slices.Equal(pp, kp) {
		t.Fatalf("%s: predictions differ", name)
	}
}

// The model keeps exactly the rows with α ≠ 0, and for the plain dual
// perceptron coefᵢ = η·αᵢ·yᵢ with αᵢ the mistakes made on row i.
func TestDualSupportSet(t *testing.T) {
	X, y, _, _ := separable(newRand(910), 90, 7, 3, 0.5, true)
	for i := 0; i < len(y); i += 5 {
		y[i] = -y[i]
	}
	rec := &recorder{}
	m, _, err := trainKernelBinary(X, 7, y, KernelOptions{Options: Options{MaxIter: 4, Eta: 0.5}, trace: rec.add})
	if err != nil {
		t.Fatal(err)
	}
	alpha := map[int]int{}
	for _, j := range rec.trace[0] {
		alpha[j]++
	}
	idx := m.SupportIndices()
	if len(idx) != len(alpha) || m.NumSupport() != len(alpha) {
		t.Fatalf("%d support vectors, %d rows with α ≠ 0", len(idx), len(alpha))
	}
	coef, _ := m.Coefficients(0)
	sv := svRows(m)
	for i, j := range idx {
		if want := 0.5 * float64(alpha[j]) * float64(y[j]); coef[i] != want {
			t.Fatalf("row %d: coefficient %v, want η·α·y = %v", j, coef[i], want)
		}
		if !slices.Equal(sv[i], X[j*7:(j+1)*7]) {
			t.Fatalf("support vector %d is not row %d", i, j)
		}
	}
}

// naiveKernel evaluates a kernel in float64.
func naiveKernel(k gram.Kernel, x, z []float64) float64 {
	switch k := k.(type) {
	case gram.Polynomial:
		return math.Pow(k.Gamma*dot(x, z)+k.Coef0, float64(k.Degree))
	case gram.RBF:
		s := 0.0
		for i := range x {
			s += (x[i] - z[i]) * (x[i] - z[i])
		}
		return math.Exp(-k.Gamma * s)
	}
	return dot(x, z)
}

// naiveKernelPerceptron trains one binary kernel perceptron by the
// definition, recomputing f(xⱼ) = Σᵢ cᵢ·K(xᵢ, xⱼ) + b at every visit, and
// averaging the coefficients after every sample naively.
func naiveKernelPerceptron(X []float64, y []int, d int, k gram.Kernel, ords [][]int, eta float64) (trace []int, coef, avg []float64, b, avgB float64) {
	n := len(y)
	coef, avg = make([]float64, n), make([]float64, n)
	steps := 0
	for _, ord := range ords {
		mis := 0
		for _, j := range ord {
			f := b
			for i := range n {
				if coef[i] != 0 {
					f += coef[i] * naiveKernel(k, X[i*d:(i+1)*d], X[j*d:(j+1)*d])
				}
			}
			if float64(y[j])*f <= 0 {
				mis++
				trace = append(trace, j)
				coef[j] += eta * float64(y[j])
				b += eta * float64(y[j])
			}
			for i := range n {
				avg[i] += coef[i]
			}
			avgB += b
			steps++
		}
		if mis == 0 {
			break
		}
	}
	for i := range avg {
		avg[i] /= float64(steps)
	}
	return trace, coef, avg, b, avgB / float64(steps)
}

// The kernel perceptron with polynomial and RBF kernels makes the mistakes
// of the definition (recomputing every decision value from scratch), and
// its averaged version returns the naive average of the coefficient
// vectors after every sample.
func TestKernelPerceptronMatchesDefinition(t *testing.T) {
	const d = 5
	// Points on a circle-ish XOR pattern: not linearly separable.
	rng := newRand(920)
	var X []float64
	var y []int
	for range 80 {
		x := []float64{float64(rng.IntN(7) - 3), float64(rng.IntN(7) - 3), float64(rng.IntN(3) - 1), float64(rng.IntN(3) - 1), float64(rng.IntN(3) - 1)}
		X = append(X, x...)
		if x[0]*x[1] > 0 || x[0] == 0 && x[2] > 0 {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	for _, k := range []gram.Kernel{
		gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2},
		gram.Polynomial{Gamma: 0.5, Coef0: 2, Degree: 3},
		gram.RBF{Gamma: 0.3},
	} {
		t.Run(k.String(), func(t *testing.T) {
			ords := orders(len(y), 8, true, 11)
			want, _, avg, _, avgB := naiveKernelPerceptron(X, y, d, k, ords, 1)
			for _, im := range availableImpls() {
				rec := &recorder{}
				opt := KernelOptions{Options: Options{Algorithm: linear.Averaged, MaxIter: 8, Shuffle: true, Seed: 11, Stop: StopClean, impl: im}, Kernel: k, trace: rec.add}
				m, _, err := trainKernelBinary(X, d, y, opt)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(rec.trace[0], want) {
					t.Fatalf("%s: mistakes %v\nwant %v", im, rec.trace[0], want)
				}
				coef, b := m.Coefficients(0)
				for i, j := range m.SupportIndices() {
					if math.Abs(coef[i]-avg[j]) > 1e-12*(1+math.Abs(avg[j])) {
						t.Fatalf("%s: averaged coefficient of row %d = %v, naive %v", im, j, coef[i], avg[j])
					}
				}
				if math.Abs(b-avgB) > 1e-12 {
					t.Fatalf("%s: averaged bias %v, naive %v", im, b, avgB)
				}
				// The model's scores are Σ coef·K + b, checked against float64.
				sc := make([]float64, 1)
				for j := range 10 {
					x := X[j*d : (j+1)*d]
					ref := b
					for i, sv := range svRows(m) {
						ref += coef[i] * naiveKernel(k, sv, x)
					}
					if err := m.Scores(sc, x); err != nil {
						t.Fatal(err)
					}
					if math.Abs(sc[0]-ref) > 1e-9*(1+math.Abs(ref)) {
						t.Fatalf("%s: score %v, reference %v", im, sc[0], ref)
					}
				}
			}
		})
	}
}

// The voted kernel perceptron predicts sign(Σₖ cₖ·sign(fₖ(x))) over the
// decision functions of the run, with their survival counts, as the
// definition gives it.
func TestKernelVotedMatchesDefinition(t *testing.T) {
	const d = 3
	rng := newRand(930)
	var X []float64
	var y []int
	for range 60 {
		x := []float64{rng.Float64()*4 - 2, rng.Float64()*4 - 2, rng.Float64()}
		X = append(X, x...)
		if x[0]*x[0]+x[1]*x[1] < 1.5 {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	k := gram.RBF{Gamma: 0.7}
	ords := orders(len(y), 5, true, 3)
	m, _, err := trainKernelBinary(X, d, y, KernelOptions{Options: Options{Algorithm: linear.Voted, MaxIter: 5, Shuffle: true, Seed: 3}, Kernel: k})
	if err != nil {
		t.Fatal(err)
	}
	// The definition: keep (coef, b, c) after every change.
	n := len(y)
	type fn struct {
		coef []float64
		b    float64
		c    int64
	}
	cur := fn{coef: make([]float64, n)}
	var kept []fn
	for _, ord := range ords {
		mis := 0
		for _, j := range ord {
			f := cur.b
			for i := range n {
				f += cur.coef[i] * naiveKernel(k, X[i*d:(i+1)*d], X[j*d:(j+1)*d])
			}
			if float64(y[j])*f > 0 {
				cur.c++
				continue
			}
			mis++
			if cur.c > 0 {
				kept = append(kept, fn{slices.Clone(cur.coef), cur.b, cur.c})
			}
			cur.coef[j] += float64(y[j])
			cur.b += float64(y[j])
			cur.c = 1
		}
		if mis == 0 {
			break
		}
	}
	kept = append(kept, cur)
	s := kernelState(m)
	if got := s.VOff[1]; got != len(kept) {
		t.Fatalf("%d kept functions, definition %d", got, len(kept))
	}
	for v := range kept {
		if s.VC[v] != kept[v].c || s.VB[v] != kept[v].b {
			t.Fatalf("function %d: count %d bias %v, definition %d %v", v, s.VC[v], s.VB[v], kept[v].c, kept[v].b)
		}
	}
	agree := 0
	sc := make([]float64, 1)
	for q := range 50 {
		x := []float64{float64(q%7)/2 - 1.5, float64(q%5)/2 - 1, 0.3}
		vote := 0.0
		for _, f := range kept {
			a := f.b
			for i := range n {
				a += f.coef[i] * naiveKernel(k, X[i*d:(i+1)*d], x)
			}
			if a > 0 {
				vote += float64(f.c)
			} else {
				vote -= float64(f.c)
			}
		}
		if err := m.Scores(sc, x); err != nil {
			t.Fatal(err)
		}
		if sc[0] == vote {
			agree++
		}
	}
	// A decision value within rounding of 0 may flip one vote; none did in
	// practice, allow one.
	if agree < 49 {
		t.Fatalf("votes agree with the definition on %d of 50 samples", agree)
	}
}

// One-vs-rest on the shared Gram matrix trains, for each class, exactly the
// binary kernel perceptron of that class against the rest, whatever the
// number of goroutines.
func TestKernelOneVsRestMatchesBinary(t *testing.T) {
	d := loadSet[float32](t, "iris.train.libsvm", 4)
	k := gram.RBF{Gamma: 0.5}
	for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted} {
		var ref []byte
		for _, workers := range []int{1, 2, 3} {
			opt := KernelOptions{Options: Options{Algorithm: algo, MaxIter: 6, Shuffle: true, Seed: 9, Stop: StopNever, Workers: workers}, Kernel: k}
			m, diag, err := trainKernelMulti(d.X, d.Cols, d.Y, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := m.MarshalBinary()
			if ref == nil {
				ref = b
			} else if string(b) != string(ref) {
				t.Fatalf("%v: Workers = %d trains a different model", algo, workers)
			}
			if workers > 1 {
				continue
			}
			s := kernelState(m)
			for c, label := range m.Classes() {
				yb := make([]int, len(d.Y))
				for i, l := range d.Y {
					yb[i] = -1
					if l == label {
						yb[i] = 1
					}
				}
				bm, bd, err := trainKernelBinary(d.X, d.Cols, yb, opt)
				if err != nil {
					t.Fatal(err)
				}
				bs := kernelState(bm)
				if !slices.Equal(bd.Epochs, diag.Classes[c].Epochs) {
					t.Fatalf("%v class %d: epochs %+v, binary %+v", algo, label, diag.Classes[c].Epochs, bd.Epochs)
				}
				if !sameDual(s, c, bs, 0) {
					t.Fatalf("%v class %d: the one-vs-rest function differs from the binary model", algo, label)
				}
			}
		}
	}
}

// Above the memory budget the trainer uses the row cache and trains the
// same model, bit for bit; a budget below one row is ErrBudget.
func TestKernelRowCache(t *testing.T) {
	d := loadSet[float32](t, "digits.train.libsvm", 64)
	sub := d.Subset(200)
	n := int64(sub.Rows)
	rbf := gram.RBF{Gamma: 1.0 / (64 * 30)}
	for _, tc := range []struct {
		name  string
		multi bool
		k     gram.Kernel
		opt   Options
	}{
		{"ovr-averaged", true, rbf, Options{Algorithm: linear.Averaged, MaxIter: 4, Shuffle: true, Seed: 1}},
		{"ovr-voted", true, rbf, Options{Algorithm: linear.Voted, MaxIter: 3}},
		{"argmax-online", true, rbf, Options{Algorithm: linear.Online, Multiclass: fit.Argmax, MaxIter: 4, Shuffle: true, Seed: 2}},
		{"binary-online", false, rbf, Options{Algorithm: linear.Online, MaxIter: 4, Shuffle: true, Seed: 3}},
		{"binary-poly-normalized", false, gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 3}, Options{Algorithm: linear.Averaged, MaxIter: 4, Normalize: true}},
		{"ovr-linear", true, gram.Linear{}, Options{Algorithm: linear.Online, MaxIter: 3, Shuffle: true, Seed: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y := sub.Y
			if !tc.multi {
				y = make([]int, len(sub.Y))
				for i, l := range sub.Y {
					y[i] = 1 - 2*(l%2)
				}
			}
			train := func(maxBytes int64) (*expansion.Model[float32], *Diagnostics, error) {
				o := KernelOptions{Options: tc.opt, Kernel: tc.k, MaxBytes: maxBytes}
				if tc.multi {
					return trainKernelMulti(sub.X, sub.Cols, y, o)
				}
				return trainKernelBinary(sub.X, sub.Cols, y, o)
			}
			full, fd, err := train(-1)
			if err != nil {
				t.Fatal(err)
			}
			// 1 and 7 rows compute single rows; a quarter of the matrix
			// computes batches (gram.Cache.Fill).
			for _, rows := range []int64{1, 7, n / 4} {
				m, md, err := train(rows * n * 4)
				if err != nil {
					t.Fatal(err)
				}
				if !sameKernelModel(t, full, m) {
					t.Fatalf("a cache of %d rows trains a different model", rows)
				}
				if !slices.Equal(fd.Epochs, md.Epochs) {
					t.Fatalf("a cache of %d rows: epochs %+v, full %+v", rows, md.Epochs, fd.Epochs)
				}
			}
			if _, _, err := train(n*4 - 1); !isErr(err, ErrBudget) {
				t.Fatalf("budget below one row: %v", err)
			}
		})
	}
}

func sameKernelModel[T kernel.Float](t testing.TB, a, b *expansion.Model[T]) bool {
	t.Helper()
	x, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	y, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return string(x) == string(y)
}

// sameDual reports whether score row a of model s and row b of model u are
// the same function, bit for bit: the same coefficient per training row
// (zero where a row is not a support vector of one of them) and bias, or
// for voted models the same mistakes (as training rows), steps, prefixes,
// biases and counts.
func sameDual[T kernel.Float](s *kstate[T], a int, u *kstate[T], b int) bool {
	if s.voted() != u.voted() {
		return false
	}
	if s.voted() {
		rows := func(m *kstate[T], r int) []int {
			var out []int
			for q := m.QOff[r]; q < m.QOff[r+1]; q++ {
				out = append(out, m.idx[m.QIdx[q]])
			}
			return out
		}
		return slices.Equal(rows(s, a), rows(u, b)) &&
			slices.Equal(s.QStep[s.QOff[a]:s.QOff[a+1]], u.QStep[u.QOff[b]:u.QOff[b+1]]) &&
			slices.Equal(s.VPre[s.VOff[a]:s.VOff[a+1]], u.VPre[u.VOff[b]:u.VOff[b+1]]) &&
			slices.Equal(s.VB[s.VOff[a]:s.VOff[a+1]], u.VB[u.VOff[b]:u.VOff[b+1]]) &&
			slices.Equal(s.VC[s.VOff[a]:s.VOff[a+1]], u.VC[u.VOff[b]:u.VOff[b+1]])
	}
	coefs := func(m *kstate[T], r int) map[int]T {
		out := map[int]T{}
		S := m.nsv()
		for i, j := range m.idx {
			if c := m.Coef[r*S+i]; c != 0 {
				out[j] = c
			}
		}
		return out
	}
	ca, cb := coefs(s, a), coefs(u, b)
	if len(ca) != len(cb) || s.B[a] != u.B[b] {
		return false
	}
	for j, v := range ca {
		if cb[j] != v {
			return false
		}
	}
	return true
}

// With Normalize's (x, 1)/‖(x, 1)‖ the kernel perceptron scales each sample by
// s = 1/‖(x, 1)‖ before the kernel sees it and uses s as the bias's
// feature: with the linear kernel it is the primal perceptron on the
// augmented unit points. On samples whose ‖(x, 1)‖ is a power of two all
// arithmetic is exact, so the two make the same mistakes and reach the
// same weights, bit for bit; the kernel model scores new samples
// s·(f(x̃) + b), and R′ = 1.
func TestKernelNormalizeMatchesPrimal(t *testing.T) {
	rng := newRand(930)
	// ‖x‖² + 1 ∈ {4, 16, 64}: |x| a permutation of (1,1,1,0), (3,2,1,1) or (7,3,2,1).
	pats := [][]float64{{1, 1, 1, 0}, {3, 2, 1, 1}, {7, 3, 2, 1}}
	u := []float64{2, -1, 1, -3}
	var X []float64
	var y []int
	for len(y) < 120 {
		p := slices.Clone(pats[rng.IntN(3)])
		rng.Shuffle(4, func(i, j int) { p[i], p[j] = p[j], p[i] })
		for j := range p {
			if rng.IntN(2) == 0 {
				p[j] = -p[j]
			}
		}
		m := dot(p, u) + 0.5
		if math.Abs(m) < 1 {
			continue
		}
		X = append(X, p...)
		y = append(y, int(math.Copysign(1, m)))
	}
	for _, opt := range []Options{
		{Normalize: true, MaxIter: 50},
		{Normalize: true, MaxIter: 50, NoBias: true},
		{Normalize: true, MaxIter: 5, Algorithm: linear.Voted, Shuffle: true, Seed: 2},
	} {
		pm, pd, err := trainBinary(X, 4, y, opt)
		if err != nil {
			t.Fatal(err)
		}
		km, kd, err := trainKernelBinary(X, 4, y, KernelOptions{Options: opt})
		if err != nil {
			t.Fatal(err)
		}
		if linear.Scaling(km.Scaling()) != linear.ScaleAugmented || len(pd.Epochs) != len(kd.Epochs) || pd.Updates != kd.Updates {
			t.Fatalf("%+v: primal %d epochs %d updates, kernel %d %d", opt, len(pd.Epochs), pd.Updates, len(kd.Epochs), kd.Updates)
		}
		ks := kernelState(km)
		if opt.Algorithm == linear.Voted {
			pv, pb, pc := pm.Voted(0)
			kv, kb, kc := votedOf(ks, 0)
			if len(pv) != len(kv) || !slices.Equal(pc, kc) || !slices.Equal(pb, kb) {
				t.Fatalf("voted: primal %v %v, kernel %v %v", pb, pc, kb, kc)
			}
			continue
		}
		w, b := modelW(t, pm, 0)
		kw, kb := primalOf(ks, 0)
		if opt.NoBias { // s = 1/‖x‖ is not a power of two: up to rounding
			for j := range w {
				if math.Abs(w[j]-kw[j]) > 1e-12*(1+math.Abs(w[j])) {
					t.Fatalf("no bias: primal %v, dual %v", w, kw)
				}
			}
		} else {
			equalExact(t, "primal and dual weights", append(w, b), append(kw, kb))
		}
		if !opt.NoBias && (kd.RadiusAugmented != 1 || !kd.Separable || float64(kd.Updates) > kd.BoundAugmented) {
			t.Fatalf("kernel diagnostics: R′ %v separable %v, %d mistakes, bound %v", kd.RadiusAugmented, kd.Separable, kd.Updates, kd.BoundAugmented)
		}
		// Scores of new samples: s·(w·x + b), as the primal model.
		ps, kss := make([]float64, 1), make([]float64, 1)
		for _, x := range [][]float64{{0.3, -2, 5, 1}, {10, 0, 0, -1}, {0, 0, 0, 0}} {
			if err := pm.Scores(ps, x); err != nil {
				t.Fatal(err)
			}
			if err := km.Scores(kss, x); err != nil {
				t.Fatal(err)
			}
			if math.Abs(ps[0]-kss[0]) > 1e-12*(1+math.Abs(ps[0])) {
				t.Fatalf("score of %v: primal %v, kernel %v", x, ps[0], kss[0])
			}
		}
	}
}

// TestKernelHugeGram: a full Gram matrix large enough for huge pages
// (dataset.Alloc advises from 8 MiB: all 1437 digits in float64, 16.5 MB)
// trains the same model, bit for bit, as the row cache does.
func TestKernelHugeGram(t *testing.T) {
	d := loadSet[float64](t, "digits.train.libsvm", 64)
	n := int64(d.Rows)
	if n*n*8 < 8<<20 {
		t.Fatalf("%d rows: the Gram matrix is below the huge-page size", n)
	}
	o := KernelOptions{Options: Options{Algorithm: linear.Averaged, MaxIter: 2, Shuffle: true, Seed: 5}, Kernel: gram.RBF{Gamma: 1.0 / (64 * 30)}}
	full, _, err := trainKernelMulti(d.X, d.Cols, d.Y, KernelOptions{Options: o.Options, Kernel: o.Kernel, MaxBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	o.MaxBytes = n * 8 * 64
	cached, _, err := trainKernelMulti(d.X, d.Cols, d.Y, o)
	if err != nil {
		t.Fatal(err)
	}
	if !sameKernelModel(t, full, cached) {
		t.Fatal("the huge-page Gram matrix trains a different model from the row cache")
	}
}
