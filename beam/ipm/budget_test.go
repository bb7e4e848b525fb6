package ipm

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestModelBudget: -dims 2³⁰ on a tiny file is refused before the job
// runs, naming the budget and the flag that raises it, having allocated
// less than 1 MiB (the model would take 32 GiB); once the labels are
// known, a model of many classes over the budget is refused by the job
// before it is made; within the budget the job runs.
func TestModelBudget(t *testing.T) {
	ctx := context.Background()
	d := intData(60, 4, 3, 5)
	dir := t.TempDir()
	parts := writeParts(t, dir, d, 2)
	cfg := Config{Inputs: []string{parts}, Dims: 1 << 30, Algorithm: linear.Averaged, Shards: 1, Epochs: 1,
		Output: filepath.Join(dir, "m.bin")}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Run(ctx, cfg, runPrism)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "-max-model-mb") || !strings.Contains(err.Error(), "4096 MiB") {
		t.Fatalf("dims 2^30: %v, want ErrConfig naming the 4096 MiB budget and -max-model-mb", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("the refusal allocated %d bytes", got)
	}
	// 3 classes of 4 features: 3·5·32 = 480 bytes; one row fits in 200.
	cfg.Dims, cfg.MaxModelBytes = d.Cols, 200
	if _, err := Run(ctx, cfg, runPrism); err == nil || !strings.Contains(err.Error(), "a model of 3 score rows") || !strings.Contains(err.Error(), "-max-model-mb") {
		t.Fatalf("3 classes over the budget: %v", err)
	}
	for _, alg := range []linear.Algorithm{linear.Averaged, linear.SVM} {
		cfg.Algorithm, cfg.MaxModelBytes = alg, 480
		cfg.Output = filepath.Join(dir, alg.String()+".bin")
		if _, err := Run(ctx, cfg, runPrism); err != nil {
			t.Fatalf("%v within the budget: %v", alg, err)
		}
	}
}
