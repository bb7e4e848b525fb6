package linear

import "testing"

// TestDecide: a linear model turns scores into a label by one rule
// (decideLabel): the sign for a binary model, 0 counting as −1 (the
// smaller of a linear SVM's two labels, 3 and 7 here); otherwise
// the label of the highest score, the first (smaller) label on a tie,
// wherever the tie is. (Package expansion's TestDecide checks the same
// rule of the kernel models.)
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
		{"binary 3 7 positive", true, []float32{0.5}, 7},
		{"binary 3 7 zero", true, []float32{0}, 3},
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
		if tt.binary {
			ls = []int{-1, 1}
			if tt.want == 3 || tt.want == 7 {
				ls = []int{3, 7}
			}
		}
		if got := decideLabel(tt.binary, ls, tt.sc); got != tt.want {
			t.Errorf("%s: decideLabel(%v) = %d, want %d", tt.name, tt.sc, got, tt.want)
		}
	}
}
