package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// decode decodes a binary or JSON perceptron model file, float32 or
// float64, linear or kernel (the test's Decoder; the command passes its
// own, the one predict uses).
func decode(path string, data []byte) (serve.Model, error) {
	info, _ := model.Inspect(bytes.NewReader(data))
	var m interface {
		serve.Model
		UnmarshalBinary([]byte) error
	}
	switch {
	case info.Kind.Kernel() && info.Elem == "float64":
		m = new(expansion.Model[float64])
	case info.Kind.Kernel():
		m = new(expansion.Model[float32])
	case info.Elem == "float64":
		m = new(linear.Model[float64])
	default:
		m = new(linear.Model[float32])
	}
	if err := m.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return m, nil
}

// randRows returns n rows of d values in [-1, 1).
func randRows[T kernel.Float](seed uint64, n, d int) []T {
	rng := rand.New(rand.NewPCG(seed, 1))
	X := make([]T, n*d)
	for i := range X {
		X[i] = T(2*rng.Float64() - 1)
	}
	return X
}

// trainBinary trains a binary model on n random rows of d features whose
// label is the sign of feature 0 (flipped if flip is set).
func trainBinary[T kernel.Float](t testing.TB, seed uint64, n, d int, flip bool) *linear.Model[T] {
	t.Helper()
	X := randRows[T](seed, n, d)
	y := make([]int, n)
	for i := range y {
		y[i] = -1
		if (X[i*d] > 0) != flip {
			y[i] = 1
		}
	}
	m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, perceptron.Options{MaxIter: 3})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// trainOVR trains a 3-class one-vs-rest model of d features.
func trainOVR[T kernel.Float](t testing.TB, seed uint64, n, d int) *linear.Model[T] {
	t.Helper()
	X := randRows[T](seed, n, d)
	y := make([]int, n)
	for i := range y {
		y[i] = 7 + i%3
		X[i*d+i%3] += 2
	}
	m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, d, y), y, perceptron.Options{MaxIter: 3})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// marshal returns a model's binary file.
func marshal(t testing.TB, m interface{ MarshalBinary() ([]byte, error) }) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeAtomic replaces path with data by renaming a complete file over it.
func writeAtomic(t testing.TB, path string, data []byte) {
	t.Helper()
	tmp, err := os.CreateTemp(filepath.Dir(path), ".model-*")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tmp.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := tmp.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		t.Fatal(err)
	}
}

// logBuffer is a concurrency-safe log destination.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newServer writes data to a model file in a temporary directory and
// returns a server of it, logging to the returned buffer.
func newServer(t testing.TB, data []byte, opt serve.Options) (*serve.Server, string, *logBuffer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.model")
	writeAtomic(t, path, data)
	lb := new(logBuffer)
	opt.Logger = slog.New(slog.NewTextHandler(lb, nil))
	s, err := serve.New(path, decode, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s, path, lb
}

// jsonResponse is a JSON response body.
type jsonResponse struct {
	Model  string          `json:"model"`
	Label  *int            `json:"label"`
	Labels []int           `json:"labels"`
	Scores json.RawMessage `json:"scores"`
}

// post sends body to url with the content type and returns the status,
// the model header and the body.
func post(t testing.TB, c *http.Client, url, ct string, body []byte) (int, string, []byte) {
	t.Helper()
	resp, err := c.Post(url, ct, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("X-Model-Version"), b
}

// The model types the package documentation says are served.
var (
	_ serve.Classifier[float32] = (*linear.Model[float32])(nil)
	_ serve.Classifier[float64] = (*expansion.Model[float64])(nil)
	_ serve.Classifier[float32] = (*expansion.Model[float32])(nil)
	_ serve.Classifier[float64] = (*linear.Model[float64])(nil)
)

// twoModels returns the files of two binary models of d features that
// disagree (the label is the sign of feature 0, and its opposite), and the
// path of a model file in a temporary directory holding the first.
func twoModels(t testing.TB, d int) (a, b []byte, path string) {
	t.Helper()
	a = marshal(t, trainBinary[float32](t, 1, 50, d, false))
	b = marshal(t, trainBinary[float32](t, 1, 50, d, true))
	path = filepath.Join(t.TempDir(), "m.model")
	writeAtomic(t, path, a)
	return a, b, path
}
