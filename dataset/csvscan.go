package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"unicode/utf8"
)

// csvScanner reads the records of CSV text as encoding/csv's Reader does
// (RFC 4180, no lazy quotes, no trimming of leading space; empty lines and
// comment lines skipped, "\r\n" read as "\n", a final "\r" dropped), with
// the same errors and positions, but hands each field to a function as it
// is parsed instead of keeping the record: encoding/csv keeps an offset, a
// position and a string for every field, some 40 bytes for a field of 2
// bytes, where this keeps the line (a view of its read buffer, or the line
// gathered, grown by append) and a quoted field's content.
type csvScanner struct {
	br      *bufio.Reader
	comma   rune
	comment rune
	numLine int
	long    []byte // a line longer than br's buffer
	quoted  []byte // the content of a quoted field
}

// csvSyntaxError is a quote error at a line and a 1-based byte column
// (csv.ErrBareQuote or csv.ErrQuote).
type csvSyntaxError struct {
	line, col int
	err       error
}

func (e *csvSyntaxError) Error() string { return e.err.Error() }

func newCSVScanner(r io.Reader, comma, comment rune) *csvScanner {
	return &csvScanner{br: bufio.NewReaderSize(r, 64<<10), comma: comma, comment: comment}
}

// readLine is encoding/csv's readLine.
func (s *csvScanner) readLine() ([]byte, error) {
	line, err := s.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		s.long = append(s.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = s.br.ReadSlice('\n')
			s.long = append(s.long, line...)
		}
		line = s.long
	}
	if n := len(line); n > 0 && err == io.EOF {
		err = nil
		if line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	s.numLine++
	if n := len(line); n >= 2 && line[n-2] == '\r' && line[n-1] == '\n' {
		line[n-2] = '\n'
		line = line[:n-1]
	}
	return line, err
}

func lengthNL(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return 1
	}
	return 0
}

func nextRune(b []byte) rune {
	r, _ := utf8.DecodeRune(b)
	return r
}

// record reads the next record, calling field with each field's content
// (valid until field returns) and the line and 1-based byte column where
// it starts, as encoding/csv's FieldPos gives them. It returns the number
// of fields, io.EOF after the last record, a *csvSyntaxError, or the
// reader's error (after the fields read before it).
func (s *csvScanner) record(field func(b []byte, line, col int)) (int, error) {
	var line []byte
	var errRead error
	for errRead == nil {
		line, errRead = s.readLine()
		if s.comment != 0 && nextRune(line) == s.comment {
			line = nil
			continue
		}
		if errRead == nil && len(line) == lengthNL(line) {
			line = nil
			continue
		}
		break
	}
	if errRead == io.EOF {
		return 0, errRead
	}
	const quoteLen = 1
	commaLen := utf8.RuneLen(s.comma)
	n := 0
	var err error
	lineNo, col := s.numLine, 1
parseField:
	for {
		if len(line) == 0 || line[0] != '"' {
			i := bytes.IndexRune(line, s.comma)
			f := line
			if i >= 0 {
				f = f[:i]
			} else {
				f = f[:len(f)-lengthNL(f)]
			}
			if j := bytes.IndexByte(f, '"'); j >= 0 {
				err = &csvSyntaxError{s.numLine, col + j, csv.ErrBareQuote}
				break parseField
			}
			field(f, lineNo, col)
			n++
			if i >= 0 {
				line = line[i+commaLen:]
				col += i + commaLen
				continue parseField
			}
			break parseField
		}
		// A quoted field.
		fLine, fCol := lineNo, col
		s.quoted = s.quoted[:0]
		line = line[quoteLen:]
		col += quoteLen
		for {
			i := bytes.IndexByte(line, '"')
			switch {
			case i >= 0:
				s.quoted = append(s.quoted, line[:i]...)
				line = line[i+quoteLen:]
				col += i + quoteLen
				switch rn := nextRune(line); {
				case rn == '"':
					s.quoted = append(s.quoted, '"')
					line = line[quoteLen:]
					col += quoteLen
				case rn == s.comma:
					line = line[commaLen:]
					col += commaLen
					field(s.quoted, fLine, fCol)
					n++
					continue parseField
				case lengthNL(line) == len(line):
					field(s.quoted, fLine, fCol)
					n++
					break parseField
				default:
					err = &csvSyntaxError{s.numLine, col - quoteLen, csv.ErrQuote}
					break parseField
				}
			case len(line) > 0:
				s.quoted = append(s.quoted, line...)
				if errRead != nil {
					break parseField
				}
				col += len(line)
				line, errRead = s.readLine()
				if len(line) > 0 {
					lineNo++
					col = 1
				}
				if errRead == io.EOF {
					errRead = nil
				}
			default:
				if errRead == nil {
					err = &csvSyntaxError{lineNo, col, csv.ErrQuote}
					break parseField
				}
				field(s.quoted, fLine, fCol)
				n++
				break parseField
			}
		}
	}
	if err == nil {
		err = errRead
	}
	return n, err
}
