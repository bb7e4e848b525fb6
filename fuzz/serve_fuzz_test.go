package fuzz

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// FuzzServeRequest sends any body, as JSON or binary, to a server of a
// float32 3-class model and of a float64 binary model (3 features): the
// answer is 200, 400, 413 or 422, never a panic or a 5xx; it names the
// model version; an error has a one-line message; a 200 binary answer
// parses, has one known label per row the request's header announces, and
// for one sample the label is the model's own Predict of the values sent.
func FuzzServeRequest(f *testing.F) {
	X, X32, yb, ym := seedData()
	m32, _, err := perceptron.Fit(context.Background(), dataset.NewData(X32, 3, ym), ym, perceptron.Options{MaxIter: 3})
	if err != nil {
		f.Fatal(err)
	}
	m64, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 3, yb), yb, perceptron.Options{MaxIter: 3})
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	type served struct {
		s       *serve.Server
		predict func(x []float64) (int, error)
		classes []int
	}
	var servers [2]served
	for i, m := range []interface {
		serve.Model
		MarshalBinary() ([]byte, error)
	}{m32, m64} {
		b, err := m.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		path := filepath.Join(dir, []string{"m32", "m64"}[i])
		if err := os.WriteFile(path, b, 0o644); err != nil {
			f.Fatal(err)
		}
		dec := func(_ string, data []byte) (serve.Model, error) {
			if i == 0 {
				m := new(linear.Model[float32])
				return m, m.UnmarshalBinary(data)
			}
			m := new(linear.Model[float64])
			return m, m.UnmarshalBinary(data)
		}
		s, err := serve.New(path, dec, serve.Options{MaxBodyBytes: 1 << 12, Poll: -1,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			f.Fatal(err)
		}
		servers[i] = served{s: s, classes: m.Classes()}
	}
	servers[0].predict = func(x []float64) (int, error) {
		x32 := make([]float32, len(x))
		for i, v := range x {
			x32[i] = float32(v)
		}
		return m32.Predict(x32)
	}
	servers[1].predict = m64.Predict

	f.Add([]byte(`{"x": [1, 2, 3]}`), false, false)
	f.Add([]byte(`{"rows": [[1, 2, 3], [-1, 0.5, 2e3]], "scores": true}`), false, true)
	f.Add([]byte(`{"rows": [[1, 2, 3], [1, 2]]}`), false, false)
	f.Add([]byte(`{"x": [1e39, 2, 3]}`), false, false)
	f.Add(serve.AppendRequest(nil, []float32{1, 2, 3}, 3, false), true, false)
	f.Add(serve.AppendRequest(nil, []float64{1, 2, 3, -4, 5, 1e300}, 3, true), true, true)
	f.Add(serve.AppendRequest(nil, []float32{1, float32(math.NaN()), 3}, 3, false), true, false)
	f.Add(serve.AppendRequest(nil, []float32{3e38, 3e38, 3e38}, 3, false), true, true)
	f.Fuzz(func(t *testing.T, body []byte, bin, f64 bool) {
		sv := servers[0]
		if f64 {
			sv = servers[1]
		}
		ct := "application/json"
		if bin {
			ct = "application/octet-stream"
		}
		r := httptest.NewRequest("POST", "/predict", bytes.NewReader(body))
		r.Header.Set("Content-Type", ct)
		w := httptest.NewRecorder()
		sv.s.ServeHTTP(w, r)
		if v := sv.s.Current().Version; w.Header().Get("X-Model-Version") != v {
			t.Fatalf("response names model %q, want %q", w.Header().Get("X-Model-Version"), v)
		}
		switch w.Code {
		case 200:
		case 400, 413, 422:
			msg := w.Body.String()
			if !strings.HasSuffix(msg, "\n") || strings.Count(msg, "\n") != 1 || len(msg) < 10 {
				t.Fatalf("status %d: message %q is not one line", w.Code, msg)
			}
			return
		default:
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		if !bin {
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("invalid JSON response %q", w.Body)
			}
			return
		}
		var resp serve.Response
		if err := serve.ParseResponse(&resp, w.Body.Bytes()); err != nil {
			t.Fatal(err)
		}
		n := int(binary.LittleEndian.Uint32(body[8:]))
		if len(resp.Labels) != n {
			t.Fatalf("%d labels for %d rows", len(resp.Labels), n)
		}
		for _, l := range resp.Labels {
			if !slices.Contains(sv.classes, l) {
				t.Fatalf("label %d is not one of %v", l, sv.classes)
			}
		}
		if n == 1 {
			x := make([]float64, 3)
			for i := range x {
				if body[4] == 4 {
					x[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(body[16+4*i:])))
				} else {
					x[i] = math.Float64frombits(binary.LittleEndian.Uint64(body[16+8*i:]))
				}
			}
			want, err := sv.predict(x)
			if err != nil || want != resp.Labels[0] {
				t.Fatalf("label %d, the model's Predict: %d, %v", resp.Labels[0], want, err)
			}
		}
	})
}
