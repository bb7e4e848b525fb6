package serve

import (
	"io"
	"math"
	"math/bits"
	"net/http"
	"strconv"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// scanBuffer is the size of a JSON request's read buffer: the longest
// number or field name a request may hold, and all of the body's text a
// request holds at once.
const scanBuffer = 16 << 10

// scanner reads the JSON of a request through a fixed buffer: a strict
// scanner of the few shapes the server takes ({"x": [...]},
// {"rows": [[...], ...]}), not a general JSON decoder. It never holds more
// of the body than its buffer.
type scanner struct {
	r    io.Reader
	buf  []byte // len(buf) is the buffer's size
	i, n int    // buf[i:n] is read and not yet scanned
	off  int64  // the body offset of buf[0]
	eof  bool   // r has no more
	err  error  // the read error that ended the body, nil at io.EOF
}

// reset starts scanning r with buf.
func (s *scanner) reset(r io.Reader, buf []byte) {
	*s = scanner{r: r, buf: buf}
}

// fill moves the unscanned bytes to the front of the buffer and reads
// more after them; it reports whether any arrived.
func (s *scanner) fill() bool {
	if s.eof {
		return false
	}
	if s.i > 0 {
		copy(s.buf, s.buf[s.i:s.n])
		s.off += int64(s.i)
		s.n -= s.i
		s.i = 0
	}
	if s.n == len(s.buf) {
		return false
	}
	for {
		k, err := s.r.Read(s.buf[s.n:])
		s.n += k
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
			return k > 0
		}
		if k > 0 {
			return true
		}
	}
}

// pos is the body offset of the next byte to scan.
func (s *scanner) pos() int64 { return s.off + int64(s.i) }

// peek skips white space and returns the next byte, unconsumed; ok is
// false at the end of the body.
func (s *scanner) peek() (c byte, ok bool) {
	for {
		for s.i < s.n {
			c = s.buf[s.i]
			if c > ' ' || !isSpace(c) {
				return c, true
			}
			s.i++
		}
		if !s.fill() {
			return 0, false
		}
	}
}

// ended is the error for a body that ends (or fails) where more JSON must
// follow.
func (s *scanner) ended(srv *Server) *httpError {
	if s.err != nil {
		return bodyError(s.err, srv.opt.MaxBodyBytes, "reading the request")
	}
	if s.pos() == 0 {
		return bad(http.StatusBadRequest, "bad JSON: empty body")
	}
	return bad(http.StatusBadRequest, "truncated JSON at byte %d: the body ends inside the request", s.pos())
}

// unexpected is the error for byte c, met at the scanner's position where
// what was wanted.
func (s *scanner) unexpected(c byte, what string) *httpError {
	return bad(http.StatusBadRequest, "bad JSON at byte %d: %s where %s was expected", s.pos(), charName(c), what)
}

// charName names byte c for a message.
func charName(c byte) string {
	if c < ' ' || c >= 0x7f {
		return "byte " + strconv.QuoteRuneToASCII(rune(c))
	}
	return "character " + strconv.QuoteRune(rune(c))
}

// token returns the run of bytes from the scanner's position for which
// in is true (at most the buffer's size), and consumes it. It returns
// nil if the run fills the buffer.
func (s *scanner) token(in func(byte) bool) []byte {
	j := s.i
	for {
		for j < s.n && in(s.buf[j]) {
			j++
		}
		if j < s.n || s.eof {
			break
		}
		k := j - s.i
		if s.i == 0 && s.n == len(s.buf) {
			return nil
		}
		s.fill()
		j = s.i + k
	}
	tok := s.buf[s.i:j]
	s.i = j
	return tok
}

// literal consumes the JSON literal w (true, false, null) or returns an
// error.
func (s *scanner) literal(srv *Server, w string) *httpError {
	tok := s.token(isLetter)
	if string(tok) != w {
		if tok == nil || len(tok) == 0 && s.eof {
			return s.ended(srv)
		}
		return bad(http.StatusBadRequest, "bad JSON at byte %d: %q is not a JSON value", s.pos()-int64(len(tok)), tok)
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// validNumber reports whether p is a JSON number (RFC 8259, section 6):
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(p []byte) bool {
	i := 0
	if i < len(p) && p[i] == '-' {
		i++
	}
	switch {
	case i < len(p) && p[i] == '0':
		i++
	case i < len(p) && p[i] >= '1' && p[i] <= '9':
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(p) && p[i] == '.' {
		i++
		if i == len(p) || p[i] < '0' || p[i] > '9' {
			return false
		}
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
	}
	if i < len(p) && (p[i] == 'e' || p[i] == 'E') {
		i++
		if i < len(p) && (p[i] == '+' || p[i] == '-') {
			i++
		}
		if i == len(p) || p[i] < '0' || p[i] > '9' {
			return false
		}
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
	}
	return i == len(p)
}

// key reads a field name, the quotes included, and the ':' after it.
func (s *scanner) key(srv *Server) ([]byte, *httpError) {
	c, ok := s.peek()
	if !ok {
		return nil, s.ended(srv)
	}
	if c != '"' {
		return nil, s.unexpected(c, "a field name")
	}
	s.i++
	name := s.token(func(c byte) bool { return c != '"' && c != '\\' && c >= ' ' })
	if name == nil {
		return nil, bad(http.StatusBadRequest, "bad JSON at byte %d: a field name longer than %d bytes", s.pos(), scanBuffer)
	}
	c, ok = s.peek()
	switch {
	case !ok:
		return nil, s.ended(srv)
	case c != '"':
		return nil, bad(http.StatusBadRequest, `bad JSON at byte %d: a field name with an escape or a control character (want "x", "rows" or "scores")`, s.pos())
	}
	s.i++
	if c, ok = s.peek(); !ok {
		return nil, s.ended(srv)
	} else if c != ':' {
		return nil, s.unexpected(c, "':'")
	}
	s.i++
	return name, nil
}

// row reads one row, a JSON array of exactly len(row) numbers, into row:
// row i of "rows", or "x" if isX. A null (for the row or a value: JSON
// has no NaN or ±Inf, and JavaScript's JSON.stringify writes them as
// null), a value of another kind, NaN or Infinity, a number beyond T's
// range and another count are refused, naming the row and the feature.
// Values past len(row) are checked and counted, not kept. Every value of
// row is written before the row is used.
func scanRow[T kernel.Float](srv *Server, s *scanner, row []T, i int, isX bool) *httpError {
	name := func() string {
		if isX {
			return `"x"`
		}
		return "row " + strconv.Itoa(i)
	}
	c, ok := s.peek()
	if !ok {
		return s.ended(srv)
	}
	switch c {
	case '[':
		s.i++
	case 'n':
		if e := s.literal(srv, "null"); e != nil {
			return e
		}
		if isX {
			return bad(http.StatusBadRequest, `"x" is null, not an array of numbers`)
		}
		return bad(http.StatusBadRequest, "row %d has 0 features (it is null), the model has %d", i, len(row))
	default:
		return bad(http.StatusBadRequest, "bad JSON: %s is %s, not an array of numbers", name(), kindOf(c))
	}
	bits := 64
	if unsafe.Sizeof(T(0)) == 4 {
		bits = 32
	}
	j := 0
	if c, ok = s.peek(); ok && c == ']' {
		s.i++
	} else {
		for ; ; j++ {
			if !ok {
				return s.ended(srv)
			}
			if j < len(row) {
				if k := fastValues(s, row[j:], bits); k > 0 {
					// k values and their commas read; the next value, or
					// white space before it, follows.
					j += k
					if c, ok = s.peek(); !ok {
						return s.ended(srv)
					}
				}
			}
			switch {
			case c == '-' || c >= '0' && c <= '9':
				f, e := s.number(i, j, bits)
				if e != nil {
					return e
				}
				if j < len(row) {
					row[j] = T(f)
				}
			case c == 'n':
				return isNull(i, j)
			case c == 'N':
				return nonNumber(i, j, "NaN")
			case c == 'I':
				return nonNumber(i, j, "Infinity")
			case c == '"' || c == '[' || c == '{' || c == 't' || c == 'f':
				return bad(http.StatusBadRequest, "bad JSON: row %d, feature %d is %s, not a number", i, j, kindOf(c))
			default:
				return s.unexpected(c, "a number")
			}
			if c, ok = s.peek(); !ok {
				return s.ended(srv)
			}
			s.i++
			if c == ']' {
				j++
				break
			}
			if c != ',' {
				s.i--
				return s.unexpected(c, "',' or ']'")
			}
			c, ok = s.peek()
		}
	}
	if j != len(row) {
		return bad(http.StatusBadRequest, "%s has %d features, the model has %d", name(), j, len(row))
	}
	return nil
}

// number reads the JSON number at the scanner's position, feature j of
// row i, as a float of the bits (the value is exact in a float32 when
// bits is 32).
func (s *scanner) number(i, j, bits int) (float64, *httpError) {
	for {
		k, f, ok := parseNumber(s.buf[s.i:s.n], bits)
		if !ok {
			break // strconv decides, or says what is wrong
		}
		if k < s.n-s.i || s.eof { // the number ends in the buffer
			s.i += k
			return f, nil
		}
		if s.i == 0 && s.n == len(s.buf) {
			return 0, bad(http.StatusBadRequest, "bad JSON at byte %d: row %d, feature %d: a number longer than %d bytes", s.pos(), i, j, scanBuffer)
		}
		s.fill() // the number may go on: read on, and parse it again
	}
	at := s.pos()
	v := s.token(isNumByte)
	if v == nil {
		return 0, bad(http.StatusBadRequest, "bad JSON at byte %d: row %d, feature %d: a number longer than %d bytes", at, i, j, scanBuffer)
	}
	if !validNumber(v) {
		if string(v) == "-" && s.i < s.n && s.buf[s.i] == 'I' {
			return 0, nonNumber(i, j, "-Infinity")
		}
		return 0, bad(http.StatusBadRequest, "bad JSON at byte %d: row %d, feature %d: %q is not a JSON number", at, i, j, v)
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(v), len(v)), bits)
	if err != nil {
		return 0, bad(http.StatusBadRequest, "row %d, feature %d: %s is beyond the range of the model's %d-bit floating point (±%g)", i, j, v, bits, maxOf(bits))
	}
	return f, nil
}

// pow10 holds the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// pow10f32 holds the powers of ten a float32 holds exactly.
var pow10f32 = [...]float32{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

// parseNumber parses the JSON number (RFC 8259, section 6) at the start
// of p, up to the first byte that cannot continue it: k is its length.
// ok reports a valid number whose value f it computed exactly rounded by
// Clinger's fast path (W. D. Clinger, "How to read floating point numbers
// accurately", PLDI 1990): a decimal significand below 2⁵³ and a power of
// ten of at most 22, so that one correctly rounded multiplication or
// division of two exact float64 gives the correctly rounded value (for
// bits = 32, a significand below 2²⁴ and a power of at most 10 are done
// in float32 arithmetic, exact in the same way). Otherwise, for bits = 32
// the float64 is rounded again, which is exact unless it lies on
// a float32 halfway point. Any other number (more than 19 digits, a larger
// exponent, a float32 halfway point, a subnormal or overflowing float32,
// a syntax error) is not ok, and the caller reads it with
// strconv.ParseFloat. Eight digits at a time are converted with the SWAR
// method of simdjson (D. Lemire, "Parsing numbers at a gigabyte per
// second", 2021).
func parseNumber(p []byte, bits int) (k int, f float64, ok bool) {
	if len(p) >= 18 {
		if k, f, ok = parseShort(p, bits); ok {
			return k, f, ok
		}
	}
	i := 0
	neg := len(p) > 0 && p[0] == '-'
	if neg {
		i = 1
	}
	var mant uint64
	nd := 0 // the significand's digits
	if i < len(p) && p[i] == '0' {
		i++
	} else {
		start := i
		i, mant = digits(p, i, mant)
		if i == start {
			return 0, 0, false
		}
		nd = i - start
	}
	exp := 0
	if i < len(p) && p[i] == '.' {
		i++
		start := i
		i, mant = digits(p, i, mant)
		if i == start {
			return 0, 0, false
		}
		nd += i - start
		exp = start - i
	}
	if i < len(p) && p[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < len(p) && (p[i] == '+' || p[i] == '-') {
			eneg = p[i] == '-'
			i++
		}
		start, e := i, 0
		for ; i < len(p) && p[i]-'0' <= 9; i++ {
			if e < 10000 {
				e = e*10 + int(p[i]-'0')
			}
		}
		if i == start {
			return 0, 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i < len(p) && (p[i] == '.' || p[i]|0x20 == 'e' || p[i] == '+' || p[i] == '-' || p[i]-'0' <= 9) {
		return 0, 0, false // "01", "1.2.3": not one number
	}
	if nd > 19 || mant > 1<<53 || exp < -22 || exp > 22 {
		return 0, 0, false
	}
	if bits == 32 && mant < 1<<24 && exp >= -10 && exp <= 10 {
		// Clinger's fast path in float32: both operands exact.
		g := float32(mant)
		if exp < 0 {
			g /= pow10f32[-exp]
		} else {
			g *= pow10f32[exp]
		}
		if neg {
			g = -g
		}
		return i, float64(g), true
	}
	f = float64(mant)
	if exp < 0 {
		f /= pow10[-exp]
	} else {
		f *= pow10[exp]
	}
	if neg {
		f = -f
	}
	if bits == 32 {
		if a := math.Abs(f); f != 0 && (a < 0x1p-126 || a > math.MaxFloat32) {
			return 0, 0, false // subnormal or overflowing: strconv decides
		}
		if math.Float64bits(f)&(1<<29-1) == 1<<28 {
			return 0, 0, false // on a float32 halfway point: rounding again could be wrong
		}
		f = float64(float32(f))
	}
	return i, f, true
}

// nonDigits flags (0x80) each byte of the 8 of v (little-endian) that is
// not an ASCII digit, and maybe bytes after it: a byte below '0' makes
// v − 0x30… borrow, one above '9' makes v + 0x46… carry, and a borrow or
// a carry goes only into the bytes after it.
func nonDigits(v uint64) uint64 {
	return ((v + 0x4646464646464646) | (v - 0x3030303030303030)) & 0x8080808080808080
}

// leadDigits returns the value of the n leading digits of the 8 bytes of
// v (1 ≤ n ≤ 8, the first in the low byte).
func leadDigits(v uint64, n int) uint64 {
	sh := uint(8 * (8 - n)) // the digits moved to the top bytes, '0's below them
	return parseEight(v<<sh | 0x3030303030303030>>(64-sh))
}

// parseShort is parseNumber's path for the numbers most requests hold:
// -?D{1,7}(.D{1,7})?, without exponent, its significand exact in the
// float of the bits (below 2²⁴ for 32, 2⁵³ for 64), each digit run read
// 8 bytes at a time. p must have at least 18 bytes (the longest such
// number and the byte after it). ok is false for any other number, which
// parseNumber then reads; the value, when ok, is the correctly rounded
// one by Clinger's fast path, as parseNumber's.
func parseShort(p []byte, bits int) (k int, f float64, ok bool) {
	_ = p[17]
	i := 0
	neg := p[0] == '-'
	if neg {
		i = 1
	}
	// 16 bytes in two words, loaded at once: the parts of the number are
	// found in them by shifts, not by loads that wait for the last part.
	v0, v1 := le.Uint64(p[i:]), le.Uint64(p[i+8:])
	n := tz8(nonDigits(v0))
	if n == 0 || n == 8 || n > 1 && byte(v0) == '0' {
		return 0, 0, false
	}
	mant := leadDigits(v0, n)
	end := n
	c := byte(v0 >> (8 * n)) // the byte after the integer part
	exp := 0
	if c == '.' {
		// The 8 bytes after the '.': bytes n+1 … n+8 of v0, v1.
		sh := uint(8 * (n + 1))
		w := v1
		if sh < 64 {
			w = v0>>sh | v1<<(64-sh)
		}
		m := tz8(nonDigits(w))
		if m == 0 || m == 8 {
			return 0, 0, false
		}
		mant = mant*pow10u[m] + leadDigits(w, m)
		exp, end = m, n+1+m
		c = byte(w >> (8 * m))
	}
	if c == '.' || c|0x20 == 'e' || c == '+' || c == '-' {
		return 0, 0, false
	}
	if bits == 32 {
		if mant >= 1<<24 {
			return 0, 0, false
		}
		g := float32(mant) / pow10f32[exp]
		if neg {
			g = -g
		}
		return i + end, float64(g), true
	}
	if mant >= 1<<53 {
		return 0, 0, false
	}
	f = float64(mant) / pow10[exp]
	if neg {
		f = -f
	}
	return i + end, f, true
}

// fastValues reads values followed by a comma ("0.5,") into dst, as
// many as parseShort takes and dst holds while the scanner's buffer holds
// 32 bytes more, and returns how many it read: the loop of a row's
// values without a call per value (the general loop reads the rest, and
// what parseShort does not take).
func fastValues[T kernel.Float](s *scanner, dst []T, bits int) int {
	j := 0
	for j < len(dst) && s.n-s.i >= 32 {
		k, f, ok := parseShort(s.buf[s.i:s.n], bits)
		if !ok || s.buf[s.i+k] != ',' {
			break
		}
		dst[j] = T(f)
		s.i += k + 1
		j++
	}
	return j
}

// tz8 is the index of the first flagged byte of m (nonDigits), 8 if none.
func tz8(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// digits reads the decimal digits of p from i on into mant (mant·10 + d
// for each digit d, wrapping past 19 digits: the caller counts them) and
// returns the index past them.
func digits(p []byte, i int, mant uint64) (int, uint64) {
	for i+8 <= len(p) {
		v := le.Uint64(p[i:])
		n := tz8(nonDigits(v))
		if n == 0 {
			return i, mant
		}
		mant = mant*pow10u[n] + leadDigits(v, n)
		i += n
		if n < 8 {
			return i, mant
		}
	}
	for ; i < len(p) && p[i]-'0' <= 9; i++ {
		mant = mant*10 + uint64(p[i]-'0')
	}
	return i, mant
}

// pow10u holds 10^n for n in 0..8.
var pow10u = [...]uint64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}

// parseEight is the value of the 8 ASCII digits of v, the first in its
// low byte.
func parseEight(v uint64) uint64 {
	const mask, mul1, mul2 = 0x000000ff000000ff, 100 + 1000000<<32, 1 + 10000<<32
	v -= 0x3030303030303030
	v = v*10 + v>>8
	return ((v&mask)*mul1 + (v>>16&mask)*mul2) >> 32
}

// maxOf is the largest finite float of the bits.
func maxOf(bits int) float64 {
	if bits == 32 {
		return 3.4028234663852886e38
	}
	return 1.7976931348623157e308
}

// nonNumber is the error for NaN or ±Infinity at feature j of row i.
func nonNumber(i, j int, what string) *httpError {
	return bad(http.StatusBadRequest, "row %d, feature %d is %s, not a number: JSON has no NaN or ±Inf (send a finite value)", i, j, what)
}
