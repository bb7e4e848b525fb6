package perceptron

import (
	"errors"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestLinearStateRoundTrip: linear.State and NewLinear give back the model
// bit for bit (an averaged one with its state), and its file too.
func TestLinearStateRoundTrip(t *testing.T) {
	st := linear.State[float32]{Scheme: fit.OneVsRest, Algorithm: linear.Averaged, Dims: 2, Labels: []int{1, 4, 9}, Bias: true, BiasFeature: 2, Eta: 0.5, Steps: 3,
		W: []float32{1, 2, 3, 4, 5, 6}, B: []float32{1, 0, -1}, CW: []float32{6, 5, 4, 3, 2, 1}, CB: []float32{0, 1, 2},
		U: []float32{1, 1, 1, 1, 1, 1}, UB: []float32{3, 3, 3}}
	if _, err := linear.New(st); !errors.Is(err, linear.ErrOption) {
		t.Fatalf("weights that are not the average: %v, want ErrOption", err)
	}
	st.W, st.B = linmodel.AverageOf(st.CW, st.U, 3), linmodel.AverageOf(st.CB, st.UB, 3)
	m, err := linear.New(st)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.MarshalBinary()
	var m2 linear.Model[float32]
	if err := m2.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	got, err := m2.State()
	if err != nil {
		t.Fatal(err)
	}
	if got.Steps != 3 || got.Eta != 0.5 || got.BiasFeature != 2 || !slices.Equal(got.W, st.W) || !slices.Equal(got.B, st.B) || !slices.Equal(got.CW, st.CW) ||
		!slices.Equal(got.U, st.U) || !slices.Equal(got.UB, st.UB) || !slices.Equal(got.Labels, st.Labels) {
		t.Fatalf("round trip through the file: %+v", got)
	}
	// The state is a copy.
	got.W[0] = 99
	if again, _ := m2.State(); again.W[0] != st.W[0] {
		t.Fatal("linear.State shares the model's weights")
	}
}

func TestNewLinearRefuses(t *testing.T) {
	ok := linear.State[float64]{Scheme: fit.Binary, Algorithm: linear.Online, Dims: 2, Labels: []int{-1, 1}, W: []float64{0, 0}, B: []float64{0}, Eta: 1}
	for name, f := range map[string]func(s *linear.State[float64]){
		"voted":       func(s *linear.State[float64]) { s.Algorithm = linear.Voted },
		"kernel kind": func(s *linear.State[float64]) { s.Scheme = fit.Scheme(KindKernelBinary) },
		"no features": func(s *linear.State[float64]) { s.Dims = 0 },
		"labels":      func(s *linear.State[float64]) { s.Labels = []int{0, 1} },
		"weights":     func(s *linear.State[float64]) { s.W = s.W[:1] },
		"biases":      func(s *linear.State[float64]) { s.B = nil },
		"ovr unsorted": func(s *linear.State[float64]) {
			s.Scheme, s.Labels, s.W, s.B = fit.OneVsRest, []int{2, 1}, make([]float64, 4), make([]float64, 2)
		},
		"avg sums":     func(s *linear.State[float64]) { s.Algorithm, s.Steps = linear.Averaged, 4 },
		"stray sums":   func(s *linear.State[float64]) { s.U = []float64{1, 2} },
		"steps":        func(s *linear.State[float64]) { s.Steps = -1 },
		"bias feature": func(s *linear.State[float64]) { s.BiasFeature = 1 },
	} {
		s := ok
		f(&s)
		if _, err := linear.New(s); !errors.Is(err, linear.ErrOption) {
			t.Errorf("%s: %v, want ErrOption", name, err)
		}
	}
	if _, err := linear.New(ok); err != nil {
		t.Fatal(err)
	}
}
