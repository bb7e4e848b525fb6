package perceptron

import (
	"errors"
	"math"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// streamFits are the models Update must continue: every algorithm with a
// rule of its own, binary, one-vs-rest and argmax.
var streamFits = []struct {
	name  string
	multi bool
	opt   Options
}{
	{"online", false, Options{Algorithm: linear.Online, Eta: 0.5}},
	{"averaged", false, Options{Algorithm: linear.Averaged, Eta: 0.5}},
	{"averaged-nobias", false, Options{Algorithm: linear.Averaged, NoBias: true}},
	{"voted", false, Options{Algorithm: linear.Voted, Eta: 2}},
	{"ovr-online", true, Options{Algorithm: linear.Online}},
	{"ovr-averaged", true, Options{Algorithm: linear.Averaged, Eta: 0.25}},
	{"ovr-voted", true, Options{Algorithm: linear.Voted}},
	{"argmax-online", true, Options{Algorithm: linear.Online, Multiclass: fit.Argmax}},
	{"argmax-averaged", true, Options{Algorithm: linear.Averaged, Multiclass: fit.Argmax, Eta: 2}},
	// A bias feature B that is not a power of two, with an η that is not
	// either: the steps' products must be formed in the same order.
	{"online-B", false, Options{Algorithm: linear.Online, Eta: 0.3, BiasFeature: 0.3}},
	{"averaged-B", false, Options{Algorithm: linear.Averaged, Eta: 0.3, BiasFeature: 0.3}},
	{"voted-B", false, Options{Algorithm: linear.Voted, Eta: 0.3, BiasFeature: 0.3}},
	{"ovr-averaged-B", true, Options{Algorithm: linear.Averaged, Eta: 0.3, BiasFeature: 0.1}},
	{"argmax-online-B", true, Options{Algorithm: linear.Online, Multiclass: fit.Argmax, Eta: 0.3, BiasFeature: 0.3}},
	{"argmax-averaged-B", true, Options{Algorithm: linear.Averaged, Multiclass: fit.Argmax, Eta: 0.3, BiasFeature: 0.1}},
}

// Update continues the algorithm that trained the model: training on the
// beginning of a stream (one epoch) and then one Update per remaining
// sample, in order, gives the model that training on the whole stream
// (one epoch) gives, bit for bit on integer data, for float32 and float64.
// The same holds for a second pass: Updates over the data again after one
// epoch give the two-epoch model.
func TestUpdateContinuesTraining(t *testing.T) {
	Xb, yb, _, _ := separable(newRand(80), 120, 6, 3, 0.5, true)
	for i := 0; i < len(yb); i += 11 {
		yb[i] = -yb[i] // not separable: mistakes in every epoch
	}
	Xm, ym := intMulticlass(newRand(81), 150, 6, 4)
	for _, f := range streamFits {
		t.Run(f.name, func(t *testing.T) {
			X, y := Xb, yb
			if f.multi {
				X, y = Xm, ym
			}
			streamCase[float64](t, f.opt, f.multi, X, y, 6)
			streamCase[float32](t, f.opt, f.multi, to32(X), y, 6)
		})
	}
}

func streamCase[T kernel.Float](t *testing.T, opt Options, multi bool, X []T, y []int, d int) {
	t.Helper()
	train := func(X []T, y []int, epochs int) *linear.Model[T] {
		o := opt
		o.MaxIter, o.Stop = epochs, StopNever
		var m *linear.Model[T]
		var err error
		if multi {
			m, _, err = trainMulti(X, d, y, o)
		} else {
			m, _, err = trainBinary(X, d, y, o)
		}
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	n := len(y)
	for _, k := range []int{n / 3, n - 1} {
		m := train(X[:k*d], y[:k], 1)
		for i := k; i < n; i++ {
			if _, err := m.Update(X[i*d:(i+1)*d], y[i]); err != nil {
				t.Fatal(err)
			}
		}
		whole := train(X, y, 1)
		if !sameModel(t, m, whole) {
			t.Fatalf("%T: training on %d samples and %d Updates is not training on all %d", X[0], k, n-k, n)
		}
		if m.Steps() != int64(n) {
			t.Fatalf("%T: %d steps, want %d", X[0], m.Steps(), n)
		}
	}
	m := train(X, y, 1)
	for i := range n {
		if _, err := m.Update(X[i*d:(i+1)*d], y[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !sameModel(t, m, train(X, y, 2)) {
		t.Fatalf("%T: one epoch and a pass of Updates is not two epochs", X[0])
	}
}

// Update on an SVM model takes the next Pegasos step (t = Steps() + 1,
// λ of training): it follows training on the stream closely (training
// keeps w as a scale times a vector, so not bit for bit), and moves the
// weights on every sample (the shrink), not only on a perceptron mistake.
func TestUpdatePegasos(t *testing.T) {
	X, y, _, _ := separable(newRand(82), 200, 5, 3, 0.5, true)
	for _, multi := range []bool{false, true} {
		labels := y
		if multi {
			labels = make([]int, len(y))
			for i := range y {
				labels[i] = (i % 3) * y[i]
			}
		}
		opt := Options{Algorithm: linear.SVM, Lambda: 0.05, MaxIter: 1}
		train := func(k int) *linear.Model[float64] {
			var m *linear.Model[float64]
			var err error
			if multi {
				m, _, err = trainMulti(X[:k*5], 5, labels[:k], opt)
			} else {
				m, _, err = trainBinary(X[:k*5], 5, labels[:k], opt)
			}
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		m := train(50)
		w0, _ := m.Weights(0)
		for i := 50; i < len(y); i++ {
			if _, err := m.Update(X[i*5:(i+1)*5], labels[i]); err != nil {
				t.Fatal(err)
			}
		}
		whole := train(len(y))
		for k := range m.NumScores() {
			w, b := m.Weights(k)
			ww, wb := whole.Weights(k)
			for j, v := range append(w, b) {
				want := append(ww, wb)[j]
				if math.Abs(v-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("multi %v score %d weight %d: Updates %v, training %v", multi, k, j, v, want)
				}
			}
		}
		if w1, _ := m.Weights(0); slices.Equal(w0, w1) {
			t.Fatal("the Updates did not move the weights")
		}
	}
}

// A voted model adds a vector on a mistake of its current one and credits
// it otherwise; an averaged model's served weights move with every sample.
func TestUpdateVotedAndAveraged(t *testing.T) {
	X := []float64{2, 1, -1, -2}
	y := []int{1, -1}
	v, _, err := trainBinary(X, 2, y, Options{Algorithm: linear.Voted, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	vs, _, vc := v.Voted(0)
	if changed, err := v.Update([]float64{3, 1}, 1); err != nil || changed {
		t.Fatalf("a correct sample: changed %v, %v", changed, err)
	}
	vs2, _, vc2 := v.Voted(0)
	if len(vs2) != len(vs) || vc2[len(vc2)-1] != vc[len(vc)-1]+1 {
		t.Fatalf("a correct sample: counts %v → %v", vc, vc2)
	}
	if changed, err := v.Update([]float64{3, 1}, -1); err != nil || !changed {
		t.Fatalf("a mistake: changed %v, %v", changed, err)
	}
	vs3, vb3, vc3 := v.Voted(0)
	last := vs2[len(vs2)-1]
	if len(vs3) != len(vs2)+1 || vc3[len(vc3)-1] != 1 || !slices.Equal(vs3[len(vs3)-1], []float64{last[0] - 3, last[1] - 1}) || vb3[len(vb3)-1] != vb3[len(vb3)-2]-1 {
		t.Fatalf("a mistake: vectors %v biases %v counts %v", vs3, vb3, vc3)
	}

	// The second sample is a mistake: the average (1.5, 0) is not the
	// running (1, −1).
	a, _, err := trainBinary([]float64{2, 1, 1, 2}, 2, y, Options{Algorithm: linear.Averaged, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	w0, _ := a.Weights(0)
	if changed, err := a.Update([]float64{3, 1}, 1); err != nil || changed {
		t.Fatalf("averaged, a correct sample: changed %v, %v", changed, err)
	}
	if w1, _ := a.Weights(0); slices.Equal(w0, w1) {
		t.Fatal("the average did not move towards the running weights")
	}
}

// Models of version-1 files hold no training state: an averaged or SVM one
// cannot continue (ErrUnsupported, model unchanged); an online one can.
func TestUpdateVersion1(t *testing.T) {
	for _, tc := range []struct {
		file string
		want error
	}{
		{"binary-averaged", linear.ErrUnsupported},
		{"binary-svm", linear.ErrUnsupported},
		{"binary-online-normalize", nil},
	} {
		data, err := os.ReadFile("testdata/v1/" + tc.file + ".model")
		if err != nil {
			t.Fatal(err)
		}
		var m linear.Model[float32]
		if err := m.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		before := mustMarshal(t, &m)
		_, err = m.Update([]float32{1, -2, 3}, -1)
		if !errors.Is(err, tc.want) || (err != nil && string(mustMarshal(t, &m)) != string(before)) {
			t.Fatalf("%s: Update: %v, want %v", tc.file, err, tc.want)
		}
		if m.Steps() != 0 {
			t.Fatalf("%s: a version-1 model counts %d steps", tc.file, m.Steps())
		}
	}
}

// Update while other goroutines predict, for the models whose Update
// builds a new snapshot every call (averaged) or appends (voted): run with
// -race. Readers must see whole snapshots: both weights of every vector
// are equal, because every update adds the same amount to both.
func TestConcurrentUpdateAlgorithms(t *testing.T) {
	for _, algo := range []linear.Algorithm{linear.Averaged, linear.Voted} {
		m, _, err := trainBinary([]float32{1, 1, -1, -1}, 2, []int{1, -1}, Options{Algorithm: algo})
		if err != nil {
			t.Fatal(err)
		}
		trained := m.Steps()
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 3 {
			wg.Go(func() {
				sc := make([]float32, 1)
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := m.Predict([]float32{0.5, 0.5}); err != nil {
						t.Error(err)
						return
					}
					if err := m.Scores(sc, []float32{1, 1}); err != nil {
						t.Error(err)
						return
					}
					w, _ := m.Weights(0)
					vs, _, _ := m.Voted(0)
					for _, v := range append(vs, w) {
						if v != nil && v[0] != v[1] {
							t.Errorf("%v: torn snapshot %v", algo, v)
							return
						}
					}
				}
			})
		}
		for i := range 1000 {
			y := 1 - 2*(i%2)
			if _, err := m.Update([]float32{1, 1}, y); err != nil {
				t.Fatal(err)
			}
		}
		close(stop)
		wg.Wait()
		if m.Steps() != trained+1000 {
			t.Fatalf("%v: %d steps after %d in training and 1000 Updates", algo, m.Steps(), trained)
		}
	}
}

// An Update that would overflow the averaging sums is refused, and the
// model is unchanged.
func TestUpdateAveragedDiverged(t *testing.T) {
	m, _, err := trainBinary([]float32{1, 0, -1, 0}, 2, []int{1, -1}, Options{Algorithm: linear.Averaged, Eta: 1e38, NoBias: true})
	if err != nil {
		t.Fatal(err)
	}
	before := mustMarshal(t, m)
	// A mistake at step 2: u += 2·η·x overflows (2·1e38·3 > 3.4e38).
	if _, err := m.Update([]float32{0, 3}, 1); !errors.Is(err, linear.ErrDiverged) {
		t.Fatalf("Update: %v, want ErrDiverged", err)
	}
	if string(mustMarshal(t, m)) != string(before) {
		t.Fatal("a refused Update changed the model")
	}
}
