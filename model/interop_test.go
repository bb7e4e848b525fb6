package model_test

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/model"
)

// toolLabels reads a predictor's output, one label a line.
func toolLabels(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestLoadToolFiles loads svm-train's and liblinear-train's model files
// (svm/testdata) by content and checks the kinds, Inspect's format, and
// every test row's label against the tools' (committed) predictions.
func TestLoadToolFiles(t *testing.T) {
	cases := []struct {
		model, test string
		kind        model.Kind
		format      model.Format
		voting      bool
	}{
		{"libsvm/iris_rbf", "iris.test", model.KernelSVMOneVsOne, model.LIBSVM, false},
		{"libsvm/heart_poly", "heart_scale", model.KernelSVMBinary, model.LIBSVM, true},
		{"liblinear/iris_s3", "iris.test", model.LinearSVMOneVsRest, model.LIBLINEAR, false},
		{"liblinear/heart_s1", "heart_scale", model.LinearSVMBinary, model.LIBLINEAR, false},
	}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			path := "../svm/testdata/" + c.model + ".model"
			m, err := model.LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if model.KindOf(m) != c.kind {
				t.Errorf("kind %v, want %v", model.KindOf(m), c.kind)
			}
			if _, ok := m.(*interop.Voting); ok != c.voting {
				t.Errorf("%T, want an *interop.Voting: %v", m, c.voting)
			}
			info, err := model.InspectFile(path)
			if err != nil || info.Format != c.format || info.Kind != c.kind || info.Dims != m.Dims() {
				t.Errorf("InspectFile: %+v, %v", info, err)
			}
			cl, err := model.As[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			data, err := dataset.LoadLIBSVMSparse[float64]("../svm/testdata/"+c.test+".libsvm", dataset.LIBSVMOptions{Cols: m.Dims()})
			if err != nil {
				t.Fatal(err)
			}
			got := make([]int, data.Rows)
			if err := cl.PredictBatchSparse(got, data); err != nil {
				t.Fatal(err)
			}
			want := toolLabels(t, "../svm/testdata/"+c.model+".pred")
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("row %d: %d, the tool %d", i, got[i], want[i])
				}
			}
			// Written in the same format, the file reads back to the same
			// predictions.
			text, err := model.Marshal(m, c.format)
			if err != nil {
				t.Fatal(err)
			}
			back, err := model.Load(bytes.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			cb, _ := model.As[float64](back)
			again := make([]int, data.Rows)
			if err := cb.PredictBatchSparse(again, data); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if again[i] != want[i] {
					t.Errorf("written back, row %d: %d, the tool %d", i, again[i], want[i])
				}
			}
		})
	}
}

// TestTextFormatRefusals checks the errors of the text formats through
// package model.
func TestTextFormatRefusals(t *testing.T) {
	heart, err := model.LoadFile("../svm/testdata/libsvm/heart_poly.model")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.Marshal(heart, model.Binary); !errors.Is(err, model.ErrUnsupported) {
		t.Errorf("a Voting model in the binary format: %v, want ErrUnsupported", err)
	}
	if _, err := model.Marshal(heart, model.LIBLINEAR); !errors.Is(err, model.ErrUnsupported) {
		t.Errorf("a kernel SVM as LIBLINEAR: %v, want ErrUnsupported", err)
	}
	lin, err := model.LoadFile("../svm/testdata/liblinear/iris_s3.model")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.Marshal(lin, model.LIBSVM); !errors.Is(err, model.ErrUnsupported) {
		t.Errorf("a linear SVM as LIBSVM: %v, want ErrUnsupported", err)
	}
	bad := "svm_type c_svc\nkernel_type rbf\ngamma x\n"
	if _, err := model.Unmarshal([]byte(bad)); !errors.Is(err, model.ErrCorrupt) || !errors.Is(err, interop.ErrSyntax) || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad gamma: %v, want ErrCorrupt and interop.ErrSyntax naming line 3", err)
	}
	reg := "solver_type L2R_L2LOSS_SVR\nnr_class 2\nnr_feature 1\nbias -1\nw\n0 \n"
	if _, err := model.Load(strings.NewReader(reg)); !errors.Is(err, model.ErrUnsupported) {
		t.Errorf("a regression: %v, want ErrUnsupported", err)
	}
	big, err := os.ReadFile("../svm/testdata/libsvm/iris_rbf.model")
	if err != nil {
		t.Fatal(err)
	}
	_, err = model.Options{MaxBytes: int64(len(big) - 1), Flag: "-max-model-bytes"}.Load(bytes.NewReader(big))
	if !errors.Is(err, model.ErrTooLarge) || !strings.Contains(err.Error(), "-max-model-bytes") {
		t.Errorf("over MaxBytes: %v, want ErrTooLarge naming the flag", err)
	}
	var _ model.Classifier[float64] = (*interop.Voting)(nil)
}

// expectLabels reads the labels of a .expect file of interop/testdata/onnx
// (scikit-learn's predict, the first field of each row).
func expectLabels(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		v, err := strconv.Atoi(strings.Fields(line)[0])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// TestLoadONNX loads scikit-learn's models exported to ONNX-ML
// (interop/testdata/onnx) by content, and checks Inspect's format, the
// kinds, every test row's label against scikit-learn's predict, and that
// the file written back (model.ONNX) predicts the same.
func TestLoadONNX(t *testing.T) {
	cases := []struct {
		name, test string
		kind       model.Kind
		pipeline   bool
	}{
		{"linearsvc_iris", "iris.test", model.LinearSVMOneVsRest, false},
		{"svc_rbf_breast", "breast_cancer_std.test", model.KernelSVMBinary, false},
		{"svc_poly_iris", "iris.test", model.KernelSVMOneVsOne, false},
		{"svc_sigmoid_iris", "iris.test", model.KernelSVMOneVsOne, false},
		{"perceptron_breast", "breast_cancer_std.test", model.LinearSVMOneVsRest, false},
		{"scaler_linearsvc_iris", "iris.test", model.LinearSVMOneVsRest, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := "../interop/testdata/onnx/" + c.name + ".onnx"
			m, err := model.LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := m.(*interop.Pipeline); ok != c.pipeline || model.KindOf(m) != c.kind {
				t.Errorf("%T of kind %v, want a pipeline %v of kind %v", m, model.KindOf(m), c.pipeline, c.kind)
			}
			info, err := model.InspectFile(path)
			if err != nil || info.Format != model.ONNX || info.Elem != "float64" || info.Dims != m.Dims() {
				t.Errorf("InspectFile: %+v, %v", info, err)
			}
			cl, err := model.As[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			data, err := dataset.LoadLIBSVMSparse[float64]("../svm/testdata/"+c.test+".libsvm", dataset.LIBSVMOptions{Cols: m.Dims()})
			if err != nil {
				t.Fatal(err)
			}
			want := expectLabels(t, "../interop/testdata/onnx/"+c.name+".expect")
			text, err := model.Marshal(m, model.ONNX)
			if err != nil {
				t.Fatal(err)
			}
			back, err := model.Unmarshal(text)
			if err != nil {
				t.Fatal(err)
			}
			cb, _ := model.As[float64](back)
			for _, c := range []model.Classifier[float64]{cl, cb} {
				got := make([]int, data.Rows)
				if err := c.PredictBatchSparse(got, data); err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("row %d: %d, scikit-learn %d", i, got[i], want[i])
					}
				}
			}
			for _, f := range []model.Format{model.Binary, model.JSON} {
				b, err := model.Marshal(m, f)
				if c.pipeline != (err != nil) || c.pipeline && !errors.Is(err, model.ErrUnsupported) {
					t.Errorf("in the %v format: %v", f, err)
				}
				if err != nil {
					continue
				}
				// The module's own formats hold it (the sigmoid kernel
				// too): the same labels read back.
				back, err := model.Unmarshal(b)
				if err != nil {
					t.Fatal(err)
				}
				cb, _ := model.As[float64](back)
				got := make([]int, data.Rows)
				if err := cb.PredictBatchSparse(got, data); err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("%v file, row %d: %d, scikit-learn %d", f, i, got[i], want[i])
					}
				}
			}
		})
	}
	good, err := os.ReadFile("../interop/testdata/onnx/svc_sigmoid_iris.onnx")
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(good, []byte("SVMClassifier"), []byte("SVMRegressorX"), 1)
	if _, err := model.Unmarshal(bad); !errors.Is(err, model.ErrUnsupported) || !errors.Is(err, interop.ErrOperator) || !strings.Contains(err.Error(), "SVMRegressorX") {
		t.Errorf("an unknown operator: %v, want ErrUnsupported and interop.ErrOperator naming it", err)
	}
	var _ model.Classifier[float64] = (*interop.Pipeline)(nil)
}
