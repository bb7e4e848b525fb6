package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// TestReadyAgrees: REST's GET /v2/health/ready and gRPC's ServerReady
// give the same answer — not ready for an empty repository and for one
// holding a file that does not load, ready for a repository whose models
// all loaded and for a server of one file — and each model's readiness
// (REST GET /v2/models/{name}/ready, gRPC ModelReady) is its own.
func TestReadyAgrees(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(fixtures, "perceptron-ovr-f32.model"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		files map[string][]byte
		ready bool
		model map[string]bool // each model's readiness
	}{
		{"empty", nil, false, nil},
		{"bad file", map[string][]byte{"a.model": good, "bad.model": []byte("not a model")}, false, map[string]bool{"a": true, "bad": false}},
		{"loaded", map[string][]byte{"a.model": good, "b.model": good}, true, map[string]bool{"a": true, "b": true}},
	} {
		dir := t.TempDir()
		for name, data := range c.files {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, err := serve.NewRepository(dir, nil, serve.Options{Poll: -1, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		checkReady(t, c.name, s, c.ready, c.model)
		if c.name == "bad file" { // the file fixed: every model loads
			if err := os.WriteFile(filepath.Join(dir, "bad.model"), good, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Reload(); err != nil {
				t.Fatal(err)
			}
			checkReady(t, "bad file fixed", s, true, map[string]bool{"a": true, "bad": true})
		}
	}
	s, _, _ := serveFixture(t, "perceptron-ovr-f32.model", "one", serve.Options{})
	checkReady(t, "one file", s, true, map[string]bool{"one": true, "other": false})
}

// checkReady checks s's readiness and its models' over REST and gRPC.
func checkReady(t *testing.T, what string, s *serve.Server, ready bool, models map[string]bool) {
	t.Helper()
	c := dial(t, server.NewGRPCServer(s))
	ctx := context.Background()
	get := func(url string) int {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", url, nil))
		return w.Code
	}
	code := map[bool]int{true: http.StatusOK, false: http.StatusServiceUnavailable}
	if got := get("/v2/health/ready"); got != code[ready] {
		t.Errorf("%s: GET /v2/health/ready %d, want %d", what, got, code[ready])
	}
	r, err := c.ServerReady(ctx, &oippb.ServerReadyRequest{})
	if err != nil || r.Ready != ready {
		t.Errorf("%s: ServerReady %v, %v; want ready %v", what, r, err, ready)
	}
	if got, _ := s.Ready(); got != ready {
		t.Errorf("%s: Ready() %v, want %v", what, got, ready)
	}
	if got := get("/v2/health/live"); got != http.StatusOK {
		t.Errorf("%s: GET /v2/health/live %d", what, got)
	}
	for name, ok := range models {
		mr, err := c.ModelReady(ctx, &oippb.ModelReadyRequest{Name: name})
		if err != nil || mr.Ready != ok {
			t.Errorf("%s: ModelReady(%q) %v, %v; want ready %v", what, name, mr, err, ok)
		}
		if got := get("/v2/models/" + name + "/ready"); (got == http.StatusOK) != ok {
			t.Errorf("%s: GET /v2/models/%s/ready %d, want ready %v", what, name, got, ok)
		}
	}
}
