package modelfile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unsafe"
)

// The JSON decoding of a model document is bounded by the document's size:
// a number takes at least 2 bytes of text ("0,") and at most 8 bytes once
// decoded, and the arrays of numbers (Array, Matrix) are decoded into
// exactly as many elements as they hold, counted before anything is
// allocated, where encoding/json grows a slice by half again as it goes
// and a model joined its rows into one more copy. The decoders of the
// module's JSON models allocate at most MaxJSONGrowth times the document's
// size in all, the model they build included (tests of each package hold
// it with documents of one-character numbers). The worst case is a kernel
// model of one-feature support vectors: each "[0]," of 4 bytes costs its
// value's 8 bytes and a row's slice header of 24 (on a 64-bit platform)
// while it is decoded, then the scoring's own copy of the support vectors.
const MaxJSONGrowth = 12

// ErrNull is wrapped (with the package's ErrCorrupt) by the error for a
// null where a JSON model document has a number or an array element:
// encoding/json would read it as 0 and keep the rest.
var ErrNull = errors.New("null in a JSON model")

// maxJSONDepth is the deepest nesting of a model document (an object of
// arrays of objects of arrays of numbers is 4).
const maxJSONDepth = 16

// NoNull checks that the JSON document data has no null, except as the
// value of a member named in absent (a member holding an array or an
// object, which MarshalJSON may write as null when it is empty or absent,
// and which encoding/json reads so): a null elsewhere is an error
// wrapping e.Corrupt and ErrNull that names where it is, as
// "weights[2][17]". A document nested deeper than 16 levels is e.Corrupt.
// It reports nothing else: a document that is no valid JSON is
// encoding/json's to report.
func (e Errors) NoNull(data []byte, absent ...string) error {
	type frame struct {
		array bool
		index int
		key   []byte
	}
	var stack []frame
	var key []byte // the last object key read
	wantKey := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '{', '[':
			if len(stack) == maxJSONDepth {
				return e.Corruptf("JSON nested deeper than %d levels", maxJSONDepth)
			}
			stack = append(stack, frame{array: c == '['})
			wantKey = c == '{'
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].array {
					stack[n-1].index++
				} else {
					wantKey = true
				}
			}
		case '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			if wantKey && len(stack) > 0 {
				key = data[i+1 : min(j, len(data))]
				stack[len(stack)-1].key = key
				wantKey = false
			}
			i = j
		case 'n':
			if !bytes.HasPrefix(data[i:], []byte("null")) {
				continue // no JSON: encoding/json reports it
			}
			n := len(stack)
			if n > 0 && !stack[n-1].array && slices.Contains(absent, string(stack[n-1].key)) {
				continue
			}
			var path []byte
			for _, f := range stack {
				if f.array {
					path = fmt.Appendf(path, "[%d]", f.index)
				} else {
					if len(path) > 0 {
						path = append(path, '.')
					}
					path = append(path, f.key...)
				}
			}
			if len(path) == 0 {
				path = []byte("the document")
			}
			return fmt.Errorf("%w: %w at %s (at byte %d): a number, not null, goes there", e.Corrupt, ErrNull, path, i)
		}
	}
	return nil
}

// Number is the element type of a JSON array of numbers.
type Number interface {
	~float32 | ~float64 | ~int | ~int32 | ~int64
}

// Array is a JSON array of numbers. Its UnmarshalJSON counts the elements
// before it allocates them, and refuses a null element (which encoding/json
// would read as 0) and any value that is no number of N's range; a null
// for the whole array is nil, as encoding/json reads it (NoNull tells
// where that may be). It marshals as a slice.
type Array[N Number] []N

// UnmarshalJSON decodes the JSON array b.
func (a *Array[N]) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		*a = nil
		return nil
	}
	p := arrayParser{b: b}
	n, err := p.count()
	if err != nil {
		return err
	}
	v := make([]N, 0, n)
	p = arrayParser{b: b}
	if err := parseRow(&p, &v); err != nil {
		return err
	}
	*a = v
	return nil
}

// Matrix is a JSON array of arrays of numbers (a model's weight rows,
// support vectors). Its UnmarshalJSON makes the rows consecutive views of
// one array of exactly the values they hold, each row's capacity reaching
// to that array's end (Flat joins them without a copy; appending to a row
// would overwrite the next), with Array's checks.
type Matrix[N Number] [][]N

// UnmarshalJSON decodes the JSON array of arrays b.
func (m *Matrix[N]) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		*m = nil
		return nil
	}
	p := arrayParser{b: b}
	if !p.open() {
		return p.errNotArray()
	}
	rows, total := 0, 0
	for more := !p.close(); more; more = p.next() {
		n, err := p.count()
		if err != nil {
			return fmt.Errorf("row %d: %w", rows, err)
		}
		rows++
		total += n
	}
	if p.err != nil {
		return p.err
	}
	flat := make([]N, 0, total)
	out := make([][]N, 0, rows)
	p = arrayParser{b: b}
	p.open()
	for more := !p.close(); more; more = p.next() {
		start := len(flat)
		if err := parseRow(&p, &flat); err != nil {
			return fmt.Errorf("row %d: %w", len(out), err)
		}
		out = append(out, flat[start:len(flat)])
	}
	*m = out
	return nil
}

// Flat returns the rows joined into one slice: when they are consecutive
// views of one array, each row's capacity reaching to its end (as Matrix
// decodes them), that array itself, without a copy; else a new slice. It
// returns nil for no values.
func Flat[N Number](rows [][]N) []N {
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	if n == 0 {
		return nil
	}
	if cap(rows[0]) >= n {
		all, off := rows[0][:n:n], 0
		for _, r := range rows {
			if len(r) > 0 && unsafe.SliceData(r) != &all[off] {
				all = nil
				break
			}
			off += len(r)
		}
		if all != nil {
			return all
		}
	}
	out := make([]N, 0, n)
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// arrayParser reads a JSON array of numbers, or of such arrays, from b:
// the tokens encoding/json has already checked the syntax of, though
// nothing here relies on it.
type arrayParser struct {
	b   []byte
	i   int
	err error
}

func (p *arrayParser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

// open consumes '['.
func (p *arrayParser) open() bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '[' {
		p.i++
		return true
	}
	return false
}

// close consumes ']' if it is next.
func (p *arrayParser) close() bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return true
	}
	return false
}

// next consumes ',' (true: another element follows) or ']' (false), else
// sets the error.
func (p *arrayParser) next() bool {
	p.ws()
	if p.i < len(p.b) {
		switch p.b[p.i] {
		case ',':
			p.i++
			return true
		case ']':
			p.i++
			return false
		}
	}
	if p.err == nil {
		p.err = fmt.Errorf("byte %d: want ',' or ']' in an array of numbers", p.i)
	}
	return false
}

func (p *arrayParser) errNotArray() error {
	if bytesIsNull(p.b[p.i:]) {
		return fmt.Errorf("%w: null where an array goes", ErrNull)
	}
	return fmt.Errorf("byte %d: want an array of numbers", p.i)
}

func bytesIsNull(b []byte) bool { return len(b) >= 4 && string(b[:4]) == "null" }

// isNull reports whether b is the JSON null, white space around it.
func isNull(b []byte) bool {
	p := arrayParser{b: b}
	p.ws()
	return bytesIsNull(b[p.i:]) && len(bytes.TrimSpace(b[p.i+4:])) == 0
}

// token returns the next scalar token.
func (p *arrayParser) token() []byte {
	p.ws()
	j := p.i
	for j < len(p.b) {
		switch p.b[j] {
		case ',', ']', ' ', '\t', '\n', '\r', '[', '{', '}', '"':
			goto done
		}
		j++
	}
done:
	t := p.b[p.i:j]
	p.i = j
	return t
}

// count reads one array of scalars and returns its length.
func (p *arrayParser) count() (int, error) {
	if !p.open() {
		return 0, p.errNotArray()
	}
	n := 0
	for more := !p.close(); more; more = p.next() {
		if len(p.token()) == 0 {
			return 0, fmt.Errorf("element %d: want a number", n)
		}
		n++
	}
	return n, p.err
}

// parseRow appends the numbers of one array to *v.
func parseRow[N Number](p *arrayParser, v *[]N) error {
	if !p.open() {
		return p.errNotArray()
	}
	i := 0
	for more := !p.close(); more; more = p.next() {
		x, err := parseNumber[N](p.token())
		if err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
		*v = append(*v, x)
		i++
	}
	return p.err
}

// parseNumber decodes one number as encoding/json does for N: a float
// within range of N's size, an integer within N's range.
func parseNumber[N Number](t []byte) (N, error) {
	var z N
	if string(t) == "null" {
		return z, fmt.Errorf("%w: null, not a number", ErrNull)
	}
	if len(t) == 0 || !(t[0] == '-' || '0' <= t[0] && t[0] <= '9') || bytes.ContainsFunc(t, func(r rune) bool {
		return !('0' <= r && r <= '9' || r == '-' || r == '+' || r == '.' || r == 'e' || r == 'E')
	}) {
		return z, fmt.Errorf("%q is not a number", t)
	}
	if half := 0.5; N(half) != 0 { // a float type
		bits := 8 * int(unsafe.Sizeof(z))
		f, err := strconv.ParseFloat(string(t), bits)
		if err != nil {
			return z, fmt.Errorf("number %s out of the range of float%d", t, bits)
		}
		return N(f), nil
	}
	k, err := strconv.ParseInt(string(t), 10, 64)
	if err != nil || int64(N(k)) != k {
		return z, fmt.Errorf("number %s is not an integer within the range of %T", t, z)
	}
	return N(k), nil
}
