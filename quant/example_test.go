package quant_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// Train the averaged perceptron, quantise it to int8 weights, save it, load
// the file back as any model, and predict: the quantised model takes the
// same float32 samples (it quantises each one to uint8 itself).
func Example() {
	X := []float32{3, 1, 2, 3, 4, 2, -1, -2, -3, -1, -2, -4} // six samples of two features
	y := []int{1, 1, 1, -1, -1, -1}
	trained, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 2, y), y,
		perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5})
	if err != nil {
		panic(err)
	}
	q, err := quant.New(trained)
	if err != nil {
		panic(err)
	}
	var file bytes.Buffer
	if err := model.Save(&file, q, model.Binary); err != nil {
		panic(err)
	}
	m, err := model.Load(&file)
	if err != nil {
		panic(err)
	}
	c, _ := model.As[float32](m) // a quantised model is a Classifier[float32]
	label, err := c.Predict([]float32{2, 2})
	fmt.Println(m, "→", label, err)
	// Output: int8 quantised binary averaged perceptron, float32 input, 2 features, classes -1 1 → 1 <nil>
}
