package serve

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/online"
)

// LearnOptions configure learning while serving (NewLearning).
type LearnOptions struct {
	// Dir is the learner's directory: its log, checkpoints and lock
	// (package online).
	Dir string
	// Online configures the learner: the sync policy, the checkpoints,
	// the idempotency window.
	Online online.Options
	// Token is the bearer token that opens the learning and admin
	// endpoints; "" keeps them closed (403).
	Token string
	// ProtectPredict asks the token of every request but the health
	// checks (/healthz, /v2/health/*).
	ProtectPredict bool
	// Rate bounds each client's (each remote IP address's) learning
	// requests per second, Burst at once (default: Rate, at least 1);
	// 0: no bound.
	Rate  float64
	Burst int
}

// learning is a Server's learning state (learn.go).
type learning struct {
	opt      LearnOptions
	path     string
	tokenSum [sha256.Size]byte
	l        learner // nil when the model cannot learn
	refuse   error   // why the model cannot learn; nil when it learns
	lim      *limiter
	adoptMu  sync.Mutex
}

// NewLearning is New with learning: the model file at path is served, and
// learnt online through POST /learn by a Learner of package online in
// lo.Dir, which the predictions read (see the package documentation,
// "Learning"). A model that cannot learn (a kernel, quantised, voted,
// SVM or text model, one that normalises its samples) is served and
// /learn refuses it (422), saying why. The directory's state learnt from
// another file than path's is refused (online.ErrBaseChanged) until
// adopted (lo.Online.Adopt, or POST /admin/model once serving).
func NewLearning(path string, lo LearnOptions, opt Options) (*Server, error) {
	s, err := newServer(nil, opt)
	if err != nil {
		return nil, err
	}
	if lo.Rate < 0 || lo.Burst < 0 || lo.Dir == "" {
		return nil, fmt.Errorf("%w: learning needs a directory, and a rate and burst that are not negative", ErrOption)
	}
	data, err := s.opt.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	m, err := s.decode(path, data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	lr := &learning{opt: lo, path: path}
	lr.tokenSum = sha256.Sum256([]byte(lo.Token))
	if lo.Rate > 0 {
		lr.lim = newLimiter(lo.Rate, lo.Burst)
	}
	sum := sha256.Sum256(data)
	if lo.Online.Logger == nil {
		lo.Online.Logger = s.log
	}
	switch mm := m.(type) {
	case *linear.Model[float32]:
		if lr.refuse = online.Supported(mm); lr.refuse == nil {
			lr.l, err = openLearner(lo.Dir, mm, sum, lo.Online)
		}
	case *linear.Model[float64]:
		if lr.refuse = online.Supported(mm); lr.refuse == nil {
			lr.l, err = openLearner(lo.Dir, mm, sum, lo.Online)
		}
	default:
		lr.refuse = online.Supported(m)
	}
	if err != nil {
		return nil, err
	}
	if lr.refuse != nil {
		s.log.Warn("serving without learning: the model cannot learn online", "file", path, "reason", lr.refuse)
	} else {
		// The file is served through the learner while its content is the
		// learner's base; another content is refused and the learnt model
		// kept, until POST /admin/model adopts it.
		s.decode = func(p string, data []byte) (Model, error) {
			if sha256.Sum256(data) == lr.base() {
				return lr.served(), nil
			}
			return nil, fmt.Errorf("%w: %s changed on disk while learning: the learnt model is kept (POST /admin/model adopts the new file, discarding what was learnt)", online.ErrBaseChanged, p)
		}
	}
	s.learn = lr
	s.mux.HandleFunc("/learn", s.serveLearn)
	s.mux.HandleFunc("/learn/status", s.learnStatus)
	s.mux.HandleFunc("/admin/checkpoint", s.adminCheckpoint)
	s.mux.HandleFunc("/admin/model", s.adminModel)
	sl := &slot{path: path, name: ModelName(path)}
	s.set.Store(newSet(map[string]*slot{sl.name: sl}))
	if _, err := s.reloadOne(sl); err != nil {
		lr.close()
		return nil, err
	}
	return s, nil
}

// learner is an online.Learner of either precision. The server holds its
// learner through this interface, not as a field of a generic type: Go
// compiles a generic type's methods (and all they reach) again in every
// package that needs the type, and a *Server field of type
// *online.Learner[float32] would make every package using *Server compile
// the learners, their models and their training. Behind an interface they
// are compiled once, here.
type learner interface {
	Model
	Base() [32]byte
	Status() online.Status
	Checkpoint() error
	Close() error
	// adopt is online.Learner.Adopt for a model of the learner's precision
	// (online.ErrIncompatible for the other one).
	adopt(m model.Model, sum [32]byte) error
	// learnJSON answers a /learn request (learnJSON).
	learnJSON(s *Server, w http.ResponseWriter, body io.Reader, hdrKey string, b *buffers) *httpError
}

// learnerOf is the learner of an *online.Learner[T].
type learnerOf[T kernel.Float] struct {
	*online.Learner[T]
}

func openLearner[T kernel.Float](dir string, m *linear.Model[T], sum [32]byte, opt online.Options) (learner, error) {
	l, err := online.Open(dir, m, sum, opt)
	if err != nil {
		return nil, err
	}
	return learnerOf[T]{l}, nil
}

func (l learnerOf[T]) adopt(m model.Model, sum [32]byte) error {
	mm, ok := m.(*linear.Model[T])
	if !ok {
		var zero T
		other := "float64"
		if _, f64 := any(zero).(float64); f64 {
			other = "float32"
		}
		return fmt.Errorf("%w: a %s model for a %T learner", online.ErrIncompatible, other, zero)
	}
	return l.Adopt(mm, sum)
}

func (l learnerOf[T]) learnJSON(s *Server, w http.ResponseWriter, body io.Reader, hdrKey string, b *buffers) *httpError {
	return learnJSON(s, w, body, hdrKey, l.Learner, b)
}

func (lr *learning) base() [32]byte { return lr.l.Base() }

func (lr *learning) served() Model { return lr.l }

func (lr *learning) status() online.Status { return lr.l.Status() }

func (lr *learning) close() error {
	if lr.l == nil {
		return nil
	}
	return lr.l.Close()
}

// CloseLearning stops a learning server's learner (a checkpoint, the log
// synced, the directory released); call it after Run returns. It does
// nothing for a server without learning.
func (s *Server) CloseLearning() error {
	if s.learn == nil {
		return nil
	}
	return s.learn.close()
}

// PredictionsProtected reports whether predictions need the bearer token
// (LearnOptions.ProtectPredict). Only the HTTP handler checks it: a
// server that also serves predictions another way must not then.
func (s *Server) PredictionsProtected() bool {
	return s.learn != nil && s.learn.opt.ProtectPredict
}

// LearnStatus returns the learner's status; ok is false without learning.
func (s *Server) LearnStatus() (st online.Status, ok bool) {
	if s.learn == nil || s.learn.refuse != nil {
		return st, false
	}
	return s.learn.status(), true
}

var wwwAuth = []string{`Bearer realm="rosenblatt"`}

// authorize checks r's bearer token: nil if it is the server's (compared
// as SHA-256 digests, in constant time), else the refusal.
func (lr *learning) authorize(w http.ResponseWriter, r *http.Request) *httpError {
	if lr.opt.Token == "" {
		return bad(http.StatusForbidden, "%s is closed: the server has no credential (rosenblatt serve -token-file FILE, or ROSENBLATT_TOKEN)", r.URL.Path)
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	got := sha256.Sum256([]byte(tok))
	if subtle.ConstantTimeCompare(got[:], lr.tokenSum[:]) != 1 || !ok {
		w.Header()["WWW-Authenticate"] = wwwAuth
		return bad(http.StatusUnauthorized, "%s needs the server's bearer token (Authorization: Bearer TOKEN)", r.URL.Path)
	}
	return nil
}

// guard refuses a request without the token when predictions are
// protected; it reports whether r may go on.
func (lr *learning) guard(w http.ResponseWriter, r *http.Request) bool {
	if !lr.opt.ProtectPredict {
		return true
	}
	p := r.URL.Path
	if p == "/healthz" || strings.HasPrefix(p, "/v2/health/") || p == "/learn" || strings.HasPrefix(p, "/learn/") || strings.HasPrefix(p, "/admin/") {
		return true // health is open; learning and admin check for themselves
	}
	if e := lr.authorize(w, r); e != nil {
		fail(w, e)
		return false
	}
	return true
}

// open runs the checks every learning and admin request passes: the
// method, the token, and that the model learns.
func (s *Server) learnOpen(w http.ResponseWriter, r *http.Request, method string) *httpError {
	lr := s.learn
	if r.Method != method {
		w.Header()["Allow"] = []string{method}
		return bad(http.StatusMethodNotAllowed, "%s %s: use %s", r.Method, r.URL.Path, method)
	}
	if e := lr.authorize(w, r); e != nil {
		return e
	}
	if lr.refuse != nil {
		return bad(http.StatusUnprocessableEntity, "this model does not learn online: %v", lr.refuse)
	}
	return nil
}

// serveLearn is POST /learn.
func (s *Server) serveLearn(w http.ResponseWriter, r *http.Request) {
	e := s.learnOpen(w, r, http.MethodPost)
	if e == nil && s.learn.lim != nil && !s.learn.lim.allow(clientOf(r), time.Now()) {
		w.Header()["Retry-After"] = retryAfter
		e = bad(http.StatusTooManyRequests, "over this client's learning rate of %g requests a second (-learn-rate)", s.learn.opt.Rate)
	}
	if e == nil {
		if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
			e = bad(http.StatusUnsupportedMediaType, "Content-Type %q: /learn takes application/json", ct)
		} else if r.ContentLength > s.opt.MaxBodyBytes {
			w.Header()["Connection"] = connClose
			e = bad(http.StatusRequestEntityTooLarge, "request body of %d bytes (Content-Length) over the limit of %d bytes (-max-body)", r.ContentLength, s.opt.MaxBodyBytes)
		}
	}
	if e == nil {
		body := http.MaxBytesReader(w, r.Body, s.opt.MaxBodyBytes)
		key := r.Header.Get("Idempotency-Key")
		b := s.pool.Get().(*buffers)
		e = s.learn.l.learnJSON(s, w, body, key, b)
		s.put(b)
	}
	if e != nil {
		fail(w, e)
	}
}

// clientOf is the client a rate applies to: the remote IP address.
func clientOf(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// learnJSON reads a /learn request and answers it:
//
//	{"key": "k", "x": [...], "y": 1}                       one dense sample
//	{"key": "k", "idx": [3, 17], "x": [0.5, 1], "y": 1}     one sparse sample
//	{"key": "k", "samples": [{"x": [...], "y": 1}, {"idx": [...], "x": [...], "y": -1}]}
func learnJSON[T kernel.Float](s *Server, w http.ResponseWriter, body io.Reader, hdrKey string, l *online.Learner[T], b *buffers) *httpError {
	if len(b.scan) != scanBuffer {
		b.scan = make([]byte, scanBuffer)
	}
	sc := &b.sc
	sc.reset(body, b.scan)
	d := l.Dims()
	key := hdrKey
	var samples []online.Sample[T]
	var top online.Sample[T]
	var topSeen uint8
	haveSamples, haveKey := false, false
	e := scanObject(s, sc, `{"key": ..., "x": [...], "y": ...} or {"key": ..., "samples": [...]}`, func(name string) *httpError {
		switch name {
		case "key":
			if haveKey {
				return bad(http.StatusBadRequest, `bad JSON: "key" is repeated`)
			}
			haveKey = true
			k, e := scanKey(s, sc)
			if e != nil {
				return e
			}
			if hdrKey != "" && k != hdrKey {
				return bad(http.StatusBadRequest, `"key" and the Idempotency-Key header differ`)
			}
			key = k
			return nil
		case "samples":
			if haveSamples {
				return bad(http.StatusBadRequest, `bad JSON: "samples" is repeated`)
			}
			haveSamples = true
			return scanArray(s, sc, `"samples"`, func(i int) *httpError {
				if i >= s.learn.maxSamples() {
					return bad(http.StatusRequestEntityTooLarge, "more than %d samples in a request", s.learn.maxSamples())
				}
				var x online.Sample[T]
				var seen uint8
				e := scanObject(s, sc, `a sample {"x": [...], "y": ...}`, func(name string) *httpError {
					return sampleField(s, sc, name, &x, &seen, d, i)
				})
				if e != nil {
					return e
				}
				if e := sampleDone(&x, seen, i); e != nil {
					return e
				}
				samples = append(samples, x)
				return nil
			})
		case "x", "idx", "y":
			return sampleField(s, sc, name, &top, &topSeen, d, 0)
		}
		return bad(http.StatusBadRequest, `bad JSON: unknown field %q (want "key", "samples", or "x", "idx" and "y")`, name)
	})
	if e != nil {
		return e
	}
	if c, ok := sc.peek(); ok {
		return bad(http.StatusBadRequest, "bad JSON at byte %d: %s after the request", sc.pos(), charName(c))
	} else if sc.err != nil {
		return bodyError(sc.err, s.opt.MaxBodyBytes, "reading the request")
	}
	switch {
	case haveSamples && topSeen != 0:
		return bad(http.StatusBadRequest, `a request has "samples" or one sample ("x", "y"), not both`)
	case !haveSamples:
		if topSeen == 0 {
			return bad(http.StatusBadRequest, `a request needs "samples" or one sample ("x", "y")`)
		}
		if e := sampleDone(&top, topSeen, 0); e != nil {
			return e
		}
		samples = []online.Sample[T]{top}
	case len(samples) == 0:
		return bad(http.StatusBadRequest, `"samples" is empty`)
	}
	res, err := l.Learn(key, samples)
	if err != nil {
		switch {
		case errors.Is(err, online.ErrInput):
			return bad(http.StatusBadRequest, "%v", err)
		case errors.Is(err, online.ErrDiverged):
			return bad(http.StatusUnprocessableEntity, "%v", err)
		case errors.Is(err, online.ErrClosed):
			return bad(http.StatusServiceUnavailable, "%v", err)
		}
		s.log.Error("learn", "err", err)
		return bad(http.StatusInternalServerError, "learning failed; see the server log")
	}
	out := append(b.out[:0], `{"version":`...)
	out = strconv.AppendUint(out, res.Version, 10)
	base := l.Base()
	out = append(out, `,"model":"`...)
	out = hex.AppendEncode(out, base[:8])
	out = append(out, `","duplicate":`...)
	out = strconv.AppendBool(out, res.Duplicate)
	out = append(out, `,"mistakes":`...)
	out = strconv.AppendInt(out, int64(res.Mistakes), 10)
	if res.Predicted != nil {
		out = append(out, `,"predicted":[`...)
		for i, p := range res.Predicted {
			if i > 0 {
				out = append(out, ',')
			}
			out = strconv.AppendInt(out, int64(p), 10)
		}
		out = append(out, ']')
	}
	out = append(out, "}\n"...)
	b.out = out
	h := w.Header()
	h["Content-Type"] = ctJSON
	w.Write(out)
	return nil
}

func (lr *learning) maxSamples() int {
	if lr.opt.Online.MaxSamples > 0 {
		return lr.opt.Online.MaxSamples
	}
	return 1 << 16
}

// The fields of a sample, as bits of the fields seen.
const (
	seenX uint8 = 1 << iota
	seenIdx
	seenY
)

// sampleDone checks that a sample has its values and label (seen: the
// fields read).
func sampleDone[T kernel.Float](x *online.Sample[T], seen uint8, i int) *httpError {
	if seen&seenX == 0 {
		return bad(http.StatusBadRequest, `sample %d has no "x"`, i)
	}
	if seen&seenY == 0 {
		return bad(http.StatusBadRequest, `sample %d has no "y"`, i)
	}
	if x.Idx != nil && len(x.Idx) != len(x.X) {
		return bad(http.StatusBadRequest, `sample %d has %d columns ("idx") and %d values ("x")`, i, len(x.Idx), len(x.X))
	}
	return nil
}

// sampleField reads field name of sample i into x, noting it in seen.
func sampleField[T kernel.Float](s *Server, sc *scanner, name string, x *online.Sample[T], seen *uint8, d, i int) *httpError {
	var bit uint8
	switch name {
	case "x":
		bit = seenX
	case "idx":
		bit = seenIdx
	case "y":
		bit = seenY
	}
	if *seen&bit != 0 {
		return bad(http.StatusBadRequest, `bad JSON: sample %d: %q is repeated`, i, name)
	}
	*seen |= bit
	switch name {
	case "x":
		v, e := scanNumbers(s, sc, d, i, 8*unsafe.Sizeof(T(0)) == 32)
		if e != nil {
			return e
		}
		x.X = make([]T, len(v))
		for j, f := range v {
			x.X[j] = T(f)
		}
	case "idx":
		v, e := scanNumbers(s, sc, d, i, false)
		if e != nil {
			return e
		}
		x.Idx = make([]int32, len(v))
		for j, f := range v {
			if f != math.Trunc(f) || f < 0 || f >= float64(d) {
				return bad(http.StatusBadRequest, `sample %d: column %v of "idx" is not an integer in [0, %d)`, i, f, d)
			}
			x.Idx[j] = int32(f)
		}
	case "y":
		c, ok := sc.peek()
		if !ok {
			return sc.ended(s)
		}
		if c != '-' && (c < '0' || c > '9') {
			return bad(http.StatusBadRequest, `bad JSON: sample %d: "y" is %s, not an integer label`, i, kindOf(c))
		}
		f, e := sc.number(i, 0, 64)
		if e != nil {
			return e
		}
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return bad(http.StatusBadRequest, `sample %d: "y" = %v is not an integer label`, i, f)
		}
		x.Y = int(f)
	default:
		return bad(http.StatusBadRequest, `bad JSON: sample %d: unknown field %q (want "x", "idx", "y")`, i, name)
	}
	return nil
}

// scanNumbers reads a JSON array of at most max numbers (of sample i).
func scanNumbers(s *Server, sc *scanner, max, i int, f32 bool) ([]float64, *httpError) {
	c, ok := sc.peek()
	if !ok {
		return nil, sc.ended(s)
	}
	if c != '[' {
		return nil, bad(http.StatusBadRequest, "bad JSON: sample %d: %s where an array of numbers was expected", i, kindOf(c))
	}
	sc.i++
	bits := 64
	if f32 {
		bits = 32
	}
	out := []float64{}
	if c, ok = sc.peek(); ok && c == ']' {
		sc.i++
		return out, nil
	}
	for j := 0; ; j++ {
		if !ok {
			return nil, sc.ended(s)
		}
		switch {
		case c == '-' || c >= '0' && c <= '9':
		case c == 'n':
			return nil, isNull(i, j)
		case c == 'N':
			return nil, nonNumber(i, j, "NaN")
		case c == 'I':
			return nil, nonNumber(i, j, "Infinity")
		default:
			return nil, bad(http.StatusBadRequest, "bad JSON: sample %d, value %d is %s, not a number", i, j, kindOf(c))
		}
		if j >= max {
			return nil, bad(http.StatusBadRequest, "sample %d has more than %d values, the model's features", i, max)
		}
		f, e := sc.number(i, j, bits)
		if e != nil {
			return nil, e
		}
		out = append(out, f)
		if end, e := sc.separator(s, ']'); e != nil {
			return nil, e
		} else if end {
			return out, nil
		}
		c, ok = sc.peek()
	}
}

// scanKey reads an idempotency key: a JSON string of printable ASCII
// without escapes, of at most online.MaxKeyBytes bytes.
func scanKey(s *Server, sc *scanner) (string, *httpError) {
	c, ok := sc.peek()
	if !ok {
		return "", sc.ended(s)
	}
	if c != '"' {
		return "", bad(http.StatusBadRequest, `bad JSON: "key" is %s, not a string`, kindOf(c))
	}
	sc.i++
	k := sc.token(func(c byte) bool { return c != '"' && c != '\\' && c >= ' ' && c < 0x7f })
	if k == nil || len(k) > online.MaxKeyBytes {
		return "", bad(http.StatusBadRequest, `"key" is longer than %d bytes`, online.MaxKeyBytes)
	}
	key := string(k)
	if c, ok = sc.peek(); !ok {
		return "", sc.ended(s)
	} else if c != '"' {
		return "", bad(http.StatusBadRequest, `bad JSON at byte %d: "key" holds an escape or a byte outside printable ASCII`, sc.pos())
	}
	sc.i++
	return key, nil
}

// scanObject reads a JSON object, calling field for each field name (the
// scanner then at its value); after the last, the body must end if the
// object is the request (what names it in messages).
func scanObject(s *Server, sc *scanner, what string, field func(name string) *httpError) *httpError {
	c, ok := sc.peek()
	if !ok {
		return sc.ended(s)
	}
	if c != '{' {
		return bad(http.StatusBadRequest, "bad JSON: %s where %s was expected", kindOf(c), what)
	}
	sc.i++
	if c, ok = sc.peek(); ok && c == '}' {
		sc.i++
		return nil
	}
	for {
		name, e := sc.key(s)
		if e != nil {
			return e
		}
		if e := field(string(name)); e != nil {
			return e
		}
		if end, e := sc.separator(s, '}'); end || e != nil {
			return e
		}
	}
}

// separator reads the ',' between two elements of an array or object,
// or its closing byte (end true).
func (sc *scanner) separator(s *Server, closing byte) (end bool, e *httpError) {
	c, ok := sc.peek()
	if !ok {
		return false, sc.ended(s)
	}
	sc.i++
	switch c {
	case closing:
		return true, nil
	case ',':
		return false, nil
	}
	sc.i--
	return false, sc.unexpected(c, "',' or '"+string(closing)+"'")
}

// scanArray reads a JSON array, calling each for its elements.
func scanArray(s *Server, sc *scanner, what string, each func(i int) *httpError) *httpError {
	c, ok := sc.peek()
	if !ok {
		return sc.ended(s)
	}
	if c != '[' {
		return bad(http.StatusBadRequest, "bad JSON: %s is %s, not an array", what, kindOf(c))
	}
	sc.i++
	if c, ok = sc.peek(); ok && c == ']' {
		sc.i++
		return nil
	}
	for i := 0; ; i++ {
		if e := each(i); e != nil {
			return e
		}
		if end, e := sc.separator(s, ']'); end || e != nil {
			return e
		}
	}
}

// learnStatus is GET /learn/status.
func (s *Server) learnStatus(w http.ResponseWriter, r *http.Request) {
	if e := s.learnOpen(w, r, http.MethodGet); e != nil {
		fail(w, e)
		return
	}
	writeJSON(w, http.StatusOK, s.learn.status())
}

// adminCheckpoint is POST /admin/checkpoint.
func (s *Server) adminCheckpoint(w http.ResponseWriter, r *http.Request) {
	if e := s.learnOpen(w, r, http.MethodPost); e != nil {
		fail(w, e)
		return
	}
	lr := s.learn
	if err := lr.l.Checkpoint(); err != nil {
		s.log.Error("checkpoint", "err", err)
		fail(w, bad(http.StatusInternalServerError, "the checkpoint failed; see the server log"))
		return
	}
	st := lr.status()
	writeJSON(w, http.StatusOK, map[string]any{"checkpoint": st.Checkpoint})
}

// adminModel is POST /admin/model: the model file now on disk becomes the
// learner's base (online.Learner.Adopt), discarding what was learnt.
func (s *Server) adminModel(w http.ResponseWriter, r *http.Request) {
	if e := s.learnOpen(w, r, http.MethodPost); e != nil {
		fail(w, e)
		return
	}
	lr := s.learn
	lr.adoptMu.Lock()
	defer lr.adoptMu.Unlock()
	data, err := s.opt.ReadFile(lr.path)
	if err != nil {
		s.log.Error("adopt: reading the model file", "err", err)
		fail(w, bad(http.StatusUnprocessableEntity, "the model file does not read; see the server log"))
		return
	}
	sum := sha256.Sum256(data)
	if sum == lr.base() {
		writeJSON(w, http.StatusOK, map[string]any{"adopted": false, "model": hex.EncodeToString(sum[:8]), "reason": "the file is the model's base already"})
		return
	}
	m, err := model.Unmarshal(data)
	if err == nil {
		switch m.(type) {
		case *linear.Model[float32], *linear.Model[float64]:
			err = lr.l.adopt(m, sum)
		default:
			err = online.Supported(m)
		}
	}
	if err != nil {
		fail(w, bad(http.StatusUnprocessableEntity, "the model file cannot be adopted: %v", err))
		return
	}
	s.log.Info("adopted the model file: learning starts again from it", "file", lr.path, "model", hex.EncodeToString(sum[:8]))
	s.Reload()
	writeJSON(w, http.StatusOK, map[string]any{"adopted": true, "model": hex.EncodeToString(sum[:8]), "version": lr.status().Version})
}

// limiter is a token bucket per client.
type limiter struct {
	mu    sync.Mutex
	rate  float64
	burst float64
	m     map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	b := float64(burst)
	if b == 0 {
		b = max(rate, 1)
	}
	return &limiter{rate: rate, burst: b, m: map[string]*bucket{}}
}

// maxClients bounds the buckets kept; past it, the full ones are dropped.
const maxClients = 1 << 16

func (l *limiter) allow(client string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.m[client]
	if b == nil {
		if len(l.m) >= maxClients {
			for k, v := range l.m {
				if v.tokens+now.Sub(v.at).Seconds()*l.rate >= l.burst {
					delete(l.m, k)
				}
			}
			if len(l.m) >= maxClients {
				return false
			}
		}
		b = &bucket{tokens: l.burst, at: now}
		l.m[client] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
