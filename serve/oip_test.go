package serve_test

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
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
