package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// svmTestdata is a file of package svm's test data: the models svm-train
// and liblinear-train wrote, and their predictions.
func svmTestdata(name string) string {
	return filepath.Join(pkgDir, "..", "..", "svm", "testdata", name)
}

// convertFails runs convert and checks that it fails with a message
// containing want, leaving no OUT behind.
func convertFails(t *testing.T, out, want string, args ...string) {
	t.Helper()
	var o, e bytes.Buffer
	if code := run(append([]string{"convert"}, args...), &o, &e); code == exitOK || !strings.Contains(e.String(), want) {
		t.Errorf("convert %q: exit %d, stderr %q; want a failure naming %q", args, code, e.String(), want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written by a refused conversion", out)
	}
}

// predictionsOf returns the labels the model file at path gives the rows
// of a data file.
func predictionsOf(t *testing.T, path, data string) []int {
	t.Helper()
	m, err := model.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := model.As[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	x, err := dataset.LoadLIBSVMSparse[float64](data, dataset.LIBSVMOptions{Cols: m.Dims()})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int, x.Rows)
	if err := c.PredictBatchSparse(out, x); err != nil {
		t.Fatal(err)
	}
	return out
}

func toolPredictions(t *testing.T, path string) []int {
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

func sameInts(t *testing.T, what string, got, want []int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d labels, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: row %d: %d, the tool %d", what, i, got[i], want[i])
		}
	}
}

// TestConvert converts svm-train's and liblinear-train's models through
// every format that holds them and back, checking the tools' predictions
// on every test row at each step.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	iris := svmTestdata("iris.test.libsvm")
	cases := []struct {
		model, test string
		formats     []string
	}{
		{"libsvm/iris_rbf", iris, []string{"rosenblatt", "json", "libsvm"}},
		{"liblinear/iris_s3", iris, []string{"json", "rosenblatt", "liblinear"}},
		{"liblinear/heart_s1", svmTestdata("heart_scale.libsvm"), []string{"rosenblatt", "liblinear", "json"}},
	}
	for _, c := range cases {
		want := toolPredictions(t, svmTestdata(c.model+".pred"))
		in := svmTestdata(c.model + ".model")
		for i, f := range c.formats {
			out := filepath.Join(dir, strings.ReplaceAll(c.model, "/", "_")+"."+strconv.Itoa(i)+"."+f)
			mustRun(t, "convert", "-to", f, in, out)
			m, err := model.InspectFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if m.Format.String() != map[string]string{"rosenblatt": "binary"}[f]+strings.TrimPrefix(f, "rosenblatt") {
				t.Errorf("%s: format %v, want %s", out, m.Format, f)
			}
			sameInts(t, out, predictionsOf(t, out, c.test), want)
			in = out
		}
	}
}

// TestConvertRefusals checks the conversions that would lose information.
func TestConvertRefusals(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	heart := svmTestdata("libsvm/heart_rbf.model") // labels "1 -1"
	convertFails(t, out, "-sorted-ties", "-to", "rosenblatt", heart, out)
	mustRun(t, "convert", "-to", "rosenblatt", "-sorted-ties", heart, out)
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	convertFails(t, out, "unsupported", "-to", "libsvm", svmTestdata("liblinear/iris_s3.model"), out)
	convertFails(t, out, "unsupported", "-to", "liblinear", svmTestdata("libsvm/iris_rbf.model"), out)

	b, err := os.ReadFile(svmTestdata("libsvm/iris_rbf.model"))
	if err != nil {
		t.Fatal(err)
	}
	prob := filepath.Join(dir, "prob.model")
	withProb := strings.Replace(string(b), "nr_sv", "probA -1 -2 -3\nprobB 0.1 0.2 0.3\nnr_sv", 1)
	if err := os.WriteFile(prob, []byte(withProb), 0o644); err != nil {
		t.Fatal(err)
	}
	convertFails(t, out, "-drop-prob", "-to", "libsvm", prob, out)
	mustRun(t, "convert", "-to", "libsvm", "-drop-prob", prob, out)
	sameInts(t, "probA dropped", predictionsOf(t, out, svmTestdata("iris.test.libsvm")), toolPredictions(t, svmTestdata("libsvm/iris_rbf.pred")))
	convertFails(t, filepath.Join(dir, "none"), "exists", "-to", "libsvm", prob, out) // no -f

	b, err = os.ReadFile(svmTestdata("liblinear/iris_s3.model"))
	if err != nil {
		t.Fatal(err)
	}
	lr := filepath.Join(dir, "lr.model")
	if err := os.WriteFile(lr, bytes.Replace(b, []byte("L2R_L1LOSS_SVC_DUAL"), []byte("L2R_LR"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(dir, "out2")
	convertFails(t, out2, "-drop-prob", "-to", "json", lr, out2)
	convertFails(t, out2, "-to", "-to", "pmml", lr, out2)
}

// TestPredictToolModels: predict reads svm-train's and liblinear-train's
// model files as it reads ours and prints the tools' labels for every row.
func TestPredictToolModels(t *testing.T) {
	for _, c := range []struct{ model, test string }{
		{"libsvm/heart_rbf", "heart_scale.libsvm"},
		{"libsvm/iris_rbf", "iris.test.libsvm"},
		{"liblinear/iris_s3", "iris.test.libsvm"},
		{"liblinear/heart_s1", "heart_scale.libsvm"},
	} {
		out := mustRun(t, "predict", svmTestdata(c.model+".model"), svmTestdata(c.test))
		var got []int
		for _, f := range strings.Fields(out) {
			v, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s: %q", c.model, out)
			}
			got = append(got, v)
		}
		sameInts(t, c.model, got, toolPredictions(t, svmTestdata(c.model+".pred")))
	}
	var o, e bytes.Buffer
	bad := filepath.Join(t.TempDir(), "bad.model")
	if err := os.WriteFile(bad, []byte("svm_type c_svc\nkernel_type rbf\ngamma -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"predict", bad, svmTestdata("iris.test.libsvm")}, &o, &e); code == exitOK || !strings.Contains(e.String(), "line 3") {
		t.Errorf("a bad LIBSVM file: exit %d, %q; want a failure naming line 3", code, e.String())
	}
}

// onnxTestdata is the path of a file of interop/testdata/onnx.
func onnxTestdata(name string) string {
	return filepath.Join(pkgDir, "..", "..", "interop", "testdata", "onnx", name)
}

// sklearnLabels reads scikit-learn's labels from a .expect file.
func sklearnLabels(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(line, "#") {
			v, err := strconv.Atoi(strings.Fields(line)[0])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
	}
	return out
}

// TestConvertONNX converts scikit-learn's ONNX-ML models into the other
// formats and back to ONNX, each file predicting scikit-learn's labels;
// the refusals: a pipeline outside ONNX, a LIBSVM model's float64 values
// in ONNX's float32 attributes without -round32.
func TestConvertONNX(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, test string
		formats    []string
	}{
		{"svc_rbf_iris", "iris.test.libsvm", []string{"rosenblatt", "onnx", "libsvm", "onnx"}},
		{"linearsvc_iris", "iris.test.libsvm", []string{"json", "liblinear", "onnx"}},
		{"scaler_linearsvc_breast", "breast_cancer_std.test.libsvm", []string{"onnx"}},
	}
	for _, c := range cases {
		want := sklearnLabels(t, onnxTestdata(c.name+".expect"))
		in := onnxTestdata(c.name + ".onnx")
		for i, f := range c.formats {
			out := filepath.Join(dir, c.name+"."+strconv.Itoa(i)+"."+f)
			mustRun(t, "convert", "-to", f, in, out)
			info, err := model.InspectFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if info.Format.String() != map[string]string{"rosenblatt": "binary"}[f]+strings.TrimPrefix(f, "rosenblatt") {
				t.Errorf("%s: format %v, want %s", out, info.Format, f)
			}
			sameInts(t, out, predictionsOf(t, out, svmTestdata(c.test)), want)
			in = out
		}
	}
	out := filepath.Join(dir, "out")
	convertFails(t, out, "unsupported", "-to", "rosenblatt", onnxTestdata("scaler_linearsvc_iris.onnx"), out)
	convertFails(t, out, "-round32", "-to", "onnx", svmTestdata("libsvm/iris_rbf.model"), out)
	convertFails(t, out, "-round32 is for -to onnx", "-round32", "-to", "json", svmTestdata("libsvm/iris_rbf.model"), out)
	mustRun(t, "convert", "-to", "onnx", "-round32", svmTestdata("libsvm/iris_rbf.model"), out)
	sameInts(t, "rounded to float32", predictionsOf(t, out, svmTestdata("iris.test.libsvm")), toolPredictions(t, svmTestdata("libsvm/iris_rbf.pred")))
}

// TestPredictONNX: predict and eval read scikit-learn's ONNX-ML models
// (a pipeline too) as they read ours; predict prints scikit-learn's label
// for every row.
func TestPredictONNX(t *testing.T) {
	for _, c := range []struct{ name, test string }{
		{"svc_poly_iris", "iris.test.libsvm"},
		{"scaler_linearsvc_iris", "iris.test.libsvm"},
		{"sgd_breast", "breast_cancer_std.test.libsvm"},
	} {
		out := mustRun(t, "predict", onnxTestdata(c.name+".onnx"), svmTestdata(c.test))
		var got []int
		for _, f := range strings.Fields(out) {
			v, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s: %q", c.name, out)
			}
			got = append(got, v)
		}
		sameInts(t, c.name, got, sklearnLabels(t, onnxTestdata(c.name+".expect")))
		if out := mustRun(t, "eval", onnxTestdata(c.name+".onnx"), svmTestdata(c.test)); !strings.Contains(out, "accuracy") {
			t.Errorf("eval %s: %q", c.name, out)
		}
	}
}

// TestConvertPerceptronONNX: a perceptron's model file (the binary format,
// float32 and float64) converts to an ONNX-ML LinearClassifier that
// predicts every test row as the perceptron does; a normalising
// perceptron, which the operator cannot express, is refused, and a
// float64 one with values that are not float32s needs -round32.
func TestConvertPerceptronONNX(t *testing.T) {
	dir := t.TempDir()
	train, err := dataset.LoadLIBSVMSparse[float64](svmTestdata("iris.train.libsvm"), dataset.LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	X, err := train.ToDense(0)
	if err != nil {
		t.Fatal(err)
	}
	test := svmTestdata("iris.test.libsvm")
	X32 := make([]float32, len(X.X))
	for i, v := range X.X {
		X32[i] = float32(v)
	}
	m32, _, err := perceptron.Fit(context.Background(), dataset.NewData(X32, X.Cols, X.Y), X.Y, perceptron.Options{MaxIter: 20})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "p32.model")
	if err := model.SaveFile(in, m32, model.Binary); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "p32.onnx")
	mustRun(t, "convert", "-to", "onnx", in, out)
	if info, err := model.InspectFile(out); err != nil || info.Format != model.ONNX {
		t.Fatalf("%s: %v, %v", out, info, err)
	}
	tx, err := dataset.LoadLIBSVMSparse[float32](test, dataset.LIBSVMOptions{Cols: m32.Dims()})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, tx.Rows)
	if err := m32.PredictBatchSparse(want, tx); err != nil {
		t.Fatal(err)
	}
	sameInts(t, out, predictionsOf(t, out, test), want)

	m64, _, err := perceptron.Fit(context.Background(), dataset.NewData(X.X, X.Cols, X.Y), X.Y, perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	in64 := filepath.Join(dir, "p64.model")
	if err := model.SaveFile(in64, m64, model.Binary); err != nil {
		t.Fatal(err)
	}
	out64 := filepath.Join(dir, "p64.onnx")
	convertFails(t, out64, "-round32", "-to", "onnx", in64, out64)
	mustRun(t, "convert", "-to", "onnx", "-round32", in64, out64)
	if got := predictionsOf(t, out64, test); len(got) != 30 {
		t.Fatalf("%d labels from the rounded model", len(got))
	}

	norm, _, err := perceptron.Fit(context.Background(), dataset.NewData(X32, X.Cols, X.Y), X.Y, perceptron.Options{Normalize: true, MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	inN := filepath.Join(dir, "norm.model")
	if err := model.SaveFile(inN, norm, model.Binary); err != nil {
		t.Fatal(err)
	}
	convertFails(t, filepath.Join(dir, "norm.onnx"), "norm", "-to", "onnx", inN, filepath.Join(dir, "norm.onnx"))
}
