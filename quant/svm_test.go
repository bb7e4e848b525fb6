package quant

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// TestLinearSVM quantises linear SVMs (binary with labels 3 and 7, and
// one-vs-rest) of both element types: the weights are the float weights
// rounded to their row's scale, the scores and labels equal the reference
// loop bit for bit, and the file round-trips byte for byte.
func TestLinearSVM(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		name   string
		d, cls int
		wide   bool
	}{{"binary/float32", 20, 2, false}, {"binary/float64", 9, 2, true}, {"ovr4/float32", 33, 4, false}, {"ovr3/float64", 64, 3, true}} {
		t.Run(tc.name, func(t *testing.T) {
			X, y := randData(rng, 80, tc.d, tc.cls)
			if tc.cls == 2 {
				for i := range y {
					y[i] = 5 + 2*y[i] // 3 and 7
				}
			}
			var m Linear
			var err error
			if tc.wide {
				m, _, err = svm.FitLinear(context.Background(), dataset.NewData(X, tc.d, y), y, svm.LinearOptions{C: 1, Seed: 1})
			} else {
				m, _, err = svm.FitLinear(context.Background(), dataset.NewData(to32(X), tc.d, y), y, svm.LinearOptions{C: 1, Seed: 1})
			}
			if err != nil {
				t.Fatal(err)
			}
			q, err := New(m)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(q.String(), "int8 quantised linear SVM") {
				t.Errorf("String = %q", q.String())
			}
			if got, want := q.Classes(), m.Classes(); !slices.Equal(got, want) || q.NumScores() != m.NumScores() {
				t.Fatalf("classes %v and %d scores, the model's %v and %d", got, q.NumScores(), want, m.NumScores())
			}
			for k := range q.NumScores() {
				var w []float64
				var b float64
				if tc.wide {
					w, b = m.(*linear.Model[float64]).Weights(k)
				} else {
					w32, b32 := m.(*linear.Model[float32]).Weights(k)
					w, b = make([]float64, len(w32)), float64(b32)
					for i, v := range w32 {
						w[i] = float64(v)
					}
				}
				qw, s, qb := q.Weights(k)
				if qb != float32(b) {
					t.Fatalf("row %d: bias %v, the model's %v", k, qb, b)
				}
				for i := range w {
					if e := math.Abs(w[i] - float64(s)*float64(qw[i])); e > float64(s)/2*(1+1e-6) {
						t.Fatalf("row %d: weight %d = %v quantised to %d·%v", k, i, w[i], qw[i], s)
					}
				}
			}
			_, _, vs := samples(rng, tc.d)
			got := make([]float32, q.NumScores())
			ints := make([]int32, tc.d)
			for j, v := range vs {
				for i := range ints {
					ints[i] = int32(v[i])
				}
				sx := float32(0.01 + rng.Float64())
				want := refScores(q, ints, sx)
				if err := q.ScoresI8(got, v, sx); err != nil {
					t.Fatal(err)
				}
				for k := range want {
					if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
						t.Fatalf("sample %d: score %d = %v, the reference %v", j, k, got[k], want[k])
					}
				}
				if l, err := q.PredictI8(v, sx); err != nil || l != refLabel(q, want) {
					t.Fatalf("sample %d: label %d, %v, the reference %d", j, l, err, refLabel(q, want))
				}
			}
			// The labels the float model predicts where its score is
			// clearly away from 0: the quantised model's rounding cannot
			// flip them (a swapped label order would).
			agree, clear := 0, 0
			for i := range 80 {
				x := X[i*tc.d : (i+1)*tc.d]
				var want int
				var margin float64
				if tc.wide {
					lm := m.(*linear.Model[float64])
					want, _ = lm.Predict(x)
					sc := make([]float64, lm.NumScores())
					lm.Scores(sc, x)
					margin = sc[0]
					if len(sc) > 1 {
						margin = 1 // one-vs-rest: the argmax, checked as a whole below
					}
				} else {
					lm := m.(*linear.Model[float32])
					x32 := to32(x)
					want, _ = lm.Predict(x32)
					sc := make([]float32, lm.NumScores())
					lm.Scores(sc, x32)
					margin = float64(sc[0])
					if len(sc) > 1 {
						margin = 1
					}
				}
				if math.Abs(margin) < 0.5 {
					continue
				}
				clear++
				if got, err := q.Predict(to32(x)); err == nil && got == want {
					agree++
				}
			}
			if clear == 0 || agree < clear*9/10 {
				t.Errorf("the quantised model agrees with the linear SVM on %d of %d rows with a clear score", agree, clear)
			}
			if v := q.OnInt8(kernel.ActiveImpl().Int8()); v.String() != q.String() {
				t.Errorf("OnInt8's copy describes itself as %q", v.String())
			}
			data, err := q.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := back.MarshalBinary()
			if !bytes.Equal(data, again) || back.String() != q.String() {
				t.Error("the file does not round-trip")
			}
		})
	}
}
