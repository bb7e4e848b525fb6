package interop

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

var (
	// ErrSyntax reports a malformed model file: a missing or repeated
	// header line, a count that disagrees with what follows, a token that
	// is not a number. The error names the line.
	ErrSyntax = errors.New("interop: malformed model file")
	// ErrUnsupported reports a valid file of a model this module does not
	// hold (a regression, a one-class SVM, the precomputed
	// kernel), or a model a format cannot hold (a one-vs-rest kernel SVM in
	// LIBSVM's).
	ErrUnsupported = errors.New("interop: unsupported model")
	// ErrModel reports a file whose content the model's constructor
	// refuses (it wraps the constructor's error too: expansion.ErrModel
	// for a kernel model, linear.ErrOption for a LIBLINEAR or ONNX linear one).
	ErrModel = errors.New("interop: invalid model")
)

// lines walks the lines of a text file, counting them from 1.
type lines struct {
	data []byte
	pos  int
	n    int // number of the line last returned
}

// next returns the next line without its terminator (LF or CRLF), or
// ok = false at the end.
func (l *lines) next() (line []byte, ok bool) {
	if l.pos >= len(l.data) {
		return nil, false
	}
	rest := l.data[l.pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		line, l.pos = rest, len(l.data)
	} else {
		line, l.pos = rest[:i], l.pos+i+1
	}
	l.n++
	return bytes.TrimSuffix(line, []byte{'\r'}), true
}

// errf returns an error of kind at line n.
func errf(n int, kind error, format string, args ...any) error {
	return fmt.Errorf("line %d: %w: %s", n, kind, fmt.Sprintf(format, args...))
}

// fields splits a line at spaces and tabs.
func fields(line []byte) [][]byte {
	return bytes.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
}

// number parses a finite float64.
func number(n int, tok []byte) (float64, error) {
	v, err := parseFloat(tok)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errf(n, ErrSyntax, "%q is not a finite number", tok)
	}
	return v, nil
}

// nextField returns the field of line (split at spaces and tabs) at or
// after i, and the offset after it; nil at the end of the line.
func nextField(line []byte, i int) ([]byte, int) {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	for j < len(line) && line[j] != ' ' && line[j] != '\t' {
		j++
	}
	if j == i {
		return nil, j
	}
	return line[i:j:j], j
}

// index parses a feature index in [1, 2³¹−1] as integer(n, tok, 0,
// math.MaxInt32) does (0 is refused after), quicker for plain digits.
func index(n int, tok []byte) (int, error) {
	if len(tok) > 0 && len(tok) <= 9 {
		v := 0
		for _, c := range tok {
			if c-'0' >= 10 {
				return integer(n, tok, 0, math.MaxInt32)
			}
			v = v*10 + int(c-'0')
		}
		return v, nil
	}
	return integer(n, tok, 0, math.MaxInt32)
}

// integer parses an int in [lo, hi].
func integer(n int, tok []byte, lo, hi int) (int, error) {
	v, err := strconv.Atoi(string(tok))
	if err != nil || v < lo || v > hi {
		return 0, errf(n, ErrSyntax, "%q is not an integer in [%d, %d]", tok, lo, hi)
	}
	return v, nil
}

// numbers parses the tokens as finite float64s.
func numbers(n int, toks [][]byte) ([]float64, error) {
	out := make([]float64, len(toks))
	for i, t := range toks {
		v, err := number(n, t)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// labelList parses class labels: distinct integers that fit an int32 (as
// the tools store them).
func labelList(n int, toks [][]byte) ([]int, error) {
	out := make([]int, len(toks))
	seen := make(map[int]bool, len(toks))
	for i, t := range toks {
		v, err := integer(n, t, math.MinInt32, math.MaxInt32)
		if err != nil {
			return nil, err
		}
		if seen[v] {
			return nil, errf(n, ErrSyntax, "label %d repeated", v)
		}
		seen[v] = true
		out[i] = v
	}
	return out, nil
}

// fmtFloat prints v so that strtod reads it back exactly.
func fmtFloat(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// header is the "key values..." lines before a model file's body.
type header struct {
	vals map[string][][]byte
	at   map[string]int // the line of each key
	end  int            // the line of the terminator
}

// readHeader reads header lines up to the line end alone; a key not among
// keys, a key given twice, an empty line and the end of the file are
// syntax errors.
func readHeader(l *lines, end string, keys ...string) (*header, error) {
	h := &header{vals: map[string][][]byte{}, at: map[string]int{}}
	for {
		line, ok := l.next()
		if !ok {
			return nil, errf(l.n, ErrSyntax, "the file ends before the line %q", end)
		}
		f := fields(line)
		if len(f) == 0 {
			return nil, errf(l.n, ErrSyntax, "empty header line")
		}
		key := string(f[0])
		if key == end && len(f) == 1 {
			h.end = l.n
			return h, nil
		}
		if !slices.Contains(keys, key) {
			return nil, errf(l.n, ErrSyntax, "unknown header line %q", truncate(line))
		}
		if _, dup := h.vals[key]; dup {
			return nil, errf(l.n, ErrSyntax, "%s given twice", key)
		}
		h.vals[key], h.at[key] = f[1:], l.n
	}
}

// has reports whether the header has key.
func (h *header) has(key string) bool {
	_, ok := h.vals[key]
	return ok
}

// get returns the want values of key and its line.
func (h *header) get(key string, want int) ([][]byte, int, error) {
	v, ok := h.vals[key]
	if !ok {
		return nil, 0, errf(h.end, ErrSyntax, "no %s line in the header", key)
	}
	if len(v) != want {
		return nil, 0, errf(h.at[key], ErrSyntax, "%s has %d values, want %d", key, len(v), want)
	}
	return v, h.at[key], nil
}

// one returns the single value of key and its line.
func (h *header) one(key string) ([]byte, int, error) {
	v, n, err := h.get(key, 1)
	if err != nil {
		return nil, 0, err
	}
	return v[0], n, nil
}

// truncate shortens a token quoted in an error.
func truncate(b []byte) []byte {
	if len(b) > 40 {
		return append(slices.Clip(b[:40]), "..."...)
	}
	return b
}
