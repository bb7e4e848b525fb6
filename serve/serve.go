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
	"sync"
	"sync/atomic"
	"time"

	"github.com/rosenblatt-go/rosenblatt/kernel"
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

// Classifier is a model of element type T: perceptron.Model[T],
// perceptron.KernelModel[T], svm.Model[T] and svm.LinearModel[T] are.
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
// messages).
type Decoder func(path string, data []byte) (Model, error)

// Options configure a Server. The zero value of a field selects its
// default.
type Options struct {
	// ReadFile reads the model file; default: os.ReadFile of a regular
	// file of at most MaxModelBytes.
	ReadFile func(path string) ([]byte, error)
	// MaxModelBytes bounds the default ReadFile; default 1 GiB.
	MaxModelBytes int64
	// MaxBodyBytes bounds a request body; default 64 MiB.
	MaxBodyBytes int64
	// Poll is the interval at which Watch looks at the model file;
	// default 1 s; negative: Watch does nothing (reload by Reload only).
	Poll time.Duration
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout are
	// HTTPServer's; defaults 5 s, 30 s, 30 s, 2 min.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds Run's graceful shutdown; default 10 s.
	ShutdownTimeout time.Duration
	// Logger receives reloads and their failures; default slog.Default().
	Logger *slog.Logger
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
	if o.MaxBodyBytes < 0 || o.MaxModelBytes < 0 || o.MaxBodyBytes > math.MaxInt/8 || o.MaxModelBytes > math.MaxInt-1 {
		return o, fmt.Errorf("%w: byte limits %d and %d: negative, or more than this platform holds", ErrOption, o.MaxBodyBytes, o.MaxModelBytes)
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
	if o.MaxModelBytes == 0 {
		o.MaxModelBytes = 1 << 30
	}
	if o.ReadFile == nil {
		o.ReadFile = readFile(o.MaxModelBytes)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o, nil
}

// readFile returns a reader of regular files of at most max bytes.
func readFile(max int64) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		data, err := io.ReadAll(io.LimitReader(f, max+1))
		if err != nil {
			return nil, err
		}
		if int64(len(data)) > max {
			return nil, fmt.Errorf("%s: more than %d bytes", path, max)
		}
		return data, nil
	}
}

// loaded is a model in use, with what the handler needs of it computed
// once.
type loaded struct {
	version string   // first 16 hex digits of the file's SHA-256
	hdr     []string // {version}, for the response header
	sum     [sha256.Size]byte
	model   Model
	c32     Classifier[float32]
	c64     Classifier[float64]
	dims    int
	nscores int
	classes []int
	elem    int // 4 or 8
	at      time.Time
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

// Server serves the predictions of the model in a file (see the package
// documentation). Its methods are safe for concurrent use.
type Server struct {
	path   string
	decode Decoder
	opt    Options
	log    *slog.Logger
	cur    atomic.Pointer[loaded]
	mux    *http.ServeMux
	pool   sync.Pool // of *buffers

	mu      sync.Mutex // serialises reloads; guards the fields below
	seen    fileStat   // the file's state at the last reload
	badSum  [sha256.Size]byte
	lastErr error

	// For /healthz, which must not wait for a reload in progress.
	reloads atomic.Int64           // models put in use after the first
	failure atomic.Pointer[string] // the last reload's error, nil after a success
}

// New reads and decodes the model file at path and returns a server of
// it. The first model must load: an error wraps ErrModel.
func New(path string, decode Decoder, opt Options) (*Server, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if decode == nil {
		return nil, fmt.Errorf("%w: no Decoder", ErrOption)
	}
	s := &Server{path: path, decode: decode, opt: opt, log: opt.Logger}
	s.pool.New = func() any { return new(buffers) }
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("/predict", s.predict)
	s.mux.HandleFunc("/healthz", s.healthz)
	if _, err := s.Reload(); err != nil {
		return nil, err
	}
	return s, nil
}

// Info describes the model in use.
type Info struct {
	Version   string    `json:"model"`     // first 16 hex digits of the file's SHA-256
	Dims      int       `json:"dims"`      // features per sample
	Classes   []int     `json:"classes"`   // labels
	NumScores int       `json:"numScores"` // decision values per sample
	Elem      string    `json:"type"`      // "float32" or "float64"
	LoadedAt  time.Time `json:"loadedAt"`  // when it was loaded
}

// Current describes the model in use.
func (s *Server) Current() Info {
	m := s.cur.Load()
	return Info{m.version, m.dims, slices.Clone(m.classes), m.nscores, m.elemName(), m.at}
}

// elemName is "float32" or "float64".
func (l *loaded) elemName() string {
	if l.elem == 8 {
		return "float64"
	}
	return "float32"
}

// Model returns the model in use and its version.
func (s *Server) Model() (Model, string) {
	m := s.cur.Load()
	return m.model, m.version
}

// stat returns the model file's state (the zero fileStat if it cannot be
// read).
func (s *Server) stat() fileStat {
	fi, err := os.Stat(s.path)
	if err != nil {
		return fileStat{}
	}
	return fileStat{fi, fi.Size(), fi.ModTime()}
}

// Reload reads the model file again and, if its bytes differ from the
// model in use and decode into a usable model, puts that model in use:
// requests that started before go on with the old one, those that start
// after use the new one. It reports whether the model changed. On an
// error (wrapping ErrModel) the current model stays in use and the error
// is logged, once per distinct bad file content.
func (s *Server) Reload() (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stat() // before reading: a change after it is seen next time
	s.seen = st
	cur := s.cur.Load()
	data, err := s.opt.ReadFile(s.path)
	if err != nil {
		return false, s.failed(fmt.Errorf("%w: %w", ErrModel, err), nil)
	}
	sum := sha256.Sum256(data)
	if cur != nil && sum == cur.sum {
		s.lastErr = nil
		s.failure.Store(nil)
		return false, nil
	}
	if sum == s.badSum && s.lastErr != nil {
		return false, s.lastErr // already logged
	}
	l, err := s.safeDecode(data, sum)
	if err == nil {
		if cur != nil {
			s.reloads.Add(1)
		}
		s.cur.Store(l)
		s.lastErr = nil
		s.failure.Store(nil)
		s.log.Info("serve: model loaded", "file", s.path, "model", l.version, "dims", l.dims,
			"classes", len(l.classes), "scores", l.nscores, "type", l.elemName())
		return true, nil
	}
	if !errors.Is(err, ErrModel) {
		err = fmt.Errorf("%w: %s: %w", ErrModel, s.path, err)
	}
	return false, s.failed(err, &sum)
}

// failed records and logs a failed reload (sum is the bad content's hash,
// nil if the file could not be read).
func (s *Server) failed(err error, sum *[sha256.Size]byte) error {
	if sum != nil {
		s.badSum = *sum
	}
	s.lastErr = err
	msg := err.Error()
	s.failure.Store(&msg)
	if cur := s.cur.Load(); cur != nil {
		s.log.Error("serve: model reload failed; keeping the model in use", "file", s.path, "model", cur.version, "err", err)
	}
	return err
}

// safeDecode decodes data (whose hash is sum) and checks the model, with a
// panic in the Decoder or the model's methods turned into an error: a bad
// file must not bring the server down.
func (s *Server) safeDecode(data []byte, sum [sha256.Size]byte) (l *loaded, err error) {
	defer func() {
		if p := recover(); p != nil {
			l, err = nil, fmt.Errorf("%w: %s: the decoder or the model panicked: %v", ErrModel, s.path, p)
		}
	}()
	m, err := s.decode(s.path, data)
	if err != nil {
		return nil, err
	}
	return newLoaded(m, sum)
}

// newLoaded checks m and computes what the handler needs of it.
func newLoaded(m Model, sum [sha256.Size]byte) (*loaded, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: the decoder returned no model", ErrModel)
	}
	l := &loaded{sum: sum, model: m, at: time.Now()}
	l.version = hex.EncodeToString(sum[:8])
	l.hdr = []string{l.version}
	switch c := m.(type) {
	case Classifier[float32]:
		l.c32, l.elem = c, 4
	case Classifier[float64]:
		l.c64, l.elem = c, 8
	default:
		return nil, fmt.Errorf("%w: %T is neither a Classifier[float32] nor a Classifier[float64]", ErrModel, m)
	}
	l.dims, l.nscores, l.classes = m.Dims(), m.NumScores(), m.Classes()
	if l.dims < 1 || l.nscores < 1 || len(l.classes) < 2 {
		return nil, fmt.Errorf("%w: %d features, %d scores, %d classes", ErrModel, l.dims, l.nscores, len(l.classes))
	}
	return l, nil
}

// Watch reloads the model whenever the file's size, modification time or
// identity (a file renamed over it) changes, looking every Options.Poll,
// until ctx is done. Replace a model file by renaming a complete one over
// it: a file caught half-written fails to decode and is retried when it
// changes again.
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
		s.mu.Lock()
		seen := s.seen
		s.mu.Unlock()
		if seen.changed(s.stat()) {
			s.Reload() // logs its error
		}
	}
}

// HTTPServer returns an http.Server for addr with the server as handler and
// the Options' timeouts.
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

// Run serves on ln and watches the model file until ctx is done, then
// shuts down gracefully: it stops accepting, lets the requests in flight
// finish within Options.ShutdownTimeout, and returns. It returns nil after
// a clean shutdown.
func (s *Server) Run(ctx context.Context, ln net.Listener) error {
	hs := s.HTTPServer(ln.Addr().String())
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
	err := hs.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// ServeHTTP routes /predict and /healthz.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}
