package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/model"
)

// need fails the test if a tool it needs is missing and the environment
// variable CI is set (CI installs it: .ci/run), and skips it otherwise.
func need(t *testing.T, ok bool, what string) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing (CI installs it: see .ci/run)", what)
	}
	t.Skipf("%s is missing", what)
}

// grpcPython returns a Python interpreter that has grpc and grpc_tools
// (Debian's python3-grpcio and python3-grpc-tools install them for
// /usr/bin/python3, which may not be the first python3 on PATH).
func grpcPython() string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import grpc, grpc_tools.protoc").Run() == nil {
			return py
		}
	}
	return ""
}

// TestPythonClient generates a Python client from the service's .proto
// with grpc_tools.protoc, runs it against the command, and checks what it
// got from every RPC: the labels and scores of three encodings of the
// same rows against the model's own, the metadata, and the status codes of
// two refusals.
func TestPythonClient(t *testing.T) {
	py := grpcPython()
	need(t, py != "", "Python with grpc and grpc_tools (apt-get install python3-grpcio python3-grpc-tools)")
	dir := t.TempDir()
	gen := exec.Command(py, "-m", "grpc_tools.protoc", "-I", "../../oippb", "--python_out="+dir, "--grpc_python_out="+dir, "oip.proto")
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("grpc_tools.protoc: %v\n%s", err, out)
	}

	const file = "perceptron-ovr-f32.model"
	st := start(t, file, "iris")
	m, err := model.LoadFile(filepath.Join(fixtures, file))
	if err != nil {
		t.Fatal(err)
	}
	c, err := model.As[float32](m)
	if err != nil {
		t.Fatal(err)
	}
	d, k, n := m.Dims(), m.NumScores(), 6
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = make([]float64, d)
		for j := range rows[i] {
			// Values exact in float32, so that all three encodings send
			// the same numbers.
			rows[i][j] = float64(float32(math.Sin(float64(7*i+j)) * 1.5))
		}
	}
	// own returns the model's own labels and scores of rows, each value
	// mapped by f.
	own := func(f func(float64) float32) (labels []int64, scores []float64) {
		sc := make([]float32, k)
		for _, r := range rows {
			x := make([]float32, d)
			for j, v := range r {
				x[j] = f(v)
			}
			l, err := c.Predict(x)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Scores(sc, x); err != nil {
				t.Fatal(err)
			}
			labels = append(labels, int64(l))
			for _, v := range sc {
				scores = append(scores, float64(v))
			}
		}
		return labels, scores
	}
	wantLabels, wantScores := own(func(v float64) float32 { return float32(v) })
	// The client's UINT8 values: int(abs(v) * 100) % 256, in Python as in Go.
	u8Labels, u8Scores := own(func(v float64) float32 { return float32(int(math.Abs(v)*100) % 256) })
	in, _ := json.Marshal(map[string]any{"rows": rows})
	rowsFile := filepath.Join(dir, "rows.json")
	if err := os.WriteFile(rowsFile, in, 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "testdata/oip_client.py", st.GRPC.String(), "iris", rowsFile)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+dir)
	cmd.Stderr = new(syncBuffer)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the Python client: %v\n%s\nserver log:\n%s", err, cmd.Stderr, st.log)
	}
	type tensor struct {
		Datatype string    `json:"datatype"`
		Shape    []int64   `json:"shape"`
		Data     []float64 `json:"data"`
	}
	type inference struct {
		ID           string  `json:"id"`
		ModelName    string  `json:"model_name"`
		ModelVersion string  `json:"model_version"`
		Label        *tensor `json:"label"`
		Scores       *tensor `json:"scores"`
	}
	type meta struct {
		Name     string  `json:"name"`
		Datatype string  `json:"datatype"`
		Shape    []int64 `json:"shape"`
	}
	var got struct {
		Live       bool `json:"live"`
		Ready      bool `json:"ready"`
		ModelReady bool `json:"model_ready"`
		OtherReady bool `json:"other_ready"`
		Server     struct{ Name, Version string }
		Metadata   struct {
			Name     string
			Versions []string
			Inputs   []meta
			Outputs  []meta
		}
		FP32    inference `json:"fp32"`
		FP32Raw inference `json:"fp32_raw"`
		FP64    inference `json:"fp64"`
		UINT8   inference `json:"uint8"`
		UINT8R  inference `json:"uint8_raw"`
		Errors  map[string]string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the client's output: %v\n%s", err, out)
	}

	version := st.version(t)
	if !got.Live || !got.Ready || !got.ModelReady || got.OtherReady {
		t.Errorf("live %v, ready %v, model ready %v, other model ready %v", got.Live, got.Ready, got.ModelReady, got.OtherReady)
	}
	if got.Server.Name != "rosenblatt" || got.Server.Version != "2" {
		t.Errorf("server metadata %+v", got.Server)
	}
	md := got.Metadata
	if md.Name != "iris" || !slices.Equal(md.Versions, []string{version}) || len(md.Inputs) != 1 ||
		md.Inputs[0].Name != "input" || md.Inputs[0].Datatype != "FP32" || !slices.Equal(md.Inputs[0].Shape, []int64{-1, int64(d)}) ||
		len(md.Outputs) != 2 || md.Outputs[0].Name != "label" || md.Outputs[1].Name != "scores" || !slices.Equal(md.Outputs[1].Shape, []int64{-1, int64(k)}) {
		t.Errorf("model metadata %+v (version in use %q)", md, version)
	}
	for name, r := range map[string]inference{"FP32": got.FP32, "raw FP32": got.FP32Raw, "FP64": got.FP64, "UINT8": got.UINT8, "raw UINT8": got.UINT8R} {
		wantLabels, wantScores := wantLabels, wantScores
		if strings.HasSuffix(name, "UINT8") {
			wantLabels, wantScores = u8Labels, u8Scores
		}
		if r.ModelName != "iris" || r.ModelVersion != version || r.ID == "" || r.Label == nil || r.Scores == nil {
			t.Errorf("%s: %+v", name, r)
			continue
		}
		labels := make([]int64, len(r.Label.Data))
		for i, v := range r.Label.Data {
			labels[i] = int64(v)
		}
		if !slices.Equal(labels, wantLabels) || !slices.Equal(r.Label.Shape, []int64{int64(n)}) {
			t.Errorf("%s: labels %v %v, the model's own %v", name, r.Label.Shape, labels, wantLabels)
		}
		if !slices.Equal(r.Scores.Data, wantScores) || r.Scores.Datatype != "FP32" || !slices.Equal(r.Scores.Shape, []int64{int64(n), int64(k)}) {
			t.Errorf("%s: scores %s %v %v, the model's own %v", name, r.Scores.Datatype, r.Scores.Shape, r.Scores.Data, wantScores)
		}
	}
	if got.Errors["unknown_model"] != "NOT_FOUND" || got.Errors["wrong_width"] != "INVALID_ARGUMENT" {
		t.Errorf("refusals: %v, want NOT_FOUND and INVALID_ARGUMENT", got.Errors)
	}
}
