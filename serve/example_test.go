package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// A Go service that embeds a model and reloads it when its file is
// replaced: train, write the file, serve it, then replace the file (by
// renaming a complete new one over it) and see the new model answer.
func Example_hotReload() {
	dir, _ := os.MkdirTemp("", "serve-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.bin")

	// Two models of 2 features: one says +1 for x₀ > 0, the other −1.
	X := []float32{1, 0, 2, 1, -1, 0, -2, 1}
	save := func(y []int) {
		m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 2, y), y, perceptron.Options{MaxIter: 5})
		if err != nil {
			log.Fatal(err)
		}
		b, _ := m.MarshalBinary()
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil { // atomic: never half a file
			log.Fatal(err)
		}
	}
	save([]int{1, 1, -1, -1})

	// How the service decodes its model files.
	decode := func(path string, data []byte) (serve.Model, error) {
		m := new(linear.Model[float32])
		if err := m.UnmarshalBinary(data); err != nil {
			return nil, err
		}
		return m, nil
	}
	s, err := serve.New(path, decode, serve.Options{
		Poll:   10 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx) // or s.Run(ctx, listener), which also serves and shuts down gracefully
	// In a real service: s.HTTPServer(":8080").ListenAndServe(), or mount
	// s (an http.Handler) in your own mux.
	ts := httptest.NewServer(s)
	defer ts.Close()

	ask := func() {
		resp, err := http.Post(ts.URL+"/predict", "application/json", strings.NewReader(`{"x": [3, 0]}`))
		if err != nil {
			log.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct {
			Model string // the version that answered, also in the X-Model-Version header
			Label int
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			log.Fatal(err)
		}
		fmt.Println(resp.StatusCode, "label", r.Label, r.Model == resp.Header.Get("X-Model-Version"))
	}
	ask()

	old := s.Current().Version
	save([]int{-1, -1, 1, 1}) // the new model: Watch puts it in use
	for s.Current().Version == old {
		time.Sleep(time.Millisecond)
	}
	ask()
	// Output:
	// 200 label 1 true
	// 200 label -1 true
}

// A model repository: every model file of a directory served under its
// name without the extension, a bad file listed beside the good ones,
// and a model named in the path of /predict.
func ExampleNewRepository() {
	dir, _ := os.MkdirTemp("", "serve-repository")
	defer os.RemoveAll(dir)
	X := []float32{1, 0, 2, 1, -1, 0, -2, 1}
	for name, y := range map[string][]int{"up.model": {1, 1, -1, -1}, "down.model": {-1, -1, 1, 1}} {
		m, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 2, y), y, perceptron.Options{MaxIter: 5})
		if err != nil {
			log.Fatal(err)
		}
		b, _ := m.MarshalBinary()
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "broken.model"), []byte("not a model"), 0o644)

	s, err := serve.NewRepository(dir, nil, serve.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range s.Index() {
		fmt.Println(m.Name, m.State, len(m.Version))
	}
	for _, name := range []string{"up", "down", "broken"} {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/predict/"+name, strings.NewReader(`{"x": [3, 0]}`))
		r.Header.Set("Content-Type", "application/json")
		s.ServeHTTP(w, r)
		var resp struct{ Label int }
		json.Unmarshal(w.Body.Bytes(), &resp)
		fmt.Println(name, w.Code, resp.Label)
	}
	// Output:
	// broken UNAVAILABLE 0
	// down READY 16
	// up READY 16
	// up 200 1
	// down 200 -1
	// broken 503 0
}
