package perceptron

import "testing"

// TestDecide: the linear and the kernel models turn scores into a label by
// one rule (decideLabel): the sign for a binary model, 0 counting as −1;
// otherwise the label of the highest score, the first (smaller) label on a
// tie, wherever the tie is.
func TestDecide(t *testing.T) {
	labels := []int{-4, 2, 7, 9}
	tests := []struct {
		name   string
		binary bool
		sc     []float32
		want   int
	}{
		{"binary positive", true, []float32{0.5}, 1},
		{"binary zero", true, []float32{0}, -1},
		{"binary negative zero", true, []float32{-0.0}, -1},
		{"binary negative", true, []float32{-3}, -1},
		{"highest first", false, []float32{5, 1, 2, 3}, -4},
		{"highest last", false, []float32{1, 2, 3, 5}, 9},
		{"tie first and last", false, []float32{5, 1, 2, 5}, -4},
		{"tie in the middle", false, []float32{1, 5, 5, 2}, 2},
		{"tie of three", false, []float32{0, 3, 3, 3}, 2},
		{"all equal", false, []float32{-1, -1, -1, -1}, -4},
		{"negative scores", false, []float32{-5, -2, -3, -9}, 2},
	}
	for _, tt := range tests {
		ls := labels
		ker := &kstate[float32]{kind: KindKernelOneVsRest, labels: ls}
		if tt.binary {
			ker.kind = KindKernelBinary
		}
		if got := decideLabel(tt.binary, ls, tt.sc); got != tt.want {
			t.Errorf("%s: linear decide(%v) = %d, want %d", tt.name, tt.sc, got, tt.want)
		}
		if got := ker.decide(tt.sc); got != tt.want {
			t.Errorf("%s: kernel decide(%v) = %d, want %d", tt.name, tt.sc, got, tt.want)
		}
	}
}
