package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rosenblatt-go/rosenblatt/internal/servecmd"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// fixtures is the root module's directory of model files of every kind.
const fixtures = "../../../model/testdata/fixtures"

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

// started is a command running in the test.
type started struct {
	addrs
	path string // the model file
	log  *syncBuffer
	stop func() error // shuts it down and returns run's error
}

// start copies fixture to a temporary directory as name+ext and runs the
// command on it with args after -model FILE -addr 127.0.0.1:0
// -grpc-addr 127.0.0.1:0, until the test ends or stop is called.
func start(t *testing.T, fixture, name string, args ...string) *started {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, fixture))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+filepath.Ext(fixture))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st := &started{path: path, log: new(syncBuffer)}
	readyc := make(chan addrs, 1)
	errc := make(chan error, 1)
	args = append([]string{"-model", path, "-addr", "127.0.0.1:0", "-grpc-addr", "127.0.0.1:0"}, args...)
	go func() { errc <- run(ctx, nil, args, st.log, func(a addrs) { readyc <- a }) }()
	select {
	case st.addrs = <-readyc:
	case err := <-errc:
		cancel()
		t.Fatalf("run: %v\n%s", err, st.log)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatalf("not listening after 30 s:\n%s", st.log)
	}
	var once sync.Once
	var runErr error
	st.stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case runErr = <-errc:
			case <-time.After(20 * time.Second):
				runErr = fmt.Errorf("run did not return 20 s after its context was done")
			}
		})
		return runErr
	}
	t.Cleanup(func() { st.stop() })
	return st
}

// client dials the command's gRPC address.
func (st *started) client(t *testing.T) oippb.GRPCInferenceServiceClient {
	t.Helper()
	conn, err := grpc.NewClient(st.GRPC.String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return oippb.NewGRPCInferenceServiceClient(conn)
}

// get returns the status and body of GET url.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := httpClient.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestCommand runs the command: REST and gRPC answer with the same model,
// /metrics counts both, and it exits cleanly when told to.
func TestCommand(t *testing.T) {
	st := start(t, "perceptron-ovr-f32.model", "iris")
	m, err := model.LoadFile(filepath.Join(fixtures, "perceptron-ovr-f32.model"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := model.As[float32](m)
	if err != nil {
		t.Fatal(err)
	}
	d := m.Dims()
	x := make([]float32, d)
	for i := range x {
		x[i] = float32(i%3) - 0.7
	}
	want, _ := c.Predict(x)

	base := "http://" + st.HTTP.String()
	js := "["
	for i, v := range x {
		if i > 0 {
			js += ","
		}
		js += fmt.Sprint(v)
	}
	js += "]"
	resp, err := http.Post(base+"/predict", "application/json", strings.NewReader(`{"x":`+js+`}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), fmt.Sprintf(`"label":%d`, want)) {
		t.Errorf("POST /predict: %d %s, want label %d", resp.StatusCode, body, want)
	}

	g := st.client(t)
	ctx := context.Background()
	r, err := g.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: "iris", Inputs: []*oippb.ModelInferRequest_InferInputTensor{
		{Name: "input", Datatype: "FP32", Shape: []int64{1, int64(d)}, Contents: &oippb.InferTensorContents{Fp32Contents: x}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Outputs[0].Contents.Int64Contents; len(got) != 1 || got[0] != int64(want) {
		t.Errorf("gRPC label %v, want %d", got, want)
	}
	code, metrics := get(t, base+"/metrics")
	for _, w := range []string{
		`rosenblatt_requests_total{code="200",model="iris",protocol="oip-grpc"} 1`,
		`rosenblatt_requests_total{code="200",model="iris",protocol="predict-json"} 1`,
		`rosenblatt_model_reloads_total{model="iris",result="loaded"} 1`,
	} {
		if code != 200 || !strings.Contains(metrics, w) {
			t.Errorf("GET /metrics (%d) lacks %q:\n%s", code, w, metrics)
		}
	}
	if err := st.stop(); err != nil {
		t.Errorf("shutdown: %v\n%s", err, st.log)
	}
	if _, err := g.ServerLive(ctx, &oippb.ServerLiveRequest{}); err == nil {
		t.Error("gRPC still answers after the shutdown")
	}
}

// TestNoGRPC: -grpc-addr "" serves HTTP only; a -grpc-addr that cannot be
// listened on is an error of the command, which then shuts HTTP down.
func TestNoGRPC(t *testing.T) {
	st := start(t, "perceptron-ovr-f32.model", "m", "-grpc-addr", "")
	if st.GRPC != nil {
		t.Errorf("gRPC listens on %v with -grpc-addr \"\"", st.GRPC)
	}
	if code, _ := get(t, "http://"+st.HTTP.String()+"/v2/health/ready"); code != 200 {
		t.Errorf("HTTP ready: %d", code)
	}
	if err := st.stop(); err != nil {
		t.Error(err)
	}

	path := filepath.Join(t.TempDir(), "m.model")
	data, _ := os.ReadFile(filepath.Join(fixtures, "perceptron-ovr-f32.model"))
	os.WriteFile(path, data, 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := run(ctx, nil, []string{"-model", path, "-addr", "127.0.0.1:0", "-grpc-addr", "127.0.0.1:99999"}, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "-grpc-addr") || ctx.Err() != nil {
		t.Errorf("an impossible -grpc-addr: %v (context %v)", err, ctx.Err())
	}
	err = run(ctx, nil, []string{"-model", path, "-grpc-addr"}, io.Discard, nil)
	if !isUsage(err) {
		t.Errorf("-grpc-addr without a value: %v, want a usage error", err)
	}
}

func isUsage(err error) bool {
	return strings.Contains(fmt.Sprint(err), "flag needs an argument") && errors.Is(err, servecmd.ErrUsage)
}

// httpClient is the tests' HTTP client: no request waits for ever.
var httpClient = http.Client{Timeout: 5 * time.Second}

// version returns the version of the model in use, from GET /healthz.
func (st *started) version(t *testing.T) string {
	t.Helper()
	code, body := get(t, "http://"+st.HTTP.String()+"/healthz")
	var h struct{ Model string }
	if err := json.Unmarshal([]byte(body), &h); code != 200 || err != nil || h.Model == "" {
		t.Fatalf("GET /healthz: %d %s", code, body)
	}
	return h.Model
}

// TestProtectPredictGRPC: -protect-predict closes predictions to clients
// without the token; the gRPC API has no token check, so the command
// refuses to serve it then rather than leave predictions open there.
func TestProtectPredictGRPC(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.model")
	data, _ := os.ReadFile(filepath.Join(fixtures, "perceptron-ovr-f32.model"))
	os.WriteFile(path, data, 0o644)
	tok := filepath.Join(dir, "token")
	os.WriteFile(tok, []byte("s3cret-token-of-the-test\n"), 0o600)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := run(ctx, nil, []string{"-model", path, "-addr", "127.0.0.1:0", "-grpc-addr", "127.0.0.1:0",
		"-learn-dir", filepath.Join(dir, "learn"), "-token-file", tok, "-protect-predict"}, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "-protect-predict") || ctx.Err() != nil {
		t.Errorf("-protect-predict with gRPC: %v (context %v), want a refusal naming -protect-predict", err, ctx.Err())
	}
}
