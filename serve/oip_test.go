package serve_test

import (
	"encoding/json"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// TestOIPHealthMetadata: the Open Inference Protocol's health and
// metadata endpoints over REST, for a float32 and a float64 model: live
// and ready answer 200 with an empty body; the server metadata has name,
// version and extensions; the model, named by its file without the
// extension, is ready and described (input FP32/FP64 [-1, d], outputs
// label INT64 [-1] and scores [-1, k]), by name and by its version; an
// unknown name or version is 404 with {"error": ...}; another method 405.
func TestOIPHealthMetadata(t *testing.T) {
	m32 := trainBinary[float32](t, 1, 50, 4, false)
	m64 := trainOVR[float64](t, 2, 90, 5)
	for _, c := range []struct {
		name  string
		data  []byte
		dtype string
		d, k  int
	}{{"float32", marshal(t, m32), "FP32", 4, 1}, {"float64", marshal(t, m64), "FP64", 5, m64.NumScores()}} {
		t.Run(c.name, func(t *testing.T) {
			s, path, _ := newServer(t, c.data, serve.Options{Poll: -1})
			require.Equal(t, "m", serve.ModelName(path))
			require.Equal(t, "iris", serve.ModelName(filepath.Join("a.b", "iris.model")))
			version := s.Current().Version
			get := func(method, url string) *httptest.ResponseRecorder {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, httptest.NewRequest(method, url, nil))
				return w
			}
			for _, url := range []string{"/v2/health/live", "/v2/health/ready", "/v2/models/m/ready", "/v2/models/m/versions/" + version + "/ready"} {
				w := get("GET", url)
				require.Equal(t, 200, w.Code, url)
				require.Empty(t, w.Body.String(), url)
			}
			w := get("GET", "/v2")
			require.Equal(t, 200, w.Code)
			var sm struct {
				Name, Version string
				Extensions    []string
			}
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &sm))
			require.Equal(t, "rosenblatt", sm.Name)
			require.NotEmpty(t, sm.Version)
			require.NotNil(t, sm.Extensions)
			require.Contains(t, w.Body.String(), `"extensions":[]`)

			type tensor struct {
				Name, Datatype string
				Shape          []int
			}
			for _, url := range []string{"/v2/models/m", "/v2/models/m/versions/" + version} {
				w := get("GET", url)
				require.Equal(t, 200, w.Code, url)
				require.Equal(t, "application/json", w.Header().Get("Content-Type"))
				var mm struct {
					Name, Platform  string
					Versions        []string
					Inputs, Outputs []tensor
				}
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &mm))
				require.Equal(t, "m", mm.Name)
				require.Equal(t, []string{version}, mm.Versions)
				require.NotEmpty(t, mm.Platform)
				require.Equal(t, []tensor{{"input", c.dtype, []int{-1, c.d}}}, mm.Inputs)
				require.Equal(t, []tensor{{"label", "INT64", []int{-1}}, {"scores", c.dtype, []int{-1, c.k}}}, mm.Outputs)
			}
			for _, url := range []string{"/v2/models/other", "/v2/models/other/ready", "/v2/models/m/versions/0000000000000000", "/v2/models/m/versions/x/ready"} {
				w := get("GET", url)
				require.Equal(t, 404, w.Code, url)
				var e struct{ Error string }
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e), url)
				require.NotEmpty(t, e.Error, url)
			}
			require.Equal(t, 405, get("POST", "/v2/health/live").Code)
			require.Equal(t, 405, get("DELETE", "/v2/models/m").Code)
		})
	}
}

// oipOutput is an output tensor of an inference response.
type oipOutput struct {
	Name, Datatype string
	Shape          []int
	Data           []json.Number
}

// TestOIPInfer: POST /v2/models/{name}/infer answers the protocol's
// inference request, flat or nested data, FP32 and FP64 models, with the
// model's labels (INT64 [n]) and scores ([n, k]) exactly, the request's
// id, and only the outputs asked for; malformed requests get a 4xx and
// {"error": ...} naming the problem.
func TestOIPInfer(t *testing.T) {
	m32 := trainBinary[float32](t, 1, 50, 4, false)
	m64 := trainOVR[float64](t, 2, 90, 4)
	for _, c := range []struct {
		name  string
		data  []byte
		dtype string
		model interface {
			Predict([]float64) (int, error)
			Scores(dst, x []float64) error
			NumScores() int
		}
	}{{"float32", marshal(t, m32), "FP32", wrap32{m32}}, {"float64", marshal(t, m64), "FP64", m64}} {
		t.Run(c.name, func(t *testing.T) {
			s, _, _ := newServer(t, c.data, serve.Options{Poll: -1, MaxBodyBytes: 1 << 16})
			version := s.Current().Version
			post := func(url, body string) *httptest.ResponseRecorder {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, httptest.NewRequest("POST", url, strings.NewReader(body)))
				return w
			}
			X := randRows[float64](3, 5, 4)
			flat, _ := json.Marshal(X)
			rows := make([][]float64, 5)
			for i := range rows {
				rows[i] = X[4*i : 4*i+4]
			}
			nested, _ := json.Marshal(rows)
			k := c.model.NumScores()
			for _, data := range []string{string(flat), string(nested)} {
				body := `{"id": "req-\"7\"", "parameters": {"a": [1, {"b": null}], "c": "x"}, "inputs": [{"name": "input", "shape": [5, 4], "datatype": "` + c.dtype + `", "parameters": {}, "data": ` + data + `}]}`
				for _, url := range []string{"/v2/models/m/infer", "/v2/models/m/versions/" + version + "/infer"} {
					w := post(url, body)
					require.Equal(t, 200, w.Code, w.Body.String())
					var resp struct {
						ModelName    string `json:"model_name"`
						ModelVersion string `json:"model_version"`
						ID           string
						Outputs      []oipOutput
					}
					dec := json.NewDecoder(w.Body)
					dec.UseNumber()
					require.NoError(t, dec.Decode(&resp))
					require.Equal(t, "m", resp.ModelName)
					require.Equal(t, version, resp.ModelVersion)
					require.Equal(t, `req-"7"`, resp.ID)
					require.Len(t, resp.Outputs, 2)
					lo, so := resp.Outputs[0], resp.Outputs[1]
					require.Equal(t, "label", lo.Name)
					require.Equal(t, "INT64", lo.Datatype)
					require.Equal(t, []int{5}, lo.Shape)
					require.Equal(t, "scores", so.Name)
					require.Equal(t, c.dtype, so.Datatype)
					require.Equal(t, []int{5, k}, so.Shape)
					require.Len(t, so.Data, 5*k)
					sc := make([]float64, k)
					for i := range 5 {
						want, err := c.model.Predict(X[4*i : 4*i+4])
						require.NoError(t, err)
						require.Equal(t, strconv.Itoa(want), lo.Data[i].String())
						require.NoError(t, c.model.Scores(sc, X[4*i:4*i+4]))
						for j := range k {
							got, err := so.Data[i*k+j].Float64()
							require.NoError(t, err)
							if c.dtype == "FP32" { // the shortest text of a float32
								got = float64(float32(got))
							}
							require.Equal(t, sc[j], got, "row %d score %d", i, j)
						}
					}
				}
			}
			// Only the outputs asked for.
			w := post("/v2/models/m/infer", `{"inputs": [{"name": "input", "shape": [5, 4], "datatype": "FP32", "data": `+string(flat)+`}], "outputs": [{"name": "label"}]}`)
			require.Equal(t, 200, w.Code, w.Body.String())
			require.Contains(t, w.Body.String(), `"name":"label"`)
			require.NotContains(t, w.Body.String(), `"scores"`)
			require.NotContains(t, w.Body.String(), `"id"`)

			in := func(fields string) string { return `{"inputs": [{"name": "input", ` + fields + `}]}` }
			for _, bc := range []struct {
				name, url, body string
				code            int
				msg             string
			}{
				{"unknown model", "/v2/models/x/infer", in(`"shape": [1, 4], "datatype": "FP32", "data": [1, 2, 3, 4]`), 404, `unknown model "x"`},
				{"unknown version", "/v2/models/m/versions/1/infer", in(`"shape": [1, 4], "datatype": "FP32", "data": [1, 2, 3, 4]`), 404, `no version "1"`},
				{"wrong width", "/v2/models/m/infer", in(`"shape": [1, 3], "datatype": "FP32", "data": [1, 2, 3]`), 400, "shape must be [n, 4]"},
				{"count", "/v2/models/m/infer", in(`"shape": [2, 4], "datatype": "FP32", "data": [1, 2, 3, 4]`), 400, "holds 4 values, its shape [2, 4] needs 8"},
				{"datatype", "/v2/models/m/infer", in(`"shape": [1, 4], "datatype": "BYTES", "data": [1, 2, 3, 4]`), 400, `datatype "BYTES"`},
				{"input name", "/v2/models/m/infer", `{"inputs": [{"name": "x", "shape": [1, 4], "datatype": "FP32", "data": [1, 2, 3, 4]}]}`, 400, `input "x"`},
				{"NaN", "/v2/models/m/infer", in(`"shape": [2, 4], "datatype": "FP32", "data": [1, 2, 3, 4, 5, NaN, 7, 8]`), 400, "row 1, feature 1 is NaN"},
				{"null", "/v2/models/m/infer", in(`"shape": [1, 4], "datatype": "FP32", "data": [[1, 2, null, 4]]`), 400, "row 0, feature 2 is null"},
				{"overflow", "/v2/models/m/infer", in(`"shape": [1, 4], "datatype": "FP32", "data": [1, 2, 1e400, 4]`), 400, "1e400 is beyond the range"},
				{"no input", "/v2/models/m/infer", `{"inputs": []}`, 400, "no input"},
				{"two inputs", "/v2/models/m/infer", `{"inputs": [{"name": "input"}, {"name": "input"}]}`, 400, "more than one input"},
				{"unknown output", "/v2/models/m/infer", `{"inputs": [], "outputs": [{"name": "probs"}]}`, 400, `output "probs"`},
				{"unknown field", "/v2/models/m/infer", `{"input": []}`, 400, `unknown field "input"`},
				{"truncated", "/v2/models/m/infer", `{"inputs": [{"name": "input", "shape": [1, 4], "data": [1, 2`, 400, "truncated JSON at byte 60"},
				{"deep parameters", "/v2/models/m/infer", `{"parameters": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, 400, "nested more than 64 deep"},
				{"empty batch", "/v2/models/m/infer", in(`"shape": [0, 4], "datatype": "FP32", "data": []`), 400, "empty batch"},
			} {
				w := post(bc.url, bc.body)
				require.Equal(t, bc.code, w.Code, "%s: %s", bc.name, w.Body.String())
				var e struct{ Error string }
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e), bc.name)
				require.Contains(t, e.Error, bc.msg, bc.name)
			}
			require.Equal(t, 405, func() int {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, httptest.NewRequest("GET", "/v2/models/m/infer", nil))
				return w.Code
			}())
			// Over the body limit by Content-Length: 413, unread.
			r := httptest.NewRequest("POST", "/v2/models/m/infer", strings.NewReader("{}"))
			r.ContentLength = 1 << 20
			w = httptest.NewRecorder()
			s.ServeHTTP(w, r)
			require.Equal(t, 413, w.Code)
			require.Contains(t, w.Body.String(), "(-max-body)")
		})
	}
}

// wrap32 gives a float32 model float64 methods, for the test's checks.
type wrap32 struct{ m *linear.Model[float32] }

func (w wrap32) NumScores() int { return w.m.NumScores() }

func (w wrap32) Predict(x []float64) (int, error) { return w.m.Predict(to32(x)) }

func (w wrap32) Scores(dst, x []float64) error {
	d := make([]float32, len(dst))
	err := w.m.Scores(d, to32(x))
	for i, v := range d {
		dst[i] = float64(v)
	}
	return err
}

func to32(x []float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(v)
	}
	return y
}

// FuzzOIPInfer: any inference request body gets 200 or a 4xx whose body
// is the protocol's {"error": "..."}; the server never panics, and a 200
// has one label per row of the shape.
func FuzzOIPInfer(f *testing.F) {
	for _, s := range []string{
		`{"inputs": [{"name": "input", "shape": [1, 4], "datatype": "FP32", "data": [1, 2, 3, 4]}]}`,
		`{"id": "a\"b", "parameters": {"x": [1, {"y": null}]}, "inputs": [{"name": "input", "shape": [2, 4], "datatype": "FP64", "data": [[1, 2, 3, 4], [5, 6, 7, 8]]}], "outputs": [{"name": "scores"}]}`,
		`{"inputs": [{"data": [1, 2, 3, 4], "shape": [1, 4]}]}`,
		`{"inputs": [{"name": "input", "shape": [1, 4], "data": [1, NaN, 3, 4]}]}`,
	} {
		f.Add(s)
	}
	m := trainBinary[float32](f, 1, 50, 4, false)
	s, _, _ := newServer(f, marshal(f, m), serve.Options{Poll: -1, MaxBodyBytes: 1 << 16})
	f.Fuzz(func(t *testing.T, body string) {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("POST", "/v2/models/m/infer", strings.NewReader(body)))
		if w.Code == 200 {
			var resp struct{ Outputs []oipOutput }
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &resp), w.Body.String())
			for _, o := range resp.Outputs {
				if o.Name == "label" {
					require.Len(t, o.Data, o.Shape[0])
				}
			}
			return
		}
		require.True(t, w.Code >= 400 && w.Code < 500, "status %d: %s", w.Code, w.Body)
		var e struct{ Error string }
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e), w.Body.String())
		require.NotEmpty(t, e.Error)
	})
}
