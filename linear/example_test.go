package linear_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// Train an averaged perceptron, save it, load it back and predict.
func Example() {
	X := []float32{2, 1, 3, 2, -1, -2, -2, -1} // four samples of two features
	y := []int{1, 1, -1, -1}
	m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 2, y), y, perceptron.Options{Algorithm: linear.Averaged})
	if err != nil {
		fmt.Println(err)
		return
	}
	var file bytes.Buffer // or model.SaveFile and model.LoadFile, a path
	if err := model.Save(&file, m, model.Binary); err != nil {
		fmt.Println(err)
		return
	}
	back, err := model.Load(&file) // any model file of the module
	if err != nil {
		fmt.Println(err)
		return
	}
	label, _ := back.(*linear.Model[float32]).Predict([]float32{4, 4})
	fmt.Println(back, "predicts", label)
	// Output: binary averaged perceptron, float32, 2 features, classes -1 1 predicts 1
}

// A served model keeps learning: Update applies the perceptron rule while
// other goroutines may be calling Predict. A score of exactly 0 is a
// mistake for either label, so the untrained direction x = (0, 1) first
// predicts −1 and then moves w.
func ExampleModel_Update() {
	y := []int{1, -1}
	m, _, _ := perceptron.Fit(context.Background(), dataset.NewData([]float32{1, 0, -1, 0}, 2, y), y, perceptron.Options{})
	x := []float32{0, 1}
	before, _ := m.Predict(x)
	changed, _ := m.Update(x, 1) // a mistake: the model moves towards x
	after, _ := m.Predict(x)
	fmt.Println(before, changed, after)
	_, err := m.Update(x, 0)
	fmt.Println(errors.Is(err, linear.ErrLabels))
	// Output:
	// -1 true 1
	// true
}

// Models round-trip through a checksummed binary file (and JSON).
func ExampleModel_MarshalBinary() {
	X := []float32{2, 1, 3, 2, 2, 3, 4, 2, -1, -2, -2, -1, -3, -2, -1, -3}
	y := []int{1, 1, 1, 1, -1, -1, -1, -1}
	m, _, _ := perceptron.Fit(context.Background(), dataset.NewData(X, 2, y), y, perceptron.Options{})
	data, _ := m.MarshalBinary()
	fmt.Printf("%d bytes, %v, %v\n", len(data), m.Scheme(), m.Algorithm())

	var back linear.Model[float32]
	fmt.Println(back.UnmarshalBinary(data))
	data[len(data)/2] ^= 1
	fmt.Println(errors.Is(back.UnmarshalBinary(data), linear.ErrCorrupt))
	var wrong linear.Model[float64]
	data[len(data)/2] ^= 1
	fmt.Println(errors.Is(wrong.UnmarshalBinary(data), linear.ErrMismatch))
	// Output:
	// 72 bytes, binary, online
	// <nil>
	// true
	// true
}
