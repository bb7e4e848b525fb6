package online

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func opts() Options {
	return Options{Sync: SyncNone, CheckpointEvery: -1, CheckpointInterval: -1, Logger: quiet}
}

func mustOpen[T kernel.Float](t testing.TB, dir string, base *linear.Model[T], o Options) *Learner[T] {
	t.Helper()
	l, err := Open(dir, base, sumOf(t, base), o)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func model[T kernel.Float](t testing.TB, l *Learner[T]) *linear.Model[T] {
	t.Helper()
	m, err := l.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReplay learns a stream of requests, kills the learner (no
// checkpoint at the end, checkpoints and log segments before) and
// reopens it: the model must be the live one bit for bit. Dense streams
// are also learnt by linear.Model.Update, sample by sample: the same
// model, and the same predictions before each update.
func TestReplay(t *testing.T) {
	for _, kind := range []fit.Scheme{fit.Binary, fit.OneVsRest, fit.Argmax} {
		for _, algo := range []linear.Algorithm{linear.Online, linear.Averaged} {
			for _, sparse := range []bool{false, true} {
				name := fmt.Sprintf("%v/%v/sparse=%v", kind, algo, sparse)
				t.Run(name+"/float32", func(t *testing.T) { testReplay[float32](t, kind, algo, sparse) })
				t.Run(name+"/float64", func(t *testing.T) { testReplay[float64](t, kind, algo, sparse) })
			}
		}
	}
}

func testReplay[T kernel.Float](t *testing.T, kind fit.Scheme, algo linear.Algorithm, sparse bool) {
	const d = 23
	base := baseModel[T](t, kind, algo, d, 4, 1)
	dir := t.TempDir()
	o := opts()
	o.CheckpointEvery = 97
	if kind == fit.Binary && !sparse {
		o.Sync = SyncEveryRequest
	}
	l := mustOpen(t, dir, base, o)
	ref := clone(t, base)
	reqs := stream(base, 300, sparse, 2)
	mistakes, disagree, n := 0, 0, 0
	for i, req := range reqs {
		res, err := l.Learn(fmt.Sprint("key-", i), req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Version != uint64(i+1) || len(res.Predicted) != len(req) || res.Duplicate {
			t.Fatalf("request %d: %+v", i, res)
		}
		mistakes += res.Mistakes
		for j, s := range req {
			x := dense(s, d)
			p, err := ref.Predict(x)
			if err != nil {
				t.Fatal(err)
			}
			if p != res.Predicted[j] {
				disagree++
			}
			n++
			if _, err := ref.Update(x, s.Y); err != nil {
				t.Fatal(err)
			}
		}
	}
	if mistakes == 0 || mistakes == n {
		t.Fatalf("%d mistakes in %d samples: the stream does not exercise the rule", mistakes, n)
	}
	// Dense samples: the predictions are Model.Predict's (an averaged
	// model's up to rounding: w·x − u·x/c against (w − u/c)·x); sparse
	// ones sum in another order.
	if !sparse && algo != linear.Averaged && disagree != 0 {
		t.Fatalf("%d of %d predictions before the update differ from Model.Predict's", disagree, n)
	}
	if disagree > n/50 {
		t.Fatalf("%d of %d predictions before the update differ from Model.Predict's", disagree, n)
	}
	live := model(t, l)
	if !sparse {
		sameState(t, "learner against Model.Update", live, ref)
	}
	st := l.Status()
	if st.Checkpoint == 0 || st.Version != 300 {
		t.Fatalf("status %+v: expected checkpoints and version 300", st)
	}
	l.crash()
	l2 := mustOpen(t, dir, base, o)
	defer l2.Close()
	rec := l2.Status().Recovery
	if rec.Checkpoint == 0 || rec.Records == 0 || len(rec.Problems) != 0 {
		t.Fatalf("recovery %+v: expected a checkpoint, records replayed after it, no problem", rec)
	}
	sameState(t, "replayed against live", model(t, l2), live)
	// and it goes on learning from there
	if res, err := l2.Learn("next", reqs[0]); err != nil || res.Version != 301 {
		t.Fatalf("after reopening: %+v, %v", res, err)
	}
}

// history learns n requests and returns the model after each.
func history[T kernel.Float](t *testing.T, l *Learner[T], reqs [][]Sample[T]) []*linear.Model[T] {
	var out []*linear.Model[T]
	for i, req := range reqs {
		if _, err := l.Learn(fmt.Sprint("k", i), req); err != nil {
			t.Fatal(err)
		}
		out = append(out, model(t, l))
	}
	return out
}

func lastSegment(t *testing.T, dir string) string {
	segs, err := segments(dir)
	if err != nil || len(segs) == 0 {
		t.Fatal(segs, err)
	}
	return filepath.Join(dir, segName(segs[len(segs)-1]))
}

// TestTornTail cuts and damages the end of the log: Open reports it, cuts
// the log at the last good record and serves the model after it, which
// then goes on learning; nothing of the damaged record is applied.
func TestTornTail(t *testing.T) {
	damage := map[string]func(b []byte) []byte{
		"truncated-3":     func(b []byte) []byte { return b[:len(b)-3] },
		"truncated-hdr":   func(b []byte) []byte { return b[:len(b)-recordLen(t, b)+5] },
		"flipped-payload": func(b []byte) []byte { b[len(b)-2] ^= 0x10; return b },
		"flipped-crc":     func(b []byte) []byte { b[len(b)-recordLen(t, b)+5] ^= 1; return b },
		"huge-length":     func(b []byte) []byte { b[len(b)-recordLen(t, b)+3] = 0x7f; return b },
		"garbage":         func(b []byte) []byte { return append(b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13) },
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			base := baseModel[float32](t, fit.OneVsRest, linear.Online, 9, 3, 3)
			dir := t.TempDir()
			l := mustOpen(t, dir, base, opts())
			reqs := stream(base, 20, false, 4)
			hist := history(t, l, reqs)
			l.crash()
			p := lastSegment(t, dir)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f(b), 0o600); err != nil {
				t.Fatal(err)
			}
			l2 := mustOpen(t, dir, base, opts())
			st := l2.Status()
			want, ver := hist[len(hist)-2], uint64(len(hist)-1)
			if name == "garbage" {
				want, ver = hist[len(hist)-1], uint64(len(hist))
			}
			if len(st.Recovery.Problems) == 0 || st.Version != ver {
				t.Fatalf("status %+v: the damage must be reported and the log cut to version %d", st, ver)
			}
			sameState(t, "after the cut", model(t, l2), want)
			if res, err := l2.Learn("again", reqs[len(reqs)-1]); err != nil || res.Version != ver+1 {
				t.Fatalf("%+v %v", res, err)
			}
			after := model(t, l2)
			l2.crash()
			l3 := mustOpen(t, dir, base, opts())
			defer l3.Close()
			if p := l3.Status().Recovery.Problems; len(p) != 0 {
				t.Fatalf("the cut log is damaged again: %v", p)
			}
			sameState(t, "reopened after the cut", model(t, l3), after)
		})
	}
}

// recordLen returns the length of the last record of a segment's bytes.
func recordLen(t *testing.T, b []byte) int {
	off, last := walHeader, 0
	for off < len(b) {
		n := int(uint32(b[off]) | uint32(b[off+1])<<8 | uint32(b[off+2])<<16 | uint32(b[off+3])<<24)
		last = recHeader + n
		off += last
	}
	if off != len(b) {
		t.Fatal("segment does not parse")
	}
	return last
}

// checkpointed learns 30 requests with checkpoints after the 10th and the
// 20th (segments wal-…11 and wal-…21 kept for the older one) and kills
// the learner.
func checkpointed(t *testing.T, dir string, base *linear.Model[float64]) *linear.Model[float64] {
	l := mustOpen(t, dir, base, opts())
	reqs := stream(base, 30, true, 5)
	for i, req := range reqs {
		if _, err := l.Learn(fmt.Sprint("k", i), req); err != nil {
			t.Fatal(err)
		}
		if i == 9 || i == 19 {
			if err := l.Checkpoint(); err != nil {
				t.Fatal(err)
			}
		}
	}
	m := model(t, l)
	l.crash()
	return m
}

// TestCorruptCheckpoint damages the newest checkpoint: Open falls back to
// the older one and replays the longer log, to the same model.
func TestCorruptCheckpoint(t *testing.T) {
	for name, f := range map[string]func(p string) error{
		"truncated": func(p string) error { return os.Truncate(p, 40) },
		"flipped": func(p string) error {
			b, _ := os.ReadFile(p)
			b[len(b)/2] ^= 4
			return os.WriteFile(p, b, 0o600)
		},
		"empty": func(p string) error { return os.WriteFile(p, nil, 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			base := baseModel[float64](t, fit.Binary, linear.Averaged, 40, 2, 6)
			dir := t.TempDir()
			live := checkpointed(t, dir, base)
			if err := f(filepath.Join(dir, ckptName(20))); err != nil {
				t.Fatal(err)
			}
			l := mustOpen(t, dir, base, opts())
			defer l.Close()
			st := l.Status()
			if st.Recovery.Checkpoint != 10 || st.Recovery.Records != 20 || len(st.Recovery.Problems) == 0 {
				t.Fatalf("recovery %+v: expected checkpoint 10 and 20 records replayed, the damage reported", st.Recovery)
			}
			sameState(t, "from the older checkpoint", model(t, l), live)
		})
	}
	t.Run("all", func(t *testing.T) {
		base := baseModel[float64](t, fit.Binary, linear.Online, 40, 2, 6)
		dir := t.TempDir()
		checkpointed(t, dir, base)
		for _, s := range []uint64{10, 20} {
			if err := os.Truncate(filepath.Join(dir, ckptName(s)), 100); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Open(dir, base, sumOf(t, base), opts()); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("every checkpoint damaged, the log after them: %v, want ErrCorrupt", err)
		}
	})
	t.Run("middle-segment", func(t *testing.T) {
		base := baseModel[float64](t, fit.Binary, linear.Online, 40, 2, 6)
		dir := t.TempDir()
		checkpointed(t, dir, base)
		os.Truncate(filepath.Join(dir, ckptName(20)), 10)
		p := filepath.Join(dir, segName(11))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b[walHeader+20] ^= 0x80
		os.WriteFile(p, b, 0o600)
		if _, err := Open(dir, base, sumOf(t, base), opts()); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("a damaged record before the last segment: %v, want ErrCorrupt", err)
		}
	})
}

// TestLogTruncated: checkpoints remove the log segments no kept
// checkpoint needs, and the checkpoints but the last two.
func TestLogTruncated(t *testing.T) {
	base := baseModel[float32](t, fit.Binary, linear.Online, 5, 2, 8)
	dir := t.TempDir()
	o := opts()
	o.CheckpointEvery = 10
	l := mustOpen(t, dir, base, o)
	for i, req := range stream(base, 200, false, 9) {
		if _, err := l.Learn(fmt.Sprint(i), req); err != nil {
			t.Fatal(err)
		}
	}
	segs, _ := segments(dir)
	cks, _ := listSeq(dir, "ckpt-", ".ckpt")
	if len(cks) != 2 || len(segs) > 3 {
		t.Fatalf("%d checkpoints and %d segments after 200 requests with a checkpoint every 10 samples", len(cks), len(segs))
	}
	live := model(t, l)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l2 := mustOpen(t, dir, base, o)
	defer l2.Close()
	if r := l2.Status().Recovery; r.Records != 0 {
		t.Fatalf("after Close (a checkpoint), %d records replayed", r.Records)
	}
	sameState(t, "after Close", model(t, l2), live)
}

// TestIdempotency: a key seen is not applied again, across a restart and
// a checkpoint; the window is bounded.
func TestIdempotency(t *testing.T) {
	base := baseModel[float64](t, fit.OneVsRest, linear.Averaged, 6, 3, 10)
	dir := t.TempDir()
	o := opts()
	o.KeyWindow = 4
	o.Sync, o.SyncInterval = SyncGroup, 5*time.Millisecond
	l := mustOpen(t, dir, base, o)
	reqs := stream(base, 10, false, 11)
	r1, err := l.Learn("a", reqs[0])
	if err != nil {
		t.Fatal(err)
	}
	m1 := model(t, l)
	for round, reopen := range []func(){nil, func() { l.crash() }, func() { l.Checkpoint(); l.crash() }} {
		if reopen != nil {
			reopen()
			l = mustOpen(t, dir, base, o)
		}
		r2, err := l.Learn("a", reqs[1])
		if err != nil {
			t.Fatal(err)
		}
		if !r2.Duplicate || r2.Version != r1.Version || r2.Predicted != nil {
			t.Fatalf("round %d: re-sent key answered %+v", round, r2)
		}
		sameState(t, "after a duplicate", model(t, l), m1)
	}
	for i := range 4 {
		if _, err := l.Learn(fmt.Sprint("other", i), reqs[2+i]); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := l.Learn("a", reqs[1]); err != nil || r.Duplicate {
		t.Fatalf("a key 4 keys back in a window of 4 is forgotten: %+v %v", r, err)
	}
	// Two requests of one key in one batch: the second is a duplicate.
	var wg sync.WaitGroup
	var dups atomic.Int32
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := l.Learn("same", reqs[7])
			if err != nil {
				t.Error(err)
			}
			if r.Duplicate {
				dups.Add(1)
			}
		}()
	}
	wg.Wait()
	if dups.Load() != 7 {
		t.Fatalf("8 concurrent requests of one key: %d duplicates, want 7", dups.Load())
	}
	l.Close()
}

func TestLocked(t *testing.T) {
	base := baseModel[float32](t, fit.Binary, linear.Online, 5, 2, 12)
	dir := t.TempDir()
	l := mustOpen(t, dir, base, opts())
	if _, err := Open(dir, base, sumOf(t, base), opts()); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open of a directory in use: %v, want ErrLocked", err)
	}
	l.Close()
	l2 := mustOpen(t, dir, base, opts())
	l2.Close()
}

// TestBaseChanged: the directory of one base model refuses another unless
// it is adopted, by Options.Adopt or Learner.Adopt, which start from it.
func TestBaseChanged(t *testing.T) {
	b1 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 13)
	b2 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 14)
	dir := t.TempDir()
	l := mustOpen(t, dir, b1, opts())
	reqs := stream(b1, 10, false, 15)
	history(t, l, reqs)
	l.Close()
	if _, err := Open(dir, b2, sumOf(t, b2), opts()); !errors.Is(err, ErrBaseChanged) {
		t.Fatalf("another base: %v, want ErrBaseChanged", err)
	}
	o := opts()
	o.Adopt = true
	l = mustOpen(t, dir, b2, o)
	if v := l.Status().Version; v <= 10 {
		t.Fatalf("version %d after adopting: the versions go on increasing", v)
	}
	sameState(t, "adopted", model(t, l), b2)
	l.Learn("x", reqs[0])
	l.crash()
	// Adopt at run time, then a crash: the adopted model, and what came after.
	l = mustOpen(t, dir, b2, opts())
	b3 := baseModel[float32](t, fit.OneVsRest, linear.Online, 7, 3, 16)
	if err := l.Adopt(b3, sumOf(t, b3)); err != nil {
		t.Fatal(err)
	}
	sameState(t, "Adopt", model(t, l), b3)
	history(t, l, reqs[:3])
	live := model(t, l)
	l.crash()
	if _, err := Open(dir, b2, sumOf(t, b2), opts()); !errors.Is(err, ErrBaseChanged) {
		t.Fatalf("the old base after Adopt: %v, want ErrBaseChanged", err)
	}
	l = mustOpen(t, dir, b3, opts())
	sameState(t, "after Adopt and a crash", model(t, l), live)
	wide := baseModel[float32](t, fit.OneVsRest, linear.Online, 8, 3, 16)
	if err := l.Adopt(wide, sumOf(t, wide)); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("Adopt of another width: %v, want ErrIncompatible", err)
	}
	l.Close()
}

func TestUnsupported(t *testing.T) {
	st := linear.State[float32]{Scheme: fit.Binary, Algorithm: linear.Online, Dims: 3, Labels: []int{-1, 1},
		W: make([]float32, 3), B: make([]float32, 1), Eta: 1}
	scaled := st
	scaled.Scaling = linear.ScaleFeatures
	noState := st
	noState.Algorithm = linear.Averaged
	svm := st
	svm.Algorithm = linear.SVM
	for name, s := range map[string]linear.State[float32]{"scaled": scaled, "averaged without state": noState, "svm": svm} {
		m, err := linear.New(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := Supported(m); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", name, err)
		}
		if _, err := Open(t.TempDir(), m, [32]byte{}, opts()); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: Open: %v, want ErrUnsupported", name, err)
		}
	}
	for _, m := range []any{new(expansion.Model[float32]), new(quant.Model), "a string"} {
		if err := Supported(m); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%T: %v, want ErrUnsupported", m, err)
		}
	}
	ok, _ := linear.New(st)
	if err := Supported(ok); err != nil {
		t.Fatal(err)
	}
}

func TestBadInput(t *testing.T) {
	base := baseModel[float64](t, fit.OneVsRest, linear.Online, 4, 3, 17)
	l := mustOpen(t, t.TempDir(), base, opts())
	defer l.Close()
	good := []float64{1, 2, 3, 4}
	for name, req := range map[string][]Sample[float64]{
		"empty":      {},
		"width":      {{X: []float64{1, 2}, Y: 1}},
		"label":      {{X: good, Y: 5}},
		"nan":        {{X: []float64{1, math.NaN(), 3, 4}, Y: 1}},
		"inf":        {{X: []float64{1, 2, math.Inf(1), 4}, Y: 1}},
		"unsorted":   {{Idx: []int32{2, 1}, X: []float64{1, 1}, Y: 1}},
		"range":      {{Idx: []int32{4}, X: []float64{1}, Y: 1}},
		"mismatch":   {{Idx: []int32{1, 2}, X: []float64{1}, Y: 1}},
		"second bad": {{X: good, Y: 1}, {X: good, Y: 2}},
	} {
		if _, err := l.Learn("", req); !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
	if _, err := l.Learn(string(make([]byte, MaxKeyBytes+1)), [][]Sample[float64]{{{X: good, Y: 1}}}[0]); !errors.Is(err, ErrInput) {
		t.Errorf("long key: %v", err)
	}
	if v := l.Status().Version; v != 0 {
		t.Fatalf("refused requests moved the version to %d", v)
	}
}

// TestDiverged: a step that overflows a weight refuses the request whole
// and leaves the model (both copies) as it was; the batch's other
// requests are applied.
func TestDiverged(t *testing.T) {
	st := linear.State[float32]{Scheme: fit.Binary, Algorithm: linear.Online, Dims: 2, Labels: []int{-1, 1},
		W: []float32{0, 0}, B: []float32{0}, Eta: 1, Bias: true, BiasFeature: 1}
	base, _ := linear.New(st)
	l := mustOpen(t, t.TempDir(), base, opts())
	defer l.Close()
	if _, err := l.Learn("", []Sample[float32]{{X: []float32{1, 1}, Y: 1}}); err != nil {
		t.Fatal(err)
	}
	before := model(t, l)
	huge := []Sample[float32]{{X: []float32{1, 2}, Y: 1}, {X: []float32{-3e38, -3e38}, Y: 1}, {X: []float32{-3e38, -3e38}, Y: 1}}
	if _, err := l.Learn("", huge); !errors.Is(err, ErrDiverged) {
		t.Fatalf("%v, want ErrDiverged", err)
	}
	sameState(t, "after a refused request", model(t, l), before)
	for range 3 { // both copies serve in turn
		if _, err := l.Learn("", []Sample[float32]{{X: []float32{1, 1}, Y: 1}}); err != nil {
			t.Fatal(err)
		}
	}
	c := l.cur.Load()
	o := l.a
	if o == c {
		o = l.b
	}
	if fmt.Sprint(c.w, c.b, c.steps) != fmt.Sprint(o.w, o.b, o.steps) {
		t.Fatalf("the copies differ: %v %v and %v %v", c.w, c.b, o.w, o.b)
	}
}

// TestNoTornReads: while a writer learns samples that keep every weight
// equal (x all ones, each a mistake), readers of the published copy must
// see them all equal, and Predict must never fail.
func TestNoTornReads(t *testing.T) {
	const d = 512
	st := linear.State[float64]{Scheme: fit.Binary, Algorithm: linear.Online, Dims: d, Labels: []int{-1, 1},
		W: make([]float64, d), B: []float64{0}, Eta: 1, Bias: true, BiasFeature: 1}
	base, _ := linear.New(st)
	l := mustOpen(t, t.TempDir(), base, Options{Sync: SyncNone, CheckpointEvery: -1, CheckpointInterval: -1, Logger: quiet})
	defer l.Close()
	ones := make([]float64, d)
	for i := range ones {
		ones[i] = 1
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, n := l.acquire()
				w0 := c.w[0]
				for i, v := range c.w {
					if v != w0 {
						n.Add(-1)
						t.Errorf("torn read: w[0] = %v, w[%d] = %v", w0, i, v)
						return
					}
				}
				n.Add(-1)
				if _, err := l.Predict(ones); err != nil {
					t.Error(err)
					return
				}
				reads.Add(1)
				runtime.Gosched()
			}
		}()
	}
	y := 1
	for range 500 {
		// w·1 + b alternates in sign with y: every sample is a mistake.
		res, err := l.Learn("", []Sample[float64]{{X: ones, Y: y}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Mistakes != 1 {
			t.Fatalf("expected a mistake: %+v", res)
		}
		y = -y
	}
	close(stop)
	wg.Wait()
	if reads.Load() == 0 {
		t.Fatal("no reads")
	}
}

// TestCloseTwice: Close is idempotent, also concurrently, and a closed
// learner refuses to learn.
func TestCloseTwice(t *testing.T) {
	base := baseModel[float32](t, fit.Binary, linear.Online, 3, 2, 20)
	l := mustOpen(t, t.TempDir(), base, opts())
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); l.Close() }()
	}
	wg.Wait()
	if _, err := l.Learn("", []Sample[float32]{{X: []float32{1, 2, 3}, Y: 1}}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Learn after Close: %v, want ErrClosed", err)
	}
}
