package quant

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/fixtures"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// loadFashion loads a Fashion-MNIST split, skipping the test when the data
// is not installed, except under CI=true, where that fails.
func loadFashion(t *testing.T, split string) *dataset.Data[float32] {
	t.Helper()
	d, err := fixtures.FashionMNIST[float32]("", split)
	if errors.Is(err, fs.ErrNotExist) && os.Getenv("CI") != "true" {
		t.Skipf("Fashion-MNIST is not installed in %s (apt-get install dataset-fashion-mnist): %v", fixtures.FashionMNISTDir, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFashionMNISTAccuracy: quantising an averaged one-vs-rest and an
// argmax model trained on 10 000 Fashion-MNIST rows loses at most 0.5
// point of test accuracy (10 000 rows), with the pixels given as bytes
// (scale 1/255) and with the float32 features quantised per vector.
func TestFashionMNISTAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 30 MB of Fashion-MNIST")
	}
	tr := loadFashion(t, "train").Subset(10000)
	te := loadFashion(t, "t10k")
	pixels := make([]uint8, len(te.X))
	for i, v := range te.X {
		pixels[i] = uint8(math.Round(float64(v) * 255))
	}
	for _, s := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
		m, _, err := perceptron.Fit(context.Background(), tr, tr.Y, perceptron.Options{Algorithm: linear.Averaged, Multiclass: s, MaxIter: 5, Shuffle: true, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		acc, err := m.Accuracy(te.X, te.Y)
		if err != nil {
			t.Fatal(err)
		}
		q, err := New(m)
		if err != nil {
			t.Fatal(err)
		}
		d := te.Cols
		okU8, okF := 0, 0
		for i, y := range te.Y {
			l, err := q.PredictU8(pixels[i*d:(i+1)*d], 1.0/255, 0)
			if err != nil {
				t.Fatal(err)
			}
			if l == y {
				okU8++
			}
			if l, err = q.Predict(te.X[i*d : (i+1)*d]); err != nil {
				t.Fatal(err)
			}
			if l == y {
				okF++
			}
		}
		n := float64(len(te.Y))
		accU8, accF := float64(okU8)/n, float64(okF)/n
		t.Logf("%v: float32 %.2f%%, int8 pixels %.2f%%, int8 per-vector %.2f%%", s, 100*acc, 100*accU8, 100*accF)
		if acc-accU8 > 0.005 || acc-accF > 0.005 {
			t.Errorf("%v: quantisation loses more than 0.5 point: float32 %.4f, pixels %.4f, per-vector %.4f", s, acc, accU8, accF)
		}
	}
}
