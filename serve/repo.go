package serve

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rosenblatt-go/rosenblatt/model"
)

// Server serves the predictions of the model in a file (New), or of every
// model file in a directory (NewRepository); see the package
// documentation. Its methods are safe for concurrent use.
type Server struct {
	dir    string // the repository's directory; "" for one model file
	decode Decoder
	opt    Options
	log    *slog.Logger
	set    atomic.Pointer[modelSet] // the models served
	mux    *http.ServeMux
	pool   sync.Pool // of *buffers

	inflight atomic.Int64 // bytes the requests in flight hold (see hold)
	peak     atomic.Int64 // the most inflight has been

	// scanMu serializes a repository's scans and guards the fields below.
	scanMu sync.Mutex
	noted  map[string]string // file → why it is not served, as last logged
	dirErr string            // the last error reading the directory, as logged

	learn *learning // learning while serving (learn.go); nil without
}

// slot is one model served: its file, the model in use, and the state
// of its reloads.
type slot struct {
	path string
	name string
	cur  atomic.Pointer[loaded] // nil until the file first loads (a repository's)

	// mu guards the fields below. It is never held across file I/O or
	// decoding: reloads run side by side, each numbered when it starts,
	// and the outcome of one that started before the last recorded one
	// is dropped.
	mu        sync.Mutex
	started   uint64            // reloads started
	recorded  uint64            // the number of the last reload whose outcome was recorded
	seen      fileStat          // the file's state at the last reload
	badSum    [sha256.Size]byte // the last bad content's hash
	lastErr   error             // the last reload's error, nil after a success
	lastTrans string            // the last transient error logged
	retry     bool              // the last read failed for a reason that may pass: Watch tries again

	// For /healthz, which must not wait for a reload in progress.
	reloads atomic.Int64              // models put in use after the first
	failure atomic.Pointer[time.Time] // when the last reload failed, nil after a success
	refused atomic.Pointer[string]    // what the last reload would have changed, if refused for it
}

// modelSet is the models served, by name. A published set is never
// changed: a scan that adds or removes a model publishes another.
type modelSet struct {
	byName map[string]*slot
	names  []string // sorted
}

// slots returns the set's slots in name order.
func (ms *modelSet) slots() []*slot {
	out := make([]*slot, len(ms.names))
	for i, n := range ms.names {
		out[i] = ms.byName[n]
	}
	return out
}

// newSet returns the set of slots.
func newSet(slots map[string]*slot) *modelSet {
	ms := &modelSet{byName: slots, names: make([]string, 0, len(slots))}
	for n := range slots {
		ms.names = append(ms.names, n)
	}
	slices.Sort(ms.names)
	return ms
}

// newServer returns a server with no model yet.
func newServer(decode Decoder, opt Options) (*Server, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if decode == nil {
		decode = DecodeModel
	}
	if opt.ReadFile == nil {
		limit := opt.MaxModelBytes
		opt.ReadFile = func(path string) ([]byte, error) { return readModel(path, limit) }
	}
	s := &Server{decode: decode, opt: opt, log: opt.Logger, noted: map[string]string{}}
	s.pool.New = func() any { return new(buffers) }
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("/healthz", s.healthz)
	s.oipRoutes()
	s.set.Store(newSet(map[string]*slot{}))
	return s, nil
}

// New reads and decodes the model file at path with decode (nil:
// DecodeModel) and returns a server of it, serving it under ModelName(path).
// The first model must load: an error wraps ErrModel.
func New(path string, decode Decoder, opt Options) (*Server, error) {
	s, err := newServer(decode, opt)
	if err != nil {
		return nil, err
	}
	sl := &slot{path: path, name: ModelName(path)}
	s.set.Store(newSet(map[string]*slot{sl.name: sl}))
	if _, err := s.reloadOne(sl); err != nil {
		return nil, err
	}
	return s, nil
}

// NewRepository returns a server of every model file in directory dir (a
// model repository), each served under its file's name without the
// extension (ModelName) and decoded by decode (nil: DecodeModel). Files
// whose name begins with a dot (an atomic writer's temporary file, say)
// or ends with "~", and subdirectories, are not model files. A file that
// does not load is logged and its model listed as unavailable (in
// /healthz and the repository index), and it does not keep the others
// from being served; Watch (and Reload) add the models of files that
// appear, drop those of files that go, and reload each file that changes
// on its own, as New's server does its one file. When two files have the
// same name without their extensions, the one served already stays (else
// the first in name order) and the other is logged. At most
// Options.MaxModels are served. dir must be a readable directory: an
// error wraps ErrModel.
func NewRepository(dir string, decode Decoder, opt Options) (*Server, error) {
	s, err := newServer(decode, opt)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: the model repository: %w", ErrModel, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%w: the model repository %s is not a directory", ErrModel, dir)
	}
	s.dir = dir
	if _, _, err := s.scan(); err != nil {
		return nil, fmt.Errorf("%w: the model repository: %w", ErrModel, err)
	}
	if len(s.set.Load().names) == 0 {
		s.log.Warn("serve: the model repository has no model file yet", "dir", dir)
	}
	return s, nil
}

// modelFile reports whether the directory entry e of dir is a model file
// of a repository.
func modelFile(dir string, e os.DirEntry) bool {
	n := e.Name()
	if strings.HasPrefix(n, ".") || strings.HasSuffix(n, "~") || ModelName(n) == "" || e.IsDir() {
		return false
	}
	if e.Type()&os.ModeSymlink != 0 {
		if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.IsDir() {
			return false
		}
	}
	return true
}

// scan reads the repository's directory, loads the files that appeared
// (each once: they are returned in fresh) and drops the models of the
// files that went. It reports whether the set of models changed.
func (s *Server) scan() (changed bool, fresh map[*slot]bool, err error) {
	s.scanMu.Lock()
	defer s.scanMu.Unlock()
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		if msg := err.Error(); msg != s.dirErr {
			s.dirErr = msg
			s.log.Error("serve: cannot read the model repository; the models in use stay", "dir", s.dir, "err", err)
		}
		return false, nil, err
	}
	s.dirErr = ""
	files := map[string][]string{} // model name → its files, in name order
	var names []string
	for _, e := range entries {
		if !modelFile(s.dir, e) {
			continue
		}
		name := ModelName(e.Name())
		if files[name] == nil {
			names = append(names, name)
		}
		files[name] = append(files[name], e.Name())
	}
	slices.Sort(names)
	old := s.set.Load()
	next := make(map[string]*slot, min(len(names), s.opt.MaxModels))
	fresh = map[*slot]bool{}
	noted := map[string]string{}
	for _, name := range names {
		fs := files[name]
		pick := fs[0]
		cur := old.byName[name]
		if cur != nil && slices.Contains(fs, filepath.Base(cur.path)) {
			pick = filepath.Base(cur.path)
		}
		for _, f := range fs {
			if f != pick {
				noted[f] = fmt.Sprintf("%s is served as %q already", pick, name)
			}
		}
		if len(next) == s.opt.MaxModels {
			noted[pick] = fmt.Sprintf("the repository has more than %d models, the limit (-max-models)", s.opt.MaxModels)
			continue
		}
		if cur != nil && filepath.Base(cur.path) == pick {
			next[name] = cur
			continue
		}
		sl := &slot{path: filepath.Join(s.dir, pick), name: name}
		s.reloadOne(sl) // logs its failure; the model is listed as unavailable
		next[name] = sl
		fresh[sl] = true
		changed = true
	}
	for f, why := range noted {
		if s.noted[f] != why {
			s.log.Error("serve: model file not served", "file", filepath.Join(s.dir, f), "reason", why)
		}
	}
	s.noted = noted
	for _, name := range old.names {
		if _, ok := next[name]; !ok {
			s.log.Info("serve: model removed: its file left the repository", "name", name, "file", old.byName[name].path)
			s.observeReload(name, "", nil)
			changed = true
		}
	}
	if changed {
		s.set.Store(newSet(next))
	}
	return changed, fresh, nil
}

// lookup returns the model in use under name, pinned for one request: the
// request uses that model, whole, to its end, whatever reloads do
// meanwhile. name "" names the only model of a server that has one; a
// version other than "" must be the version in use. It is the one lookup
// of every protocol. Refusals: 404 for a name or version the server does
// not have, 400 for no name when the server has several models, 503 for
// a model whose file has not loaded.
func (s *Server) lookup(name, version string) (*loaded, *httpError) {
	set := s.set.Load()
	var sl *slot
	switch {
	case name != "":
		if sl = set.byName[name]; sl == nil {
			if len(set.names) == 1 {
				return nil, bad(http.StatusNotFound, "unknown model %q: this server serves %q", name, set.names[0])
			}
			return nil, bad(http.StatusNotFound, "unknown model %q: this server serves %d models (POST /v2/repository/index lists them)", name, len(set.names))
		}
	case len(set.names) == 1:
		sl = set.byName[set.names[0]]
	case len(set.names) == 0:
		return nil, bad(http.StatusNotFound, "this server serves no model yet")
	default:
		return nil, bad(http.StatusBadRequest, "this server serves %d models: name one (POST /predict/NAME or /predict?model=NAME; POST /v2/repository/index lists them)", len(set.names))
	}
	m := sl.cur.Load()
	if m == nil {
		return nil, bad(http.StatusServiceUnavailable, "model %q is not available: its file has not loaded (the reason is in the server log)", sl.name)
	}
	if version != "" && version != m.version {
		return nil, bad(http.StatusNotFound, "model %q has no version %q: the version in use is %q", sl.name, version, m.version)
	}
	return m, nil
}

// first returns the model in use of the first model, in name order, that
// has one; nil if none has.
func (s *Server) first() *loaded {
	for _, sl := range s.set.Load().slots() {
		if m := sl.cur.Load(); m != nil {
			return m
		}
	}
	return nil
}

// Model states in the repository index and /healthz.
const (
	stateReady       = "READY"
	stateUnavailable = "UNAVAILABLE"
)

// ModelStatus is a model of the server as the repository index lists it.
type ModelStatus struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"` // the version in use; "" if none
	// State is "READY" (a model is in use) or "UNAVAILABLE" (its file
	// has not loaded).
	State string `json:"state"`
	// Reason says why a model is unavailable, or that its last reload
	// failed (the model in use stays), never what the file held: the
	// details are in the server's log.
	Reason string `json:"reason,omitempty"`
}

// Index lists the models of the server in name order, as POST
// /v2/repository/index does.
func (s *Server) Index() []ModelStatus {
	slots := s.set.Load().slots()
	out := make([]ModelStatus, len(slots))
	for i, sl := range slots {
		out[i] = sl.status()
	}
	return out
}

// status is sl's entry in the repository index.
func (sl *slot) status() ModelStatus {
	st := ModelStatus{Name: sl.name, State: stateUnavailable}
	failed := sl.failure.Load() != nil
	if m := sl.cur.Load(); m != nil {
		st.Version, st.State = m.version, stateReady
		if failed {
			st.Reason = "the last reload failed and the model in use stays; see the server log"
		}
	} else {
		st.Reason = "the file has not loaded; see the server log"
	}
	return st
}

// Current describes the model in use: with a repository, the first model
// by name that is loaded; the zero Info if none is.
func (s *Server) Current() Info {
	m := s.first()
	if m == nil {
		return Info{}
	}
	return m.info()
}

// info describes l.
func (l *loaded) info() Info {
	info := Info{Version: l.version, Dims: l.dims, Classes: slices.Clone(l.classes), NumScores: l.nscores,
		Elem: l.elemName(), Kind: l.kind, Quantised: l.quant, Desc: l.desc, LoadedAt: l.at}
	if t, ok := l.model.(*model.Text); ok {
		info.Names = t.Names()
	}
	return info
}

// Model returns the model in use and its version (as Current chooses it;
// nil and "" if none is loaded).
func (s *Server) Model() (Model, string) {
	m := s.first()
	if m == nil {
		return nil, ""
	}
	return m.model, m.version
}

// stat returns the model file's state (the zero fileStat if it cannot be
// read).
func (sl *slot) stat() fileStat {
	fi, err := os.Stat(sl.path)
	if err != nil {
		return fileStat{}
	}
	return fileStat{fi, fi.Size(), fi.ModTime()}
}

// Reload reads the model file again (with a repository: the directory,
// adding and dropping models, and every model file) and, if its bytes
// differ from the model in use and decode into a usable model, puts that
// model in use: requests that started before go on with the old one,
// those that start after use the new one. It reports whether a model
// changed. On an error (wrapping ErrModel; with a repository, one per
// failing file, joined) the current model stays in use and the error is
// logged, once per distinct bad file content; /healthz says only that
// the last reload failed, and when.
//
// A read that fails for a reason that may pass (too many open files,
// permission denied, an interrupted call, a file replaced while it was
// being opened) is retried a few times, with growing pauses, and if it
// still fails the file is not taken as seen: Watch tries it again at its
// next look. Reloads hold no lock while they read or decode: two at once
// (Watch and a SIGHUP) both run, and the outcome of the one that started
// first is dropped if the other's is already in (Reload then reports no
// change and no error).
func (s *Server) Reload() (bool, error) {
	if s.dir == "" {
		return s.reloadOne(s.set.Load().slots()[0])
	}
	changed, fresh, err := s.scan()
	var errs []error
	if err != nil {
		errs = append(errs, fmt.Errorf("%w: the model repository: %w", ErrModel, err))
	}
	for _, sl := range s.set.Load().slots() {
		if fresh[sl] {
			if err := sl.loadErr(); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		c, err := s.reloadOne(sl)
		changed = changed || c
		if err != nil {
			errs = append(errs, err)
		}
	}
	return changed, errors.Join(errs...)
}

// loadErr is the error of sl's last reload, nil after a success.
func (sl *slot) loadErr() error {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.lastErr
}

// reloadOne reloads sl and tells the Observer the outcome.
func (s *Server) reloadOne(sl *slot) (bool, error) {
	changed, version, err := s.reload(sl)
	if changed || err != nil {
		s.observeReload(sl.name, version, err)
	}
	return changed, err
}

// reload is Reload of one model; it also returns the version of the
// model in use after it (the new one if it changed, the one kept if it
// failed).
func (s *Server) reload(sl *slot) (bool, string, error) {
	st := sl.stat() // before reading: a change after it is seen next time
	sl.mu.Lock()
	sl.started++
	gen := sl.started
	sl.seen = st
	sl.mu.Unlock()

	data, err := s.opt.ReadFile(sl.path)
	for _, d := range retryDelays {
		if err == nil || !transient(err) {
			break
		}
		time.Sleep(d)
		data, err = s.opt.ReadFile(sl.path)
	}
	if err != nil {
		sl.mu.Lock()
		defer sl.mu.Unlock()
		if gen < sl.recorded {
			return false, "", nil
		}
		sl.recorded, sl.retry = gen, false
		err = fmt.Errorf("%w: %w", ErrModel, err)
		if transient(err) {
			sl.retry = true // not taken as the file's state: the next look tries again
			sl.lastErr = err
			now := time.Now()
			sl.failure.Store(&now)
			if msg := err.Error(); msg != sl.lastTrans {
				sl.lastTrans = msg
				s.logFailure(sl, err)
			}
			return false, sl.cur.Load().versionOf(), err
		}
		return false, sl.cur.Load().versionOf(), s.failed(sl, err, nil)
	}
	sum := sha256.Sum256(data)
	cur := sl.cur.Load()
	if cur != nil && sum == cur.sum {
		sl.mu.Lock()
		defer sl.mu.Unlock()
		if gen >= sl.recorded {
			sl.recorded, sl.retry = gen, false
			sl.succeeded()
		}
		return false, "", nil
	}
	sl.mu.Lock()
	lastErr := sl.lastErr
	known := sum == sl.badSum && lastErr != nil
	sl.mu.Unlock()
	if known {
		return false, cur.versionOf(), lastErr // already logged
	}
	l, err := s.safeDecode(sl.path, data, sum)
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if gen < sl.recorded {
		return false, "", nil // a reload that started later has put its outcome in
	}
	sl.recorded, sl.retry = gen, false
	if err == nil && cur != nil && !s.opt.AllowModelChange {
		if what := changes(cur, l); what != "" {
			refusal := "the new model changes " + what + "; the model in use is kept (-allow-model-change allows it)"
			err = fmt.Errorf("%w: %s: %s", ErrModel, sl.path, refusal)
			s.failed(sl, err, &sum)
			sl.refused.Store(&refusal)
			return false, cur.versionOf(), err
		}
	}
	if err == nil {
		if cur != nil {
			sl.reloads.Add(1)
		}
		l.name = sl.name
		sl.cur.Store(l)
		sl.succeeded()
		s.log.Info("serve: model loaded", "name", sl.name, "file", sl.path, "model", l.version, "dims", l.dims,
			"classes", len(l.classes), "scores", l.nscores, "type", l.elemName(), "kind", l.kind)
		return true, l.version, nil
	}
	if !errors.Is(err, ErrModel) {
		err = fmt.Errorf("%w: %s: %w", ErrModel, sl.path, err)
	}
	return false, cur.versionOf(), s.failed(sl, err, &sum)
}

// succeeded records a reload that left a good model in use; sl.mu is
// held.
func (sl *slot) succeeded() {
	sl.lastErr, sl.lastTrans = nil, ""
	sl.failure.Store(nil)
	sl.refused.Store(nil)
}

// failed records and logs a failed reload of sl (sum is the bad
// content's hash, nil if the file could not be read); sl.mu is held.
func (s *Server) failed(sl *slot, err error, sum *[sha256.Size]byte) error {
	if sum != nil {
		sl.badSum = *sum
	}
	sl.lastErr, sl.lastTrans = err, ""
	now := time.Now()
	sl.failure.Store(&now)
	sl.refused.Store(nil)
	s.logFailure(sl, err)
	return err
}

// logFailure logs a failed reload of sl, with its details: /healthz gives
// none. The first load of New's one file is not logged: New returns its
// error.
func (s *Server) logFailure(sl *slot, err error) {
	switch cur := sl.cur.Load(); {
	case cur != nil:
		s.log.Error("serve: model reload failed; keeping the model in use", "name", sl.name, "file", sl.path, "model", cur.version, "err", err)
	case s.dir != "":
		s.log.Error("serve: model file did not load; the model is not available", "name", sl.name, "file", sl.path, "err", err)
	}
}

// safeDecode decodes data (whose hash is sum), read from path, and checks
// the model, with a panic in the Decoder or the model's methods turned
// into an error: a bad file must not bring the server down.
func (s *Server) safeDecode(path string, data []byte, sum [sha256.Size]byte) (l *loaded, err error) {
	defer func() {
		if p := recover(); p != nil {
			l, err = nil, fmt.Errorf("%w: %s: the decoder or the model panicked: %v", ErrModel, path, p)
		}
	}()
	m, err := s.decode(path, data)
	if err != nil {
		return nil, err
	}
	return newLoaded(m, sum)
}

// Watch reloads a model whenever its file's size, modification time or
// identity (a file renamed over it) changes, looking every Options.Poll,
// until ctx is done; with a repository it also reads the directory at
// each look, adding and dropping models (see NewRepository). Replace a
// model file by renaming a complete one over it: a file caught
// half-written fails to decode and is retried when it changes again.
func (s *Server) Watch(ctx context.Context) {
	if s.opt.Poll < 0 {
		return
	}
	t := time.NewTicker(s.opt.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var fresh map[*slot]bool
		if s.dir != "" {
			_, fresh, _ = s.scan() // logs its error
		}
		for _, sl := range s.set.Load().slots() {
			if fresh[sl] {
				continue
			}
			sl.mu.Lock()
			seen, retry := sl.seen, sl.retry
			sl.mu.Unlock()
			if retry || seen.changed(sl.stat()) {
				s.reloadOne(sl) // logs its error
			}
		}
	}
}
