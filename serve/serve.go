package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// Sentinel errors; every error of this package wraps one of them.
var (
	// ErrModel reports a model file the server cannot use: unreadable, not
	// decodable (the Decoder's error is wrapped too), or a model that is
	// neither a Classifier[float32] nor a Classifier[float64] or has no
	// features or no scores.
	ErrModel = errors.New("serve: unusable model")
	// ErrFormat reports a binary request or response that does not follow
	// the format (see the package documentation).
	ErrFormat = errors.New("serve: malformed binary message")
	// ErrOption reports an invalid Options value.
	ErrOption = errors.New("serve: invalid option")
)

// Model is a classifier the server can serve. It must also be a
// Classifier[float32] or a Classifier[float64].
type Model interface {
	// Dims returns the number of features per sample.
	Dims() int
	// Classes returns the model's labels.
	Classes() []int
	// NumScores returns the number of decision values Scores writes.
	NumScores() int
}

// Classifier is a model of element type T: linear.Model[T] (the
// perceptrons', Pegasos's and the linear SVM's) and expansion.Model[T]
// (the kernel perceptron and SMO) are.
// Predict and Scores must be safe for concurrent use.
type Classifier[T kernel.Float] interface {
	Model
	// Predict returns the label of sample x.
	Predict(x []T) (int, error)
	// Scores writes the NumScores decision values of x to dst.
	Scores(dst, x []T) error
}

// batcher is a classifier with a batch path, used for batches of
// batchMin rows or more.
type batcher[T kernel.Float] interface {
	PredictBatch(dst []int, X []T) error
}

// batchMin is the smallest batch predicted with PredictBatch when the
// model has it.
const batchMin = 16

// A Decoder decodes the bytes of the model file at path (path is for its
// messages). A nil Decoder selects DecodeModel.
type Decoder func(path string, data []byte) (Model, error)

// DecodeModel is the default Decoder: model.Unmarshal, which reads every
// model file of this module (binary or JSON, any kind, quantised ones
// included) by its content.
func DecodeModel(path string, data []byte) (Model, error) {
	m, err := model.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Options configure a Server. The zero value of a field selects its
// default. The limits are named in refusals by the flag of "rosenblatt
// serve" that sets them, given with each field.
type Options struct {
	// ReadFile, if set, replaces the server's reading of the model file
	// (and the checks below): for tests and for model stores that are not
	// files. By default the file is stat'ed first and refused, without
	// being opened, if it is not a regular file (a FIFO, a device, a
	// directory) or has more than MaxModelBytes; it is then opened without
	// blocking, stat'ed again through the open descriptor (a file swapped
	// in between is refused and retried) and read through a reader that
	// stops one byte past MaxModelBytes, so that a file growing while it
	// is read cannot take more.
	ReadFile func(path string) ([]byte, error)
	// MaxModelBytes bounds the model file (-max-model-bytes); default a
	// quarter of the memory the process may use: the Go runtime's memory
	// limit (GOMEMLIMIT) if set, else the cgroup's memory limit
	// (memory.max, or memory.limit_in_bytes in cgroup v1) if readable,
	// else the physical memory (on Linux; elsewhere 4 GiB is assumed).
	MaxModelBytes int64
	// MaxBodyBytes bounds a request body (-max-body); default 64 MiB.
	MaxBodyBytes int64
	// MaxInflightBytes bounds the bytes that the requests in flight hold
	// together (-max-inflight-bytes): their bodies as they arrive, their
	// samples, labels and scores; default a quarter of the memory the
	// process may use (as for MaxModelBytes). A request that would take
	// the total over it is refused with 503 (or 413 if it alone needs
	// more).
	MaxInflightBytes int64
	// MaxScores bounds the decision values a request may ask for, rows ×
	// NumScores (-max-scores); default 1<<24 (16 Mi: the rows of the
	// largest default body of one feature, with one score each). A
	// request over it is refused with 413.
	MaxScores int64
	// MaxConns bounds the connections Run serves at once (-max-conns);
	// default 1024. Further connections wait in the listen backlog until
	// one closes.
	MaxConns int
	// Poll is the interval at which Watch looks at the model file;
	// default 1 s; negative: Watch does nothing (reload by Reload only).
	Poll time.Duration
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout are
	// HTTPServer's; defaults 5 s, 30 s, 30 s, 2 min.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds Run's graceful shutdown; default 10 s.
	ShutdownTimeout time.Duration
	// AllowModelChange lets a reload put in use a model whose input width,
	// labels (or their order) or kind differ from the model in use
	// (-allow-model-change). By default such a reload is refused: the
	// model in use stays, the refusal is logged, and /healthz says what
	// would have changed (lastReloadRefused), since the clients of the
	// model in use would get errors or other answers from the new one.
	AllowModelChange bool
	// MaxModels bounds the models a repository (NewRepository) serves
	// (-max-models); default 1024. The files beyond it, in name order,
	// are not loaded, and logged.
	MaxModels int
	// Logger receives reloads and their failures; default slog.Default().
	Logger *slog.Logger
	// Observer, if set, is told of every inference request (its model,
	// protocol, status and time), of the requests in flight and of every
	// reload's outcome: the hook for metrics (see Observer).
	Observer Observer
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() (Options, error) {
	def := func(p *time.Duration, d time.Duration) {
		if *p == 0 {
			*p = d
		}
	}
	for _, v := range []struct {
		name string
		d    time.Duration
	}{{"ReadHeaderTimeout", o.ReadHeaderTimeout}, {"ReadTimeout", o.ReadTimeout},
		{"WriteTimeout", o.WriteTimeout}, {"IdleTimeout", o.IdleTimeout}, {"ShutdownTimeout", o.ShutdownTimeout}} {
		if v.d < 0 {
			return o, fmt.Errorf("%w: %s = %v is negative", ErrOption, v.name, v.d)
		}
	}
	for _, v := range []struct {
		name string
		n    int64
		max  int64
	}{{"MaxBodyBytes", o.MaxBodyBytes, math.MaxInt / 8}, {"MaxModelBytes", o.MaxModelBytes, math.MaxInt - 1},
		{"MaxInflightBytes", o.MaxInflightBytes, math.MaxInt64 / 2}, {"MaxScores", o.MaxScores, math.MaxInt / 8},
		{"MaxConns", int64(o.MaxConns), math.MaxInt32}, {"MaxModels", int64(o.MaxModels), math.MaxInt32}} {
		if v.n < 0 || v.n > v.max {
			return o, fmt.Errorf("%w: %s = %d: negative, or more than this platform holds", ErrOption, v.name, v.n)
		}
	}
	def(&o.Poll, time.Second)
	def(&o.ReadHeaderTimeout, 5*time.Second)
	def(&o.ReadTimeout, 30*time.Second)
	def(&o.WriteTimeout, 30*time.Second)
	def(&o.IdleTimeout, 2*time.Minute)
	def(&o.ShutdownTimeout, 10*time.Second)
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = 64 << 20
	}
	if o.MaxModelBytes == 0 || o.MaxInflightBytes == 0 {
		mem, _ := memoryLimit()
		if o.MaxModelBytes == 0 {
			o.MaxModelBytes = min(max(mem/4, 1<<20), math.MaxInt-1)
		}
		if o.MaxInflightBytes == 0 {
			o.MaxInflightBytes = max(mem/4, 1<<20)
		}
	}
	if o.MaxScores == 0 {
		o.MaxScores = 1 << 24
	}
	if o.MaxConns == 0 {
		o.MaxConns = 1024
	}
	if o.MaxModels == 0 {
		o.MaxModels = 1024
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o, nil
}

// MemoryLimit returns the memory this process may use, in bytes, and where
// the figure comes from: the Go runtime's memory limit (GOMEMLIMIT or
// debug.SetMemoryLimit) if one is set; else the memory limit of the
// process's cgroup (v2 memory.max, v1 memory.limit_in_bytes) if one is
// readable and below the physical memory; else the physical memory (read
// on Linux; elsewhere 4 GiB is assumed). Options.MaxModelBytes and
// Options.MaxInflightBytes default to a quarter of it.
func MemoryLimit() (bytes int64, source string) { return memoryLimit() }

// Options returns the options the server runs with, defaults filled in.
func (s *Server) Options() Options { return s.opt }

// errReplaced reports a model file replaced between its stat and its
// open; the next look tries again.
var errReplaced = errors.New("replaced while it was being opened")

// readModel reads the model file at path as Options.ReadFile describes.
func readModel(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkModelFile(path, fi, limit); err != nil {
		return nil, err
	}
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ofi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(fi, ofi) {
		return nil, fmt.Errorf("%s: %w", path, errReplaced)
	}
	if err := checkModelFile(path, ofi, limit); err != nil {
		return nil, err
	}
	// The size stat gave, and one byte to tell a file that grew; more
	// only as it arrives, up to one byte past the limit.
	data := make([]byte, 0, min(ofi.Size()+1, limit+1))
	r := io.LimitReader(f, limit+1)
	for {
		if len(data) == cap(data) {
			data = slices.Grow(data, min(max(len(data), 4096), int(limit+1)-len(data)))
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s grew while it was read: more than %d bytes, the limit (-max-model-bytes)", path, limit)
	}
	return data, nil
}

// checkModelFile refuses a file that is not a regular one or has more
// than limit bytes.
func checkModelFile(path string, fi os.FileInfo, limit int64) error {
	if m := fi.Mode(); !m.IsRegular() {
		kind := "not a regular file"
		switch {
		case m.IsDir():
			kind = "a directory"
		case m&os.ModeNamedPipe != 0:
			kind = "a FIFO"
		case m&os.ModeSocket != 0:
			kind = "a socket"
		case m&os.ModeDevice != 0:
			kind = "a device"
		}
		return fmt.Errorf("%s is %s, not a regular file: refused unread", path, kind)
	}
	if fi.Size() > limit {
		return fmt.Errorf("%s has %d bytes, more than %d bytes, the limit (-max-model-bytes)", path, fi.Size(), limit)
	}
	return nil
}

// transient reports whether err may go away by itself (too many open
// files, a permission being fixed, an interrupted call, a file replaced
// while it was opened): such a read is retried, and not taken as the
// file's content.
func transient(err error) bool {
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, os.ErrPermission, syscall.EAGAIN, syscall.EINTR, errReplaced} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// retryDelays are the pauses before the reads that follow a transient
// error, within one reload.
var retryDelays = []time.Duration{10 * time.Millisecond, 40 * time.Millisecond, 160 * time.Millisecond}

// loaded is a model in use, with what the handler needs of it computed
// once.
type loaded struct {
	name    string   // the name it is served under
	version string   // first 16 hex digits of the file's SHA-256
	hdr     []string // {version}, for the response header
	sum     [sha256.Size]byte
	model   Model
	c32     Classifier[float32]
	c64     Classifier[float64]
	dims    int
	nscores int
	classes []int
	elem    int          // 4 or 8
	kind    string       // model.KindOf's name, "" for another package's model
	quant   bool         // int8 weights
	q       *quant.Model // the model, if it is a quant.Model: it takes INT8 and UINT8 data natively (datatypes.go)
	desc    string       // the model's String, if it has one
	at      time.Time

	// text is a text model's featurizer, inner model and label names
	// (text.go); nil for another model.
	text *textModel
}

// fileStat is what Watch compares to tell a changed file.
type fileStat struct {
	fi   os.FileInfo
	size int64
	mod  time.Time
}

// changed reports whether b differs from a.
func (a fileStat) changed(b fileStat) bool {
	if a.fi == nil || b.fi == nil {
		return a.fi != b.fi
	}
	return !os.SameFile(a.fi, b.fi) || a.size != b.size || !a.mod.Equal(b.mod)
}

// changes names what model b changes of model a that its clients would
// notice: the input width, the labels (or their order), the kind; "" if
// none.
func changes(a, b *loaded) string {
	var what []string
	if a.dims != b.dims {
		what = append(what, fmt.Sprintf("the input width from %d to %d", a.dims, b.dims))
	}
	if !slices.Equal(a.classes, b.classes) {
		what = append(what, fmt.Sprintf("the labels from %v to %v", a.classes, b.classes))
	}
	if a.kind != b.kind {
		what = append(what, fmt.Sprintf("the kind from %q to %q", a.kind, b.kind))
	}
	return strings.Join(what, ", ")
}

// newLoaded checks m and computes what the handler needs of it.
func newLoaded(m Model, sum [sha256.Size]byte) (*loaded, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: the decoder returned no model", ErrModel)
	}
	l := &loaded{sum: sum, model: m, at: time.Now()}
	l.version = hex.EncodeToString(sum[:8])
	l.hdr = []string{l.version}
	var served any = m
	if t, ok := m.(*model.Text); ok {
		// A text model answers text (text.go); binary requests go to
		// its inner model, of the featurized rows.
		l.text = newTextModel(t)
		served = l.text.inner()
	}
	switch c := served.(type) {
	case Classifier[float32]:
		l.c32, l.elem = c, 4
		if l.text == nil {
			l.q, _ = c.(*quant.Model)
		}
	case Classifier[float64]:
		l.c64, l.elem = c, 8
	default:
		return nil, fmt.Errorf("%w: %T is neither a Classifier[float32] nor a Classifier[float64]", ErrModel, m)
	}
	l.dims, l.nscores, l.classes = m.Dims(), m.NumScores(), m.Classes()
	if mm, ok := m.(model.Model); ok {
		l.desc = mm.String()
		if k := model.KindOf(mm); k != 0 {
			l.kind = k.String()
			l.quant = quantKind(k)
		}
		if t, ok := m.(*model.Text); ok {
			// A text model is as quantised as the model of its rows.
			l.quant = quantKind(model.KindOf(t.Inner()))
		}
	}
	if l.dims < 1 || l.nscores < 1 || len(l.classes) < 2 {
		return nil, fmt.Errorf("%w: %d features, %d scores, %d classes", ErrModel, l.dims, l.nscores, len(l.classes))
	}
	return l, nil
}

// quantKind reports a kind of int8 weights.
func quantKind(k model.Kind) bool { return k >= model.QuantBinary && k <= model.QuantArgmax }

// HTTPServer returns an http.Server for addr with the server as handler and
// the Options' timeouts. Its connections are not limited: Run limits them
// to Options.MaxConns.
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s,
		ReadHeaderTimeout: s.opt.ReadHeaderTimeout,
		ReadTimeout:       s.opt.ReadTimeout,
		WriteTimeout:      s.opt.WriteTimeout,
		IdleTimeout:       s.opt.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// Run serves on ln, at most Options.MaxConns connections at once, and
// watches the model file until ctx is done, then shuts down gracefully: it
// stops accepting, lets the requests in flight finish within
// Options.ShutdownTimeout, and returns as soon as none is in flight
// (closing idle connections and those that have sent no request). It returns nil after a clean
// shutdown.
func (s *Server) Run(ctx context.Context, ln net.Listener) error {
	hs := s.HTTPServer(ln.Addr().String())
	// The connections with a request in flight (being read, served or
	// answered: http.StateActive), for the shutdown below.
	var cmu sync.Mutex
	states := map[net.Conn]http.ConnState{}
	active := 0
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		cmu.Lock()
		defer cmu.Unlock()
		if states[c] == http.StateActive {
			active--
		}
		if st == http.StateActive {
			active++
		}
		if st == http.StateClosed || st == http.StateHijacked {
			delete(states, c)
		} else {
			states[c] = st
		}
	}
	idle := func() bool {
		cmu.Lock()
		defer cmu.Unlock()
		return active == 0
	}
	ln = limitListen(ln, s.opt.MaxConns)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go s.Watch(wctx)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.opt.ShutdownTimeout)
	defer cancel()
	hs.SetKeepAlivesEnabled(false)
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(sctx) }()
	// http.Server.Shutdown waits for connections that have sent no
	// request yet (up to 5 s) and looks at idle ones at growing
	// intervals: once no request is in flight, the rest are closed.
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	var err error
wait:
	for {
		select {
		case err = <-shut:
			break wait
		case <-t.C:
			if idle() {
				hs.Close()
				err = <-shut
				if errors.Is(err, http.ErrServerClosed) {
					err = nil
				}
				break wait
			}
		}
	}
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// ServeHTTP routes /predict, /healthz and the Open Inference Protocol's
// endpoints. /predict is matched first, without the ServeMux, whose
// pattern matching allocates.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.learn != nil && !s.learn.guard(w, r) {
		return
	}
	if p := r.URL.Path; p == "/predict" || strings.HasPrefix(p, "/predict/") {
		s.predict(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Info describes the model in use.
type Info struct {
	Version   string `json:"model"`     // first 16 hex digits of the file's SHA-256
	Dims      int    `json:"dims"`      // features per sample
	Classes   []int  `json:"classes"`   // labels
	NumScores int    `json:"numScores"` // decision values per sample
	Elem      string `json:"type"`      // the samples' element type: "float32" or "float64"
	// Kind names the model's kind in the module's table (model.Kind), e.g.
	// "binary int8 quantised linear model"; "" for a model of another
	// package.
	Kind string `json:"kind,omitempty"`
	// Quantised reports a model whose weights are int8 (it takes float32
	// samples, so Elem is "float32").
	Quantised bool `json:"quantised"`
	// Desc is the model's own one-line description (its String method),
	// if it has one.
	Desc     string    `json:"description,omitempty"`
	LoadedAt time.Time `json:"loadedAt"` // when it was loaded

	// Names are a text model's label names, in the order of Classes: the
	// labels it answers text with.
	Names []string `json:"names,omitempty"`
}

// versionOf is l's version, "" if l is nil.
func (l *loaded) versionOf() string {
	if l == nil {
		return ""
	}
	return l.version
}

// elemName is "float32" or "float64".
func (l *loaded) elemName() string {
	if l.elem == 8 {
		return "float64"
	}
	return "float32"
}
