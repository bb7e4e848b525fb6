package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/pages"
	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// readCSVEncoding is ReadCSV as it was on encoding/csv's Reader, the
// reference TestReadCSVIsEncodingCSV compares it with.
func readCSVEncoding[T kernel.Float](r io.Reader, opts CSVOptions) (*Data[T], error) {
	opts, err := opts.normalize()
	if err != nil {
		return nil, &ParseError{File: opts.File, Err: err}
	}
	bits := bitsOf[T]()
	lr := newLineLenReader(r, opts.MaxLineBytes, opts.Comment)
	cr := csv.NewReader(lr)
	cr.Comma = opts.Comma
	cr.Comment = opts.Comment
	cr.FieldsPerRecord = -1 // checked here, to report ErrRagged with a position
	cr.ReuseRecord = true
	fail := func(field int, kind error, format string, args ...any) error {
		line, col := cr.FieldPos(field)
		return &ParseError{File: opts.File, Line: line, Col: col, Err: errorf(kind, format, args...)}
	}
	d := &Data[T]{}
	width, label, firstLine := -1, 0, 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			if lr.err != nil && err == lr.err {
				// The line or record got too long. (csv reports a syntax
				// error in the lines before it first, having read them
				// ahead, and one in the part of the line it got.)
				return nil, &ParseError{File: opts.File, Line: lr.errLine, Err: lr.err}
			}
			if pe, ok := err.(*csv.ParseError); ok {
				if errors.Is(pe.Err, csv.ErrBareQuote) || errors.Is(pe.Err, csv.ErrQuote) {
					// At the end of the input csv reports the column after
					// the last line's newline; keep positions inside the line.
					col := min(pe.Column, lr.length(pe.Line)+1)
					return nil, &ParseError{File: opts.File, Line: pe.Line, Col: col,
						Err: errorf(ErrSyntax, "%v", pe.Err)}
				}
				// csv wraps the underlying reader's error in a ParseError too.
				return nil, &ParseError{File: opts.File, Line: pe.Line, Err: pe.Err}
			}
			return nil, &ParseError{File: opts.File, Err: err}
		}
		if width < 0 {
			width = len(rec)
			firstLine, _ = cr.FieldPos(0)
			label = opts.LabelColumn
			if label == -1 {
				label = width - 1
			}
			if label >= width {
				return nil, fail(0, ErrInvalid, "label column %d out of range: the first row has %d fields", label, width)
			}
			d.Cols = width - 1
			if opts.Header {
				continue
			}
		}
		if len(rec) != width {
			f := 0
			if len(rec) > width {
				f = width
			}
			return nil, fail(f, ErrRagged, "row has %d fields, want %d as on line %d", len(rec), width, firstLine)
		}
		for j, field := range rec {
			s := strings.TrimSpace(field)
			if s == "" {
				return nil, fail(j, ErrSyntax, "empty field %d", j+1)
			}
			if j == label {
				y, ok := parseLabel([]byte(s))
				if !ok {
					return nil, fail(j, ErrLabel, "label %s is not an integer", quote([]byte(s)))
				}
				d.Y = append(d.Y, y)
				continue
			}
			v, err := parseFloat[T]([]byte(s), bits)
			if err != nil {
				return nil, fail(j, errKind(err), "%s", err.(*kindError).msg)
			}
			d.X = pages.Append(d.X, v)
		}
		d.Rows++
	}
	if d.Rows == 0 {
		return nil, &ParseError{File: opts.File, Err: errorf(ErrEmpty, "no data rows")}
	}
	return d, nil
}

// TestReadCSVIsEncodingCSV: on random text of digits, separators, quotes,
// blanks, line ends and comments, with every layout option, ReadCSV
// returns the data or the error (kind, position, message) that it
// returned on encoding/csv (8000 texts; 1000 in a small run: package
// smalltest).
func TestReadCSVIsEncodingCSV(t *testing.T) {
	alphabet := []string{"1", "2", "-", ".5", "x", ",", "\"", "\n", "\r\n", " ", "#", ";", "", "1,2\n", "3,4,5\n"}
	rng := rand.New(rand.NewPCG(11, 12))
	valid := 0
	inputs := smalltest.N(8000, 1000)
	for range inputs {
		var b strings.Builder
		if rng.IntN(3) == 0 {
			for range rng.IntN(24) {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
		} else {
			// Rows of numbers, now and then a bad field, a ragged row, a
			// blank or comment line.
			good := []string{"1", "-2", "0.5", " 3 ", "\"4\"", "1e2", "+7"}
			bad := []string{"x", "", "\"", "1\"2", "\"5\n6\"", "1.5", "\"\"\"\""}
			w := 1 + rng.IntN(4)
			for range 1 + rng.IntN(5) {
				switch rng.IntN(12) {
				case 0:
					b.WriteString("\n")
					continue
				case 1:
					b.WriteString("# c\"\n")
					continue
				}
				n := w
				if rng.IntN(10) == 0 {
					n += rng.IntN(3) - 1
				}
				for j := range n {
					if j > 0 {
						b.WriteString(",")
					}
					if rng.IntN(15) == 0 {
						b.WriteString(bad[rng.IntN(len(bad))])
					} else {
						b.WriteString(good[rng.IntN(len(good))])
					}
				}
				b.WriteString([]string{"\n", "\r\n", ""}[rng.IntN(3)])
			}
		}
		in := b.String()
		opts := CSVOptions{LabelColumn: rng.IntN(4) - 1, Header: rng.IntN(3) == 0, MaxLineBytes: []int{0, 4, 9}[rng.IntN(3)]}
		if rng.IntN(3) == 0 {
			opts.Comment = '#'
		}
		if rng.IntN(6) == 0 {
			opts.Comma = ';'
		}
		got, gerr := ReadCSV[float64](strings.NewReader(in), opts)
		want, werr := readCSVEncoding[float64](strings.NewReader(in), opts)
		same := fmt.Sprint(gerr) == fmt.Sprint(werr)
		if gerr == nil && werr == nil {
			same = dataEqual(got, want)
			valid++
		}
		if !same {
			t.Fatalf("%q %+v:\ngot  %v %v\nwant %v %v", in, opts, got, gerr, want, werr)
		}
	}
	if valid < inputs/20 {
		t.Errorf("only %d of the inputs were valid", valid)
	}
	t.Logf("%d valid inputs", valid)
}
