package fit

import (
	"errors"
	"fmt"
	"strings"
)

// Scheme is how a classifier of more than two classes is built from
// decision functions, and how a model turns its scores into a label. It is
// the trainers' Options.Multiclass (perceptron.Options, svm.Options) and
// what a trained model reports (linear.Model.Scheme,
// expansion.Model.Scheme).
type Scheme uint8

const (
	// Auto is the zero value: the trainer's default. Labels that are all
	// −1 or +1 train a binary model (two classes for the SVMs); more take
	// OneVsRest for the perceptrons and the linear SVM, OneVsOne for the
	// kernel SVM (LIBSVM's choice). Continuing a model keeps its scheme. A
	// trained model never reports Auto.
	Auto Scheme = iota
	// Binary is one decision function for two classes: a score above 0
	// predicts the larger label (+1), anything else the smaller. Asked
	// for, it refuses other labels: more than two classes, or for the
	// perceptrons labels other than ±1.
	Binary
	// OneVsRest is one decision function per class (in label order)
	// against all the others; the prediction is the class of the largest
	// score, ties going to the smaller label. Every trainer supports it;
	// labels that are all ±1 (for the SVMs: any two classes) still give a
	// Binary model.
	OneVsRest
	// OneVsOne is one decision function per pair of classes a < b, in the
	// order (0,1), (0,2), …, (0,K−1), (1,2), …, trained on the rows of
	// those two classes only; a score above 0 votes for b, anything else
	// for a, and the prediction is the class with the most votes, ties
	// going to the smaller label. It is LIBSVM's method and the kernel
	// SVM's default; only the kernel SVM trains it (two classes: Binary).
	OneVsOne
	// Argmax is the multiclass perceptron (Crammer and Singer 2003): one
	// weight vector per class, trained together; on a mistake (the true class's
	// score not strictly above every other) the true class's vector moves
	// towards the sample and the highest-scoring wrong class's away from
	// it. The prediction is the class of the largest score. Only the
	// perceptrons train it (Online and Averaged; the kernel perceptron
	// Online and Averaged too), and it applies to ±1 labels as well.
	Argmax
	numSchemes
)

var schemeNames = [numSchemes]string{"auto", "binary", "ovr", "ovo", "argmax"}

// String returns "auto", "binary", "ovr", "ovo" or "argmax".
func (s Scheme) String() string {
	if s < numSchemes {
		return schemeNames[s]
	}
	return fmt.Sprintf("Scheme(%d)", uint8(s))
}

// ErrScheme reports a name ParseScheme does not know.
var ErrScheme = errors.New("fit: unknown multiclass scheme")

// ParseScheme returns the Scheme whose String is name, ignoring case;
// "one-vs-rest" and "one-vs-one" are also taken. Another name is an error
// wrapping ErrScheme.
func ParseScheme(name string) (Scheme, error) {
	switch n := strings.ToLower(name); n {
	case "one-vs-rest":
		return OneVsRest, nil
	case "one-vs-one":
		return OneVsOne, nil
	default:
		for i, s := range schemeNames {
			if s == n {
				return Scheme(i), nil
			}
		}
	}
	return Auto, fmt.Errorf("%w %q (want auto, binary, ovr, ovo or argmax)", ErrScheme, name)
}
