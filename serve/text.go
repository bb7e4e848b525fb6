package serve

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/text"
)

// A text model (model.Text) is served from raw text: /predict takes
// {"text": "..."} or {"texts": ["...", ...]} and the Open Inference
// Protocol an input of datatype BYTES, and both answer the labels' names
// as strings. Its featurized rows (2^bits columns) go in the binary
// format only: a JSON request of numbers to a text model, and a request
// of text to another model, are refused (400) saying what the model
// takes.

// textModel is what the handler needs of a text model.
type textModel struct {
	feat  *text.Featurizer
	c32   model.Classifier[float32] // the inner model of the featurized rows, one of c32 and c64
	c64   model.Classifier[float64]
	names [][]byte    // each label's name as a JSON string, quotes included, in the order of classes
	index map[int]int // label → its index in classes
}

// newTextModel returns what the handler needs of t.
func newTextModel(t *model.Text) *textModel {
	tm := &textModel{feat: t.Featurizer(), index: map[int]int{}}
	tm.c32, _ = model.As[float32](t)
	if tm.c32 == nil {
		tm.c64, _ = model.As[float64](t)
	}
	for i, c := range t.Classes() {
		q, _ := json.Marshal(t.Name(c)) // valid UTF-8: NewText checked it
		tm.names = append(tm.names, q)
		tm.index[c] = i
	}
	return tm
}

// textBuffers is a request's memory for text, in its buffers.
type textBuffers struct {
	docs  []byte // the documents, decoded, one after another
	ends  []int  // the end of each document in docs
	feat  *text.Featurizer
	r32   *text.Rows[float32] // featurizing scratch of feat
	r64   *text.Rows[float64]
	row32 dataset.SparseRow[float32]
	row64 dataset.SparseRow[float64]
	// scratch is what featurizing the longest document these rows have
	// featurized holds (textScratch): rows that held more than maxPooled
	// are dropped when the request ends.
	scratch int64
}

// large reports whether t holds more memory than a pooled buffer may.
func (t *textBuffers) large() bool {
	return cap(t.docs) > maxPooled || 8*cap(t.ends) > maxPooled
}

// done drops the featurizing scratch if it grew over maxPooled.
func (t *textBuffers) done() {
	if t.scratch > maxPooled {
		t.feat, t.r32, t.r64, t.row32, t.row64, t.scratch = nil, nil, nil, dataset.SparseRow[float32]{}, dataset.SparseRow[float64]{}, 0
	}
}

// textRows returns t's featurizing scratch of f in type T.
func textRows[T kernel.Float](t *textBuffers, f *text.Featurizer) (*text.Rows[T], *dataset.SparseRow[T]) {
	if t.feat != f {
		t.feat, t.r32, t.r64, t.scratch = f, nil, nil, 0
	}
	switch p := any(&t.r32).(type) {
	case **text.Rows[T]:
		if *p == nil {
			*p = text.NewRows[T](f)
		}
		return *p, any(&t.row32).(*dataset.SparseRow[T])
	}
	if t.r64 == nil {
		t.r64 = text.NewRows[float64](f)
	}
	return any(t.r64).(*text.Rows[T]), any(&t.row64).(*dataset.SparseRow[T])
}

// textScratch bounds the bytes featurizing a document of n bytes holds:
// the lower-cased tokens and their ends, the hashes and their sort buffer,
// the values in float64 and in the model's type (elem bytes) with their
// columns.
func textScratch(f *text.Featurizer, n, elem int) int64 {
	return int64(16*n+64) + int64(f.MaxFeatures(n))*int64(8+8+8+4+elem)
}

// notText is the refusal of text sent to a model that is not a text model.
func notText(m *loaded, what string) *httpError {
	return bad(http.StatusBadRequest, "%s: the model is %s, not a text model: it takes rows of %d numbers", what, m.describe(), m.dims)
}

// describe names the model's kind for a message.
func (m *loaded) describe() string {
	if m.kind != "" {
		return "a " + m.kind
	}
	return "a model of another package"
}

// textDocs holds the documents of a request as they are read, each taken
// from the in-flight budget as it grows.
type textDocs struct {
	s    *Server
	sc   *scanner
	b    *buffers
	held int // of b.txt.docs' capacity, the bytes the request holds
	n    int // documents read
	max  int // the longest
}

// newTextDocs starts reading a request's documents into b.
func newTextDocs(s *Server, sc *scanner, b *buffers) *textDocs {
	b.txt.docs, b.txt.ends = b.txt.docs[:0], b.txt.ends[:0]
	return &textDocs{s: s, sc: sc, b: b}
}

// room makes room for k more bytes of text, taken from the budget first.
func (d *textDocs) room(k int) *httpError {
	t := &d.b.txt
	if len(t.docs)+k <= d.held {
		return nil
	}
	next := max(2*d.held, len(t.docs)+k, 4096)
	if e := d.b.h.take(int64(next - d.held)); e != nil {
		return e
	}
	d.held = next
	if cap(t.docs) < next {
		t.docs = slices.Grow(t.docs, next-len(t.docs))
	}
	return nil
}

// add appends p to the document being read.
func (d *textDocs) add(p []byte) *httpError {
	if e := d.room(len(p)); e != nil {
		return e
	}
	d.b.txt.docs = append(d.b.txt.docs, p...)
	return nil
}

// read reads one JSON string at the scanner's position, document i
// (named what and, if i ≥ 0, i in messages: docName), decoded, as the next document. The text is
// checked as it is decoded: it must be valid UTF-8 (RFC 8259, section 8.1)
// without raw control characters, its escapes those of RFC 8259 section 7;
// a \u escape of a lone UTF-16 surrogate is decoded as U+FFFD, as
// encoding/json decodes it. Nothing of it is held but the decoded text.
func (d *textDocs) read(what string, i int) *httpError {
	s, sc := d.s, d.sc
	c, ok := sc.peek()
	if !ok {
		return sc.ended(s)
	}
	if c != '"' {
		if c == 'n' {
			if e := sc.literal(s, "null"); e != nil {
				return e
			}
		}
		return bad(http.StatusBadRequest, "bad JSON: %s is %s, not a string", docName(what, i), kindOf(c))
	}
	sc.i++
	t := &d.b.txt
	start := len(t.docs)
	for {
		j := sc.i
		for j < sc.n {
			if c := sc.buf[j]; c < ' ' || c == '"' || c == '\\' || c >= utf8.RuneSelf {
				break
			}
			j++
		}
		if j > sc.i {
			if e := d.add(sc.buf[sc.i:j]); e != nil {
				return e
			}
			sc.i = j
		}
		if sc.i == sc.n {
			if !sc.fill() {
				return sc.ended(s)
			}
			continue
		}
		switch c := sc.buf[sc.i]; {
		case c == '"':
			sc.i++
			t.ends = append(t.ends, len(t.docs))
			d.n++
			d.max = max(d.max, len(t.docs)-start)
			return nil
		case c < ' ':
			return bad(http.StatusBadRequest, "bad JSON at byte %d: %s: a control character (%s) in a string (write it as an escape)", sc.pos(), docName(what, i), charName(c))
		case c == '\\':
			sc.need(12) // \uXXXX\uXXXX
			r, k := unescape(sc.buf[sc.i:sc.n])
			if k == 0 {
				if sc.eof && sc.n-sc.i < 6 && validPrefix(sc.buf[sc.i:sc.n]) {
					return sc.ended(s)
				}
				return bad(http.StatusBadRequest, "bad JSON at byte %d: %s: an invalid escape %q", sc.pos(), docName(what, i), sc.buf[sc.i:min(sc.n, sc.i+6)])
			}
			var p [utf8.UTFMax]byte
			if e := d.add(utf8.AppendRune(p[:0], r)); e != nil {
				return e
			}
			sc.i += k
		default:
			sc.need(utf8.UTFMax)
			r, k := utf8.DecodeRune(sc.buf[sc.i:sc.n])
			if r == utf8.RuneError && k <= 1 {
				if sc.eof && !utf8.FullRune(sc.buf[sc.i:sc.n]) {
					return sc.ended(s)
				}
				return bad(http.StatusBadRequest, "bad JSON at byte %d: %s is not valid UTF-8 (%s)", sc.pos(), docName(what, i), charName(c))
			}
			if e := d.add(sc.buf[sc.i : sc.i+k]); e != nil {
				return e
			}
			sc.i += k
		}
	}
}

// docName names document i in a message: what, followed by i if i ≥ 0
// (made only when a message needs it: a request that succeeds builds no
// string).
func docName(what string, i int) string {
	if i < 0 {
		return what
	}
	return what + " " + strconv.Itoa(i)
}

// need reads on until k bytes are unscanned or the body ends.
func (s *scanner) need(k int) {
	for s.n-s.i < k && s.fill() {
	}
}

// validPrefix reports whether p, a body's last bytes, could begin a valid
// escape: the body ends inside it.
func validPrefix(p []byte) bool {
	if len(p) < 2 {
		return true
	}
	if p[1] != 'u' {
		return false
	}
	for _, c := range p[2:] {
		if _, ok := hexDigit(c); !ok {
			return false
		}
	}
	return true
}

// unescape decodes the escape at the start of p (p[0] is '\\'): the rune
// and the bytes it takes, 0 if it is no valid escape. A \u escape of a
// UTF-16 surrogate pair is one rune; a lone surrogate is U+FFFD.
func unescape(p []byte) (rune, int) {
	if len(p) < 2 {
		return 0, 0
	}
	switch p[1] {
	case '"', '\\', '/':
		return rune(p[1]), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r, ok := hex4(p[2:])
		if !ok {
			return 0, 0
		}
		if !utf16.IsSurrogate(r) {
			return r, 6
		}
		if len(p) >= 12 && p[6] == '\\' && p[7] == 'u' {
			if r2, ok := hex4(p[8:]); ok {
				if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
					return c, 12
				}
			}
		}
		return utf8.RuneError, 6
	}
	return 0, 0
}

// hex4 reads four hexadecimal digits.
func hex4(p []byte) (rune, bool) {
	if len(p) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p[:4] {
		v, ok := hexDigit(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | v
	}
	return r, true
}

func hexDigit(c byte) (rune, bool) {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0'), true
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10), true
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10), true
	}
	return 0, false
}

// doc returns document i of b's documents.
func (t *textBuffers) doc(i int) []byte {
	lo := 0
	if i > 0 {
		lo = t.ends[i-1]
	}
	return t.docs[lo:t.ends[i]]
}

// predictTexts featurizes and predicts the n documents in b, and scores
// them if asked, taking the memory of the labels, the scores and the
// featurizing (of the longest document, maxLen bytes) from the budget.
func predictTexts[T kernel.Float](s *Server, m *loaded, c model.Classifier[T], b *buffers, maxLen int, scores bool) ([]int, []T, *httpError) {
	n := len(b.txt.ends)
	k := m.nscores
	if !scores {
		k = 0
	}
	if e := s.tooManyScores(int64(n), int64(k)); e != nil {
		return nil, nil, e
	}
	f := m.text.feat
	rows, row := textRows[T](&b.txt, f)
	need := textScratch(f, maxLen, m.elem)
	if e := b.h.take(need + 8*int64(n) + int64(n)*int64(k)*int64(m.elem)); e != nil {
		return nil, nil, e
	}
	b.txt.scratch = max(b.txt.scratch, need)
	labels := grow(&b.labels, n)
	sc := grow(pick[T](&b.s32, &b.s64), n*k)
	for i := range n {
		*row = rows.Row(*row, b.txt.doc(i))
		l, err := c.PredictSparse(*row)
		if err != nil {
			return nil, nil, bad(http.StatusUnprocessableEntity, "the model cannot score text %d: %v", i, err)
		}
		labels[i] = l
		if k == 0 {
			continue
		}
		dst := sc[i*k : (i+1)*k]
		if err := c.ScoresSparse(dst, *row); err != nil {
			return nil, nil, bad(http.StatusUnprocessableEntity, "the model cannot score text %d: %v", i, err)
		}
		for j, v := range dst {
			if !finite(v) {
				return nil, nil, bad(http.StatusUnprocessableEntity, "score %d of text %d is %v", j, i, v)
			}
		}
	}
	return labels, sc, nil
}

// serveText answers a JSON request to a text model: {"text": "..."} or
// {"texts": ["...", ...]}, with "scores": bool.
func serveText(s *Server, w http.ResponseWriter, body io.Reader, m *loaded, b *buffers, scores bool) *httpError {
	if e := b.h.take(scanBuffer); e != nil {
		return e
	}
	if len(b.scan) != scanBuffer {
		b.scan = make([]byte, scanBuffer)
	}
	sc := &b.sc
	sc.reset(body, b.scan)
	docs := newTextDocs(s, sc, b)
	var haveText, haveTexts, haveScores, asked bool
	c, ok := sc.peek()
	if !ok {
		return sc.ended(s)
	}
	if c != '{' {
		return bad(http.StatusBadRequest, `bad JSON: the request is %s, not an object {"text": "..."} or {"texts": ["...", ...]}`, kindOf(c))
	}
	e := object(s, sc, func(key []byte) *httpError {
		twice := false
		switch string(key) {
		case "text":
			twice, haveText = haveText, true
		case "texts":
			twice, haveTexts = haveTexts, true
		case "scores":
			twice, haveScores = haveScores, true
		case "x", "rows":
			return bad(http.StatusBadRequest, `%q: the model is a text model: send {"text": "..."} or {"texts": ["...", ...]} (its featurized rows of %d columns go in the binary format)`, key, m.dims)
		default:
			return bad(http.StatusBadRequest, `bad JSON: unknown field %q (want "text" or "texts", and "scores")`, key)
		}
		switch {
		case twice:
			return bad(http.StatusBadRequest, "bad JSON: field %q twice", key)
		case haveText && haveTexts:
			return bad(http.StatusBadRequest, `bad request: both "text" and "texts"; send one document as "text" or a batch as "texts"`)
		}
		switch string(key) {
		case "text":
			return docs.read(`"text"`, -1)
		case "scores":
			var e *httpError
			asked, e = readBool(s, sc, "scores")
			return e
		}
		e := array(s, sc, func() *httpError {
			if scores || asked {
				if e := s.tooManyScores(int64(docs.n+1), int64(m.nscores)); e != nil {
					return e
				}
			}
			return docs.read("text", docs.n)
		})
		if e == nil && docs.n == 0 {
			e = bad(http.StatusBadRequest, `"texts" is an empty batch`)
		}
		return e
	})
	if e != nil {
		return e
	}
	if _, ok := sc.peek(); ok {
		return bad(http.StatusBadRequest, "bad JSON: data after the request object")
	}
	if sc.err != nil {
		return sc.ended(s)
	}
	if !haveText && !haveTexts {
		return bad(http.StatusBadRequest, `bad request: neither "text" (one document) nor "texts" (a batch)`)
	}
	scores = scores || asked
	if m.text.c32 != nil {
		return writeTexts(s, w, m, m.text.c32, b, docs.max, scores, haveText)
	}
	return writeTexts(s, w, m, m.text.c64, b, docs.max, scores, haveText)
}

// readBool reads the JSON boolean of field name.
func readBool(s *Server, sc *scanner, name string) (bool, *httpError) {
	c, ok := sc.peek()
	if !ok {
		return false, sc.ended(s)
	}
	switch c {
	case 't':
		return true, sc.literal(s, "true")
	case 'f':
		return false, sc.literal(s, "false")
	case 'n':
		if e := sc.literal(s, "null"); e != nil {
			return false, e
		}
	}
	return false, bad(http.StatusBadRequest, "bad JSON: %q is %s, not true or false", name, kindOf(c))
}

// writeTexts predicts b's documents and writes the JSON response:
// {"model": ..., "label": "name"} for one, {"labels": [...]} for a batch,
// and the scores if asked.
func writeTexts[T kernel.Float](s *Server, w http.ResponseWriter, m *loaded, c model.Classifier[T], b *buffers, maxLen int, scores, single bool) *httpError {
	labels, sc, e := predictTexts(s, m, c, b, maxLen, scores)
	if e != nil {
		return e
	}
	k := m.nscores
	w.Header()["Content-Type"] = ctJSON
	o := outStream{bw: b.writer(w), out: append(b.out[:0], `{"model":"`...)}
	o.out = append(o.out, m.version...)
	if single {
		o.out = append(o.out, `","label":`...)
		o.out = append(o.out, m.text.names[m.text.index[labels[0]]]...)
		if scores {
			o.out = append(o.out, `,"scores":`...)
			floats(&o, sc, 8*m.elem)
		}
	} else {
		o.out = append(o.out, `","labels":`...)
		o.names(m, labels)
		if scores {
			o.out = append(o.out, `,"scores":[`...)
			for i := range labels {
				if i > 0 {
					o.out = append(o.out, ',')
				}
				floats(&o, sc[i*k:(i+1)*k], 8*m.elem)
			}
			o.out = append(o.out, ']')
		}
	}
	o.out = append(o.out, "}\n"...)
	b.out = o.end()
	return nil
}

// outStream writes a response a piece at a time through out.
type outStream struct {
	bw  interface{ Write([]byte) (int, error) }
	out []byte
}

// send writes out once it holds a buffer's worth.
func (o *outStream) send() {
	if len(o.out) >= writeBuffer {
		o.bw.Write(o.out)
		o.out = o.out[:0]
	}
}

// names appends the JSON array of the labels' names.
func (o *outStream) names(m *loaded, labels []int) {
	o.out = append(o.out, '[')
	for i, l := range labels {
		if i > 0 {
			o.out = append(o.out, ',')
		}
		o.out = append(o.out, m.text.names[m.text.index[l]]...)
		o.send()
	}
	o.out = append(o.out, ']')
}

// floats appends the JSON array of v, shortest forms of the bits.
func floats[T kernel.Float](o *outStream, v []T, bits int) {
	o.out = append(o.out, '[')
	for j, x := range v {
		if j > 0 {
			o.out = append(o.out, ',')
		}
		o.out = strconv.AppendFloat(o.out, float64(x), 'g', -1, bits)
		o.send()
	}
	o.out = append(o.out, ']')
}

// end writes the rest and flushes; it returns the buffer for reuse.
func (o *outStream) end() []byte {
	o.bw.Write(o.out)
	if f, ok := o.bw.(interface{ Flush() error }); ok {
		f.Flush()
	}
	return o.out
}

// inner returns the inner model.
func (tm *textModel) inner() any {
	if tm.c32 != nil {
		return tm.c32
	}
	return tm.c64
}

// serveInferText answers an Open Inference Protocol request to a text
// model: one input "input" of datatype BYTES and shape [n] or [n, 1],
// whose data are n JSON strings (flat, or one array of one string per
// row), answered with "label" (BYTES [n], the labels' names) and "scores"
// (the inner model's type, [n, k]), or those of "outputs".
func serveInferText(s *Server, w http.ResponseWriter, body io.Reader, m *loaded, b *buffers) *httpError {
	if e := b.h.take(scanBuffer); e != nil {
		return e
	}
	if len(b.scan) != scanBuffer {
		b.scan = make([]byte, scanBuffer)
	}
	sc := &b.sc
	sc.reset(body, b.scan)
	docs := newTextDocs(s, sc, b)
	var req inferRequest
	var shape [2]int
	nshape, inputs, haveOutputs, haveData := 0, 0, false, false
	// doc reads element i of the input's data.
	doc := func() *httpError {
		const what = "input element"
		if c, ok := sc.peek(); ok && c == '[' {
			k := 0
			e := array(s, sc, func() *httpError {
				if k++; k > 1 {
					return bad(http.StatusBadRequest, "%s holds more than one string: the input's shape is [n] or [n, 1]", docName(what, docs.n))
				}
				return docs.read(what, docs.n)
			})
			if e == nil && k == 0 {
				e = bad(http.StatusBadRequest, "%s is an empty array, not a string", docName(what, docs.n))
			}
			return e
		}
		return docs.read(what, docs.n)
	}
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
				if e == nil && string(dt) != "BYTES" {
					e = bad(http.StatusBadRequest, `datatype %q: the model is a text model: its input is BYTES, one string per document (its featurized rows of %d columns go to /predict in the binary format)`, dt, m.dims)
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
						return bad(http.StatusBadRequest, "the input's shape has more than 2 dimensions: want [n] or [n, 1]")
					}
					shape[nshape] = n
					nshape++
					return nil
				})
			case "data":
				haveData = true
				return array(s, sc, doc)
			case "parameters":
				return sc.skip(s, 0)
			}
			return bad(http.StatusBadRequest, `unknown field %q in an input (want "name", "shape", "datatype", "data", "parameters")`, key)
		})
	}
	c, ok := sc.peek()
	if !ok {
		return sc.ended(s)
	}
	if c != '{' {
		return bad(http.StatusBadRequest, `bad JSON: the request is %s, not an object {"inputs": [...]}`, kindOf(c))
	}
	e := object(s, sc, func(key []byte) *httpError {
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
		return e
	}
	if _, ok := sc.peek(); ok {
		return bad(http.StatusBadRequest, "bad JSON: data after the request object")
	}
	if sc.err != nil {
		return sc.ended(s)
	}
	n := docs.n
	switch {
	case inputs == 0 || !haveData:
		return bad(http.StatusBadRequest, `no input: send "inputs": [{"name": "input", "shape": [n], "datatype": "BYTES", "data": ["a document", ...]}]`)
	case nshape == 0 || nshape == 2 && shape[1] != 1:
		return bad(http.StatusBadRequest, "the input's shape must be [n] or [n, 1]: one string per document")
	case shape[0] == 0:
		return bad(http.StatusBadRequest, "the input's shape [0] is an empty batch")
	case n != shape[0]:
		return bad(http.StatusBadRequest, "the input holds %d strings, its shape [%d] needs %d", n, shape[0], shape[0])
	case haveOutputs && !req.label && !req.scor:
		return bad(http.StatusBadRequest, `"outputs" names no output: ask for "label", "scores" or both, or leave "outputs" out`)
	}
	if !haveOutputs {
		req.label, req.scor = true, true
	}
	req.n = n
	if m.text.c32 != nil {
		return writeInferText(s, w, m, m.text.c32, b, req, docs.max)
	}
	return writeInferText(s, w, m, m.text.c64, b, req, docs.max)
}

// writeInferText predicts b's documents and writes the inference
// response.
func writeInferText[T kernel.Float](s *Server, w http.ResponseWriter, m *loaded, c model.Classifier[T], b *buffers, req inferRequest, maxLen int) *httpError {
	labels, sc, e := predictTexts(s, m, c, b, maxLen, req.scor)
	if e != nil {
		return e
	}
	n, k := req.n, m.nscores
	w.Header()["Content-Type"] = ctJSON
	o := outStream{bw: b.writer(w), out: append(b.out[:0], `{"model_name":`...)}
	o.out = strconv.AppendQuote(o.out, m.name)
	o.out = append(o.out, `,"model_version":"`...)
	o.out = append(o.out, m.version...)
	o.out = append(o.out, '"')
	if req.haveID {
		o.out = append(o.out, `,"id":"`...)
		o.out = append(o.out, req.id...)
		o.out = append(o.out, '"')
	}
	o.out = append(o.out, `,"outputs":[`...)
	if req.label {
		o.out = append(o.out, `{"name":"label","datatype":"BYTES","shape":[`...)
		o.out = strconv.AppendInt(o.out, int64(n), 10)
		o.out = append(o.out, `],"data":`...)
		o.names(m, labels)
		o.out = append(o.out, '}')
	}
	if req.scor {
		if req.label {
			o.out = append(o.out, ',')
		}
		o.out = append(o.out, `{"name":"scores","datatype":"`...)
		o.out = append(o.out, datatype(m.elem)...)
		o.out = append(o.out, `","shape":[`...)
		o.out = strconv.AppendInt(o.out, int64(n), 10)
		o.out = append(o.out, ',')
		o.out = strconv.AppendInt(o.out, int64(k), 10)
		o.out = append(o.out, `],"data":`...)
		floats(&o, sc, 8*m.elem)
		o.out = append(o.out, '}')
	}
	o.out = append(o.out, "]}\n"...)
	b.out = o.end()
	return nil
}

// textMetadata is a text model's input: "input", BYTES, [-1].
func textMetadata(m *loaded) []tensorMetadata {
	return []tensorMetadata{{"input", "BYTES", []int{-1}}}
}
