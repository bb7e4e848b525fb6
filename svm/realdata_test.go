package svm

import (
	"fmt"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// TestAccuracyFloors: test accuracy on small real data sets (the
// scikit-learn copies of testdata/README.md) at least what scikit-learn
// 1.2.1's SVC (LIBSVM inside; gamma="scale", C = 1) reaches on the same
// splits, less one test row; for the kernel SVM, whose solver is LIBSVM's,
// also the same number of support vectors. The linear SVM's floors are
// LIBLINEAR's (LinearSVC(loss="hinge") with the bias as a feature) less
// one row.
func TestAccuracyFloors(t *testing.T) {
	cases := []struct {
		name   string
		d      int
		kern   string
		sklAcc float64 // SVC test accuracy
		sklSV  int     // SVC support vectors (0: not compared)
		linAcc float64 // LinearSVC(hinge) test accuracy
	}{
		{"iris", 4, "rbf", 1.0, 54, 0.9667},
		{"breast_cancer_std", 30, "rbf", 0.9649, 112, 0.9825},
		{"digits", 64, "rbf", 0.9833, 652, 0.9417},
		{"digits", 64, "poly", 0.9944, 441, 0},
		{"breast_cancer_std", 30, "linear", 0.9825, 34, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.name, c.kern), func(t *testing.T) {
			if testing.Short() && c.name == "digits" && c.kern == "poly" {
				t.Skip("short mode")
			}
			tr := load(t, c.name+".train.libsvm", c.d)
			te := load(t, c.name+".test.libsvm", c.d)
			g := GammaScale(dataset.NewData(tr.X, c.d, nil))
			var k gram.Kernel
			switch c.kern {
			case "rbf":
				k = gram.RBF{Gamma: g}
			case "poly": // scikit-learn's defaults: degree 3, coef0 0
				k = gram.Polynomial{Gamma: g, Coef0: 0, Degree: 3}
			default:
				k = gram.Linear{}
			}
			m, _, err := trainDense(tr.X, c.d, tr.Y, Options{Kernel: k})
			if err != nil {
				t.Fatal(err)
			}
			acc, err := m.Accuracy(te.X, te.Y)
			if err != nil {
				t.Fatal(err)
			}
			slack := 1 / float64(te.Rows)
			if acc < c.sklAcc-slack-1e-9 {
				t.Errorf("kernel SVM accuracy %.4f, scikit-learn SVC %.4f", acc, c.sklAcc)
			}
			if c.sklSV > 0 && m.NumSupport() != c.sklSV {
				t.Errorf("%d support vectors, scikit-learn SVC %d", m.NumSupport(), c.sklSV)
			}
			if c.linAcc > 0 {
				lm, _, err := trainLinearDense(tr.X, c.d, tr.Y, LinearOptions{})
				if err != nil {
					t.Fatal(err)
				}
				lacc, _ := lm.Accuracy(te.X, te.Y)
				if lacc < c.linAcc-slack-1e-9 {
					t.Errorf("linear SVM accuracy %.4f, LinearSVC %.4f", lacc, c.linAcc)
				}
			}
			// float32 trains the same model to rounding: accuracy within one row.
			m32, _, err := trainDense(convert32(tr.X), c.d, tr.Y, Options{Kernel: k})
			if err != nil {
				t.Fatal(err)
			}
			acc32, _ := m32.Accuracy(convert32(te.X), te.Y)
			if acc32 < acc-slack-1e-9 {
				t.Errorf("float32 accuracy %.4f, float64 %.4f", acc32, acc)
			}
		})
	}
}
