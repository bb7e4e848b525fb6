// Package describe writes the one-line description of a trained model that
// the models' String methods return and the command prints, e.g. "ovr
// averaged perceptron, float32, 4 features, classes 0 1 2".
package describe

import (
	"fmt"
	"strconv"
	"strings"
)

// Scaling is how a perceptron scales its samples (linear.Scaling's
// values).
type Scaling int

const (
	ScaleNone      Scaling = iota
	ScaleAugmented         // (x, B)/‖(x, B)‖, or x/‖x‖ without a bias
	ScaleFeatures          // x/‖x‖
)

// Perceptron describes a perceptron model: kind and algo name it ("ovr",
// "averaged perceptron"), kernel is the kernel function's name or empty,
// typ what it computes in ("float32"), support its support vectors (−1 for
// a linear model); hasBias, B and scaling are the model's bias and
// scaling.
func Perceptron(kind, algo, kernel, typ string, dims, support int, classes []int, hasBias bool, B float64, scaling Scaling) string {
	s := kind + " " + algo
	if kernel != "" {
		s += ", " + kernel
	}
	s += fmt.Sprintf(", %s, %d features", typ, dims)
	if support >= 0 {
		s += fmt.Sprintf(", %d support vectors", support)
	}
	s += ", classes " + Labels(classes)
	switch {
	case !hasBias:
		s += ", no bias"
	case B != 1:
		s += fmt.Sprintf(", bias feature B = %g", B)
	}
	switch scaling {
	case ScaleAugmented:
		aug := fmt.Sprintf("(x, %g)", B)
		if !hasBias {
			aug = "x" // without a bias the scaling takes x alone
		}
		s += ", samples normalised as " + aug + "/‖" + aug + "‖"
	case ScaleFeatures:
		s += ", samples normalised as x/‖x‖"
	}
	return s
}

// MaxListed is the most labels Labels lists: a model of 20,000 classes
// would otherwise be described in some 100 KB.
const MaxListed = 20

// Labels formats labels as "-1 1"; more than MaxListed as their first
// MaxListed−4, "…", the last 3 and their count: "0 1 … 19997 19998 19999
// (20000 labels)".
func Labels(v []int) string {
	var b strings.Builder
	for i, x := range v {
		if len(v) > MaxListed && i == MaxListed-4 {
			b.WriteString(" …")
		}
		if len(v) > MaxListed && i >= MaxListed-4 && i < len(v)-3 {
			continue
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
	if len(v) > MaxListed {
		fmt.Fprintf(&b, " (%d labels)", len(v))
	}
	return b.String()
}

// Algorithm names a perceptron algorithm for people from its short name
// (linear.Algorithm's String): "averaged" is "averaged perceptron",
// "svm" is "linear SVM (Pegasos)".
func Algorithm(name string) string {
	switch name {
	case "minibatch":
		return "mini-batch perceptron"
	case "svm":
		return "linear SVM (Pegasos)"
	case "dcd":
		return "linear SVM (dual coordinate descent)"
	case "online", "batch", "averaged", "voted":
		return name + " perceptron"
	}
	return name
}
