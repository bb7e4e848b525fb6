package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// sink is a ResponseWriter that keeps its header map, the status and
// the body's last bytes written.
type sink struct {
	h    http.Header
	code int
	body []byte
}

func (w *sink) Header() http.Header { return w.h }
func (w *sink) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = 200
	}
	w.body = append(w.body, p...)
	return len(p), nil
}
func (w *sink) WriteHeader(code int) { w.code = code }

// TestTextAllocs: once warm, a text request — /predict's {"text": ...}
// and {"texts": [...]} with scores, the protocol's BYTES input — allocates
// nothing beyond http.MaxBytesReader's reader (and, under /v2/models/
// {name}, the ServeMux's match of the path's wildcard), for a model of either
// element type, and answers what it answered cold.
func TestTextAllocs(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	for _, tm := range []struct {
		name string
		s    *Server
	}{{"f32", textServer(t, trainTextModel[float32](t), Options{})}, {"f64", textServer(t, trainTextModel[float64](t), Options{})}} {
		for _, c := range []struct {
			url, body string
			net       float64 // what net/http allocates
		}{
			{"/predict", `{"text": "a short document about nothing in particular"}`, 1},
			{"/predict?scores=1", `{"texts": ["one document", "and another, with \u00e9 and \ud83d\ude00 in it"]}`, 1},
			{"/v2/models/docs/infer", `{"id": "x", "inputs": [{"name": "input", "shape": [2], "datatype": "BYTES", "data": ["one", "two words"]}]}`, 2},
			{"/v2/models/docs/infer", `{"inputs": [{"name": "input", "shape": [2, 1], "datatype": "BYTES", "data": [["one"], ["two words"]]}], "outputs": [{"name": "label"}]}`, 2},
		} {
			rd := strings.NewReader(c.body)
			r := httptest.NewRequest("POST", c.url, rd)
			r.Header.Set("Content-Type", "application/json")
			w := &sink{h: http.Header{}}
			tm.s.ServeHTTP(w, r)
			first := string(w.body)
			allocs := testing.AllocsPerRun(200, func() {
				rd.Reset(c.body)
				w.code, w.body = 0, w.body[:0]
				clear(w.h)
				tm.s.ServeHTTP(w, r)
			})
			if w.code != 200 || string(w.body) != first {
				t.Fatalf("%s %s: %d %s, cold %s", tm.name, c.url, w.code, w.body, first)
			}
			if allocs > c.net {
				t.Errorf("%s %s: %v allocations a request, want at most net/http's %v", tm.name, c.url, allocs, c.net)
			}
		}
	}
}
