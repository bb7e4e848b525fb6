package perceptron

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/gram"
)

// Tests of issue 10's training guarantees: options checked in the element
// type, ErrDiverged naming the epoch and sample of the first non-finite
// value, NaN scores counted as mistakes, and the voted perceptron's memory
// budget.

// maxOf returns the largest finite value of T.
func maxOf[T kernel.Float]() float64 {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

// isFinite is an independent finiteness test (not the package's).
func isFinite[T kernel.Float](vs ...[]T) bool {
	for _, v := range vs {
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return false
			}
		}
	}
	return true
}

// linearFinite reports whether every weight, bias and kept vector of m is
// finite.
func linearFinite[T kernel.Float](m *linear.Model[T]) bool {
	s := snap(m)
	return isFinite(s.W, s.B, s.V, s.VB)
}

// kernelFinite reports whether every coefficient, bias and step of m is
// finite.
func kernelFinite[T kernel.Float](m *expansion.Model[T]) bool {
	s := kernelState(m)
	return isFinite(s.Coef, s.B, s.QStep, s.VB)
}

// A step size that overflows the element type, or rounds to 0 in it, is an
// option error; one that is finite but overflows with the data is
// ErrDiverged: never a model of NaN weights (which training returned, with
// a training accuracy of 100%, before the fix).
func TestStepOptionsInElementType(t *testing.T) {
	X := []float64{1, 2, 3, 4, -1, -2, -3, -1, 2, -5}
	y := []int{1, 1, -1, -1, 1}
	ym := []int{1, 2, 3, 1, 2}
	X32 := to32(X)
	type fit func(opt Options) (bool, error) // finite model, error
	fits := map[string]fit{
		"float32": func(o Options) (bool, error) {
			m, _, err := trainBinary(X32, 2, y, o)
			return err == nil && linearFinite(m), err
		},
		"float32-ovr": func(o Options) (bool, error) {
			m, _, err := trainMulti(X32, 2, ym, o)
			return err == nil && linearFinite(m), err
		},
		"float32-kernel": func(o Options) (bool, error) {
			m, _, err := trainKernelBinary(X32, 2, y, KernelOptions{Options: o})
			return err == nil && kernelFinite(m), err
		},
		"float64": func(o Options) (bool, error) {
			m, _, err := trainBinary(X, 2, y, o)
			return err == nil && linearFinite(m), err
		},
	}
	for _, tc := range []struct {
		name string
		typ  string // the fits the case applies to ("" = all float32 ones)
		opt  Options
		want error // nil: a finite model
	}{
		{"eta-overflows-float32", "", Options{Eta: 1e39}, ErrOption},
		{"eta-underflows-float32", "", Options{Eta: 1e-50}, ErrOption},
		{"eta-float64-fine", "float64", Options{Eta: 1e39}, nil},
		{"eta-near-max-float32", "", Options{Eta: 3e38}, linear.ErrDiverged},
		{"eta-near-max-float64", "float64", Options{Eta: 1e308}, linear.ErrDiverged},
		{"eta-near-max-averaged", "", Options{Algorithm: linear.Averaged, Eta: 3e38}, linear.ErrDiverged},
		{"eta-near-max-voted", "", Options{Algorithm: linear.Voted, Eta: 3e38}, linear.ErrDiverged},
		{"tau-overflows-float32", "", Options{Algorithm: linear.MiniBatch, Tau: 1e39}, ErrOption},
		{"tau/B-underflows-float32", "", Options{Algorithm: linear.MiniBatch, Tau: 2e-45, BatchSize: 4}, ErrOption},
		{"tau-near-max", "", Options{Algorithm: linear.MiniBatch, Tau: 3e38, BatchSize: 1}, linear.ErrDiverged},
		{"lambda-first-step-overflows", "", Options{Algorithm: linear.SVM, Lambda: 1e-40}, ErrOption},
		{"lambda-float64-fine", "float64", Options{Algorithm: linear.SVM, Lambda: 1e-40}, nil},
		{"C-lambda-zero", "float64", Options{Algorithm: linear.SVM, C: math.MaxFloat64}, ErrOption},
		{"C-lambda-inf", "float64", Options{Algorithm: linear.SVM, C: 1e-320}, ErrOption},
		{"C-first-step-overflows", "", Options{Algorithm: linear.SVM, C: 1e38}, ErrOption},
		{"lambda-tiny-diverges", "", Options{Algorithm: linear.SVM, Lambda: 1e-38}, linear.ErrDiverged},
	} {
		for name, f := range fits {
			if tc.typ == "" && name == "float64" || tc.typ != "" && name != tc.typ {
				continue
			}
			if a := tc.opt.Algorithm; name == "float32-kernel" && a != linear.Online && a != linear.Averaged && a != linear.Voted {
				continue // not a kernel algorithm
			}
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				finite, err := f(tc.opt)
				switch {
				case tc.want == nil && err != nil:
					t.Fatalf("error %v, want a model", err)
				case tc.want != nil && !isErr(err, tc.want):
					t.Fatalf("error %v, want %v", err, tc.want)
				case err == nil && !finite:
					t.Fatal("a model with non-finite weights")
				}
			})
		}
	}
}

// divergeFit is one way of training for the divergence tests.
type divergeFit struct {
	name     string
	algo     linear.Algorithm
	multi    bool
	strategy fit.Scheme
	kernel   bool
	batch    int
	sampling Sampling
}

// sweeps reports whether the fit visits every sample once per epoch.
func (f divergeFit) sweeps() bool {
	return f.sampling == SampleSweep || (f.sampling == SampleDefault && f.algo != linear.MiniBatch)
}

func divergeFits() []divergeFit {
	var fits []divergeFit
	for a := linear.Online; a < numAlgorithms; a++ {
		fits = append(fits, divergeFit{name: a.String(), algo: a},
			divergeFit{name: a.String() + "-ovr", algo: a, multi: true})
	}
	fits = append(fits,
		divergeFit{name: "minibatch-B3", algo: linear.MiniBatch, batch: 3},
		divergeFit{name: "minibatch-sweep", algo: linear.MiniBatch, sampling: SampleSweep},
		divergeFit{name: "minibatch-B3-replace", algo: linear.MiniBatch, batch: 3, sampling: SampleReplace},
		divergeFit{name: "online-replace", algo: linear.Online, sampling: SampleReplace},
		divergeFit{name: "averaged-replace-ovr", algo: linear.Averaged, multi: true, sampling: SampleReplace},
		divergeFit{name: "svm-replace", algo: linear.SVM, sampling: SampleReplace},
		divergeFit{name: "averaged-argmax-replace", algo: linear.Averaged, multi: true, strategy: fit.Argmax, sampling: SampleReplace},
		divergeFit{name: "online-argmax", algo: linear.Online, multi: true, strategy: fit.Argmax},
		divergeFit{name: "averaged-argmax", algo: linear.Averaged, multi: true, strategy: fit.Argmax})
	for _, a := range []linear.Algorithm{linear.Online, linear.Averaged, linear.Voted} {
		fits = append(fits, divergeFit{name: "kernel-" + a.String(), algo: a, kernel: true},
			divergeFit{name: "kernel-" + a.String() + "-ovr", algo: a, kernel: true, multi: true})
	}
	fits = append(fits,
		divergeFit{name: "kernel-online-argmax", algo: linear.Online, kernel: true, multi: true, strategy: fit.Argmax},
		divergeFit{name: "kernel-averaged-argmax", algo: linear.Averaged, kernel: true, multi: true, strategy: fit.Argmax},
		divergeFit{name: "kernel-voted-replace", algo: linear.Voted, kernel: true, sampling: SampleReplace})
	return fits
}

// options returns the fit's options with step size (or for SVM 1/λ) step.
func (f divergeFit) options(step float64, epochs int, shuffle bool) Options {
	o := Options{Algorithm: f.algo, Multiclass: f.strategy, MaxIter: epochs, Stop: StopNever,
		Eta: step, Tau: step, BatchSize: max(f.batch, 1), Lambda: 1 / step, Shuffle: shuffle, Seed: 3, Workers: 2,
		Sampling: f.sampling}
	return o
}

// train fits X (d features, labels y) and reports whether the model is
// finite.
func divergeTrain[T kernel.Float](f divergeFit, X []T, d int, y []int, o Options) (bool, error) {
	switch {
	case f.kernel && f.multi:
		m, _, err := trainKernelMulti(X, d, y, KernelOptions{Options: o})
		return err == nil && kernelFinite(m), err
	case f.kernel:
		m, _, err := trainKernelBinary(X, d, y, KernelOptions{Options: o})
		return err == nil && kernelFinite(m), err
	case f.multi:
		m, _, err := trainMulti(X, d, y, o)
		return err == nil && linearFinite(m), err
	}
	m, _, err := trainBinary(X, d, y, o)
	return err == nil && linearFinite(m), err
}

// divergeData returns n random integer samples in [-3, 3]^d with random
// labels: ±1 (rows 0 and 1 of different classes) or 1..3.
func divergeData(seed uint64, n, d int, multi bool) ([]float64, []int) {
	rng := newRand(seed)
	X := make([]float64, n*d)
	for i := range X {
		X[i] = float64(rng.IntN(7) - 3)
	}
	y := make([]int, n)
	for i := range y {
		if multi {
			y[i] = 1 + rng.IntN(3)
		} else {
			y[i] = 1 - 2*rng.IntN(2)
		}
	}
	if !multi {
		y[0], y[1] = 1, -1
	}
	return X, y
}

// firstChecked trains with every epoch checked (the slow mode locate
// uses only for the epoch that diverged) and returns the epoch and the
// first non-finite value: what divergedError must name.
func firstChecked[T kernel.Float](t *testing.T, f divergeFit, X []T, d int, y []int, o Options) (int, divEvent, []int) {
	cfg, err := o.resolve()
	if err != nil {
		t.Fatal(err)
	}
	n := len(y)
	var cls []int32
	labels := []int{-1, 1}
	K := 1
	if f.multi {
		labels, cls, err = multiClasses(y)
		K = len(labels)
	} else {
		cls, err = binaryClasses(y)
	}
	if err != nil {
		t.Fatal(err)
	}
	if f.kernel {
		dtr, err := newDualTrainer(&cfg, gram.Kernel(gram.Linear{}), 0, nil, X, n, d, cls, K, f.strategy == fit.Argmax)
		if err != nil {
			t.Fatal(err)
		}
		ep, ev := dtr.CheckedEpochs(cfg.epochs)
		return ep, ev, labels
	}
	dt, err := prepare(linmodel.KernelsFor[T](nil), X, n, d, cfg.scaling, cfg.bfeat, true)
	if err != nil {
		t.Fatal(err)
	}
	if f.strategy == fit.Argmax {
		at := newArgmaxTrainer(linmodel.KernelsFor[T](nil), &cfg, dt, cls, K, nil)
		at.Checked = true
		for ep := 1; ep <= cfg.epochs; ep++ {
			at.runEpoch(&epochStats{})
			if at.First.Found {
				return ep, at.First, labels
			}
		}
		return 0, divEvent{}, labels
	}
	lt := newLinTrainer(linmodel.KernelsFor[T](nil), &cfg, dt, cls, K, nil)
	lt.Checked = true
	grp, scratch := lt.groups()
	stats := make([]classStats, K)
	for ep := 1; ep <= cfg.epochs; ep++ {
		if _, err := lt.epoch(stats, grp, scratch); err != nil {
			t.Fatal(err)
		}
		if ev := (divEvent{}).Merge(stats); ev.Found {
			return ep, ev, labels
		}
	}
	return 0, divEvent{}, labels
}

// Data that overflows during training gives ErrDiverged naming the epoch
// and the sample (and class) of the first non-finite value, for every
// algorithm, linear and kernel, both element types: the epoch is the first
// that cannot run (MaxIter = Epoch − 1 trains a finite model), the sample
// is the one a run checking every update finds first, and in the first
// epoch of a binary linear fit it is the first sample whose prefix cannot
// train.
func TestDivergedNamesEpochAndSample(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testDiverged[float32](t) })
	t.Run("float64", func(t *testing.T) { testDiverged[float64](t) })
}

func testDiverged[T kernel.Float](t *testing.T) {
	M := maxOf[T]()
	later := 0 // cases that diverged after the first epoch
	for _, f := range divergeFits() {
		// Steps M/2^k: from overflow at the first update to overflow
		// of the averaging sums after tens of epochs.
		for _, sc := range []struct {
			k       int
			shuffle bool
		}{{0, false}, {2, false}, {4, false}, {5, false}, {5, true}, {7, false}, {10, false}, {10, true}} {
			sc := struct {
				name    string
				step    float64
				shuffle bool
			}{fmt.Sprintf("M/2^%d", sc.k), M / float64(int(1)<<sc.k), sc.shuffle}
			if sc.shuffle {
				sc.name += "-shuffled"
			}
			t.Run(f.name+"/"+sc.name, func(t *testing.T) {
				Xf, y := divergeData(11, 24, 3, f.multi)
				X := make([]T, len(Xf))
				for i, v := range Xf {
					X[i] = T(v)
				}
				const epochs = 40
				o := f.options(sc.step, epochs, sc.shuffle)
				finite, err := divergeTrain(f, X, 3, y, o)
				switch {
				case err == nil && !finite:
					t.Fatal("no error, and a model with non-finite weights")
				case err == nil:
					t.Skip("trained without overflow") // the table's other rows cover the algorithm
				case isErr(err, ErrOption):
					t.Skip(err) // 1/λ overflows: checked before training
				}
				var de *divergedError
				if !isErr(err, linear.ErrDiverged) || !errors.As(err, &de) {
					t.Fatalf("error %v, want a *divergedError", err)
				}
				if de.Type != linmodel.TypeName[T]() || de.HasClass != f.multi || de.Sample < 0 || de.Sample >= len(y) {
					t.Fatalf("%+v", de)
				}
				for _, want := range []string{fmt.Sprintf("epoch %d,", de.Epoch), fmt.Sprintf("sample %d", de.Sample)} {
					if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(err.Error()) {
						t.Fatalf("message %q does not name %q", err, want)
					}
				}
				if de.Epoch > 1 {
					later++
					o2 := o
					o2.MaxIter = de.Epoch - 1
					if finite, err := divergeTrain(f, X, 3, y, o2); err != nil || !finite {
						t.Fatalf("MaxIter = %d (the epoch before the one named): finite %v, %v", o2.MaxIter, finite, err)
					}
				}
				ep, ev, labels := firstChecked(t, f, X, 3, y, o)
				if !ev.Found || ep != de.Epoch || ev.Row != de.Sample || ev.Qty != de.Quantity || (f.multi && labels[ev.Class] != de.Class) {
					t.Fatalf("named %+v; the checked run finds epoch %d, %+v", de, ep, ev)
				}
				if de.Epoch == 1 && !f.multi && !f.kernel && !sc.shuffle && f.batch <= 1 && f.sweeps() && de.Sample >= 1 {
					// The first epoch over a prefix of the data visits the
					// same samples with the same state. (Not so for the
					// kernel perceptron, whose state includes the decision
					// values of the samples after the prefix.)
					o1 := o
					o1.MaxIter = 1
					if finite, err := divergeTrain(f, X[:de.Sample*3], 3, y[:de.Sample], o1); de.Sample >= 2 && (err != nil || !finite) {
						t.Fatalf("the samples before %d: finite %v, %v", de.Sample, finite, err)
					}
					_, err := divergeTrain(f, X[:(de.Sample+1)*3], 3, y[:de.Sample+1], o1)
					var de1 *divergedError
					if !errors.As(err, &de1) || *de1 != *de {
						t.Fatalf("the samples up to %d: %v, want %v", de.Sample, err, de)
					}
				}
			})
		}
	}
	if later == 0 {
		t.Error("no case diverged after its first epoch: the replay of a later epoch is untested")
	}
}

// A NaN score is never a correct prediction: the final evaluation counts it
// as a mistake, and a NaN score does not win the argmax.
func TestNaNScoreIsAMistake(t *testing.T) {
	k := linmodel.KernelsFor[float64](nil)
	dt, err := prepare(k, []float64{1, 0, 0, 1, 1, 1}, 3, 2, linear.ScaleNone, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	// Binary: every score is NaN.
	ev := evaluate(k, dt, []int32{0, -1, 0}, []float64{nan, 0}, []float64{0}, nil, 1, 1)
	if ev.cls[0].mistakes != 3 {
		t.Fatalf("binary: %d mistakes of 3 NaN scores", ev.cls[0].mistakes)
	}
	// Three classes; class 0 scores NaN, the others −1 and −2: class 0's
	// samples are not predicted right, and the others are mistakes of
	// class 0's binary problem too.
	W := []float64{nan, nan, 0, 0, 0, 0}
	B := []float64{0, -1, -2}
	ev = evaluate(k, dt, []int32{0, 1, 0}, W, B, nil, 3, 1)
	if ev.argmaxOK != 0 || ev.cls[0].mistakes != 3 {
		t.Fatalf("argmax: %d right, class 0 %d mistakes; want 0 and 3", ev.argmaxOK, ev.cls[0].mistakes)
	}
}

// Predict on a sample with a NaN (finite weights) is an error wrapping
// ErrNonFinite for every kind of model, never a label.
func TestPredictNaNSample(t *testing.T) {
	X, y := intMulticlass(newRand(5), 60, 3, 3)
	yb := make([]int, len(y))
	for i := range y {
		yb[i] = 1 - 2*(i%2)
	}
	x := []float64{1, math.NaN(), 2}
	type predictor interface{ Predict([]float64) (int, error) }
	var ms []predictor
	for _, o := range []Options{{}, {Algorithm: linear.Voted}, {Normalize: true}, {Algorithm: linear.Voted, Normalize: true}} {
		m, _, err := trainBinary(X, 3, yb, o)
		if err != nil {
			t.Fatal(err)
		}
		mc, _, err := trainMulti(X, 3, y, o)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m, mc)
	}
	ma, _, err := trainMulti(X, 3, y, Options{Multiclass: fit.Argmax})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []linear.Algorithm{linear.Online, linear.Voted} {
		km, _, err := trainKernelBinary(X, 3, yb, KernelOptions{Options: Options{Algorithm: a, MaxIter: 3}, Kernel: gram.RBF{Gamma: 0.1}})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, km)
	}
	ms = append(ms, ma)
	for i, m := range ms {
		if l, err := m.Predict(x); !isErr(err, linear.ErrNonFinite) {
			t.Fatalf("model %d: Predict = %d, %v; want ErrNonFinite", i, l, err)
		}
	}
}

// Update refuses a step that makes the weights non-finite and leaves the
// model as it was.
func TestUpdateDiverged(t *testing.T) {
	X := []float32{1, 0, -1, 0}
	m, _, err := trainBinary(X, 2, []int{1, -1}, Options{Eta: 3e38, NoBias: true})
	if err != nil {
		t.Fatal(err)
	}
	before := mustMarshal(t, m)
	// Score 0, a mistake: w += η·(0, 2) overflows the second weight.
	if _, err := m.Update([]float32{0, 2}, 1); !isErr(err, linear.ErrDiverged) {
		t.Fatalf("Update: %v, want ErrDiverged", err)
	}
	if !sameModel(t, m, func() *linear.Model[float32] {
		var c linear.Model[float32]
		if err := c.UnmarshalBinary(before); err != nil {
			t.Fatal(err)
		}
		return &c
	}()) || !linearFinite(m) {
		t.Fatal("a refused Update changed the model")
	}
}

// votedBytes returns the budget a voted model needs: every kept vector
// with its bias and count (linear), or every mistake and kept function
// (kernel).
func votedBytes[T kernel.Float](lm *linear.Model[T], km *expansion.Model[T]) int64 {
	sz := int64(unsafe.Sizeof(T(0)))
	if lm != nil {
		s := snap(lm)
		return int64(len(s.VC)) * (int64(s.Dims+1)*sz + 8)
	}
	s := kernelState(km)
	return int64(len(s.QIdx))*(4+sz) + int64(len(s.VC))*(12+sz)
}

// The voted perceptron stops with ErrBudget before its kept state exceeds
// Options.VotedMaxBytes: the exact size of a model is a budget that
// suffices (and trains the same model), one byte less fails, and the error
// names the number kept, at most the budget.
func TestVotedBudget(t *testing.T) {
	if DefaultVotedMaxBytes != 1<<30 {
		t.Fatalf("DefaultVotedMaxBytes = %d, documented as 1 GiB", DefaultVotedMaxBytes)
	}
	if c, err := (&Options{}).resolve(); err != nil || c.votedMax != DefaultVotedMaxBytes {
		t.Fatalf("the zero VotedMaxBytes resolves to %d, %v", c.votedMax, err)
	}
	Xf, yb := divergeData(21, 60, 4, false)
	_, ym := divergeData(22, 60, 4, true)
	X := to32(Xf)
	type fit func(budget int64) (need int64, model []byte, err error)
	enc := func(m interface{ MarshalBinary() ([]byte, error) }) []byte {
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	opt := func(b int64) Options {
		return Options{Algorithm: linear.Voted, MaxIter: 30, Stop: StopNever, Shuffle: true, Seed: 1, VotedMaxBytes: b}
	}
	fits := map[string]fit{
		"binary": func(b int64) (int64, []byte, error) {
			m, _, err := trainBinary(X, 4, yb, opt(b))
			if err != nil {
				return 0, nil, err
			}
			return votedBytes(m, nil), enc(m), nil
		},
		"ovr": func(b int64) (int64, []byte, error) {
			m, _, err := trainMulti(X, 4, ym, opt(b))
			if err != nil {
				return 0, nil, err
			}
			return votedBytes(m, nil), enc(m), nil
		},
		"kernel": func(b int64) (int64, []byte, error) {
			m, _, err := trainKernelBinary(X, 4, yb, KernelOptions{Options: opt(b)})
			if err != nil {
				return 0, nil, err
			}
			return votedBytes(nil, m), enc(m), nil
		},
		"kernel-ovr": func(b int64) (int64, []byte, error) {
			m, _, err := trainKernelMulti(X, 4, ym, KernelOptions{Options: opt(b)})
			if err != nil {
				return 0, nil, err
			}
			return votedBytes(nil, m), enc(m), nil
		},
	}
	usedRe := regexp.MustCompile(`\((\d+) bytes,? with`)
	for name, f := range fits {
		t.Run(name, func(t *testing.T) {
			need, model, err := f(-1)
			if err != nil {
				t.Fatal(err)
			}
			if need < 5000 {
				t.Fatalf("the model takes %d bytes: too few for a test of the budget", need)
			}
			if _, again, err := f(need); err != nil || string(again) != string(model) {
				t.Fatalf("budget = the model's %d bytes: %v (same model: %v)", need, err, string(again) == string(model))
			}
			for _, b := range []int64{need - 1, need / 3} {
				_, _, err := f(b)
				if !isErr(err, ErrBudget) {
					t.Fatalf("budget %d of %d needed: %v, want ErrBudget", b, need, err)
				}
				m := usedRe.FindStringSubmatch(err.Error())
				if m == nil {
					t.Fatalf("the error does not say how much was kept: %v", err)
				}
				if used, _ := strconv.ParseInt(m[1], 10, 64); used > b || used < b-need/10 {
					t.Fatalf("budget %d: kept %d bytes when it stopped", b, used)
				}
			}
			// Not even one final vector per class fits.
			if _, _, err := f(1); !isErr(err, ErrBudget) {
				t.Fatalf("budget of 1 byte: %v", err)
			}
		})
	}
}

// A score that overflows with finite weights is divergence too, even with
// the right sign (+Inf for a +1 sample, which the sequential perceptrons'
// fast path would otherwise pass as correct): the model could not score
// its own training data.
func TestScoreOverflowIsDiverged(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testScoreOverflow[float32](t) })
	t.Run("float64", func(t *testing.T) { testScoreOverflow[float64](t) })
}

func testScoreOverflow[T kernel.Float](t *testing.T) {
	// w = η after sample 0; sample 1 is right (score −η); sample 2 scores
	// 2η > M.
	X := []T{1, -1, 2}
	y := []int{1, -1, 1}
	eta := maxOf[T]() / 1.5
	for _, tc := range []struct {
		algo   linear.Algorithm
		kernel bool
		sample int
		qty    string
	}{
		{linear.Online, false, 2, "score"},
		{linear.Averaged, false, 2, "score"},
		{linear.Voted, false, 2, "score"},
		// The kernel perceptron keeps f(x₂) = η·K(x₀, x₂) = 2η from the
		// update on sample 0 on.
		{linear.Online, true, 0, "decision values"},
		{linear.Voted, true, 0, "decision values"},
	} {
		o := Options{Algorithm: tc.algo, Eta: eta, NoBias: true}
		var err error
		if tc.kernel {
			_, _, err = trainKernelBinary(X, 1, y, KernelOptions{Options: o})
		} else {
			_, _, err = trainBinary(X, 1, y, o)
		}
		want := divergedError{Epoch: 1, Sample: tc.sample, Quantity: tc.qty, Type: linmodel.TypeName[T]()}
		if de := (*divergedError)(nil); !errors.As(err, &de) || *de != want {
			t.Errorf("%v kernel %v: %v, want %v", tc.algo, tc.kernel, err, &want)
		}
	}
}

// TestVotedBudgetIsMemory checks that the voted perceptron's kept vectors
// cost about the bytes counted against VotedMaxBytes, not a multiple of
// them: on data it cannot separate, a fit that runs until the budget stops
// it allocates at most the budget plus the chunks' slack and the fixed
// costs of a fit. Vectors kept in a slice grown by append allocated about
// five times the budget in all (every regrowth copies).
func TestVotedBudgetIsMemory(t *testing.T) {
	const n, d, budget = 400, 64, 8 << 20
	rng := newRand(5)
	X := make([]float32, n*d)
	y := make([]int, n)
	for i := range X {
		X[i] = float32(rng.IntN(9) - 4)
	}
	for i := range y {
		y[i] = 2*rng.IntN(2) - 1 // random labels: not separable
	}
	opts := Options{Algorithm: linear.Voted, MaxIter: 1 << 20, Shuffle: true, Seed: 1, VotedMaxBytes: budget}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := trainBinary(X, d, y, opts)
	runtime.ReadMemStats(&after)
	if !isErr(err, ErrBudget) {
		t.Fatalf("err = %v, want ErrBudget", err)
	}
	fixed := int64(4 << 20) // the data's copy, norms, sampler, diagnostics: well under this
	got := int64(after.TotalAlloc - before.TotalAlloc)
	if limit := int64(budget) + 3*chunkMaxBytes + fixed; got > limit {
		t.Errorf("a voted fit with VotedMaxBytes = %d allocated %d bytes, more than %d", budget, got, limit)
	}
	t.Logf("VotedMaxBytes %d: the fit allocated %d bytes", budget, got)
}
