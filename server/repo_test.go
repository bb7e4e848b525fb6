package server_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// TestRepository serves a directory of two models and a bad file over
// gRPC: each model answers by its name with its own labels, the bad
// file's model is not ready (Unavailable for inference), and a request
// naming no model is refused, since there are several.
func TestRepository(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.model": "perceptron-ovr-f32.model", "b.json": "kernel-svm-ovo-f64.json"}
	for name, f := range files {
		data, err := os.ReadFile(filepath.Join(fixtures, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.model"), []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := serve.NewRepository(dir, nil, serve.Options{Poll: -1, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, server.NewGRPCServer(s))
	ctx := context.Background()
	if got := s.Models(); !slices.Equal(got, []string{"a", "b", "bad"}) {
		t.Errorf("Models() = %v", got)
	}
	for name, ready := range map[string]bool{"a": true, "b": true, "bad": false, "c": false} {
		r, err := c.ModelReady(ctx, &oippb.ModelReadyRequest{Name: name})
		if err != nil || r.Ready != ready {
			t.Errorf("ModelReady(%q) = %v, %v; want ready %v", name, r, err, ready)
		}
	}
	if _, err := c.ModelReady(ctx, &oippb.ModelReadyRequest{}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("ModelReady without a name, of a server of several models: %v, want InvalidArgument", err)
	}
	for name, f := range map[string]string{"a": files["a.model"], "b": files["b.json"]} {
		md, err := c.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		d := md.Inputs[0].Shape[1]
		X := rows(5, 3, int(d))
		r, err := c.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: name, Inputs: []*input{{Name: "input", Datatype: "FP64",
			Shape: []int64{3, d}, Contents: &oippb.InferTensorContents{Fp64Contents: X}}}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		wl, ws, _ := want(t, f, X)
		if r.ModelName != name || !slices.Equal(gotLabels(r, 0), wl) || !slices.Equal(gotScores(t, r, 1), ws) {
			t.Errorf("%s: %v, want labels %v scores %v", name, r, wl, ws)
		}
	}
	in := []*input{{Name: "input", Datatype: "FP64", Shape: []int64{1, 4}, Contents: &oippb.InferTensorContents{Fp64Contents: make([]float64, 4)}}}
	for name, code := range map[string]codes.Code{"bad": codes.Unavailable, "": codes.InvalidArgument, "c": codes.NotFound} {
		if _, err := c.ModelInfer(ctx, &oippb.ModelInferRequest{ModelName: name, Inputs: in}); status.Code(err) != code {
			t.Errorf("ModelInfer(%q): %v, want %v", name, err, code)
		}
		if _, err := c.ModelMetadata(ctx, &oippb.ModelMetadataRequest{Name: name}); status.Code(err) != code {
			t.Errorf("ModelMetadata(%q): %v, want %v", name, err, code)
		}
	}
}
