package serve_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// BenchmarkServe drives a server of a binary d = 784 float32 model (the
// Fashion-MNIST shape) on loopback from concurrent keep-alive clients and
// reports requests/s and the p50 and p99 latency of a request (client
// side: from sending it to reading the whole response). enc=binary sends
// the binary body, enc=json the JSON one; n is the rows per request.
func BenchmarkServe(b *testing.B) {
	const d = 784
	m := trainBinary[float32](b, 1, 200, d, false)
	s, _, _ := newServer(b, marshal(b, m), serve.Options{Poll: -1})
	url := start(b, s) + "/predict"
	for _, c := range []struct {
		enc     string
		n       int
		clients int
	}{{"binary", 1, 1}, {"binary", 1, 4}, {"json", 1, 4}, {"binary", 64, 4}} {
		X := randRows[float32](7, c.n, d)
		var body []byte
		ct := ctBin
		if c.enc == "binary" {
			body = serve.AppendRequest(nil, X, d, false)
		} else {
			ct = ctJSON
			body, _ = json.Marshal(map[string]any{"x": X})
		}
		b.Run(fmt.Sprintf("enc=%s/n=%d/clients=%d", c.enc, c.n, c.clients), func(b *testing.B) {
			tr := &http.Transport{MaxIdleConnsPerHost: c.clients}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			lat := make([]time.Duration, b.N)
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			t0 := time.Now()
			for range c.clients {
				wg.Go(func() {
					buf := make([]byte, 64<<10)
					rd := bytes.NewReader(body)
					for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
						rd.Reset(body)
						t := time.Now()
						resp, err := client.Post(url, ct, rd)
						if err != nil {
							b.Error(err)
							return
						}
						_, err = io.CopyBuffer(io.Discard, resp.Body, buf)
						resp.Body.Close()
						lat[i] = time.Since(t)
						if err != nil || resp.StatusCode != 200 {
							b.Errorf("status %d, %v", resp.StatusCode, err)
							return
						}
					}
				})
			}
			wg.Wait()
			el := time.Since(t0)
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(b.N)/el.Seconds(), "req/s")
			b.ReportMetric(float64(b.N*c.n)/el.Seconds(), "rows/s")
			b.ReportMetric(float64(lat[b.N/2].Nanoseconds())/1e3, "p50-µs")
			b.ReportMetric(float64(lat[b.N*99/100].Nanoseconds())/1e3, "p99-µs")
		})
	}
}

// BenchmarkHandler calls the handler in process (no network, no HTTP
// parsing) with a binary, JSON or Open Inference Protocol (enc=oip, the
// label only) d = 784 request: what the server adds to Predict.
func BenchmarkHandler(b *testing.B) {
	const d = 784
	m := trainBinary[float32](b, 1, 200, d, false)
	s, _, _ := newServer(b, marshal(b, m), serve.Options{Poll: -1})
	X := randRows[float32](7, 1, d)
	jb, _ := json.Marshal(map[string]any{"x": X})
	data, _ := json.Marshal(X)
	oip := []byte(`{"inputs":[{"name":"input","shape":[1,784],"datatype":"FP32","data":` + string(data) + `}],"outputs":[{"name":"label"}]}`)
	for _, c := range []struct {
		enc, ct, url string
		body         []byte
	}{{"binary", ctBin, "/predict", serve.AppendRequest(nil, X, d, false)}, {"json", ctJSON, "/predict", jb},
		{"oip", ctJSON, "/v2/models/m/infer", oip}} {
		b.Run("enc="+c.enc+"/d=784", func(b *testing.B) {
			rd := bytes.NewReader(c.body)
			r := httptest.NewRequest("POST", c.url, io.NopCloser(rd))
			r.Header.Set("Content-Type", c.ct)
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				rd.Reset(c.body)
				s.ServeHTTP(w, r)
			}
			if w.code != 200 {
				b.Fatal(w.code)
			}
		})
	}
	b.Run("Predict/d=784", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.Predict(X); err != nil {
				b.Fatal(err)
			}
		}
	})
}
