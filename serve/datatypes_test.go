package serve

import (
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// oipOutput is an output tensor of a REST inference response.
type oipOutput struct {
	Name     string
	Datatype string
	Shape    []int
	Data     []float64
}

// TestInferDatatypes: the REST inference endpoint takes every datatype
// the protocol's numeric models take — FP32, FP64, INT8, UINT8 — for
// models of float32, float64 and int8 weights, and answers what the
// model's own methods give: float models the values as they are (the
// integers exactly), a quantised model INT8 and UINT8 data as its bytes
// (PredictI8, PredictU8, scale 1). Integers out of the datatype's range,
// or not integers, and other datatypes are refused (400), named.
func TestInferDatatypes(t *testing.T) {
	for _, file := range []string{"perceptron-ovr-f32.model", "perceptron-ovr-f64.json", "quant-ovr.model", "linear-svm-binary-f64.json"} {
		path := filepath.Join("..", "model", "testdata", "fixtures", file)
		s, err := New(path, nil, Options{Poll: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		m, err := model.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, n := m.Dims(), 3
		rng := rand.New(rand.NewPCG(3, 4))
		for _, dt := range []string{"FP32", "FP64", "INT8", "UINT8"} {
			X := make([]float64, n*d)
			for i := range X {
				switch dt {
				case "INT8":
					X[i] = float64(rng.IntN(256) - 128)
				case "UINT8":
					X[i] = float64(rng.IntN(256))
				default:
					X[i] = 4*rng.Float64() - 2
				}
			}
			var body strings.Builder
			body.WriteString(`{"inputs": [{"name": "input", "datatype": "` + dt + `", "shape": [` + strconv.Itoa(n) + `, ` + strconv.Itoa(d) + `], "data": [`)
			for i, v := range X {
				if i > 0 {
					body.WriteByte(',')
				}
				body.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
			body.WriteString(`]}]}`)
			w := do(s, "/v2/models/"+ModelName(path)+"/infer", body.String())
			if w.Code != 200 {
				t.Fatalf("%s %s: %d %s", file, dt, w.Code, w.Body)
			}
			var resp struct{ Outputs []oipOutput }
			if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || len(resp.Outputs) != 2 {
				t.Fatalf("%s %s: %s", file, dt, w.Body)
			}
			labels, scores := ownAnswer(t, m, X, dt)
			if got := resp.Outputs[0].Data; !slices.Equal(got, labels) {
				t.Errorf("%s %s: labels %v, the model's %v", file, dt, got, labels)
			}
			got := resp.Outputs[1].Data
			if resp.Outputs[1].Datatype == "FP32" { // the shortest float32 forms, read back as float32
				for i, v := range got {
					got[i] = float64(float32(v))
				}
			}
			if !slices.Equal(got, scores) {
				t.Errorf("%s %s: scores %v, the model's %v", file, dt, got, scores)
			}
		}
		for _, c := range []struct{ dt, v, want string }{
			{"INT8", "128", "not an INT8"}, {"INT8", "-129", "not an INT8"}, {"INT8", "1.5", "not an INT8"},
			{"UINT8", "-1", "not a UINT8"}, {"UINT8", "256", "not a UINT8"}, {"UINT8", "0.25", "not a UINT8"},
			{"BOOL", "1", "FP32, FP64, INT8 or UINT8"}, {"INT64", "1", "FP32, FP64, INT8 or UINT8"},
		} {
			data := "[" + strings.Repeat("1,", d-1) + c.v + "]"
			// data first, then the datatype: checked in either order
			w := do(s, "/v2/models/"+ModelName(path)+"/infer", `{"inputs": [{"name": "input", "shape": [1, `+strconv.Itoa(d)+`], "data": `+data+`, "datatype": "`+c.dt+`"}]}`)
			if w.Code != 400 || !strings.Contains(w.Body.String(), c.want) {
				t.Errorf("%s %s %s: %d %s, want 400 saying %q", file, c.dt, c.v, w.Code, w.Body, c.want)
			}
		}
	}
}

// ownAnswer is what model m's own methods give rows X sent as datatype
// dt: the labels and the scores (as the response's JSON numbers read
// back).
func ownAnswer(t *testing.T, m model.Model, X []float64, dt string) (labels, scores []float64) {
	t.Helper()
	d, k := m.Dims(), m.NumScores()
	for i := range len(X) / d {
		row := X[i*d : (i+1)*d]
		var l int
		var err error
		sc := make([]float64, k)
		if q, ok := m.(*quant.Model); ok && (dt == "INT8" || dt == "UINT8") {
			s32 := make([]float32, k)
			if dt == "INT8" {
				v := make([]int8, d)
				for j, a := range row {
					v[j] = int8(a)
				}
				if l, err = q.PredictI8(v, 1); err == nil {
					err = q.ScoresI8(s32, v, 1)
				}
			} else {
				u := make([]uint8, d)
				for j, a := range row {
					u[j] = uint8(a)
				}
				if l, err = q.PredictU8(u, 1, 0); err == nil {
					err = q.ScoresU8(s32, u, 1, 0)
				}
			}
			for j, v := range s32 {
				sc[j] = float64(v)
			}
		} else if c, e := model.As[float32](m); e == nil {
			x := make([]float32, d)
			for j, a := range row {
				x[j] = float32(a)
			}
			s32 := make([]float32, k)
			if l, err = c.Predict(x); err == nil {
				err = c.Scores(s32, x)
			}
			for j, v := range s32 {
				sc[j] = float64(v)
			}
		} else {
			c, _ := model.As[float64](m)
			if l, err = c.Predict(row); err == nil {
				err = c.Scores(sc, row)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		labels = append(labels, float64(l))
		for _, v := range sc {
			if math.IsNaN(v) {
				t.Fatal("NaN score")
			}
			scores = append(scores, v)
		}
	}
	return labels, scores
}
