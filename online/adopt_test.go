package online

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestAdoptAfterCheckpoint: Adopt right after a checkpoint (the segment
// still empty), then learning, then a crash: every record acknowledged
// after the adoption is replayed.
func TestAdoptAfterCheckpoint(t *testing.T) {
	b1 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 13)
	b2 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 14)
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

// TestBaseChangedNoCheckpoint: a model file replaced on disk after a
// crash that left a log and no checkpoint is refused, not taken as a
// corrupt tail that drops every acknowledged record.
func TestBaseChangedNoCheckpoint(t *testing.T) {
	b1 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 13)
	b2 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 14)
	dir := t.TempDir()
	l := mustOpen(t, dir, b1, opts())
	history(t, l, stream(b1, 10, false, 15))
	live := model(t, l)
	l.crash()
	if l2, err := Open(dir, b2, sumOf(t, b2), opts()); !errors.Is(err, ErrBaseChanged) {
		if err == nil {
			t.Errorf("recovery: %+v", l2.Status().Recovery)
			l2.Close()
		}
		t.Fatalf("another base over a log without a checkpoint: %v, want ErrBaseChanged", err)
	}
	l = mustOpen(t, dir, b1, opts())
	sameState(t, "the old base again", model(t, l), live)
	l.Close()
}

// TestAdoptNoCheckpoint: Options.Adopt over a log of another base and no
// checkpoint starts from the new base, its versions after the old ones.
func TestAdoptNoCheckpoint(t *testing.T) {
	b1 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 13)
	b2 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 14)
	dir := t.TempDir()
	l := mustOpen(t, dir, b1, opts())
	history(t, l, stream(b1, 10, false, 15))
	l.crash()
	o := opts()
	o.Adopt = true
	l = mustOpen(t, dir, b2, o)
	if v := l.Status().Version; v <= 10 {
		t.Fatalf("version %d after adopting: the versions go on increasing", v)
	}
	sameState(t, "adopted", model(t, l), b2)
	l.crash()
	l = mustOpen(t, dir, b2, opts())
	sameState(t, "adopted, reopened", model(t, l), b2)
	l.Close()
}

// TestReplayMaxSamples: a record is replayed whatever Options.MaxSamples
// is now (it bounds new requests, not what was acknowledged).
func TestReplayMaxSamples(t *testing.T) {
	b := baseModel[float64](t, fit.Binary, linear.Online, 5, 2, 21)
	dir := t.TempDir()
	o := opts()
	l := mustOpen(t, dir, b, o)
	reqs := stream(b, 20, false, 22)
	history(t, l, reqs)
	live := model(t, l)
	l.crash()
	o.MaxSamples = 1
	l = mustOpen(t, dir, b, o)
	if p := l.Status().Recovery.Problems; len(p) != 0 {
		t.Errorf("recovery problems: %q", p)
	}
	sameState(t, "replayed with a smaller MaxSamples", model(t, l), live)
	l.Close()
}

// TestCloseConcurrent: Close from two goroutines at once returns in both, with
// no panic (a second close of the committer's channel).
func TestCloseConcurrent(t *testing.T) {
	b := baseModel[float32](t, fit.Binary, linear.Online, 5, 2, 23)
	for range 20 {
		l := mustOpen(t, t.TempDir(), b, opts())
		errc := make(chan error, 2)
		for range 2 {
			go func() { errc <- l.Close() }()
		}
		for range 2 {
			if err := <-errc; err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestCutKept: a record damaged amid good ones cuts the log there, and
// the bytes cut (answered records among them) are kept aside, not lost.
func TestCutKept(t *testing.T) {
	base := baseModel[float32](t, fit.OneVsRest, linear.Online, 9, 3, 3)
	dir := t.TempDir()
	l := mustOpen(t, dir, base, opts())
	history(t, l, stream(base, 20, false, 4))
	l.crash()
	p := lastSegment(t, dir)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	at := walHeader + recHeader + 3 // in the first record's payload
	b[at] ^= 0x40
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	l = mustOpen(t, dir, base, opts())
	if st := l.Status(); st.Version != 0 || len(st.Recovery.Problems) == 0 {
		t.Fatalf("status %+v: the log must be cut before its first record", st)
	}
	l.Close()
	kept, err := os.ReadFile(fmt.Sprintf("%s.cut-%d", p, walHeader))
	if err != nil || !bytes.Equal(kept, b[walHeader:]) {
		t.Fatalf("the bytes cut are not kept aside (%d bytes, %v)", len(kept), err)
	}
}

// TestDamagedHeaderKept: a last segment whose header is damaged (bit rot,
// not a header torn at creation) is reported and started again, and its
// bytes, answered records among them, are kept aside as *.corrupt, never
// deleted; a second such damage does not replace the first copy.
func TestDamagedHeaderKept(t *testing.T) {
	base := baseModel[float32](t, fit.Binary, linear.Online, 5, 2, 8)
	dir := t.TempDir()
	var copies [][]byte
	for round := range 2 {
		l := mustOpen(t, dir, base, opts())
		history(t, l, stream(base, 10, false, uint64(round+5)))
		l.crash()
		p := lastSegment(t, dir)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b[1] ^= 0x20 // in the header's magic
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, b)
		l = mustOpen(t, dir, base, opts())
		if len(l.Status().Recovery.Problems) == 0 {
			t.Fatalf("round %d: a damaged segment header was not reported", round)
		}
		l.Close()
	}
	var kept [][]byte
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".corrupt") {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, b)
		}
	}
	for i, c := range copies {
		if !slices.ContainsFunc(kept, func(k []byte) bool { return bytes.Equal(k, c) }) {
			t.Errorf("the damaged segment of round %d is not kept (%d files kept)", i, len(kept))
		}
	}
}

// TestAdoptCheckpointFails: when the adopted model's checkpoint cannot be
// written, Adopt fails, the old model goes on answering, learning stops
// (nothing is answered that the directory could not give back), and the
// directory reopens to the old model with every answered request; the new
// file is still ErrBaseChanged until adopted.
func TestAdoptCheckpointFails(t *testing.T) {
	b1 := baseModel[float32](t, fit.Binary, linear.Online, 6, 2, 31)
	b2 := baseModel[float32](t, fit.Binary, linear.Online, 6, 2, 32)
	dir := t.TempDir()
	l := mustOpen(t, dir, b1, opts())
	reqs := stream(b1, 8, false, 33)
	history(t, l, reqs[:5])
	live := model(t, l)
	// A non-empty directory where the adoption's checkpoint goes: its
	// rename fails, also for root.
	block := filepath.Join(dir, ckptName(l.Status().Version+1))
	if err := os.MkdirAll(filepath.Join(block, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := l.Adopt(b2, sumOf(t, b2)); err == nil {
		t.Fatal("Adopt succeeded without its checkpoint")
	}
	sameState(t, "served after the failed Adopt", model(t, l), live)
	if _, err := l.Learn("after", reqs[5]); !errors.Is(err, ErrClosed) {
		t.Fatalf("Learn after a failed Adopt: %v, want ErrClosed", err)
	}
	l.crash()
	if err := os.RemoveAll(block); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, b2, sumOf(t, b2), opts()); !errors.Is(err, ErrBaseChanged) {
		t.Fatalf("reopened with the new file: %v, want ErrBaseChanged", err)
	}
	l = mustOpen(t, dir, b1, opts())
	sameState(t, "reopened with the old file", model(t, l), live)
	if v := l.Status().Version; v != 5 {
		t.Errorf("version %d after reopening, want 5", v)
	}
	l.Close()
}
