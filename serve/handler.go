package serve

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"

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
)

var le = binary.LittleEndian

// maxPooled bounds the buffers a request returns to the pool, so that one
// large batch does not keep its memory for ever.
const maxPooled = 4 << 20

// buffers is one request's reusable memory.
type buffers struct {
	head   [headerSize]byte
	body   []byte
	x32    []float32
	r32    []float32 // one JSON row
	r64    []float64
	x64    []float64
	labels []int
	s32    []float32
	s64    []float64
	out    []byte
}

func (s *Server) put(b *buffers) {
	if cap(b.body) > maxPooled || cap(b.out) > maxPooled || 8*(cap(b.x64)+cap(b.s64)) > maxPooled || 4*(cap(b.x32)+cap(b.s32)) > maxPooled {
		return
	}
	s.pool.Put(b)
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
	w.WriteHeader(e.code)
	io.WriteString(w, e.msg+"\n")
}

// bodyError turns an error reading the body into a response.
func bodyError(err error, limit int64, what string) *httpError {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return bad(http.StatusRequestEntityTooLarge, "request body over the limit of %d bytes", limit)
	}
	return bad(http.StatusBadRequest, "%s: %v", what, err)
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

// predict is POST /predict.
func (s *Server) predict(w http.ResponseWriter, r *http.Request) {
	m := s.cur.Load() // the one model this request uses
	h := w.Header()
	h[hdrVersion] = m.hdr
	if r.Method != http.MethodPost {
		h["Allow"] = allowPost
		fail(w, bad(http.StatusMethodNotAllowed, "%s /predict: use POST", r.Method))
		return
	}
	body := http.MaxBytesReader(w, r.Body, s.opt.MaxBodyBytes)
	scores := wantScores(r.URL.RawQuery)
	b := s.pool.Get().(*buffers)
	defer s.put(b)
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	ct = strings.TrimSpace(ct)
	var e *httpError
	switch {
	case strings.EqualFold(ct, "application/octet-stream"):
		if m.c32 != nil {
			e = serveBinary(w, body, s.opt.MaxBodyBytes, m, m.c32, b, scores)
		} else {
			e = serveBinary(w, body, s.opt.MaxBodyBytes, m, m.c64, b, scores)
		}
	case ct == "" || strings.EqualFold(ct, "application/json"):
		if m.c32 != nil {
			e = serveJSON(w, body, s.opt.MaxBodyBytes, m, m.c32, b, scores)
		} else {
			e = serveJSON(w, body, s.opt.MaxBodyBytes, m, m.c64, b, scores)
		}
	default:
		hint := ""
		if strings.EqualFold(ct, "application/x-www-form-urlencoded") {
			hint = " (curl -d sends it: add -H 'Content-Type: application/json')"
		}
		e = bad(http.StatusUnsupportedMediaType, "Content-Type %q: send application/json or application/octet-stream%s", ct, hint)
	}
	if e != nil {
		fail(w, e)
	}
}

// serveBinary answers a binary request.
func serveBinary[T kernel.Float](w http.ResponseWriter, body io.Reader, limit int64, m *loaded, c Classifier[T], b *buffers, scores bool) *httpError {
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
	switch {
	case n == 0:
		return bad(http.StatusBadRequest, "binary request: empty batch (0 rows)")
	case d != int64(m.dims):
		return bad(http.StatusBadRequest, "binary request: rows of %d features, the model has %d", d, m.dims)
	case n*d*int64(size) > limit-headerSize:
		return bad(http.StatusRequestEntityTooLarge, "binary request: %d rows of %d values make %d bytes, over the limit of %d", n, d, headerSize+n*d*int64(size), limit)
	}
	raw := grow(&b.body, int(n*d)*size)
	if got, err := io.ReadFull(body, raw); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return bad(http.StatusBadRequest, "binary request truncated: %d value bytes, the header implies %d", got, len(raw))
		}
		return bodyError(err, limit, "reading the request")
	}
	if k, _ := body.Read(hd[:1]); k > 0 { // hd: a local array would escape
		return bad(http.StatusBadRequest, "binary request: more bytes follow the %d rows × %d values the header implies", n, d)
	}
	x := grow(pick[T](&b.x32, &b.x64), int(n*d))
	if size == 4 {
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
	k := 0
	if scores {
		k = m.nscores
	}
	out := grow(&b.out, headerSize+8*int(n)+k*int(n)*m.elem)
	copy(out, responseMagic)
	out[4], out[5], out[6], out[7] = 0, 0, 0, 0
	if scores {
		out[4] = byte(m.elem)
	}
	le.PutUint32(out[8:], uint32(n))
	le.PutUint32(out[12:], uint32(k))
	p := out[headerSize:]
	for i, l := range labels {
		le.PutUint64(p[8*i:], uint64(int64(l)))
	}
	p = p[8*len(labels):]
	for i, v := range sc {
		if m.elem == 4 {
			le.PutUint32(p[4*i:], math.Float32bits(float32(v)))
		} else {
			le.PutUint64(p[8*i:], math.Float64bits(float64(v)))
		}
	}
	w.Header()["Content-Type"] = ctBinary
	w.Write(out)
	return nil
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

// run predicts the labels of the n rows of x, and their scores if asked.
func run[T kernel.Float](c Classifier[T], m *loaded, x []T, n int, b *buffers, scores bool) ([]int, []T, *httpError) {
	labels := grow(&b.labels, n)
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
	sc := grow(pick[T](&b.s32, &b.s64), n*k)
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
func serveJSON[T kernel.Float](w http.ResponseWriter, body io.Reader, limit int64, m *loaded, c Classifier[T], b *buffers, scores bool) *httpError {
	x, n, single, asked, e := decodeJSON[T](body, limit, m.dims, b)
	if e != nil {
		return e
	}
	scores = scores || asked
	labels, sc, e := run(c, m, x, n, b, scores)
	if e != nil {
		return e
	}
	bits := 8 * m.elem
	out := append(b.out[:0], `{"model":"`...)
	out = append(out, m.version...)
	k := m.nscores
	appendScores := func(out []byte, sc []T) []byte {
		out = append(out, '[')
		for j, v := range sc {
			if j > 0 {
				out = append(out, ',')
			}
			out = strconv.AppendFloat(out, float64(v), 'g', -1, bits)
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
		}
		out = append(out, ']')
		if scores {
			out = append(out, `,"scores":[`...)
			for i := range n {
				if i > 0 {
					out = append(out, ',')
				}
				out = appendScores(out, sc[i*k:(i+1)*k])
			}
			out = append(out, ']')
		}
	}
	out = append(out, "}\n"...)
	b.out = out
	w.Header()["Content-Type"] = ctJSON
	w.Write(out)
	return nil
}

// jsonError turns a JSON decoding error into a response.
func jsonError(err error, limit int64) *httpError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return bad(http.StatusBadRequest, "bad JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		return bad(http.StatusBadRequest, "bad JSON: %v", typ)
	case errors.Is(err, io.EOF):
		return bad(http.StatusBadRequest, "bad JSON: empty body")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return bad(http.StatusBadRequest, "bad JSON: truncated")
	}
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return bodyError(err, limit, "")
	}
	return bad(http.StatusBadRequest, "bad JSON: %v", err)
}

// health is the body of /healthz.
type health struct {
	Status string `json:"status"`
	Info
	LastReloadError string `json:"lastReloadError,omitempty"`
	Reloads         int64  `json:"reloads"` // models put in use after the first
}

// healthz is GET /healthz.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h["Allow"] = allowGet
		fail(w, bad(http.StatusMethodNotAllowed, "%s /healthz: use GET", r.Method))
		return
	}
	info := s.Current()
	h[hdrVersion] = []string{info.Version}
	hb := health{Status: "ok", Info: info, Reloads: s.reloads.Load()}
	if e := s.failure.Load(); e != nil {
		hb.LastReloadError = *e
	}
	out, _ := json.Marshal(hb)
	h["Content-Type"] = ctJSON
	w.Write(append(out, '\n'))
}

// decodeJSON reads a JSON request, {"x": [...]} or {"rows": [[...], ...]}
// with an optional "scores": bool, into b's sample buffer: x holds the n
// rows of d values, single reports "x". The rows are decoded one at a time
// into a reused row and copied into x as they come, and a row of the wrong
// width is refused as soon as it is read: the memory a request takes is
// its values in the model's type (at most 8 bytes per 2 bytes of body, as
// in "0,") and one row, whatever the shape of the body.
func decodeJSON[T kernel.Float](body io.Reader, limit int64, d int, b *buffers) (x []T, n int, single, scores bool, e *httpError) {
	dec := json.NewDecoder(body)
	tok, err := dec.Token()
	if err != nil {
		return nil, 0, false, false, jsonError(err, limit)
	}
	if tok != json.Delim('{') {
		return nil, 0, false, false, bad(http.StatusBadRequest, `bad JSON: the request is %s, not an object {"x": [...]} or {"rows": [[...], ...]}`, tokenName(tok))
	}
	xp := pick[T](&b.x32, &b.x64)
	x = (*xp)[:0]
	rp := pick[T](&b.r32, &b.r64)
	seen := map[string]bool{} // small: three keys at most
	var haveX, haveRows bool
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, 0, false, false, jsonError(err, limit)
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, 0, false, false, bad(http.StatusBadRequest, "bad JSON: field %q twice", key)
		}
		seen[key] = true
		switch key {
		case "scores":
			if err := dec.Decode(&scores); err != nil {
				return nil, 0, false, false, jsonError(err, limit)
			}
		case "x":
			haveX = true
			if haveRows {
				return nil, 0, false, false, bad(http.StatusBadRequest, `bad request: both "x" and "rows"; send one sample as "x" or a batch as "rows"`)
			}
			if err := dec.Decode(rp); err != nil {
				return nil, 0, false, false, jsonError(err, limit)
			}
			if *rp == nil {
				return nil, 0, false, false, bad(http.StatusBadRequest, `"x" is null, not an array of numbers`)
			}
			if len(*rp) != d {
				return nil, 0, false, false, bad(http.StatusBadRequest, `"x" has %d features, the model has %d`, len(*rp), d)
			}
			x, n = append(x, *rp...), 1
		case "rows":
			haveRows = true
			if haveX {
				return nil, 0, false, false, bad(http.StatusBadRequest, `bad request: both "x" and "rows"; send one sample as "x" or a batch as "rows"`)
			}
			if tok, err := dec.Token(); err != nil {
				return nil, 0, false, false, jsonError(err, limit)
			} else if tok != json.Delim('[') {
				return nil, 0, false, false, bad(http.StatusBadRequest, `"rows" is %s, not an array of rows`, tokenName(tok))
			}
			for ; dec.More(); n++ {
				if err := dec.Decode(rp); err != nil {
					return nil, 0, false, false, jsonError(err, limit)
				}
				if len(*rp) != d || *rp == nil {
					return nil, 0, false, false, bad(http.StatusBadRequest, `row %d has %d features, the model has %d`, n, len(*rp), d)
				}
				x = append(x, *rp...)
			}
			if _, err := dec.Token(); err != nil { // the ']'
				return nil, 0, false, false, jsonError(err, limit)
			}
			if n == 0 {
				return nil, 0, false, false, bad(http.StatusBadRequest, `"rows" is an empty batch`)
			}
		default:
			return nil, 0, false, false, bad(http.StatusBadRequest, `bad JSON: unknown field %q (want "x" or "rows", and "scores")`, key)
		}
	}
	if _, err := dec.Token(); err != nil { // the '}'
		return nil, 0, false, false, jsonError(err, limit)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, 0, false, false, bad(http.StatusBadRequest, "bad JSON: data after the request object")
		}
		return nil, 0, false, false, jsonError(err, limit)
	}
	*xp = x
	if !haveX && !haveRows {
		return nil, 0, false, false, bad(http.StatusBadRequest, `bad request: neither "x" (one sample) nor "rows" (a batch)`)
	}
	return x, n, haveX, scores, nil
}

// tokenName names a JSON token for a message.
func tokenName(tok json.Token) string {
	switch t := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return "an object"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}
