package online

import (
	"fmt"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// TestAdoptAfterCheckpoint: Adopt right after a checkpoint (the segment
// still empty), then learning, then a crash: every record acknowledged
// after the adoption is replayed.
func TestAdoptAfterCheckpoint(t *testing.T) {
	b1 := baseModel[float32](t, perceptron.KindOneVsRest, perceptron.Online, 7, 3, 13)
	b2 := baseModel[float32](t, perceptron.KindOneVsRest, perceptron.Online, 7, 3, 14)
	dir := t.TempDir()
	l := mustOpen(t, dir, b1, opts())
	reqs := stream(b1, 10, false, 15)
	history(t, l, reqs[:5])
	if err := l.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	if err := l.Adopt(b2, sumOf(t, b2)); err != nil {
		t.Fatal(err)
	}
	for i, req := range reqs[5:] {
		if r, err := l.Learn(fmt.Sprint("after", i), req); err != nil || r.Duplicate {
			t.Fatal(r, err)
		}
	}
	live := model(t, l)
	l.crash()
	l = mustOpen(t, dir, b2, opts())
	if p := l.Status().Recovery.Problems; len(p) != 0 {
		t.Errorf("recovery problems: %q", p)
	}
	sameState(t, "after Adopt, learning and a crash", model(t, l), live)
	l.Close()
}
