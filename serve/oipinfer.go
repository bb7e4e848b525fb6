package serve

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// maxDepth bounds the nesting of a JSON value the scanner skips (an
// inference request's "parameters").
const maxDepth = 64

// skip reads and drops one JSON value (a request's "parameters", say),
// nested at most maxDepth deep.
func (s *scanner) skip(srv *Server, depth int) *httpError {
	if depth > maxDepth {
		return bad(http.StatusBadRequest, "bad JSON at byte %d: nested more than %d deep", s.pos(), maxDepth)
	}
	c, ok := s.peek()
	if !ok {
		return s.ended(srv)
	}
	switch {
	case c == '"':
		_, e := s.str(srv, false)
		return e
	case c == 't':
		return s.literal(srv, "true")
	case c == 'f':
		return s.literal(srv, "false")
	case c == 'n':
		return s.literal(srv, "null")
	case c == '-' || c >= '0' && c <= '9':
		at := s.pos()
		v := s.token(isNumByte)
		if v == nil || !validNumber(v) {
			return bad(http.StatusBadRequest, "bad JSON at byte %d: not a JSON number", at)
		}
		return nil
	case c == '[':
		return array(srv, s, func() *httpError { return s.skip(srv, depth+1) })
	case c == '{':
		return object(srv, s, func([]byte) *httpError { return s.skip(srv, depth+1) })
	}
	return s.unexpected(c, "a JSON value")
}

// str reads a JSON string (its quotes included) and returns its text as
// it was written, escapes and all (valid JSON string content, to be
// written back between quotes), if keep is set; at most scanBuffer bytes.
func (s *scanner) str(srv *Server, keep bool) ([]byte, *httpError) {
	c, ok := s.peek()
	if !ok {
		return nil, s.ended(srv)
	}
	if c != '"' {
		return nil, bad(http.StatusBadRequest, "bad JSON at byte %d: %s, not a string", s.pos(), kindOf(c))
	}
	s.i++
	esc := false
	text := s.token(func(c byte) bool {
		switch {
		case esc:
			esc = false
			return c >= ' '
		case c == '\\':
			esc = true
			return true
		}
		return c != '"' && c >= ' '
	})
	if text == nil {
		return nil, bad(http.StatusBadRequest, "bad JSON at byte %d: a string longer than %d bytes", s.pos(), scanBuffer)
	}
	if s.i == s.n {
		return nil, s.ended(srv)
	}
	if s.buf[s.i] != '"' {
		return nil, bad(http.StatusBadRequest, "bad JSON at byte %d: a control character in a string", s.pos())
	}
	s.i++
	if keep {
		return text, nil
	}
	return nil, nil
}

// inferRequest is what an inference request asks, as read.
type inferRequest struct {
	n           int    // rows, from the input's shape
	haveShape   bool   // the input had a shape
	values      int    // values read from the input's data
	label, scor bool   // the outputs asked for
	id          []byte // the request's id, as written (escapes and all), in b.id
	haveID      bool
	dt          int // the input's datatype: dtFloat, dtInt8, dtUint8 (datatypes.go)
}

// infer is POST /v2/models/{name}[/versions/{version}]/infer: the Open
// Inference Protocol's inference request, one input tensor "input" of
// shape [n, d] (datatype FP32, FP64, INT8 or UINT8; data row-major, flat or one
// array per row), answered with the outputs "label" (INT64 [n]) and
// "scores" (the model's type, [n, k]), or those of "outputs".
func (s *Server) infer(w http.ResponseWriter, r *http.Request) {
	m, e := s.model(w, r)
	name := "" // a name the server does not have: not counted under it
	if m != nil {
		name = m.name
	}
	ob := s.observe(name, ProtoOIPREST)
	if e == nil && r.ContentLength > s.opt.MaxBodyBytes {
		w.Header()["Connection"] = connClose
		e = bad(http.StatusRequestEntityTooLarge, "request body of %d bytes (Content-Length) over the limit of %d bytes (-max-body)", r.ContentLength, s.opt.MaxBodyBytes)
	}
	if e == nil {
		b := s.pool.Get().(*buffers)
		b.h = hold{s: s}
		body := http.MaxBytesReader(w, r.Body, s.opt.MaxBodyBytes)
		if m.text != nil {
			e = serveInferText(s, w, body, m, b)
		} else if m.c32 != nil {
			e = serveInfer(s, w, body, m, m.c32, b)
		} else {
			e = serveInfer(s, w, body, m, m.c64, b)
		}
		s.put(b)
	}
	if e != nil {
		failJSON(w, e)
	}
	ob.end(status(e))
}

// failJSON writes e as the protocol's error response, {"error": "..."}.
func failJSON(w http.ResponseWriter, e *httpError) {
	h := w.Header()
	if e.code == http.StatusServiceUnavailable {
		h["Retry-After"] = retryAfter
	}
	writeJSON(w, e.code, oipError{e.msg})
}

// serveInfer reads an inference request, predicts and writes the response.
func serveInfer[T kernel.Float](s *Server, w http.ResponseWriter, body interface{ Read([]byte) (int, error) }, m *loaded, c Classifier[T], b *buffers) *httpError {
	req, x, e := decodeInfer[T](s, body, m, b)
	if e != nil {
		return e
	}
	n, k := req.n, m.nscores
	if !req.scor {
		k = 0
	}
	if e := s.tooManyScores(int64(n), int64(k)); e != nil {
		return e
	}
	var labels []int
	var sc []T
	if req.dt == dtFloat {
		labels, sc, e = run(c, m, x, n, b, req.scor)
	} else {
		labels, sc, e = runInts(c, m, x, n, b, req.scor, req.dt)
	}
	if e != nil {
		return e
	}
	w.Header()["Content-Type"] = ctJSON
	bw := b.writer(w)
	out := append(b.out[:0], `{"model_name":`...)
	out = strconv.AppendQuote(out, m.name)
	out = append(out, `,"model_version":"`...)
	out = append(out, m.version...)
	out = append(out, '"')
	if req.haveID {
		out = append(out, `,"id":"`...)
		out = append(out, req.id...)
		out = append(out, '"')
	}
	out = append(out, `,"outputs":[`...)
	send := func(out []byte) []byte {
		if len(out) < writeBuffer {
			return out
		}
		bw.Write(out)
		return out[:0]
	}
	if req.label {
		out = append(out, `{"name":"label","datatype":"INT64","shape":[`...)
		out = strconv.AppendInt(out, int64(n), 10)
		out = append(out, `],"data":[`...)
		for i, l := range labels {
			if i > 0 {
				out = append(out, ',')
			}
			out = send(strconv.AppendInt(out, int64(l), 10))
		}
		out = append(out, "]}"...)
	}
	if req.scor {
		if req.label {
			out = append(out, ',')
		}
		out = append(out, `{"name":"scores","datatype":"`...)
		out = append(out, datatype(m.elem)...)
		out = append(out, `","shape":[`...)
		out = strconv.AppendInt(out, int64(n), 10)
		out = append(out, ',')
		out = strconv.AppendInt(out, int64(k), 10)
		out = append(out, `],"data":[`...)
		for j, v := range sc {
			if j > 0 {
				out = append(out, ',')
			}
			out = send(strconv.AppendFloat(out, float64(v), 'g', -1, 8*m.elem))
		}
		out = append(out, "]}"...)
	}
	out = append(out, "]}\n"...)
	bw.Write(out)
	bw.Flush()
	b.out = out
	return nil
}

// decodeInfer reads an inference request into b's sample buffer.
func decodeInfer[T kernel.Float](s *Server, body interface{ Read([]byte) (int, error) }, m *loaded, b *buffers) (req inferRequest, x []T, e *httpError) {
	d := m.dims
	if e := b.h.take(scanBuffer + int64(d)*int64(m.elem)); e != nil {
		return req, nil, e
	}
	if len(b.scan) != scanBuffer {
		b.scan = make([]byte, scanBuffer)
	}
	sc := &b.sc
	sc.reset(body, b.scan)
	bits := 8 * m.elem
	xp := pick[T](&b.x32, &b.x64)
	x = (*xp)[:0]
	xheld := 0
	// room makes room in x for k more values, taking what x grows by from
	// the budget first.
	room := func(k int) *httpError {
		if len(x)+k > xheld {
			next := max(2*xheld, len(x)+k, 1024)
			if e := b.h.take(int64(next-xheld) * int64(m.elem)); e != nil {
				return e
			}
			xheld = next
			if cap(x) < next {
				x = slices.Grow(x, next-len(x))
				*xp = x
			}
		}
		return nil
	}
	row := grow(pick[T](&b.r32, &b.r64), d)
	var shape [2]int
	nshape := 0
	inputs := 0
	haveOutputs := false
	// data reads an input's data: flat, or one array per row.
	data := func() *httpError {
		c, ok := sc.peek()
		if !ok {
			return sc.ended(s)
		}
		if c != '[' {
			return bad(http.StatusBadRequest, `"data" is %s, not an array of numbers`, kindOf(c))
		}
		sc.i++
		if c, ok = sc.peek(); ok && c == ']' {
			sc.i++
			return nil
		}
		nested := ok && c == '['
		for i := 0; ; i++ {
			if nested {
				if e := scanRow(s, sc, row, i, false); e != nil {
					return e
				}
				if e := room(d); e != nil {
					return e
				}
				x = append(x, row...)
			} else {
				if len(x) < xheld {
					// As many values and commas as fastValues reads into
					// the room x has.
					k := fastValues(sc, x[len(x):xheld], bits)
					x = x[:len(x)+k]
					if k > 0 {
						if _, ok := sc.peek(); !ok {
							return sc.ended(s)
						}
					}
				}
				v, e := scanValue(s, sc, len(x)/d, len(x)%d, bits)
				if e != nil {
					return e
				}
				if len(x) == xheld {
					if e := room(1); e != nil {
						return e
					}
				}
				x = append(x, T(v))
			}
			c, ok := sc.peek()
			if !ok {
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
	// input reads one input tensor.
	input := func() *httpError {
		return object(s, sc, func(key []byte) *httpError {
			switch string(key) {
			case "name":
				name, e := sc.str(s, true)
				if e == nil && string(name) != "input" {
					e = bad(http.StatusBadRequest, `input %q: the model's input is "input"`, name)
				}
				return e
			case "datatype":
				dt, e := sc.str(s, true)
				if e == nil && string(dt) == "BYTES" {
					e = notText(m, `datatype "BYTES"`)
				} else if e == nil {
					switch string(dt) {
					case "FP32", "FP64":
						req.dt = dtFloat
					case "INT8":
						req.dt = dtInt8
					case "UINT8":
						req.dt = dtUint8
					default:
						e = bad(http.StatusBadRequest, `datatype %q: the model takes %s (its own type is %s)`, dt, inputDatatypes, datatype(m.elem))
					}
				}
				return e
			case "shape":
				return array(s, sc, func() *httpError {
					sc.peek()
					at := sc.pos()
					v := sc.token(isNumByte)
					n, err := strconv.Atoi(string(v))
					if err != nil || n < 0 || !validNumber(v) {
						return bad(http.StatusBadRequest, "bad JSON at byte %d: a shape holds non-negative integers", at)
					}
					if nshape == 2 {
						return bad(http.StatusBadRequest, "the input's shape has more than 2 dimensions: want [n, %d]", d)
					}
					shape[nshape] = n
					nshape++
					return nil
				})
			case "data":
				return data()
			case "parameters":
				return sc.skip(s, 0)
			}
			return bad(http.StatusBadRequest, `unknown field %q in an input (want "name", "shape", "datatype", "data", "parameters")`, key)
		})
	}
	c, ok := sc.peek()
	if !ok {
		return req, nil, sc.ended(s)
	}
	if c != '{' {
		return req, nil, bad(http.StatusBadRequest, `bad JSON: the request is %s, not an object {"inputs": [...]}`, kindOf(c))
	}
	e = object(s, sc, func(key []byte) *httpError {
		switch string(key) {
		case "id":
			id, e := sc.str(s, true)
			b.id = append(b.id[:0], id...)
			req.id, req.haveID = b.id, true
			return e
		case "parameters":
			return sc.skip(s, 0)
		case "inputs":
			return array(s, sc, func() *httpError {
				if inputs++; inputs > 1 {
					return bad(http.StatusBadRequest, `more than one input: the model has one, "input"`)
				}
				return input()
			})
		case "outputs":
			haveOutputs = true
			return readOutputs(s, sc, &req)
		}
		return bad(http.StatusBadRequest, `unknown field %q (want "id", "parameters", "inputs", "outputs")`, key)
	})
	if e != nil {
		return req, nil, e
	}
	if _, ok := sc.peek(); ok {
		return req, nil, bad(http.StatusBadRequest, "bad JSON: data after the request object")
	}
	if sc.err != nil {
		return req, nil, sc.ended(s)
	}
	*xp = x
	switch {
	case inputs == 0:
		return req, nil, bad(http.StatusBadRequest, `no input: send "inputs": [{"name": "input", "shape": [n, %d], "datatype": "%s", "data": [...]}]`, d, datatype(m.elem))
	case nshape != 2 || shape[1] != d:
		return req, nil, bad(http.StatusBadRequest, "the input's shape must be [n, %d] (the model has %d features)", d, d)
	case shape[0] == 0:
		return req, nil, bad(http.StatusBadRequest, "the input's shape [0, %d] is an empty batch", d)
	case len(x) != shape[0]*d:
		return req, nil, bad(http.StatusBadRequest, "the input holds %d values, its shape [%d, %d] needs %d", len(x), shape[0], d, shape[0]*d)
	case haveOutputs && !req.label && !req.scor:
		return req, nil, bad(http.StatusBadRequest, `"outputs" names no output: ask for "label", "scores" or both, or leave "outputs" out`)
	}
	if req.dt != dtFloat {
		if e := checkInts(x, d, req.dt); e != nil {
			return req, nil, e
		}
	}
	if !haveOutputs {
		req.label, req.scor = true, true
	}
	req.n = shape[0]
	return req, x, nil
}

// readOutputs reads an inference request's "outputs" into req.
func readOutputs(s *Server, sc *scanner, req *inferRequest) *httpError {
	return array(s, sc, func() *httpError {
		return object(s, sc, func(key []byte) *httpError {
			switch string(key) {
			case "name":
				name, e := sc.str(s, true)
				switch {
				case e != nil:
				case string(name) == "label":
					req.label = true
				case string(name) == "scores":
					req.scor = true
				default:
					e = bad(http.StatusBadRequest, `output %q: the model's outputs are "label" and "scores"`, name)
				}
				return e
			case "parameters":
				return sc.skip(s, 0)
			}
			return bad(http.StatusBadRequest, `unknown field %q in an output (want "name", "parameters")`, key)
		})
	})
}

// object reads a JSON object, calling field for each key with the
// scanner at its value.
func object(s *Server, sc *scanner, field func(key []byte) *httpError) *httpError {
	return list(s, sc, '{', '}', "an object", func() *httpError {
		key, e := sc.key(s)
		if e != nil {
			return e
		}
		return field(key)
	})
}

// array reads a JSON array, calling elem for each element.
func array(s *Server, sc *scanner, elem func() *httpError) *httpError {
	return list(s, sc, '[', ']', "an array", elem)
}

// list reads the open byte, elements separated by commas (each read by
// elem) and the close byte: a JSON array or object (what names it).
func list(s *Server, sc *scanner, open, close byte, what string, elem func() *httpError) *httpError {
	c, ok := sc.peek()
	if !ok {
		return sc.ended(s)
	}
	if c != open {
		return bad(http.StatusBadRequest, "bad JSON at byte %d: %s where %s was expected", sc.pos(), kindOf(c), what)
	}
	sc.i++
	if c, ok = sc.peek(); ok && c == close {
		sc.i++
		return nil
	}
	for {
		if e := elem(); e != nil {
			return e
		}
		if c, ok = sc.peek(); !ok {
			return sc.ended(s)
		}
		sc.i++
		if c == close {
			return nil
		}
		if c != ',' {
			sc.i--
			return sc.unexpected(c, "',' or '"+string(close)+"'")
		}
	}
}

// scanValue reads one value of a flat tensor: feature j of row i.
func scanValue(srv *Server, s *scanner, i, j, bits int) (float64, *httpError) {
	c, ok := s.peek()
	if !ok {
		return 0, s.ended(srv)
	}
	switch {
	case c == '-' || c >= '0' && c <= '9':
		return s.number(i, j, bits)
	case c == 'n':
		return 0, isNull(i, j)
	case c == 'N':
		return 0, nonNumber(i, j, "NaN")
	case c == 'I':
		return 0, nonNumber(i, j, "Infinity")
	case c == '"' || c == '[' || c == '{' || c == 't' || c == 'f':
		return 0, bad(http.StatusBadRequest, "bad JSON: row %d, feature %d is %s, not a number", i, j, kindOf(c))
	}
	return 0, s.unexpected(c, "a number")
}
