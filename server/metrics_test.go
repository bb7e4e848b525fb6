package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// TestMetrics serves a model with the metrics as its Observer and checks
// that REST and gRPC requests, refusals, reloads and model versions are
// counted under the right labels, and that /metrics serves them.
func TestMetrics(t *testing.T) {
	met := server.NewMetrics()
	s, c, served := serveFixture(t, "perceptron-ovr-f32.model", "m", serve.Options{Observer: met, AllowModelChange: true})
	if err := s.Handle("GET /metrics", met.Handler()); err != nil {
		t.Fatal(err)
	}
	v1 := s.Current().Version
	d := s.Current().Dims
	reg := met.Registry()
	count := func(name string, labels ...string) float64 {
		t.Helper()
		want := name + "{"
		for i := 0; i < len(labels); i += 2 {
			if i > 0 {
				want += ","
			}
			want += labels[i] + `="` + labels[i+1] + `"`
		}
		want += "}"
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() != name {
				continue
			}
			for _, m := range mf.Metric {
				got := name + "{"
				for i, l := range m.Label {
					if i > 0 {
						got += ","
					}
					got += l.GetName() + `="` + l.GetValue() + `"`
				}
				got += "}"
				if got != want {
					continue
				}
				switch {
				case m.Counter != nil:
					return m.Counter.GetValue()
				case m.Gauge != nil:
					return m.Gauge.GetValue()
				case m.Histogram != nil:
					return float64(m.Histogram.GetSampleCount())
				}
			}
		}
		return 0
	}
	if got := count("rosenblatt_model_info", "model", "m", "version", v1); got != 1 {
		t.Errorf("model_info of the first version = %v, want 1", got)
	}
	if got := count("rosenblatt_model_reloads_total", "model", "m", "result", "loaded"); got != 1 {
		t.Errorf("loads after the first = %v, want 1", got)
	}

	// Two good gRPC requests, one refused, one for a model the server
	// does not have.
	ctx := context.Background()
	in := func(n int) []*input {
		return []*input{{Name: "input", Datatype: "FP64", Shape: []int64{int64(n), int64(d)}, Contents: &oippb.InferTensorContents{Fp64Contents: rows(3, n, d)}}}
	}
	for range 2 {
		if _, err := c.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "m", Inputs: in(2)}); err != nil {
			t.Fatal(err)
		}
	}
	c.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "m", Inputs: in(0)})
	c.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "secret-name", Inputs: in(1)})
	// One REST request.
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("POST", "/predict", strings.NewReader(`{"x":[`+strings.Repeat("0.5,", d-1)+`0.5]}`)))
	if w.Code != 200 {
		t.Fatalf("POST /predict: %d %s", w.Code, w.Body)
	}
	for _, tc := range []struct {
		labels []string
		want   float64
	}{
		{[]string{"code", "200", "model", "m", "protocol", "oip-grpc"}, 2},
		{[]string{"code", "400", "model", "m", "protocol", "oip-grpc"}, 1},
		{[]string{"code", "404", "model", "", "protocol", "oip-grpc"}, 1},
		{[]string{"code", "200", "model", "m", "protocol", "predict-json"}, 1},
	} {
		if got := count("rosenblatt_requests_total", tc.labels...); got != tc.want {
			t.Errorf("requests_total%v = %v, want %v", tc.labels, got, tc.want)
		}
	}
	if got := count("rosenblatt_request_duration_seconds", "model", "m", "protocol", "oip-grpc"); got != 3 {
		t.Errorf("gRPC request durations observed: %v, want 3", got)
	}
	if got := count("rosenblatt_requests_in_flight", "model", "m", "protocol", "oip-grpc"); got != 0 {
		t.Errorf("gRPC requests in flight after they ended: %v", got)
	}
	if n := testutil.CollectAndCount(met.Registry(), "rosenblatt_requests_total"); n != 4 {
		t.Errorf("%d series of requests_total, want 4 (no series for the unknown name)", n)
	}

	// A reload to another model, then a failed one.
	path := filepath.Join(fixtures, "perceptron-argmax-f32.model")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	replace(t, served, data)
	if ok, err := s.Reload(); !ok || err != nil {
		t.Fatalf("Reload = %v, %v", ok, err)
	}
	v2 := s.Current().Version
	replace(t, served, []byte("not a model"))
	if _, err := s.Reload(); err == nil {
		t.Fatal("a reload of a bad file succeeded")
	}
	for _, tc := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"rosenblatt_model_info", []string{"model", "m", "version", v1}, 0},
		{"rosenblatt_model_info", []string{"model", "m", "version", v2}, 1},
		{"rosenblatt_model_reloads_total", []string{"model", "m", "result", "loaded"}, 2},
		{"rosenblatt_model_reloads_total", []string{"model", "m", "result", "failed"}, 1},
	} {
		if got := count(tc.name, tc.labels...); got != tc.want {
			t.Errorf("%s%v = %v, want %v", tc.name, tc.labels, got, tc.want)
		}
	}
	if testutil.CollectAndCount(met.Registry(), "rosenblatt_model_info") != 1 {
		t.Error("more than one version of model m in model_info")
	}

	// /metrics serves them, in the text format.
	hs := httptest.NewServer(s)
	defer hs.Close()
	resp, err := http.Get(hs.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`rosenblatt_requests_total{code="200",model="m",protocol="oip-grpc"} 2`,
		`rosenblatt_model_info{model="m",version="` + v2 + `"} 1`,
		`rosenblatt_request_duration_seconds_bucket{model="m",protocol="oip-grpc",le="+Inf"} 3`,
		"go_goroutines ",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("GET /metrics lacks %q:\n%s", want, body)
		}
	}
}

// replace renames a file holding data over path.
func replace(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}
