package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/interop"
)

// TestServeONNX serves each ONNX-ML model that interop/testdata/onnx/gen.py
// built from a scikit-learn estimator (LinearSVC, SVC with each kernel,
// Perceptron, SGDClassifier, the StandardScaler and Normalizer pipelines)
// and checks that /predict answers its test rows with scikit-learn's
// labels, committed beside the model (NAME.expect, the first number of
// each row).
func TestServeONNX(t *testing.T) {
	onnxDir, err := filepath.Abs(filepath.Join("..", "..", "interop", "testdata", "onnx"))
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(onnxDir, "*.onnx"))
	if err != nil || len(paths) < 18 {
		t.Fatalf("%d ONNX models in %s (%v)", len(paths), onnxDir, err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".onnx")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := interop.ReadONNX(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			test, want := readExpectLabels(t, strings.TrimSuffix(path, ".onnx")+".expect")
			rowsData, err := dataset.LoadLIBSVM[float64](filepath.Join("..", "..", "svm", "testdata", test), dataset.LIBSVMOptions{Cols: f.Model.Dims()})
			if err != nil {
				t.Fatal(err)
			}
			if rowsData.Rows != len(want) {
				t.Fatalf("%d test rows, %d labels of scikit-learn", rowsData.Rows, len(want))
			}
			rows := make([][]float64, rowsData.Rows)
			for i := range rows {
				rows[i] = rowsData.X[i*rowsData.Cols : (i+1)*rowsData.Cols]
			}
			body, _ := json.Marshal(map[string]any{"rows": rows})

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var logs syncBuffer
			url, done := startServe(t, ctx, make(chan os.Signal), &logs, "-model", path, "-addr", "127.0.0.1:0", "-poll", "0")
			resp, err := http.Post(url+"/predict", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, b)
			}
			var r struct{ Labels []int }
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			if len(r.Labels) != len(want) {
				t.Fatalf("%d labels served, %d rows", len(r.Labels), len(want))
			}
			for i, l := range r.Labels {
				if l != want[i] {
					t.Fatalf("row %d: served %d, scikit-learn's %d", i, l, want[i])
				}
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("serve: %v\n%s", err, logs.String())
			}
		})
	}
}

// readExpectLabels returns the test file a NAME.expect names and the
// label of each of its rows.
func readExpectLabels(t *testing.T, path string) (test string, labels []int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if v, ok := strings.CutPrefix(line, "# test "); ok {
			test = v
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			t.Fatalf("%s: empty line", path)
		}
		l, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("%s: %q is not a label", path, f[0])
		}
		labels = append(labels, l)
	}
	if test == "" || len(labels) == 0 {
		t.Fatalf("%s: no test file or no rows", path)
	}
	return test, labels
}
