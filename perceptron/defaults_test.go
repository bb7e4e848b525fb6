package perceptron

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// The six points of TestAveragedRunsAllEpochs, by hand. From w = 0, b = 0,
// η = 1, epoch 1 errs on x₁ (score 0: w = (1, 1), b = 1), on x₄ (score 0:
// w = (2, 1), b = 0) and on x₆ (score 1.5: w = (1, 1.5), b = −1); epoch 2
// is clean (scores 1.5, 1.75, 2.5 and −2, −2.5, −0.75). The vectors in
// force after each visit are (1, 1) three times, (2, 1) twice, then
// (1, 1.5) for every later visit, with biases 1, 0, −1.
//
// Stopped after the clean epoch (12 visits): w̄ = (14, 15.5)/12 =
// (7/6, 31/24), b̄ = (3 − 7)/12 = −1/3. Run for all 20 epochs (120 visits):
// w̄ = (3 + 4 + 115, 3 + 2 + 172.5)/120 = (61/60, 71/48),
// b̄ = (3 − 115)/120 = −14/15. The voted perceptron keeps the same three
// vectors with survival counts 3, 2 and 7 (stopped) or 115 (20 epochs).
var sixX = []float64{1, 1, 2, 0.5, 0.5, 2, -1, 0, 0, -1, 1, -0.5}
var sixY = []int{1, 1, 1, -1, -1, -1}

func TestAveragedRunsAllEpochs(t *testing.T) {
	data := dataset.NewData(sixX, 2, sixY)
	for _, tc := range []struct {
		stop   Stopping
		epochs int
		w      [2]float64
		b      float64
	}{
		{StopDefault, 20, [2]float64{61.0 / 60, 71.0 / 48}, -14.0 / 15},
		{StopNever, 20, [2]float64{61.0 / 60, 71.0 / 48}, -14.0 / 15},
		{StopClean, 2, [2]float64{7.0 / 6, 31.0 / 24}, -1.0 / 3},
	} {
		for _, rows := range []dataset.Rows[float64]{data, mustCSR(t, data)} {
			m, rep, err := Fit(context.Background(), rows, sixY, Options{Algorithm: linear.Averaged, MaxIter: 20, Stop: tc.stop})
			if err != nil {
				t.Fatal(err)
			}
			w, b := m.Weights(0)
			if rep.Epochs != tc.epochs || math.Abs(w[0]-tc.w[0]) > 1e-12 || math.Abs(w[1]-tc.w[1]) > 1e-12 || math.Abs(b-tc.b) > 1e-12 {
				t.Errorf("%T, Stop %d: %d epochs, w = %v, b = %v; want %d epochs, w = %v, b = %v", rows, tc.stop, rep.Epochs, w, b, tc.epochs, tc.w, tc.b)
			}
		}
	}
}

func TestVotedRunsAllEpochs(t *testing.T) {
	data := dataset.NewData(sixX, 2, sixY)
	for _, tc := range []struct {
		stop   Stopping
		epochs int
		last   float64
	}{
		{StopDefault, 20, 115},
		{StopClean, 2, 7},
	} {
		m, rep, err := Fit(context.Background(), data, sixY, Options{Algorithm: linear.Voted, MaxIter: 20, Stop: tc.stop})
		if err != nil {
			t.Fatal(err)
		}
		vecs, biases, counts := m.Voted(0)
		want := [][]float64{{1, 1}, {2, 1}, {1, 1.5}}
		wantB := []float64{1, 0, -1}
		wantC := []float64{3, 2, tc.last}
		if rep.Epochs != tc.epochs || len(vecs) != 3 {
			t.Fatalf("Stop %d: %d epochs, %d vectors; want %d epochs, 3 vectors", tc.stop, rep.Epochs, len(vecs), tc.epochs)
		}
		for k := range vecs {
			if vecs[k][0] != want[k][0] || vecs[k][1] != want[k][1] || biases[k] != wantB[k] || float64(counts[k]) != wantC[k] {
				t.Errorf("Stop %d: vector %d = %v, b %v, count %v; want %v, %v, %v", tc.stop, k, vecs[k], biases[k], counts[k], want[k], wantB[k], wantC[k])
			}
		}
	}
}

// TestOnlineStopsClean: the other rules keep stopping at the first clean
// epoch by default (their weights cannot change after it).
func TestOnlineStopsClean(t *testing.T) {
	m, rep, err := Fit(context.Background(), dataset.NewData(sixX, 2, sixY), sixY, Options{MaxIter: 20})
	if err != nil {
		t.Fatal(err)
	}
	w, b := m.Weights(0)
	if rep.Epochs != 2 || !rep.Converged || w[0] != 1 || w[1] != 1.5 || b != -1 {
		t.Errorf("online: %d epochs (converged %v), w = %v, b = %v; want 2 epochs, (1, 1.5), −1", rep.Epochs, rep.Converged, w, b)
	}
}

// TestKernelWarmStart: the six points' first epoch errs on x₁, x₄ and x₆
// (see sixX), so α₀ = (1, 0, 0, 1, 0, 1), b₀ = −1 is the dual perceptron
// after it, and with the linear kernel its function is w = x₁ − x₄ − x₆ =
// (1, 1.5), b = −1, which separates the points. Started there, the kernel
// perceptron makes no mistake and stops after one epoch with those
// coefficients (η·y·α = 1, 0, 0, −1, 0, −1); the averaged one is the
// linear averaged perceptron started from w₀ = (1, 1.5), b₀ = −1.
func TestKernelWarmStart(t *testing.T) {
	ctx := context.Background()
	data := dataset.NewData(sixX, 2, sixY)
	start := Dual{Alpha: []float64{1, 0, 0, 1, 0, 1}, B: []float64{-1}}
	for _, rows := range []dataset.Rows[float64]{data, mustCSR(t, data)} {
		m, rep, err := FitKernel(ctx, rows, sixY, KernelOptions{Options: Options{MaxIter: 20, Init: start}})
		if err != nil {
			t.Fatal(err)
		}
		coef, b := m.Coefficients(0)
		want := map[int]float64{0: 1, 3: -1, 5: -1}
		for k, i := range m.SupportIndices() {
			if coef[k] != want[i] {
				t.Errorf("%T: coefficient of row %d = %v, want %v", rows, i, coef[k], want[i])
			}
		}
		if len(coef) != 3 || b != -1 || rep.Epochs != 1 || rep.Mistakes != 0 || !rep.Converged {
			t.Errorf("%T: %d coefficients, b = %v, %d epochs, %d mistakes; want 3, −1, 1 epoch, none", rows, len(coef), b, rep.Epochs, rep.Mistakes)
		}
	}
	avg := Options{Algorithm: linear.Averaged, MaxIter: 3}
	km, _, err := FitKernel(ctx, data, sixY, KernelOptions{Options: Options{Algorithm: linear.Averaged, MaxIter: 3, Init: start}})
	if err != nil {
		t.Fatal(err)
	}
	avg.Init = Weights{W: []float64{1, 1.5}, B: []float64{-1}}
	lm, _, err := Fit(ctx, data, sixY, avg)
	if err != nil {
		t.Fatal(err)
	}
	ks, ls := make([]float64, 1), make([]float64, 1)
	for _, x := range [][]float64{{1, 1}, {-1, 0}, {0.25, -3}, {2, 2}} {
		if err := km.Scores(ks, x); err != nil {
			t.Fatal(err)
		}
		if err := lm.Scores(ls, x); err != nil {
			t.Fatal(err)
		}
		if math.Abs(ks[0]-ls[0]) > 1e-12 {
			t.Errorf("averaged score of %v: kernel from α₀ %v, linear from w₀ %v", x, ks[0], ls[0])
		}
	}
	for name, bad := range map[string]KernelOptions{
		"length":   {Options: Options{Init: Dual{Alpha: []float64{1}}}},
		"fraction": {Options: Options{Init: Dual{Alpha: []float64{0.5, 0, 0, 0, 0, 0}}}},
		"negative": {Options: Options{Init: Dual{Alpha: []float64{-1, 0, 0, 0, 0, 0}}}},
		"voted":    {Options: Options{Algorithm: linear.Voted, Init: start}},
		"weights":  {Options: Options{Init: Weights{W: []float64{1, 1}}}},
		"nobias":   {Options: Options{NoBias: true, Init: start}},
	} {
		if _, _, err := FitKernel(ctx, data, sixY, bad); !errors.Is(err, ErrOption) {
			t.Errorf("%s: %v, want ErrOption", name, err)
		}
	}
}
