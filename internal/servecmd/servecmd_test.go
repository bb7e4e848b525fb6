package servecmd_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/internal/servecmd"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// fixture copies a model fixture of package model to dir under name and
// returns its path and its number of features.
func fixture(t *testing.T, dir, fixture, name string) (string, int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "model", "testdata", "fixtures", fixture))
	require.NoError(t, err)
	m, err := model.Unmarshal(data)
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path, m.Dims()
}

// syncBuffer is a log destination safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// counter is an Observer that counts requests by "model protocol code".
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) Request(model, protocol string, code int, _ time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[fmt.Sprintf("%s %s %d", model, protocol, code)]++
}
func (c *counter) InFlight(string, string, int)         {}
func (c *counter) Reload(string, string, error)         {}
func (c *counter) get(k string) int                     { c.mu.Lock(); defer c.mu.Unlock(); return c.n[k] }
func newCounter() *counter                              { return &counter{n: map[string]int{}} }
func get(t *testing.T, url string) (int, string)        { return do(t, "GET", url, "") }
func post(t *testing.T, url, body string) (int, string) { return do(t, "POST", url, body) }

func do(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// startRun runs servecmd.Run with args and x until ctx is done and
// returns its URL and the channel of its result.
func startRun(t *testing.T, ctx context.Context, args []string, logs *syncBuffer, x servecmd.Extra) (string, chan error) {
	t.Helper()
	addrc, done := make(chan string, 1), make(chan error, 1)
	x.Ready = func(a net.Addr) { addrc <- "http://" + a.String() }
	go func() { done <- servecmd.Run(ctx, nil, args, logs, x) }()
	select {
	case url := <-addrc:
		return url, done
	case err := <-done:
		t.Fatalf("Run: %v\n%s", err, logs.String())
	}
	return "", nil
}

// TestExtra: what a command adds through Extra reaches the server: its
// flag is parsed and read in Start, which runs with the server until the
// shutdown and sees the model loaded; its handler answers beside
// /predict; its Observer counts the requests under the model's name.
func TestExtra(t *testing.T) {
	dir := t.TempDir()
	path, d := fixture(t, dir, "perceptron-binary-f32.model", "iris.model")
	obs := newCounter()
	var extraAddr *string
	started, stopped := make(chan string, 1), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	url, done := startRun(t, ctx, []string{"-model", path, "-addr", "127.0.0.1:0", "-grpc-addr", "127.0.0.1:9"}, &logs, servecmd.Extra{
		Name:     "rosenblatt-test",
		Flags:    func(fs *flag.FlagSet) { extraAddr = fs.String("grpc-addr", "", "gRPC") },
		Observer: obs,
		Handlers: map[string]http.Handler{"GET /metrics": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, "requests 1\n")
		})},
		Start: func(ctx context.Context, s *serve.Server) error {
			started <- *extraAddr + " " + s.Current().Version
			<-ctx.Done()
			close(stopped)
			return nil
		},
	})
	got := <-started
	require.True(t, strings.HasPrefix(got, "127.0.0.1:9 "), got)
	require.Len(t, strings.Fields(got)[1], 16, "the model's version")
	code, body := get(t, url+"/metrics")
	require.Equal(t, 200, code)
	require.Equal(t, "requests 1\n", body)
	x := "[" + strings.TrimSuffix(strings.Repeat("0.5,", d), ",") + "]"
	code, body = post(t, url+"/predict", `{"x":`+x+`}`)
	require.Equal(t, 200, code, body)
	code, _ = post(t, url+"/predict", `{"x":[1]}`)
	require.Equal(t, 400, code)
	require.Equal(t, 1, obs.get("iris predict-json 200"))
	require.Equal(t, 1, obs.get("iris predict-json 400"))
	select {
	case <-stopped:
		t.Fatal("Start returned before the shutdown")
	default:
	}
	cancel()
	require.NoError(t, <-done)
	<-stopped
	require.Contains(t, logs.String(), "shut down")
}

// TestStartError: an error from Start shuts the server down and is what
// Run returns; a handler pattern the server has is refused before it
// listens.
func TestStartError(t *testing.T) {
	path, _ := fixture(t, t.TempDir(), "perceptron-binary-f32.model", "m.model")
	boom := errors.New("boom")
	var logs syncBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- servecmd.Run(context.Background(), nil, []string{"-model", path, "-addr", "127.0.0.1:0"}, &logs, servecmd.Extra{
			Start: func(ctx context.Context, s *serve.Server) error { return boom },
		})
	}()
	select {
	case err := <-errc:
		require.ErrorIs(t, err, boom)
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after Start failed")
	}
	err := servecmd.Run(context.Background(), nil, []string{"-model", path, "-addr", "127.0.0.1:0"}, io.Discard, servecmd.Extra{
		Handlers: map[string]http.Handler{"/healthz": http.NotFoundHandler()},
	})
	require.ErrorIs(t, err, serve.ErrOption)
}

// TestGRPCAddrElsewhere: a command that defines no -grpc-addr refuses the
// flag with a usage error naming the command that serves gRPC.
func TestGRPCAddrElsewhere(t *testing.T) {
	var stderr bytes.Buffer
	err := servecmd.Run(context.Background(), nil, []string{"-model", "x.model", "-grpc-addr", ":9000"}, &stderr, servecmd.Extra{})
	require.ErrorIs(t, err, servecmd.ErrUsage)
	require.Contains(t, err.Error(), "rosenblatt-server")
	require.NotContains(t, err.Error(), "\n")
}

// TestModels: -models DIR serves every model file of the directory by
// name, a bad file beside them listed unavailable; a file added while it
// runs is served at the next look (-poll); -model and -models together,
// or -max-models 0, are usage errors.
func TestModels(t *testing.T) {
	dir := t.TempDir()
	_, da := fixture(t, dir, "perceptron-binary-f32.model", "a.model")
	_, db := fixture(t, dir, "linear-svm-ovr-f64.json", "b.json")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.model"), []byte("RBLTPCPT?"), 0o644))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	url, done := startRun(t, ctx, []string{"-models", dir, "-addr", "127.0.0.1:0", "-poll", "5ms"}, &logs, servecmd.Extra{})
	require.Contains(t, logs.String(), "models=3 ready=2")
	row := func(d int) string { return "[" + strings.TrimSuffix(strings.Repeat("0.5,", d), ",") + "]" }
	code, body := post(t, url+"/predict/a", `{"x":`+row(da)+`}`)
	require.Equal(t, 200, code, body)
	code, body = post(t, url+"/predict?model=b", `{"x":`+row(db)+`}`)
	require.Equal(t, 200, code, body)
	code, body = post(t, url+"/predict", `{"x":`+row(da)+`}`)
	require.Equal(t, 400, code, body)
	code, _ = post(t, url+"/predict/bad", `{"x":`+row(da)+`}`)
	require.Equal(t, 503, code)
	code, body = post(t, url+"/v2/repository/index", "")
	require.Equal(t, 200, code)
	require.Contains(t, body, `"name":"bad","state":"UNAVAILABLE"`)
	fixture(t, dir, "quant-binary.model", "c.model")
	deadline := time.Now().Add(10 * time.Second)
	for code != 200 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		code, body = get(t, url+"/v2/models/c/ready")
	}
	require.Equal(t, 200, code, body)
	cancel()
	require.NoError(t, <-done)

	for _, args := range [][]string{{"-model", "a.model", "-models", dir}, {"-models", dir, "-max-models", "0"}, {}} {
		err := servecmd.Run(context.Background(), nil, args, io.Discard, servecmd.Extra{})
		require.ErrorIs(t, err, servecmd.ErrUsage, args)
	}
}
