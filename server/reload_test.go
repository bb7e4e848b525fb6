package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/serve"
	"github.com/rosenblatt-go/rosenblatt/server/oippb"
)

// TestInferDuringReloads swaps the served file between two models of the
// same width while clients send ModelInfer: every response is answered
// whole by the version it names (its labels and scores are that model's),
// none fails, and both versions answer.
func TestInferDuringReloads(t *testing.T) {
	files := []string{"perceptron-ovr-f32.model", "perceptron-argmax-f32.model"}
	s, c, path := serveFixture(t, files[0], "m", serve.Options{AllowModelChange: true})
	d := s.Current().Dims
	const n = 5
	X := rows(9, n, d)
	type answer struct {
		labels []int64
		scores []float64
	}
	byVersion := map[string]answer{}
	var data [2][]byte
	for i, f := range files {
		b, err := os.ReadFile(filepath.Join(fixtures, f))
		if err != nil {
			t.Fatal(err)
		}
		data[i] = b
		sum := sha256.Sum256(b)
		l, sc, _ := want(t, f, X)
		byVersion[hex.EncodeToString(sum[:8])] = answer{l, sc}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	var swaps atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; ctx.Err() == nil; i++ {
			replace(t, path, data[i%2])
			if _, err := s.Reload(); err != nil {
				t.Error(err)
				return
			}
			swaps.Add(1)
			time.Sleep(2 * time.Millisecond)
		}
	}()
	seen := make([]map[string]int, 4)
	for w := range seen {
		seen[w] = map[string]int{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := &oippb.ModelInferRequest{ModelName: "m", Inputs: []*input{{Name: "input", Datatype: "FP64",
				Shape: []int64{n, int64(d)}, Contents: &oippb.InferTensorContents{Fp64Contents: X}}}}
			for ctx.Err() == nil {
				r, err := c.ModelInfer(context.Background(), req)
				if err != nil {
					t.Errorf("during reloads: %v", err)
					return
				}
				a, ok := byVersion[r.ModelVersion]
				if !ok {
					t.Errorf("a response names version %q, neither model's", r.ModelVersion)
					return
				}
				if !slices.Equal(gotLabels(r, 0), a.labels) || !slices.Equal(gotScores(t, r, 1), a.scores) {
					t.Errorf("version %s answered with another model's labels or scores", r.ModelVersion)
					return
				}
				seen[w][r.ModelVersion]++
			}
		}()
	}
	wg.Wait()
	versions := map[string]bool{}
	for _, m := range seen {
		for v := range m {
			versions[v] = true
		}
	}
	if len(versions) != 2 || swaps.Load() < 10 {
		t.Errorf("%d swaps; responses by version %v: want both versions to answer", swaps.Load(), seen)
	}
}
