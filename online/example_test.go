package online_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/online"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// Train a perceptron, then keep learning while serving: each sample gets
// the label the model predicts before it learns the sample's label, every
// request is in the log before it is answered, and the learnt model is
// saved as any other.
func Example() {
	X := []float32{2, 1, 1, 2, -1, -2, -2, -1} // four samples of two features
	y := []int{1, 1, -1, -1}
	base, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 2, y), y, perceptron.Options{Algorithm: linear.Online})
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "learner")
	defer os.RemoveAll(dir)
	l, err := online.Open(dir, base, sha256.Sum256([]byte("base model file")), online.Options{})
	if err != nil {
		panic(err)
	}
	res, err := l.Learn("request-1", []online.Sample[float32]{{X: []float32{1, -3}, Y: 1}, {X: []float32{1, -3}, Y: 1}})
	fmt.Println("predicted", res.Predicted, "mistakes", res.Mistakes, "version", res.Version, err)
	learnt, _ := l.Model() // the model as it is now, to save as any other
	if err := l.Close(); err != nil {
		panic(err)
	}
	file, _ := model.Marshal(learnt, model.Binary)
	m, err := model.Unmarshal(file)
	c, _ := model.As[float32](m)
	label, _ := c.Predict([]float32{1, -3})
	fmt.Println(m, "→", label, err)
	// Output:
	// predicted [-1 1] mistakes 1 version 1 <nil>
	// binary online perceptron, float32, 2 features, classes -1 1 → 1 <nil>
}
