package perceptron

import "testing"

func TestSmoke(t *testing.T) {
	X := []float32{1, 1, 2, 2, -1, -1, -2, -1}
	y := []int{1, 1, -1, -1}
	for a := Online; a < numAlgorithms; a++ {
		m, d, err := Train(X, 2, y, Options{Algorithm: a, Lambda: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		acc, err := m.Accuracy(X, y)
		t.Logf("%v acc=%v diag=%+v", a, acc, *d)
	}
}
