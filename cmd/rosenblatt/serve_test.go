package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// TestServe runs "rosenblatt serve" on a model trained by "rosenblatt
// train": its labels are predict's, a new model file is put in use on
// SIGHUP, a corrupt one keeps the model in use and is logged, and the
// server shuts down cleanly when its context ends. Linear and kernel
// perceptrons and a kernel SVM, binary and JSON files.
func TestServe(t *testing.T) {
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	test := filepath.Join(td, "iris.test.libsvm")
	data, err := dataset.LoadLIBSVM[float64](test, dataset.LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]float64, data.Rows)
	for i := range rows {
		rows[i] = data.X[i*data.Cols : (i+1)*data.Cols]
	}
	body, _ := json.Marshal(map[string]any{"rows": rows})

	dir := t.TempDir()
	train := func(out string, extra ...string) []string {
		args := append([]string{"train", "-q", "-f", "-o", out}, extra...)
		if code, _, stderr := runIn(t, dir, append(args, filepath.Join(td, "iris.train.libsvm"))...); code != exitOK {
			t.Fatalf("train: %s", stderr)
		}
		code, stdout, stderr := runIn(t, dir, "predict", out, test)
		if code != exitOK {
			t.Fatalf("predict: %s", stderr)
		}
		return strings.Fields(stdout)
	}
	model := filepath.Join(dir, "m.model")
	wantA := train(model, "-algo", "averaged", "-epochs", "5")
	kernelJSON := filepath.Join(dir, "k.json")
	wantB := train(kernelJSON, "-kernel", "rbf", "-gamma", "0.5", "-json")
	svmModel := filepath.Join(dir, "svm.model")
	wantC := train(svmModel, "-algo", "svm", "-kernel", "rbf", "-gamma", "0.5", "-C", "1")
	// An int8 quantised form of a linear model, read by package model.
	linModel, quantModel := filepath.Join(dir, "lin.model"), filepath.Join(dir, "q.model")
	train(linModel, "-algo", "averaged", "-epochs", "5")
	if code, _, stderr := runIn(t, dir, "quantize", "-model", linModel, "-o", quantModel); code != exitOK {
		t.Fatalf("quantize: %s", stderr)
	}
	code, stdout, stderr := runIn(t, dir, "predict", quantModel, test)
	if code != exitOK {
		t.Fatalf("predict: %s", stderr)
	}
	wantQ := strings.Fields(stdout)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hup := make(chan os.Signal)
	var logs syncBuffer
	url, done := startServe(t, ctx, hup, &logs, "-model", model, "-addr", "127.0.0.1:0", "-poll", "0", "-allow-model-change")

	predict := func() (string, []string) {
		t.Helper()
		resp, err := http.Post(url+"/predict", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, b)
		}
		var r struct {
			Model  string
			Labels []int
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if h := resp.Header.Get("X-Model-Version"); h != r.Model {
			t.Errorf("header names model %s, body %s", h, r.Model)
		}
		var labels []string
		for _, l := range r.Labels {
			labels = append(labels, strconv.Itoa(l))
		}
		return r.Model, labels
	}
	var lastHealth struct {
		Model, LastReloadError, Type, Kind string
		Quantised                          bool
	}
	health := func() (string, string) {
		t.Helper()
		resp, err := http.Get(url + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(&lastHealth); err != nil {
			t.Fatal(err)
		}
		return lastHealth.Model, lastHealth.LastReloadError
	}
	reload := func() {
		hup <- os.Interrupt // any value: serveWith reloads on each
		hup <- os.Interrupt // the first has been taken: the reload is under way or done
	}
	eq := func(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") }

	va, got := predict()
	if !eq(got, wantA) {
		t.Fatalf("served %v, predict %v", got, wantA)
	}
	if eq(wantA, wantB) {
		t.Fatal("the two models must disagree somewhere for the test to tell them apart")
	}

	// A corrupt file keeps the model in use.
	if err := os.WriteFile(model, []byte("RBLTPCPT garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	reload()
	waitFor(t, func() bool { _, e := health(); return e != "" })
	if v, e := health(); v != va || e != "reload failed; see the server log" {
		t.Errorf("after a corrupt file: model %s (want %s), last error %q", v, va, e)
	}
	if !strings.Contains(logs.String(), "m.model") {
		t.Errorf("the log does not name the file that failed:\n%s", logs.String())
	}
	if v, got := predict(); v != va || !eq(got, wantA) {
		t.Errorf("after a corrupt file: model %s, labels %v", v, got)
	}
	if !strings.Contains(logs.String(), "keeping the model in use") {
		t.Errorf("the failed reload is not logged:\n%s", logs.String())
	}

	// The kernel model's JSON file, renamed over the model file.
	if err := os.Rename(kernelJSON, model); err != nil {
		t.Fatal(err)
	}
	reload()
	waitFor(t, func() bool { v, _ := health(); return v != va })
	vb, got := predict()
	if !eq(got, wantB) {
		t.Errorf("after SIGHUP: served %v, predict %v", got, wantB)
	}

	// An SVM (one-vs-one, kernel) model file.
	if err := os.Rename(svmModel, model); err != nil {
		t.Fatal(err)
	}
	reload()
	waitFor(t, func() bool { v, _ := health(); return v != vb })
	vc, got := predict()
	if !eq(got, wantC) {
		t.Errorf("SVM: served %v, predict %v", got, wantC)
	}
	if health(); lastHealth.Kind != "one-vs-one kernel SVM" || lastHealth.Quantised {
		t.Errorf("SVM: /healthz says kind %q, quantised %v", lastHealth.Kind, lastHealth.Quantised)
	}

	// The quantised model: served as predict serves it, and /healthz says
	// it is quantised (its samples are float32).
	if err := os.Rename(quantModel, model); err != nil {
		t.Fatal(err)
	}
	reload()
	waitFor(t, func() bool { v, _ := health(); return v != vc })
	if _, got := predict(); !eq(got, wantQ) {
		t.Errorf("quantised: served %v, predict %v", got, wantQ)
	}
	if health(); !lastHealth.Quantised || !strings.Contains(lastHealth.Kind, "int8 quantised") || lastHealth.Type != "float32" {
		t.Errorf("quantised: /healthz says kind %q, quantised %v, type %q", lastHealth.Kind, lastHealth.Quantised, lastHealth.Type)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve returned %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not shut down")
	}
	if !strings.Contains(logs.String(), "shut down") {
		t.Errorf("no shutdown in the log:\n%s", logs.String())
	}
}

// TestServeRefusesModelChange: without -allow-model-change a reload to a
// model of another kind is refused, the model in use kept, and /healthz
// says why.
func TestServeRefusesModelChange(t *testing.T) {
	fixtures, err := filepath.Abs(filepath.Join("..", "..", "model", "testdata", "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "m.model")
	copyFile := func(name string) {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(model+".tmp", data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(model+".tmp", model); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("perceptron-binary-f32.model")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hup := make(chan os.Signal)
	var logs syncBuffer
	url, done := startServe(t, ctx, hup, &logs, "-model", model, "-addr", "127.0.0.1:0", "-poll", "0")
	var h struct{ Kind, LastReloadRefused string }
	health := func() {
		resp, err := http.Get(url + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("kernel-svm-binary-f32.model")
	hup <- os.Interrupt
	hup <- os.Interrupt
	waitFor(t, func() bool { health(); return h.LastReloadRefused != "" })
	if h.Kind != "binary perceptron" || !strings.Contains(h.LastReloadRefused, "-allow-model-change") {
		t.Errorf("kind %q, refusal %q", h.Kind, h.LastReloadRefused)
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// startServe runs "rosenblatt serve" with args until ctx is done and
// returns its URL and the channel of its result.
func startServe(t *testing.T, ctx context.Context, hup <-chan os.Signal, logs *syncBuffer, args ...string) (string, chan error) {
	t.Helper()
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveWith(ctx, hup, args, logs, func(a net.Addr) { addrc <- a.String() })
	}()
	select {
	case url := <-addrc:
		return "http://" + url, done
	case err := <-done:
		t.Fatalf("serve: %v\n%s", err, logs.String())
	}
	return "", nil
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("timed out")
}

// TestServeErrors: usage errors and a model that does not load.
func TestServeErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		err  error
		msg  string
	}{
		{"no model", []string{"-addr", "127.0.0.1:0"}, cli.ErrUsage, "-model FILE is required"},
		{"argument", []string{"-model", "x", "extra"}, cli.ErrUsage, `unexpected argument "extra"`},
		{"negative poll", []string{"-model", "x", "-poll", "-1s"}, cli.ErrUsage, "-poll must not be negative"},
		{"negative budget", []string{"-model", "x", "-max-inflight-bytes", "-1"}, cli.ErrUsage, "-max-inflight-bytes must not be negative"},
		{"zero scores", []string{"-model", "x", "-max-scores", "0"}, cli.ErrUsage, "-max-scores and -max-conns must be positive"},
		{"grpc", []string{"-model", "x", "-grpc-addr", ":9000"}, cli.ErrUsage, "served by the command rosenblatt-server"},
		{"model and models", []string{"-model", "x", "-models", "."}, cli.ErrUsage, "-model FILE and -models DIR contradict"},
		{"not a directory", []string{"-models", "testdata/corrupt.model", "-addr", "127.0.0.1:0"}, serve.ErrModel, "not a directory"},
		{"model over the limit", []string{"-model", "testdata/corrupt.model", "-addr", "127.0.0.1:0", "-max-model-bytes", "3"}, serve.ErrModel, "the limit (-max-model-bytes)"},
		{"not a model", []string{"-model", "testdata/notamodel.model", "-addr", "127.0.0.1:0"}, serve.ErrModel, "notamodel.model"},
		{"corrupt", []string{"-model", "testdata/corrupt.model", "-addr", "127.0.0.1:0"}, serve.ErrModel, "corrupt.model"},
		{"missing", []string{"-model", "testdata/missing.model", "-addr", "127.0.0.1:0"}, os.ErrNotExist, "missing.model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := serveWith(context.Background(), nil, c.args, &stderr, nil)
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want %v containing %q", err, c.err, c.msg)
			}
		})
	}
}

// TestServeLimits: the limit flags reach the server: -max-scores refuses a
// batch asking for more decision values (413, naming the flag) and the
// same batch without scores is answered; the log states every limit.
func TestServeLimits(t *testing.T) {
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	if code, _, stderr := runIn(t, dir, "train", "-q", "-f", "-o", model, filepath.Join(td, "iris.train.libsvm")); code != exitOK {
		t.Fatalf("train: %s", stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveWith(ctx, nil, []string{"-model", model, "-addr", "127.0.0.1:0", "-poll", "0",
			"-max-scores", "5", "-max-inflight-bytes", "1000000", "-max-conns", "8", "-max-model-bytes", "100000"}, &logs,
			func(a net.Addr) { addrc <- a.String() })
	}()
	var url string
	select {
	case url = <-addrc:
		url = "http://" + url + "/predict"
	case err := <-done:
		t.Fatalf("serve: %v\n%s", err, logs.String())
	}
	body := []byte(`{"rows": [[5.1, 3.5, 1.4, 0.2], [6.2, 2.9, 4.3, 1.3], [7.7, 3.0, 6.1, 2.3]]}`)
	for _, c := range []struct {
		query string
		code  int
		msg   string
	}{{"?scores=1", 413, "(-max-scores)"}, {"", 200, `"labels":[`}} {
		resp, err := http.Post(url+c.query, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(b), c.msg) {
			t.Errorf("%q: status %d, %s; want %d and %q", c.query, resp.StatusCode, b, c.code, c.msg)
		}
	}
	for _, want := range []string{"max-scores=5", "max-inflight-bytes=1000000", "max-conns=8", "max-model-bytes=100000"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not state %s:\n%s", want, logs.String())
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve returned %v", err)
	}
}
