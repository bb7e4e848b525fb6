package online

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Errors; every error of the package that is not an I/O error wraps one.
var (
	// ErrUnsupported: the model cannot be learnt online here (a kernel,
	// quantised, voted or SVM model, one that scales its samples, an
	// averaged model without its training state, another package's).
	ErrUnsupported = errors.New("online: model not supported")
	// ErrInput: a sample or label the model cannot take, or an
	// idempotency key too long.
	ErrInput = errors.New("online: bad input")
	// ErrDiverged: the update would make a weight non-finite; the
	// request is not applied.
	ErrDiverged = errors.New("online: update diverged")
	// ErrBaseChanged: the directory's state was learnt from another base
	// model file than the one given (it was replaced on disk); Adopt, or
	// Options.Adopt, starts again from the new one.
	ErrBaseChanged = errors.New("online: base model changed")
	// ErrIncompatible: Adopt of a model of another width, labels, scheme or
	// element type.
	ErrIncompatible = errors.New("online: incompatible model")
	// ErrCorrupt: the directory's log or checkpoints are damaged beyond
	// a torn tail (which is cut and reported, not an error).
	ErrCorrupt = errors.New("online: corrupt state")
	// ErrLocked: another process holds the directory.
	ErrLocked = errors.New("online: directory in use")
	// ErrClosed: the learner is closed, or stopped after a log write
	// failed (the error says which).
	ErrClosed = errors.New("online: learner closed")
)

// SyncPolicy says when the log is fsynced.
type SyncPolicy uint8

const (
	// SyncGroup (the default): group commit. The requests that arrive
	// within Options.SyncInterval of the first of a batch (or, with an
	// interval of 0, while the previous batch was being written) are
	// written with one write(2) and one fsync(2), and answered after it.
	SyncGroup SyncPolicy = iota
	// SyncEveryRequest: every request is written and fsynced on its own
	// before it is answered.
	SyncEveryRequest
	// SyncNone: every batch is written (write(2)) before it is answered
	// and fsynced only at checkpoints and Close: an acknowledged update
	// survives the process's crash (the kernel holds it), not the
	// machine's.
	SyncNone
)

func (p SyncPolicy) String() string {
	switch p {
	case SyncGroup:
		return "group"
	case SyncEveryRequest:
		return "request"
	case SyncNone:
		return "none"
	}
	return fmt.Sprintf("SyncPolicy(%d)", uint8(p))
}

// Options configure a Learner; zero fields take their defaults.
type Options struct {
	Sync SyncPolicy
	// SyncInterval is SyncGroup's window; default 0 (a batch is what
	// arrived while the previous one was written).
	SyncInterval time.Duration
	// CheckpointEvery: a checkpoint after this many samples learnt since
	// the last; default 1,000,000; negative: never by count.
	CheckpointEvery int64
	// CheckpointInterval: a checkpoint this long after the last, if
	// anything was learnt since; default 1 min; negative: never by time.
	CheckpointInterval time.Duration
	// KeyWindow is how many idempotency keys are remembered (the most
	// recent); default 1<<16.
	KeyWindow int
	// MaxSamples bounds the samples of one request; default 1<<16.
	MaxSamples int
	// Adopt starts from the base model given to Open when the directory
	// holds the state learnt from another base: the learnt state is
	// discarded (the operator's explicit choice). Without it, Open
	// refuses with ErrBaseChanged.
	Adopt bool
	// Logger receives recoveries and checkpoints; default slog.Default().
	Logger *slog.Logger
}

// MaxKeyBytes bounds an idempotency key.
const MaxKeyBytes = 256

// maxRecordBytes bounds one record (the log's reader refuses longer).
const maxRecordBytes = 1 << 30

// Sample is a labelled sample: dense (Idx nil, X the model's Dims values)
// or sparse (the values X in the columns Idx, increasing, each in
// [0, Dims)). Y is −1 or +1 for a binary model, else one of its classes.
type Sample[T kernel.Float] struct {
	X   []T
	Idx []int32
	Y   int
}

// Result is the answer to a request.
type Result struct {
	// Version is the model's version after the request: the sequence
	// number of its record in the log (for a duplicate, the original's).
	Version uint64
	// Predicted are the labels the model predicted for the samples
	// before learning each (nil for a duplicate).
	Predicted []int
	// Mistakes counts the samples on which the rule updated the model.
	Mistakes int
	// Duplicate: the key was seen (within the window); nothing applied.
	Duplicate bool
}

// Recovery says what Open found.
type Recovery struct {
	Checkpoint uint64   `json:"checkpoint"` // the sequence number of the checkpoint loaded (0: none, the base model)
	Records    int      `json:"records"`    // records replayed from the log
	Samples    int64    `json:"samples"`    // their samples
	Problems   []string `json:"problems,omitempty"`
	Duration   string   `json:"duration"`
}

// Status describes a learner.
type Status struct {
	Version         uint64    `json:"version"` // the last record's sequence number
	Base            string    `json:"base"`    // first 16 hex digits of the base model file's SHA-256
	Samples         int64     `json:"samples"` // samples learnt since Open
	Mistakes        int64     `json:"mistakes"`
	Requests        int64     `json:"requests"`
	Duplicates      int64     `json:"duplicates"`
	Checkpoint      uint64    `json:"checkpoint"` // the last checkpoint's sequence number
	CheckpointAt    time.Time `json:"checkpointAt"`
	Sync            string    `json:"sync"`
	SyncInterval    string    `json:"syncInterval"`
	LogBytes        int64     `json:"logBytes"` // in the current segment
	Keys            int       `json:"keys"`     // idempotency keys remembered
	Err             string    `json:"error,omitempty"`
	Recovery        Recovery  `json:"recovery"`
	SinceCheckpoint int64     `json:"sinceCheckpoint"` // samples learnt since the last checkpoint
}

// Learner learns a linear perceptron model online, durably: every
// request is in the log before it is answered, checkpoints are written
// atomically, and Open replays the log onto the last checkpoint. See the
// package documentation.
type Learner[T kernel.Float] struct {
	dir string
	opt Options
	// fixed is the shape at Open: its width, scheme and labels never
	// change (Adopt requires the same), so requests are checked against
	// it without a lock.
	fixed *shape[T]
	log   *slog.Logger
	lock  *os.File

	cur atomic.Pointer[weights[T]] // the copy predictions read

	reqc      chan *request[T]
	quit      chan struct{}
	closeOnce sync.Once
	done      chan struct{}

	mu                                sync.Mutex // the writer: the copies, the log, the keys, the counters
	a, b                              *weights[T]
	sh                                *shape[T]
	st                                linear.State[T] // the shape's source (its weights are not kept)
	base                              [32]byte
	seq                               uint64
	seg                               *os.File
	segBytes                          int64
	keys                              keyWindow
	err                               error // set when a write failed: the learner stops
	closed                            bool
	ckSeq                             uint64
	ckAt                              time.Time
	since                             int64 // samples since the last checkpoint
	samples, mistakes, requests, dups int64
	rec                               Recovery
	foreign                           uint64 // replay: the last record learnt from another base
	buf                               []byte
	xs                                []sample[T]
	ops                               []step[T]
}

type request[T kernel.Float] struct {
	key  string
	xs   []sample[T]
	raw  []Sample[T]
	res  Result
	err  error
	done chan struct{}
}

// Supported returns nil if m can be learnt online, else an error wrapping
// ErrUnsupported that says why.
func Supported(m any) error {
	// modelreg.ElemOf recognises the two models without this package
	// naming them, which would compile their methods here again.
	switch modelreg.ElemOf(modelreg.Linear, m) {
	case 4:
		_, err := shapeOf(m.(stater[float32]))
		return err
	case 8:
		_, err := shapeOf(m.(stater[float64]))
		return err
	}
	return fmt.Errorf("%w: %T is not a linear perceptron model (kernel, quantised, SVM and other models are served, not learnt)", ErrUnsupported, m)
}

// stater is the method of a *linear.Model[T] that shapeOf reads.
type stater[T kernel.Float] interface {
	State() (linear.State[T], error)
}

func shapeOf[T kernel.Float](m stater[T]) (linear.State[T], error) {
	st, err := m.State()
	if err != nil {
		return st, fmt.Errorf("%w: %v", ErrUnsupported, err)
	}
	switch {
	case st.Algorithm == linear.SVM:
		return st, fmt.Errorf("%w: an SVM (Pegasos) model: its step rescales every weight", ErrUnsupported)
	case st.Algorithm == linear.DualCD:
		return st, fmt.Errorf("%w: a linear SVM (dual coordinate descent): a perceptron step would not keep its solution", ErrUnsupported)
	case st.Scaling != linear.ScaleNone:
		return st, fmt.Errorf("%w: a model that normalises its samples", ErrUnsupported)
	case st.Algorithm == linear.Averaged && st.Steps <= 0:
		return st, fmt.Errorf("%w: an averaged model without its training state (train it with Options.Resumable)", ErrUnsupported)
	}
	return st, nil
}

func newShape[T kernel.Float](st *linear.State[T]) *shape[T] {
	return &shape[T]{k: kernel.On[T](kernel.ActiveImpl()), scheme: st.Scheme, avg: st.Algorithm == linear.Averaged,
		d: st.Dims, rows: st.Rows(), labels: slices.Clone(st.Labels), bias: st.Bias,
		bstep: T(st.BiasFeature * st.BiasFeature), eta: T(st.Eta)}
}

func weightsOf[T kernel.Float](st *linear.State[T]) *weights[T] {
	c := &weights[T]{steps: st.Steps}
	if st.Algorithm == linear.Averaged {
		c.w, c.b, c.u, c.ub = slices.Clone(st.CW), slices.Clone(st.CB), slices.Clone(st.U), slices.Clone(st.UB)
	} else {
		c.w, c.b = slices.Clone(st.W), slices.Clone(st.B)
	}
	return c
}

// Open opens (creating it if needed) the learner's directory dir for
// base, the model read from the file whose SHA-256 is baseSum: it takes
// the directory's lock, loads the newest checkpoint that reads (or base,
// if there is none), replays the log after it and cuts a torn or corrupt
// tail (reported in Status().Recovery and the log). The model is then
// bit for bit the one that answered the last request the log holds.
func Open[T kernel.Float](dir string, base *linear.Model[T], baseSum [32]byte, opt Options) (*Learner[T], error) {
	st, err := shapeOf(base)
	if err != nil {
		return nil, err
	}
	if opt.Sync > SyncNone || opt.SyncInterval < 0 || opt.KeyWindow < 0 || opt.MaxSamples < 0 {
		return nil, fmt.Errorf("%w: options %+v", ErrInput, opt)
	}
	if opt.CheckpointEvery == 0 {
		opt.CheckpointEvery = 1_000_000
	}
	if opt.CheckpointInterval == 0 {
		opt.CheckpointInterval = time.Minute
	}
	if opt.KeyWindow == 0 {
		opt.KeyWindow = 1 << 16
	}
	if opt.MaxSamples == 0 {
		opt.MaxSamples = 1 << 16
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	l := &Learner[T]{dir: dir, opt: opt, log: opt.Logger, lock: lock, base: baseSum,
		reqc: make(chan *request[T], 1024), quit: make(chan struct{}), done: make(chan struct{})}
	l.keys.init(opt.KeyWindow)
	t0 := time.Now()
	if err := l.recover(base, st); err != nil {
		lock.Close()
		return nil, err
	}
	l.rec.Duration = time.Since(t0).String()
	l.ckAt = time.Now()
	go l.run()
	return l, nil
}

// recover loads the newest good checkpoint and replays the log.
func (l *Learner[T]) recover(base *linear.Model[T], st linear.State[T]) error {
	bst := st
	cks, err := listSeq(l.dir, "ckpt-", ".ckpt")
	if err != nil {
		return err
	}
	var ck *checkpoint[T]
	for i := len(cks) - 1; i >= 0 && ck == nil; i-- {
		c, err := readCheckpoint[T](l.dir, cks[i], 1<<40)
		if err != nil {
			l.problem("checkpoint %d does not read (%v); it is renamed *.corrupt and an older one tried", cks[i], err)
			p := filepath.Join(l.dir, ckptName(cks[i]))
			if err := os.Rename(p, p+".corrupt"); err != nil {
				return err
			}
			continue
		}
		ck = c
	}
	if ck != nil && ck.base != l.base {
		if !l.opt.Adopt {
			return fmt.Errorf("%w: %s was learnt from a base model of SHA-256 %x, not the given file's %x: adopt the new file (Adopt) to start again from it, discarding what was learnt, or restore the old one",
				ErrBaseChanged, l.dir, ck.base[:8], l.base[:8])
		}
		l.problem("adopting the new base model: the state learnt from base %x up to version %d is discarded", ck.base[:8], ck.seq)
		for _, k := range ck.keys {
			l.keys.add(k.key, k.seq)
		}
		return l.fresh(base, st, ck.seq+1)
	}
	if ck != nil {
		cst, err := shapeOf(ck.model)
		if err != nil {
			return fmt.Errorf("%w: checkpoint %d: %v", ErrCorrupt, ck.seq, err)
		}
		if err := compatible(&st, &cst); err != nil {
			return fmt.Errorf("%w: checkpoint %d is of another model than the base (%v)", ErrCorrupt, ck.seq, err)
		}
		st = cst
		l.seq, l.ckSeq = ck.seq, ck.seq
		for _, k := range ck.keys {
			l.keys.add(k.key, k.seq)
		}
		l.rec.Checkpoint = ck.seq
	} else if len(cks) > 0 {
		return fmt.Errorf("%w: no checkpoint of %s reads", ErrCorrupt, l.dir)
	}
	l.st = st
	l.sh = newShape(&st)
	l.fixed = l.sh
	a := weightsOf(&st)
	a.sh = l.sh
	if err := l.replay(a); err != nil {
		return err
	}
	if l.foreign > 0 {
		// The log holds records learnt from another base model file
		// (replaced on disk before any checkpoint was written).
		if !l.opt.Adopt {
			return fmt.Errorf("%w: %s holds records up to version %d learnt from another base model than the given file's %x: adopt the new file (Adopt) to start again from it, discarding what was learnt, or restore the old one",
				ErrBaseChanged, l.dir, l.foreign, l.base[:8])
		}
		l.problem("adopting the new base model: the records learnt from another base up to version %d are discarded", l.foreign)
		return l.fresh(base, bst, l.foreign+1)
	}
	l.a, l.b = a, a.clone()
	l.cur.Store(l.a)
	return nil
}

// fresh starts the directory again from base at sequence number seq: a
// checkpoint of base, then the older files removed.
func (l *Learner[T]) fresh(base *linear.Model[T], st linear.State[T], seq uint64) error {
	l.st, l.sh = st, newShape(&st)
	if l.fixed == nil {
		l.fixed = l.sh
	}
	l.a = weightsOf(&st)
	l.a.sh = l.sh
	l.b = l.a.clone()
	l.cur.Store(l.a)
	l.seq = seq
	if err := l.checkpointLocked(true); err != nil {
		return err
	}
	return nil
}

func compatible[T kernel.Float](a, b *linear.State[T]) error {
	if a.Scheme != b.Scheme || a.Dims != b.Dims || !slices.Equal(a.Labels, b.Labels) {
		return fmt.Errorf("%v model of %d features and labels %v against %v of %d and %v", a.Scheme, a.Dims, a.Labels, b.Scheme, b.Dims, b.Labels)
	}
	return nil
}

func (l *Learner[T]) problem(f string, a ...any) {
	msg := fmt.Sprintf(f, a...)
	l.rec.Problems = append(l.rec.Problems, msg)
	l.log.Warn("online: "+msg, "dir", l.dir)
}

// replay applies the log's records after l.seq to c and opens the last
// segment for appending (creating one if there is none).
func (l *Learner[T]) replay(c *weights[T]) error {
	segs, err := segments(l.dir)
	if err != nil {
		return err
	}
	var ops []step[T]
	for i, first := range segs {
		last := i == len(segs)-1
		if !last && segs[i+1] <= l.seq+1 {
			continue // every record of it is in the checkpoint
		}
		path := filepath.Join(l.dir, segName(first))
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		elem, dims, base, herr := parseWALHeader(data)
		if herr == nil && (elem != elemSize[T]() || dims != l.sh.d) {
			herr = fmt.Errorf("of %d-byte values of %d features, not the model's %d and %d", elem, dims, elemSize[T](), l.sh.d)
		}
		if herr != nil {
			if !last {
				return fmt.Errorf("%w: %s: %v", ErrCorrupt, path, herr)
			}
			// A header torn as the segment was created holds no record; a
			// damaged one may hold answered records: either way the bytes
			// are kept aside, never deleted, and the segment started again.
			kept, err := keepAside(path, ".corrupt")
			if err != nil {
				return err
			}
			l.problem("%s: %v: the segment is kept as %s and started again", path, herr, filepath.Base(kept))
			break
		}
		if first > l.seq+1 {
			return fmt.Errorf("%w: %s begins at record %d, but the model holds records up to %d only", ErrCorrupt, path, first, l.seq)
		}
		good, bad := scanSegment(data[walHeader:], dims, maxRecordBytes, func(r record[T]) error {
			if r.seq <= l.seq {
				return nil
			}
			if base != l.base {
				// Learnt from another base model file: not a corrupt
				// tail, the operator's choice (recover).
				l.foreign = max(l.foreign, r.seq)
				return nil
			}
			if r.seq != l.seq+1 {
				return fmt.Errorf("sequence number %d after %d", r.seq, l.seq)
			}
			xs, err := l.checkMax(r.xs, len(r.key), math.MaxInt)
			if err != nil {
				return err
			}
			for _, x := range xs {
				var ok bool
				ops, _, ok = l.sh.learn(c, x, 0, ops[:0])
				if !ok {
					return fmt.Errorf("%w: replaying the record diverges", ErrCorrupt)
				}
			}
			l.seq = r.seq
			l.keys.add(r.key, r.seq)
			l.rec.Records++
			l.rec.Samples += int64(len(xs))
			return nil
		})
		if bad != nil {
			if !last {
				return fmt.Errorf("%w: %s: %v, and later segments follow", ErrCorrupt, path, bad)
			}
			// What is cut is kept aside first: a torn tail was never
			// answered, but a damaged record amid good ones may hide
			// answered ones after it, for the operator to look at.
			cut := fmt.Sprintf("%s.cut-%d", path, walHeader+good)
			if err := writeAtomic(l.dir, filepath.Base(cut), data[walHeader+good:]); err != nil {
				return err
			}
			l.problem("%s: %v: the log is cut there (%d bytes dropped, kept in %s; the requests of a torn tail were never answered)", path, bad, len(data)-walHeader-good, cut)
			if err := os.Truncate(path, int64(walHeader+good)); err != nil {
				return err
			}
		}
		if last {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				return err
			}
			if bad != nil {
				if err := f.Sync(); err != nil {
					f.Close()
					return err
				}
			}
			l.seg, l.segBytes = f, int64(walHeader+good)
		}
	}
	if l.seg == nil {
		return l.newSegment()
	}
	return nil
}

// newSegment starts the segment of the records after l.seq.
func (l *Learner[T]) newSegment() error {
	path := filepath.Join(l.dir, segName(l.seq+1))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	h := walHeaderBytes(elemSize[T](), l.sh.d, l.base)
	if _, err := f.Write(h); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := syncDir(l.dir); err != nil {
		f.Close()
		return err
	}
	if l.seg != nil {
		l.seg.Close()
	}
	l.seg, l.segBytes = f, int64(len(h))
	return nil
}

// check validates samples and converts them; keyLen is the key's length.
func (l *Learner[T]) check(raw []Sample[T], keyLen int) ([]sample[T], error) {
	return l.checkMax(raw, keyLen, l.opt.MaxSamples)
}

// checkMax is check with maxSamples samples at most in a request: replay
// takes any number (a record was acknowledged under the limit of its day).
func (l *Learner[T]) checkMax(raw []Sample[T], keyLen, maxSamples int) ([]sample[T], error) {
	sh := l.fixed
	if keyLen > MaxKeyBytes {
		return nil, fmt.Errorf("%w: an idempotency key of %d bytes (at most %d)", ErrInput, keyLen, MaxKeyBytes)
	}
	if len(raw) == 0 || len(raw) > maxSamples {
		return nil, fmt.Errorf("%w: %d samples in a request (1 to %d)", ErrInput, len(raw), maxSamples)
	}
	xs := make([]sample[T], len(raw))
	for i, r := range raw {
		x := sample[T]{idx: r.Idx, val: r.X}
		if r.Idx == nil {
			if len(r.X) != sh.d {
				return nil, fmt.Errorf("%w: sample %d has %d features; the model takes %d", ErrInput, i, len(r.X), sh.d)
			}
		} else {
			if len(r.Idx) != len(r.X) || len(r.Idx) > sh.d {
				return nil, fmt.Errorf("%w: sample %d: %d columns and %d values (at most %d)", ErrInput, i, len(r.Idx), len(r.X), sh.d)
			}
			for j, c := range r.Idx {
				if c < 0 || int(c) >= sh.d || j > 0 && c <= r.Idx[j-1] {
					return nil, fmt.Errorf("%w: sample %d: column %d at %d: columns must increase, each in [0, %d)", ErrInput, i, c, j, sh.d)
				}
			}
		}
		for j, v := range r.X {
			if !finite(v) {
				return nil, fmt.Errorf("%w: sample %d, value %d is %v", ErrInput, i, j, v)
			}
		}
		if sh.scheme == fit.Binary {
			switch r.Y {
			case 1:
				x.yk = 0
			case -1:
				x.yk = 1
			default:
				return nil, fmt.Errorf("%w: sample %d: label %d; a binary model takes −1 or +1", ErrInput, i, r.Y)
			}
		} else {
			k, ok := slices.BinarySearch(sh.labels, r.Y)
			if !ok {
				return nil, fmt.Errorf("%w: sample %d: label %d is not one of the model's classes %v", ErrInput, i, r.Y, sh.labels)
			}
			x.yk = k
		}
		xs[i] = x
	}
	return xs, nil
}

// Learn applies the model's online rule to the samples, in order, as one
// request: it answers once the request is in the log (by the sync
// policy) and the model that predictions read has learnt it. A key seen
// within the window is not applied again (Result.Duplicate). A request
// is applied whole or not at all. The samples are not modified and not
// kept after Learn returns.
func (l *Learner[T]) Learn(key string, samples []Sample[T]) (Result, error) {
	xs, err := l.check(samples, len(key))
	if err != nil {
		return Result{}, err
	}
	r := &request[T]{key: key, xs: xs, raw: samples, done: make(chan struct{})}
	select {
	case l.reqc <- r:
	case <-l.done:
		return Result{}, fmt.Errorf("%w", ErrClosed)
	}
	select {
	case <-r.done:
	case <-l.done:
		select {
		case <-r.done:
		default:
			return Result{}, fmt.Errorf("%w", ErrClosed)
		}
	}
	return r.res, r.err
}

// run is the committer: it forms batches, applies and logs them.
func (l *Learner[T]) run() {
	defer close(l.done)
	var tick <-chan time.Time
	if l.opt.CheckpointInterval > 0 {
		t := time.NewTicker(min(l.opt.CheckpointInterval, time.Second))
		defer t.Stop()
		tick = t.C
	}
	batch := make([]*request[T], 0, 256)
	for {
		var r *request[T]
		select {
		case r = <-l.reqc:
		case <-tick:
			l.mu.Lock()
			if l.since > 0 && time.Since(l.ckAt) >= l.opt.CheckpointInterval && l.err == nil && !l.closed {
				if err := l.checkpointLocked(false); err != nil {
					l.log.Error("online: checkpoint", "dir", l.dir, "err", err)
				}
			}
			l.mu.Unlock()
			continue
		case <-l.quit:
			l.failQueued()
			return
		}
		batch = append(batch[:0], r)
		if l.opt.Sync != SyncEveryRequest {
			if l.opt.Sync == SyncGroup && l.opt.SyncInterval > 0 {
				t := time.NewTimer(l.opt.SyncInterval)
			collect:
				for len(batch) < 4096 {
					select {
					case r := <-l.reqc:
						batch = append(batch, r)
					case <-t.C:
						break collect
					}
				}
				t.Stop()
			}
		drain:
			for len(batch) < 4096 {
				select {
				case r := <-l.reqc:
					batch = append(batch, r)
				default:
					break drain
				}
			}
		}
		l.mu.Lock()
		l.commit(batch)
		l.mu.Unlock()
		for i, r := range batch {
			close(r.done)
			batch[i] = nil
		}
	}
}

func (l *Learner[T]) failQueued() {
	for {
		select {
		case r := <-l.reqc:
			r.err = fmt.Errorf("%w", ErrClosed)
			close(r.done)
		default:
			return
		}
	}
}

// commit applies a batch to the copy predictions do not read, logs it,
// publishes that copy and brings the other up to it. l.mu is held.
func (l *Learner[T]) commit(batch []*request[T]) {
	if l.err != nil || l.closed {
		for _, r := range batch {
			r.err = l.stopped()
		}
		return
	}
	sh := l.sh
	act := l.cur.Load()
	ina := l.a
	if ina == act {
		ina = l.b
	}
	ina.drain()
	xs, ops, buf := l.xs[:0], l.ops[:0], l.buf[:0]
	seq0 := l.seq
	var samples int64
	for _, r := range batch {
		if r.key != "" {
			if s, ok := l.keys.get(r.key); ok {
				r.res = Result{Version: s, Duplicate: true}
				l.dups++
				continue
			}
		}
		nx, no := len(xs), len(ops)
		pred := make([]int, len(r.xs))
		mistakes := 0
		ok := true
		for i, x := range r.xs {
			pred[i] = sh.predict(ina, x)
			xs = append(xs, x)
			var m bool
			ops, m, ok = sh.learn(ina, x, len(xs)-1, ops)
			if !ok {
				break
			}
			if m {
				mistakes++
			}
		}
		if !ok {
			// Undo: the copy again equals the published one plus this
			// batch's earlier requests.
			xs, ops = xs[:nx], ops[:no]
			ina.copyFrom(act)
			sh.replay(ina, xs, ops)
			r.err = fmt.Errorf("%w: the update (η = %v) makes a weight non-finite; the request is not applied", ErrDiverged, sh.eta)
			continue
		}
		l.seq++
		buf = appendRecord(buf, l.seq, r.key, r.raw)
		if r.key != "" {
			l.keys.add(r.key, l.seq)
		}
		r.res = Result{Version: l.seq, Predicted: pred, Mistakes: mistakes}
		l.mistakes += int64(mistakes)
		l.requests++
		samples += int64(len(r.xs))
	}
	l.xs, l.ops, l.buf = xs, ops, buf
	if len(buf) == 0 {
		return
	}
	_, err := l.seg.Write(buf)
	if err == nil && l.opt.Sync != SyncNone {
		err = l.seg.Sync()
	}
	if err != nil {
		// What reached the file is cut or kept on the next Open; nothing
		// more is answered.
		l.err = fmt.Errorf("%w: writing the log failed (%v); reopen the learner to recover", ErrClosed, err)
		l.seq = seq0
		ina.copyFrom(act)
		for _, r := range batch {
			if r.err == nil && !r.res.Duplicate {
				r.err, r.res = l.err, Result{}
			}
		}
		l.log.Error("online: log write", "dir", l.dir, "err", err)
		return
	}
	l.segBytes += int64(len(buf))
	l.cur.Store(ina)
	act.drain()
	sh.replay(act, xs, ops)
	l.samples += samples
	l.since += samples
	if l.opt.CheckpointEvery > 0 && l.since >= l.opt.CheckpointEvery {
		if err := l.checkpointLocked(false); err != nil {
			l.log.Error("online: checkpoint", "dir", l.dir, "err", err)
		}
	}
	if cap(l.buf) > 16<<20 {
		l.buf = nil
	}
}

func (l *Learner[T]) stopped() error {
	if l.err != nil {
		return l.err
	}
	return fmt.Errorf("%w", ErrClosed)
}

// state returns the model's state as of the published copy. l.mu is held
// (the copies are equal between batches).
func (l *Learner[T]) state() linear.State[T] {
	c := l.cur.Load()
	st := l.st
	st.Steps = c.steps
	if st.Algorithm == linear.Averaged {
		st.CW, st.CB, st.U, st.UB = slices.Clone(c.w), slices.Clone(c.b), slices.Clone(c.u), slices.Clone(c.ub)
		st.W, st.B = averageOf(c.w, c.u, c.steps), averageOf(c.b, c.ub, c.steps)
	} else {
		st.W, st.B = slices.Clone(c.w), slices.Clone(c.b)
	}
	return st
}

// averageOf is the averaged perceptron's served weights, w − u/steps,
// computed as package perceptron computes them.
func averageOf[T kernel.Float](w, u []T, steps int64) []T {
	c := T(steps)
	a := make([]T, len(w))
	for i := range w {
		a[i] = w[i] - u[i]/c
	}
	return a
}

// Model returns the model as it is now (a copy): bit for bit the model
// linear.Model.Update would have made of the base model and the
// samples learnt, dense ones at least (a sparse sample's products are
// summed in another order than a dense one's). It keeps its training
// state, so that it may be saved and learnt on further.
func (l *Learner[T]) Model() (*linear.Model[T], error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return linear.New(l.state())
}

// Checkpoint writes a checkpoint now and truncates the log before it.
func (l *Learner[T]) Checkpoint() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil || l.closed {
		return l.stopped()
	}
	return l.checkpointLocked(false)
}

// checkpointLocked writes the checkpoint of l.seq; then starts a new
// segment and removes what no kept checkpoint needs: the checkpoints but
// the last two (all but this one if only, after an adoption), and the
// segments whose records the older kept checkpoint holds.
func (l *Learner[T]) checkpointLocked(only bool) error {
	m, err := linear.New(l.state())
	if err != nil {
		return err
	}
	mb, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	if l.seg != nil && l.opt.Sync == SyncNone {
		if err := l.seg.Sync(); err != nil {
			return err
		}
	}
	if err := writeAtomic(l.dir, ckptName(l.seq), encodeCheckpoint(l.seq, l.base, l.keys.list(), mb)); err != nil {
		return err
	}
	l.ckSeq, l.ckAt, l.since = l.seq, time.Now(), 0
	// After an adoption (only) a new segment even if the current one is
	// empty: its header names the old base, and the records appended to
	// it would be refused on replay.
	if l.seg == nil || l.segBytes > walHeader || only {
		if err := l.newSegment(); err != nil {
			return err
		}
	}
	cks, err := listSeq(l.dir, "ckpt-", ".ckpt")
	if err != nil {
		return err
	}
	keep := 2
	if only {
		keep = 1
	}
	oldest := l.seq
	if !only && len(cks) >= 2 {
		oldest = cks[len(cks)-2]
	}
	for i, s := range cks {
		if i < len(cks)-keep || s > l.seq {
			os.Remove(filepath.Join(l.dir, ckptName(s)))
		}
	}
	segs, err := segments(l.dir)
	if err != nil {
		return err
	}
	for i, first := range segs {
		if i+1 < len(segs) && segs[i+1] <= oldest+1 {
			os.Remove(filepath.Join(l.dir, segName(first)))
		}
		if first > l.seq+1 { // a segment of records never answered, after an adoption
			os.Remove(filepath.Join(l.dir, segName(first)))
		}
	}
	l.log.Info("online: checkpoint", "dir", l.dir, "version", l.seq)
	return syncDir(l.dir)
}

// Adopt makes m, read from the model file of SHA-256 sum, the learner's
// base, discarding what was learnt: the operator's answer to a model file
// replaced on disk (ErrBaseChanged). m must have the width, labels and
// scheme of the model learnt (ErrIncompatible). A checkpoint of m is
// written at once; the version goes on increasing.
func (l *Learner[T]) Adopt(m *linear.Model[T], sum [32]byte) error {
	st, err := shapeOf(m)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil || l.closed {
		return l.stopped()
	}
	if err := compatible(&l.st, &st); err != nil {
		return fmt.Errorf("%w: %v", ErrIncompatible, err)
	}
	// What the learner was, to go back to if the new model's checkpoint
	// cannot be written.
	base0, seq0, since0 := l.base, l.seq, l.since
	st0, sh0, fixed0, a0, b0, cur0 := l.st, l.sh, l.fixed, l.a, l.b, l.cur.Load()
	l.base = sum
	l.seq++ // the adoption is a version of its own
	l.since = 0
	// New copies: readers of the old ones finish with them.
	if err := l.fresh(m, st, l.seq); err != nil {
		// Without its checkpoint the adoption is not on disk (or only
		// partly): the old model goes on answering predictions, and
		// learning stops until the learner is opened again, when the
		// directory says which base holds (a replaced file is then
		// ErrBaseChanged until adopted once more). Nothing is learnt
		// meanwhile, so nothing answered can be lost.
		l.base, l.seq, l.since = base0, seq0, since0
		l.st, l.sh, l.fixed, l.a, l.b = st0, sh0, fixed0, a0, b0
		l.cur.Store(cur0)
		l.err = fmt.Errorf("%w: adopting the model failed (%v); reopen the learner to recover", ErrClosed, err)
		return err
	}
	return nil
}

// Base returns the SHA-256 of the base model file.
func (l *Learner[T]) Base() [32]byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.base
}

// Status describes the learner.
func (l *Learner[T]) Status() Status {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := Status{Version: l.seq, Base: fmt.Sprintf("%x", l.base[:8]), Samples: l.samples, Mistakes: l.mistakes,
		Requests: l.requests, Duplicates: l.dups, Checkpoint: l.ckSeq, CheckpointAt: l.ckAt,
		Sync: l.opt.Sync.String(), SyncInterval: l.opt.SyncInterval.String(), LogBytes: l.segBytes,
		Keys: l.keys.len(), Recovery: l.rec, SinceCheckpoint: l.since}
	if l.err != nil {
		s.Err = l.err.Error()
	}
	return s
}

// Close stops learning (queued requests get ErrClosed), writes a
// checkpoint if anything was learnt since the last, and releases the
// directory.
func (l *Learner[T]) Close() error {
	first := false
	l.closeOnce.Do(func() { first = true; close(l.quit) })
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	if !first || l.closed {
		return nil
	}
	var err error
	if l.err == nil && l.since > 0 {
		err = l.checkpointLocked(false)
	}
	l.closed = true
	if l.seg != nil {
		if e := l.seg.Sync(); err == nil {
			err = e
		}
		l.seg.Close()
	}
	l.lock.Close()
	return err
}

// acquire returns the published copy, counted as read until the counter
// it returns is decremented.
func (l *Learner[T]) acquire() (*weights[T], *atomic.Int64) {
	for {
		c := l.cur.Load()
		n := c.enter()
		if l.cur.Load() == c {
			return c, n
		}
		n.Add(-1)
	}
}

// Dims returns the number of features of a sample.
func (l *Learner[T]) Dims() int { return l.fixed.d }

// Classes returns the model's labels.
func (l *Learner[T]) Classes() []int { return slices.Clone(l.fixed.labels) }

// NumScores returns the number of scores: 1 for a binary model, else one
// per class.
func (l *Learner[T]) NumScores() int { return l.fixed.rows }

// Predict returns the label of the dense sample x by the model as it is
// now. It never waits for the log, and reads one consistent copy of the
// weights (never a half-applied update).
func (l *Learner[T]) Predict(x []T) (int, error) {
	if len(x) != l.fixed.d {
		return 0, fmt.Errorf("%w: %d features; the model takes %d", ErrInput, len(x), l.fixed.d)
	}
	c, n := l.acquire()
	y := c.sh.predict(c, sample[T]{val: x})
	n.Add(-1)
	return y, nil
}

// PredictSparse is Predict for a sparse sample: the values val in the
// columns idx (increasing, each in [0, Dims)).
func (l *Learner[T]) PredictSparse(idx []int32, val []T) (int, error) {
	if len(idx) != len(val) || len(idx) > l.fixed.d {
		return 0, fmt.Errorf("%w: %d columns and %d values", ErrInput, len(idx), len(val))
	}
	for j, c := range idx {
		if c < 0 || int(c) >= l.fixed.d || j > 0 && c <= idx[j-1] {
			return 0, fmt.Errorf("%w: column %d at %d: columns must increase, each in [0, %d)", ErrInput, c, j, l.fixed.d)
		}
	}
	c, n := l.acquire()
	y := c.sh.predict(c, sample[T]{idx: idx, val: val})
	n.Add(-1)
	return y, nil
}

// Scores writes the model's NumScores decision values of x to dst.
func (l *Learner[T]) Scores(dst, x []T) error {
	if len(x) != l.fixed.d || len(dst) < l.fixed.rows {
		return fmt.Errorf("%w: %d features and room for %d scores; the model takes %d and gives %d", ErrInput, len(x), len(dst), l.fixed.d, l.fixed.rows)
	}
	c, n := l.acquire()
	c.sh.scores(c, dst, sample[T]{val: x})
	n.Add(-1)
	for _, v := range dst[:l.fixed.rows] {
		if !finite(v) {
			return fmt.Errorf("%w: a score is %v", ErrInput, v)
		}
	}
	return nil
}

// keepAside renames path to path+suffix, or, when that exists, to
// path+suffix+"-N" for the first N that does not, so that no damaged file
// kept earlier is replaced. It returns the new name.
func keepAside(path, suffix string) (string, error) {
	to := path + suffix
	for n := 1; ; n++ {
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			break
		}
		to = fmt.Sprintf("%s%s-%d", path, suffix, n)
	}
	return to, os.Rename(path, to)
}
