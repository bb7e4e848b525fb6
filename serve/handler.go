package serve

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The binary format's constants (see the package documentation).
const (
	requestMagic  = "RBRQ"
	responseMagic = "RBRS"
	headerSize    = 16
	flagScores    = 1
)

// Response headers, shared so that setting them allocates nothing.
var (
	hdrVersion = http.CanonicalHeaderKey("X-Model-Version")
	ctBinary   = []string{"application/octet-stream"}
	ctJSON     = []string{"application/json"}
	ctText     = []string{"text/plain; charset=utf-8"}
	nosniff    = []string{"nosniff"}
	allowPost  = []string{"POST"}
	allowGet   = []string{"GET, HEAD"}
	retryAfter = []string{"1"}
	connClose  = []string{"close"}
)

var le = binary.LittleEndian

// maxPooled bounds the buffers a request returns to the pool, so that one
// large batch does not keep its memory for ever.
const maxPooled = 4 << 20

// Reading and writing sizes: a binary body is read into memory that grows
// from firstChunk by doubling, as its bytes arrive; responses go out
// through a writer of writeBuffer bytes.
const (
	firstChunk  = 64 << 10
	writeBuffer = 16 << 10
)

// buffers is one request's reusable memory. Every use writes what it reads
// first (or clears it): nothing a request reads comes from the request
// that used the buffers before.
type buffers struct {
	head   [headerSize]byte
	body   []byte    // a binary request's values, as they arrived
	x32    []float32 // the samples, in the model's type
	x64    []float64
	u8     []uint8   // integer samples for a quantised model (datatypes.go)
	r32    []float32 // one JSON row
	r64    []float64
	scan   []byte  // the JSON scanner's buffer, scanBuffer bytes
	sc     scanner // the JSON scanner
	id     []byte  // an inference request's id
	labels []int
	s32    []float32 // scores
	s64    []float64
	out    []byte // a piece of the response, on its way to bw
	bw     *bufio.Writer
	h      hold
	txt    textBuffers // a text model's documents and featurizing (text.go)
}

// done ends a request's use of b: what it held of the budget is given
// back, and b keeps no reference to the request.
func (b *buffers) done() {
	b.h.release()
	b.sc = scanner{}
	b.txt.done()
	if b.bw != nil {
		b.bw.Reset(nil)
	}
}

// put returns b to the pool unless it has grown large.
func (s *Server) put(b *buffers) {
	b.done()
	if cap(b.body) > maxPooled || cap(b.out) > maxPooled || cap(b.u8) > maxPooled || b.txt.large() || 8*(cap(b.x64)+cap(b.s64)+cap(b.r64)+cap(b.labels)) > maxPooled ||
		4*(cap(b.x32)+cap(b.s32)+cap(b.r32)) > maxPooled {
		return
	}
	s.pool.Put(b)
}

// writer returns b's response writer, writing to w.
func (b *buffers) writer(w io.Writer) *bufio.Writer {
	if b.bw == nil {
		b.bw = bufio.NewWriterSize(w, writeBuffer)
	} else {
		b.bw.Reset(w)
	}
	return b.bw
}

// hold is what one request holds of the server's in-flight budget
// (Options.MaxInflightBytes).
type hold struct {
	s *Server
	n int64
}

// take adds n bytes to what the request holds, or refuses the request if
// that would take the requests in flight over the budget: 413 if the
// request alone would, 503 otherwise.
func (h *hold) take(n int64) *httpError {
	if n <= 0 {
		return nil
	}
	s := h.s
	budget := s.opt.MaxInflightBytes
	if h.n+n > budget {
		return bad(http.StatusRequestEntityTooLarge, "the request needs %s, more than the server's in-flight budget of %s (-max-inflight-bytes)",
			fmtBytes(h.n+n), fmtBytes(budget))
	}
	for {
		cur := s.inflight.Load()
		if cur+n > budget {
			return bad(http.StatusServiceUnavailable, "the request would hold %s, with %s held by the other requests in flight: over the server's in-flight budget of %s (-max-inflight-bytes); retry later",
				fmtBytes(h.n+n), fmtBytes(cur-h.n), fmtBytes(budget))
		}
		if s.inflight.CompareAndSwap(cur, cur+n) {
			h.n += n
			for p := s.peak.Load(); cur+n > p && !s.peak.CompareAndSwap(p, cur+n); p = s.peak.Load() {
			}
			return nil
		}
	}
}

// release gives back what the request holds.
func (h *hold) release() {
	if h.s != nil && h.n != 0 {
		h.s.inflight.Add(-h.n)
	}
	*h = hold{}
}

// fmtBytes formats n bytes for a message: "300 MiB", "4096 bytes".
func fmtBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1<<10 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	v, u := float64(n)/1024, 0
	for ; v >= 1024 && u < len(units)-1; u++ {
		v /= 1024
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + units[u:u+1] + "iB"
}

// pick returns whichever of p32 and p64 holds T: one of a request's
// buffers in the model's element type.
func pick[T kernel.Float](p32 *[]float32, p64 *[]float64) *[]T {
	if p, ok := any(p32).(*[]T); ok {
		return p
	}
	return any(p64).(*[]T)
}

// grow sets *p to a slice of length n, reusing its memory when it can.
func grow[E any](p *[]E, n int) []E {
	if cap(*p) < n {
		*p = make([]E, n)
	}
	*p = (*p)[:n]
	return *p
}

// httpError is a request's failure: its status and message.
type httpError struct {
	code int
	msg  string
}

func bad(code int, f string, a ...any) *httpError {
	return &httpError{code, fmt.Sprintf(f, a...)}
}

// fail writes e as a one-line text response.
func fail(w http.ResponseWriter, e *httpError) {
	h := w.Header()
	h["Content-Type"] = ctText
	h["X-Content-Type-Options"] = nosniff
	if e.code == http.StatusServiceUnavailable {
		h["Retry-After"] = retryAfter
	}
	w.WriteHeader(e.code)
	io.WriteString(w, e.msg+"\n")
}

// bodyError turns an error reading the body into a response.
func bodyError(err error, limit int64, what string) *httpError {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return bad(http.StatusRequestEntityTooLarge, "request body over the limit of %d bytes (-max-body)", limit)
	}
	return bad(http.StatusBadRequest, "%s: %v", what, err)
}

// tooManyScores refuses n rows of k scores each if they make more than the
// server's limit.
func (s *Server) tooManyScores(n, k int64) *httpError {
	if n*k <= s.opt.MaxScores {
		return nil
	}
	return bad(http.StatusRequestEntityTooLarge, "%d rows × %d scores make %d decision values, over the limit of %d a request (-max-scores): send fewer rows, or ask without scores",
		n, k, n*k, s.opt.MaxScores)
}

// wantScores reports whether the raw query asks for scores (scores=1,
// scores=true or scores).
func wantScores(raw string) bool {
	for raw != "" {
		var kv string
		kv, raw, _ = strings.Cut(raw, "&")
		if kv == "scores" || kv == "scores=1" || kv == "scores=true" {
			return true
		}
	}
	return false
}

// predict is POST /predict, /predict/{name} and /predict?model={name}.
func (s *Server) predict(w http.ResponseWriter, r *http.Request) {
	m, e := s.lookup(predictName(r), "") // the one model this request uses
	ct := r.Header.Get("Content-Type")
	name := "" // a name the server does not have: not counted under it
	if m != nil {
		name = m.name
	}
	ob := s.observe(name, predictProtocol(ct))
	h := w.Header()
	if m != nil {
		h[hdrVersion] = m.hdr
	}
	switch {
	case r.Method != http.MethodPost:
		h["Allow"] = allowPost
		e = bad(http.StatusMethodNotAllowed, "%s %s: use POST", r.Method, r.URL.Path)
	case r.ContentLength > s.opt.MaxBodyBytes:
		// Refused from its header, unread; the connection is closed
		// rather than drained.
		h["Connection"] = connClose
		e = bad(http.StatusRequestEntityTooLarge, "request body of %d bytes (Content-Length) over the limit of %d bytes (-max-body)", r.ContentLength, s.opt.MaxBodyBytes)
	case e == nil:
		b := s.pool.Get().(*buffers)
		e = s.answer(w, r, ct, m, b)
		s.put(b)
	}
	if e != nil {
		fail(w, e)
	}
	ob.end(status(e))
}

// predictName is the model a /predict request names: /predict/{name}, or
// the query's model={name}; "" if none.
func predictName(r *http.Request) string {
	if name, ok := strings.CutPrefix(r.URL.Path, "/predict/"); ok {
		return name
	}
	raw := r.URL.RawQuery
	for raw != "" {
		var kv string
		kv, raw, _ = strings.Cut(raw, "&")
		if v, ok := strings.CutPrefix(kv, "model="); ok {
			if name, err := url.QueryUnescape(v); err == nil {
				return name
			}
			return v
		}
	}
	return ""
}

// answer answers a POST /predict of Content-Type header value ct with
// model m and buffers b.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, ct string, m *loaded, b *buffers) *httpError {
	b.h = hold{s: s}
	body := http.MaxBytesReader(w, r.Body, s.opt.MaxBodyBytes)
	scores := wantScores(r.URL.RawQuery)
	ct, _, _ = strings.Cut(ct, ";")
	ct = strings.TrimSpace(ct)
	switch {
	case strings.EqualFold(ct, "application/octet-stream"):
		if m.c32 != nil {
			return serveBinary(s, w, body, m, m.c32, b, scores)
		}
		return serveBinary(s, w, body, m, m.c64, b, scores)
	case ct == "" || strings.EqualFold(ct, "application/json"):
		if m.text != nil {
			return serveText(s, w, body, m, b, scores)
		}
		if m.c32 != nil {
			return serveJSON(s, w, body, m, m.c32, b, scores)
		}
		return serveJSON(s, w, body, m, m.c64, b, scores)
	}
	hint := ""
	if strings.EqualFold(ct, "application/x-www-form-urlencoded") {
		hint = " (curl -d sends it: add -H 'Content-Type: application/json')"
	}
	return bad(http.StatusUnsupportedMediaType, "Content-Type %q: send application/json or application/octet-stream%s", ct, hint)
}

// readValues reads the want value bytes of a binary request into b.body,
// in memory that grows with what arrives (from firstChunk, doubling), each
// step taken from the in-flight budget before it is allocated: a header
// that declares more than is sent costs at most twice what was sent (and
// 64 KiB), not what it declares.
func readValues(s *Server, body io.Reader, b *buffers, want int) ([]byte, *httpError) {
	raw := b.body[:0]
	held := 0 // of raw's capacity, what the request holds
	for len(raw) < want {
		if len(raw) == held {
			next := min(want, max(2*held, firstChunk))
			if e := b.h.take(int64(next - held)); e != nil {
				return nil, e
			}
			held = next
			raw = slices.Grow(raw, held-len(raw))
			b.body = raw
		}
		k, err := body.Read(raw[len(raw):held])
		raw = raw[:len(raw)+k]
		if err == nil {
			continue
		}
		if len(raw) == want && err == io.EOF {
			break
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, bad(http.StatusBadRequest, "binary request truncated: %d value bytes, the header implies %d", len(raw), want)
		}
		return nil, bodyError(err, s.opt.MaxBodyBytes, "reading the request")
	}
	return raw, nil
}

// serveBinary answers a binary request.
func serveBinary[T kernel.Float](s *Server, w http.ResponseWriter, body io.Reader, m *loaded, c Classifier[T], b *buffers, scores bool) *httpError {
	limit := s.opt.MaxBodyBytes
	hd := b.head[:]
	if n, err := io.ReadFull(body, hd); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return bad(http.StatusBadRequest, "binary request of %d bytes, shorter than its %d-byte header", n, headerSize)
		}
		return bodyError(err, limit, "reading the request")
	}
	if string(hd[:4]) != requestMagic {
		return bad(http.StatusBadRequest, "binary request: magic %q, want %q", hd[:4], requestMagic)
	}
	size, flags := int(hd[4]), hd[5]
	if size != 4 && size != 8 {
		return bad(http.StatusBadRequest, "binary request: value size %d, want 4 (float32) or 8 (float64)", size)
	}
	if flags&^flagScores != 0 || hd[6] != 0 || hd[7] != 0 {
		return bad(http.StatusBadRequest, "binary request: unknown flags %#x or reserved bytes %d %d not 0", flags, hd[6], hd[7])
	}
	scores = scores || flags&flagScores != 0
	n, d := int64(le.Uint32(hd[8:])), int64(le.Uint32(hd[12:]))
	k := 0
	if scores {
		k = m.nscores
	}
	switch {
	case n == 0:
		return bad(http.StatusBadRequest, "binary request: empty batch (0 rows)")
	case d != int64(m.dims):
		return bad(http.StatusBadRequest, "binary request: rows of %d features, the model has %d", d, m.dims)
	case n*d*int64(size) > limit-headerSize:
		return bad(http.StatusRequestEntityTooLarge, "binary request: %d rows of %d values make %d bytes, over the limit of %d (-max-body)", n, d, headerSize+n*d*int64(size), limit)
	}
	if e := s.tooManyScores(n, int64(k)); e != nil {
		return e
	}
	raw, e := readValues(s, body, b, int(n*d)*size)
	if e != nil {
		return e
	}
	if k, _ := body.Read(hd[:1]); k > 0 { // hd: a local array would escape
		return bad(http.StatusBadRequest, "binary request: more bytes follow the %d rows × %d values the header implies", n, d)
	}
	if e := b.h.take(n * d * int64(m.elem)); e != nil {
		return e
	}
	x := grow(pick[T](&b.x32, &b.x64), int(n*d))
	if x32, ok := any(x).([]float32); ok && size == 4 {
		if i := decodeFloat32(x32, raw[:4*len(x)]); i >= 0 {
			return nonFinite(i, int(d), float64(math.Float32frombits(le.Uint32(raw[4*i:]))))
		}
	} else if size == 4 {
		raw := raw[:4*len(x)]
		for i := range x {
			u := le.Uint32(raw[4*i:])
			if u&0x7f800000 == 0x7f800000 { // exponent all ones: NaN or ±Inf
				return nonFinite(i, int(d), float64(math.Float32frombits(u)))
			}
			x[i] = T(math.Float32frombits(u))
		}
	} else {
		raw := raw[:8*len(x)]
		for i := range x {
			v := math.Float64frombits(le.Uint64(raw[8*i:]))
			x[i] = T(v)
			if !finite(x[i]) { // NaN, ±Inf, or beyond float32
				return nonFinite(i, int(d), v)
			}
		}
	}
	labels, sc, e := run(c, m, x, int(n), b, scores)
	if e != nil {
		return e
	}
	// The response, streamed: header, labels, scores.
	w.Header()["Content-Type"] = ctBinary
	bw := b.writer(w)
	rh := b.head[:] // a local array would escape
	clear(rh)
	copy(rh, responseMagic)
	if scores {
		rh[4] = byte(m.elem)
	}
	le.PutUint32(rh[8:], uint32(n))
	le.PutUint32(rh[12:], uint32(k))
	bw.Write(rh)
	p := room(bw, 8)
	for _, l := range labels {
		if cap(p)-len(p) < 8 {
			bw.Write(p)
			p = room(bw, 8)
		}
		p = le.AppendUint64(p, uint64(int64(l)))
	}
	for _, v := range sc {
		if cap(p)-len(p) < 8 {
			bw.Write(p)
			p = room(bw, 8)
		}
		if m.elem == 4 {
			p = le.AppendUint32(p, math.Float32bits(float32(v)))
		} else {
			p = le.AppendUint64(p, math.Float64bits(float64(v)))
		}
	}
	bw.Write(p)
	bw.Flush()
	return nil
}

// room returns bw's free buffer (bufio.Writer.AvailableBuffer) with room
// for at least n bytes, flushing it first if needed.
func room(bw *bufio.Writer, n int) []byte {
	if bw.Available() < n {
		bw.Flush()
	}
	return bw.AvailableBuffer()
}

// finite reports whether a is neither NaN nor ±Inf.
func finite[T kernel.Float](a T) bool { return a-a == 0 }

// nonFinite is the error for value v at index i of rows of d values.
func nonFinite(i, d int, v float64) *httpError {
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		return bad(http.StatusBadRequest, "row %d, feature %d: %v overflows the model's float32", i/d, i%d, v)
	}
	return bad(http.StatusBadRequest, "row %d, feature %d is %v", i/d, i%d, v)
}

// run predicts the labels of the n rows of x, and their scores if asked,
// taking their memory from the request's hold.
func run[T kernel.Float](c Classifier[T], m *loaded, x []T, n int, b *buffers, scores bool) ([]int, []T, *httpError) {
	if e := b.h.take(8 * int64(n)); e != nil {
		return nil, nil, e
	}
	labels := grow(&b.labels, n)
	clear(labels)
	d := m.dims
	if bc, ok := c.(batcher[T]); ok && n >= batchMin {
		if err := bc.PredictBatch(labels, x); err != nil {
			return nil, nil, bad(http.StatusUnprocessableEntity, "the model cannot score the batch: %v", err)
		}
	} else {
		for i := range labels {
			l, err := c.Predict(x[i*d : (i+1)*d])
			if err != nil {
				return nil, nil, bad(http.StatusUnprocessableEntity, "the model cannot score row %d: %v", i, err)
			}
			labels[i] = l
		}
	}
	if !scores {
		return labels, nil, nil
	}
	k := m.nscores
	if e := b.h.take(int64(n) * int64(k) * int64(m.elem)); e != nil {
		return nil, nil, e
	}
	sc := grow(pick[T](&b.s32, &b.s64), n*k)
	clear(sc)
	for i := range n {
		if err := c.Scores(sc[i*k:(i+1)*k], x[i*d:(i+1)*d]); err != nil {
			return nil, nil, bad(http.StatusUnprocessableEntity, "the model cannot score row %d: %v", i, err)
		}
	}
	for j, v := range sc {
		if !finite(v) {
			return nil, nil, bad(http.StatusUnprocessableEntity, "score %d of row %d is %v", j%k, j/k, v)
		}
	}
	return labels, sc, nil
}

// serveJSON answers a JSON request.
func serveJSON[T kernel.Float](s *Server, w http.ResponseWriter, body io.Reader, m *loaded, c Classifier[T], b *buffers, scores bool) *httpError {
	x, n, single, asked, e := decodeJSON[T](s, body, m, b, scores)
	if e != nil {
		return e
	}
	scores = scores || asked
	k := m.nscores
	if !scores {
		k = 0
	}
	if e := s.tooManyScores(int64(n), int64(k)); e != nil {
		return e
	}
	labels, sc, e := run(c, m, x, n, b, scores)
	if e != nil {
		return e
	}
	// The response, streamed a piece at a time through b.out.
	w.Header()["Content-Type"] = ctJSON
	bw := b.writer(w)
	bits := 8 * m.elem
	out := append(b.out[:0], `{"model":"`...)
	out = append(out, m.version...)
	// send writes out once it holds a buffer's worth.
	send := func(out []byte) []byte {
		if len(out) < writeBuffer {
			return out
		}
		bw.Write(out)
		return out[:0]
	}
	appendScores := func(out []byte, sc []T) []byte {
		out = append(out, '[')
		for j, v := range sc {
			if j > 0 {
				out = append(out, ',')
			}
			out = send(strconv.AppendFloat(out, float64(v), 'g', -1, bits))
		}
		return append(out, ']')
	}
	if single {
		out = append(out, `","label":`...)
		out = strconv.AppendInt(out, int64(labels[0]), 10)
		if scores {
			out = append(out, `,"scores":`...)
			out = appendScores(out, sc)
		}
	} else {
		out = append(out, `","labels":[`...)
		for i, l := range labels {
			if i > 0 {
				out = append(out, ',')
			}
			out = strconv.AppendInt(out, int64(l), 10)
			out = send(out)
		}
		out = append(out, ']')
		if scores {
			out = append(out, `,"scores":[`...)
			for i := range n {
				if i > 0 {
					out = append(out, ',')
				}
				out = appendScores(out, sc[i*k:(i+1)*k])
				out = send(out)
			}
			out = append(out, ']')
		}
	}
	out = append(out, "}\n"...)
	bw.Write(out)
	bw.Flush()
	b.out = out
	return nil
}

// health is the body of /healthz for one model file. It tells a
// stranger that the last reload failed, and when, not why: the reason
// (with the file's path and what it held) is in the server's log.
type health struct {
	Status string `json:"status"`
	Info
	reloadState
}

// reloadState is what /healthz says of a model's reloads.
type reloadState struct {
	LastReloadError    string     `json:"lastReloadError,omitempty"`
	LastReloadFailedAt *time.Time `json:"lastReloadFailedAt,omitempty"`
	// LastReloadRefused says what the last reload would have changed
	// (Options.AllowModelChange) when it was refused for that.
	LastReloadRefused string `json:"lastReloadRefused,omitempty"`
	Reloads           int64  `json:"reloads"` // models put in use after the first
}

// repoHealth is the body of /healthz for a repository: each model's
// state, the model in use and its reloads.
type repoHealth struct {
	Status string        `json:"status"`
	Models []modelHealth `json:"models"`
}

// modelHealth is a repository's model in /healthz.
type modelHealth struct {
	Name  string `json:"name"`
	State string `json:"state"` // READY or UNAVAILABLE
	*Info
	reloadState
}

// reloadFailed is /healthz's lastReloadError.
const reloadFailed = "reload failed; see the server log"

// reloadState describes sl's reloads.
func (sl *slot) reloadState() reloadState {
	rs := reloadState{Reloads: sl.reloads.Load()}
	if at := sl.failure.Load(); at != nil {
		rs.LastReloadError, rs.LastReloadFailedAt = reloadFailed, at
		if r := sl.refused.Load(); r != nil {
			rs.LastReloadRefused = *r
		}
	}
	return rs
}

// healthz is GET /healthz.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h["Allow"] = allowGet
		fail(w, bad(http.StatusMethodNotAllowed, "%s /healthz: use GET", r.Method))
		return
	}
	var body any
	if s.dir == "" {
		sl := s.set.Load().slots()[0]
		m := sl.cur.Load()
		h[hdrVersion] = m.hdr
		body = health{Status: "ok", Info: m.info(), reloadState: sl.reloadState()}
	} else {
		rh := repoHealth{Status: "ok", Models: []modelHealth{}}
		for _, sl := range s.set.Load().slots() {
			mh := modelHealth{Name: sl.name, State: stateUnavailable, reloadState: sl.reloadState()}
			if m := sl.cur.Load(); m != nil {
				info := m.info()
				mh.State, mh.Info = stateReady, &info
			}
			rh.Models = append(rh.Models, mh)
		}
		body = rh
	}
	out, _ := json.Marshal(body)
	h["Content-Type"] = ctJSON
	w.Write(append(out, '\n'))
}

// decodeJSON reads a JSON request, {"x": [...]} or {"rows": [[...], ...]}
// with an optional "scores": bool, into b's sample buffer: x holds the n
// rows of the model's d values, single reports "x". The body is read
// through the scanner's fixed buffer (scanBuffer bytes) and each row is
// parsed into a reused row, refusing a null, a wrong width or anything
// but a number as soon as it is met, and copied into x: the memory a
// request takes is its values in the model's type (at most 8 bytes per 2
// bytes of body, as in "0,"), one row and the scanner's buffer, each
// taken from the in-flight budget before it is used. scores is whether
// the query asked for scores (so that a batch over Options.MaxScores is
// refused as soon as it gets there).
func decodeJSON[T kernel.Float](s *Server, body io.Reader, m *loaded, b *buffers, scores bool) (x []T, n int, single, asked bool, e *httpError) {
	d := m.dims
	if e := b.h.take(scanBuffer + int64(d)*int64(m.elem)); e != nil {
		return nil, 0, false, false, e
	}
	if len(b.scan) != scanBuffer {
		b.scan = make([]byte, scanBuffer)
	}
	sc := &b.sc
	sc.reset(body, b.scan)
	fail := func(e *httpError) ([]T, int, bool, bool, *httpError) { return nil, 0, false, false, e }
	c, ok := sc.peek()
	if !ok {
		return fail(sc.ended(s))
	}
	if c != '{' {
		return fail(bad(http.StatusBadRequest, `bad JSON: the request is %s, not an object {"x": [...]} or {"rows": [[...], ...]}`, kindOf(c)))
	}
	sc.i++
	xp := pick[T](&b.x32, &b.x64)
	x = (*xp)[:0]
	xheld := 0 // of x's capacity, the values the request holds
	row := grow(pick[T](&b.r32, &b.r64), d)
	// keep appends row to x, taking the memory it grows by from the
	// budget first.
	keep := func() *httpError {
		if len(x)+d > xheld {
			next := max(2*xheld, len(x)+d, 1024)
			if e := b.h.take(int64(next-xheld) * int64(m.elem)); e != nil {
				return e
			}
			xheld = next
			if cap(x) < next {
				x = slices.Grow(x, next-len(x))
				*xp = x
			}
		}
		x = append(x, row...)
		return nil
	}
	var haveX, haveRows, haveScores bool
	c, ok = sc.peek()
	if ok && c == '}' {
		sc.i++
	} else {
		for {
			key, e := sc.key(s)
			if e != nil {
				return fail(e)
			}
			twice := false
			switch string(key) {
			case "scores":
				twice, haveScores = haveScores, true
			case "x":
				twice, haveX = haveX, true
			case "rows":
				twice, haveRows = haveRows, true
			case "text", "texts":
				return fail(notText(m, `"`+string(key)+`"`))
			default:
				return fail(bad(http.StatusBadRequest, `bad JSON: unknown field %q (want "x" or "rows", and "scores")`, key))
			}
			if twice {
				return fail(bad(http.StatusBadRequest, "bad JSON: field %q twice", key))
			}
			if haveX && haveRows {
				return fail(bad(http.StatusBadRequest, `bad request: both "x" and "rows"; send one sample as "x" or a batch as "rows"`))
			}
			c, ok = sc.peek()
			if !ok {
				return fail(sc.ended(s))
			}
			switch key[0] {
			case 's':
				switch c {
				case 't':
					e, asked = sc.literal(s, "true"), true
				case 'f':
					e, asked = sc.literal(s, "false"), false
				case 'n':
					if e = sc.literal(s, "null"); e == nil {
						e = bad(http.StatusBadRequest, `"scores" is null, not true or false`)
					}
				default:
					e = bad(http.StatusBadRequest, `bad JSON: "scores" is %s, not true or false`, kindOf(c))
				}
			case 'x':
				if e = scanRow(s, sc, row, 0, true); e == nil {
					e = keep()
				}
				n = 1
			default: // rows
				e = scanRows(s, sc, c, func(i int) *httpError {
					if e := scanRow(s, sc, row, i, false); e != nil {
						return e
					}
					if scores || asked {
						if e := s.tooManyScores(int64(i+1), int64(m.nscores)); e != nil {
							return e
						}
					}
					n = i + 1
					return keep()
				})
			}
			if e != nil {
				return fail(e)
			}
			if c, ok = sc.peek(); !ok {
				return fail(sc.ended(s))
			}
			sc.i++
			if c == '}' {
				break
			}
			if c != ',' {
				sc.i--
				return fail(sc.unexpected(c, "',' or '}'"))
			}
		}
	}
	if _, ok := sc.peek(); ok {
		return fail(bad(http.StatusBadRequest, "bad JSON: data after the request object"))
	}
	if sc.err != nil {
		return fail(sc.ended(s))
	}
	*xp = x
	if !haveX && !haveRows {
		return fail(bad(http.StatusBadRequest, `bad request: neither "x" (one sample) nor "rows" (a batch)`))
	}
	return x, n, haveX, asked, nil
}

// scanRows reads the value of "rows", whose first byte is c: an array
// whose elements each(i) reads.
func scanRows(s *Server, sc *scanner, c byte, each func(i int) *httpError) *httpError {
	switch c {
	case '[':
		sc.i++
	case 'n':
		if e := sc.literal(s, "null"); e != nil {
			return e
		}
		return bad(http.StatusBadRequest, `"rows" is null, not an array of rows`)
	default:
		return bad(http.StatusBadRequest, `"rows" is %s, not an array of rows`, kindOf(c))
	}
	c, ok := sc.peek()
	if !ok {
		return sc.ended(s)
	}
	if c == ']' {
		return bad(http.StatusBadRequest, `"rows" is an empty batch`)
	}
	for i := 0; ; i++ {
		if e := each(i); e != nil {
			return e
		}
		if c, ok = sc.peek(); !ok {
			return sc.ended(s)
		}
		sc.i++
		if c == ']' {
			return nil
		}
		if c != ',' {
			sc.i--
			return sc.unexpected(c, "',' or ']'")
		}
	}
}

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// trimSpace returns p without JSON white space at either end.
func trimSpace(p []byte) []byte {
	for len(p) > 0 && isSpace(p[0]) {
		p = p[1:]
	}
	for len(p) > 0 && isSpace(p[len(p)-1]) {
		p = p[:len(p)-1]
	}
	return p
}

// kindOf names the kind of the JSON value that starts with c.
func kindOf(c byte) string {
	switch c {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "a number"
	}
	return charName(c)
}

// isNull is the error for a null at feature j of row i.
func isNull(i, j int) *httpError {
	return bad(http.StatusBadRequest, "row %d, feature %d is null, not a number (JSON has no NaN or ±Inf: JSON.stringify writes them as null)", i, j)
}

// decodeFloat32 sets dst to the little-endian float32 values of raw (4 bytes
// each) and returns the index of the first that is NaN or ±Inf, or −1. It
// is the float32 model's decoding, outside the generic serveBinary. On a
// little-endian host the bytes are copied as they are and then checked a
// block at a time (the largest magnitude of a block against the exponent
// of all ones, without a branch per value); BenchmarkHandlerCPU enc=binary
// n=64 measured the per-value loop in serveBinary at 61 µs of thread CPU
// on the Zen 5 guest.
func decodeFloat32(dst []float32, raw []byte) int {
	raw = raw[:4*len(dst)]
	if !littleEndian {
		for i := range dst {
			u := le.Uint32(raw[4*i:])
			if u&0x7f800000 == 0x7f800000 { // exponent all ones: NaN or ±Inf
				return i
			}
			dst[i] = math.Float32frombits(u)
		}
		return -1
	}
	u := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
	copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(raw)), raw)
	const block = 64
	for lo := 0; lo < len(u); lo += block {
		blk := u[lo:min(lo+block, len(u))]
		var m uint32
		for _, v := range blk {
			m = max(m, v&0x7fffffff)
		}
		if m >= 0x7f800000 { // some value of the block is NaN or ±Inf
			for j, v := range blk {
				if v&0x7f800000 == 0x7f800000 {
					return lo + j
				}
			}
		}
	}
	return -1
}

// littleEndian reports whether the host stores a uint32's low byte first,
// as the binary request format does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1 // as internal/modelfile's nativeLE
