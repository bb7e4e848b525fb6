package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rosenblatt-go/rosenblatt/internal/pages"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// CSVOptions configures ReadCSV, LoadCSV and WriteCSV. The zero value reads
// comma-separated rows without a header whose first field is the label.
type CSVOptions struct {
	// LabelColumn is the 0-based index of the label field; -1 means the last
	// field. The other fields, in order, are the features.
	LabelColumn int
	// Header says that the first record holds column names: the reader
	// skips it (it still sets the expected field count) and the writer
	// writes one ("y" for the label, "x1".."xn" for the features).
	Header bool
	// Comma is the field separator; 0 means ','. It must be a valid rune
	// other than '\r', '\n', '"' and the Unicode replacement character.
	Comma rune
	// Comment, if not 0, starts a comment line: a line that begins with it
	// is ignored. It must differ from Comma.
	Comment rune
	// File names the input in error messages. LoadCSV sets it to the path
	// when it is empty.
	File string
	// MaxLineBytes is the longest line accepted, in bytes without the line
	// terminator, and also the longest record (a record spans several lines
	// when a quoted field holds newlines); a longer one fails with an error
	// wrapping ErrLineTooLong. 0 means DefaultMaxLineBytes.
	MaxLineBytes int
	// MaxGzipRatio bounds, for LoadCSV of a gzip-compressed file, the
	// bytes of text per compressed byte (plus GzipSlack); past it the read
	// fails with an error wrapping ErrTooLarge and ErrGzipRatio. 0 means
	// DefaultGzipRatio; a negative value, no bound but deflate's.
	MaxGzipRatio int
}

// validDelim reports whether r can separate or comment CSV fields, using
// the rules of encoding/csv.
func validDelim(r rune) bool {
	return r != 0 && r != '"' && r != '\r' && r != '\n' && utf8.ValidRune(r) && r != utf8.RuneError
}

// CSVLineGrowth and CSVInputGrowth bound what ReadCSV allocates (see
// ReadCSV): CSVInputGrowth bytes per byte of input, plus CSVLineGrowth per
// byte of the longest record while it is parsed. A test holds them with
// the worst case, fields of one character.
const (
	CSVLineGrowth  = 120
	CSVInputGrowth = 32
)

// normalize checks opts and fills in defaults.
func (o CSVOptions) normalize() (CSVOptions, error) {
	if o.Comma == 0 {
		o.Comma = ','
	}
	switch {
	case o.LabelColumn < -1:
		return o, errorf(ErrInvalid, "invalid label column %d", o.LabelColumn)
	case o.MaxLineBytes < 0:
		return o, errorf(ErrInvalid, "invalid MaxLineBytes %d", o.MaxLineBytes)
	case !validDelim(o.Comma):
		return o, errorf(ErrInvalid, "invalid separator %q", o.Comma)
	case o.Comment != 0 && (!validDelim(o.Comment) || o.Comment == o.Comma):
		return o, errorf(ErrInvalid, "invalid comment character %q", o.Comment)
	}
	return o, nil
}

// ReadCSV reads a data set from delimiter-separated text (RFC 4180 CSV, as
// encoding/csv reads it: quoted fields, CRLF line ends and blank lines are
// fine). Every row must have as many fields as the first (header or data)
// row; one of them is the integer label (see CSVOptions.LabelColumn), the
// rest are the features, parsed as T with correct rounding. Spaces around a
// field are ignored; empty fields, NaN and Inf are errors. Numbers are
// decimal, as for ReadLIBSVM: "1_000" and "0x1p-3" are syntax errors.
//
// Memory is proportional to the input: every value takes at least two bytes
// of it ("0,"), so the matrix takes at most 2 (float32) or 4 (float64) bytes
// per byte of input, and no line or record longer than opts.MaxLineBytes is
// buffered. Allocated in all, the matrix grown a quarter at a time takes
// up to five times its final size, the labels and line lengths more. A
// record is parsed by encoding/csv, which keeps for every field its
// offset, its position and its string (some 40 bytes for a field of 2, in
// slices grown by append): while a record is read it takes up to
// CSVLineGrowth bytes per byte of it. So ReadCSV allocates at most
// CSVInputGrowth bytes per byte of input plus CSVLineGrowth per byte of
// its longest record: a file of one wide line (a million features on a
// line of 2 MB) about 100 times its size, one of many short lines about 25
// times (most of it freed as the matrix grows). Lower MaxLineBytes to
// bound the longest record of input you do not trust (the default allows
// 120 × 64 MiB).
//
// Errors in the content are *ParseError values carrying the line and the
// 1-based byte column of the offending field, wrapping ErrSyntax, ErrRagged,
// ErrLabel, ErrNonFinite, ErrLineTooLong, ErrInvalid or ErrEmpty.
func ReadCSV[T kernel.Float](r io.Reader, opts CSVOptions) (*Data[T], error) {
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

// LoadCSV reads the CSV file at path with ReadCSV; the file may be
// gzip-compressed. A missing file gives an error wrapping fs.ErrNotExist.
func LoadCSV[T kernel.Float](path string, opts CSVOptions) (*Data[T], error) {
	if opts.File == "" {
		opts.File = path
	}
	return readFile(path, opts.MaxGzipRatio, func(r io.Reader) (*Data[T], error) { return ReadCSV[T](r, opts) })
}

// WriteCSV writes d as CSV with the layout opts describes (label column,
// header, separator; Comment and File are ignored), one row per line, values
// in the shortest form that parses back to the same T: ReadCSV with the same
// options, Comment 0 (a written line may start with any character of a
// number), returns d again bit for bit. It returns an error if d is not valid
// (see Data.Validate) or opts is invalid, such as a label column beyond the
// last feature or a separator that can occur inside a number.
func WriteCSV[T kernel.Float](w io.Writer, d *Data[T], opts CSVOptions) error {
	opts, err := opts.normalize()
	if err != nil {
		return err
	}
	if err := d.Validate(); err != nil {
		return err
	}
	if strings.ContainsRune("0123456789+-.eE", opts.Comma) {
		return errorf(ErrInvalid, "separator %q can occur inside a number", opts.Comma)
	}
	label := opts.LabelColumn
	if label == -1 {
		label = d.Cols
	}
	if label > d.Cols {
		return errorf(ErrInvalid, "label column %d out of range for %d features", label, d.Cols)
	}
	bits := bitsOf[T]()
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	if opts.Header {
		for j := range d.Cols + 1 {
			if j > 0 {
				b = utf8.AppendRune(b, opts.Comma)
			}
			switch {
			case j == label:
				b = append(b, 'y')
			case j < label:
				b = append(b, 'x')
				b = strconv.AppendInt(b, int64(j+1), 10)
			default:
				b = append(b, 'x')
				b = strconv.AppendInt(b, int64(j), 10)
			}
		}
		b = append(b, '\n')
	}
	for i := range d.Rows {
		row := d.Row(i)
		for j := range d.Cols + 1 {
			if j > 0 {
				b = utf8.AppendRune(b, opts.Comma)
			}
			switch {
			case j == label:
				b = appendInt(b, d.Y[i])
			case j < label:
				b = appendFloat(b, row[j], bits)
			default:
				b = appendFloat(b, row[j-1], bits)
			}
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	return bw.Flush()
}

// lineLenReader passes reads through, records the length of every line
// (without its "\n" or "\r\n"), for clamping the columns csv reports, and
// stops with an error wrapping ErrLineTooLong once a record gets longer than
// max bytes. It follows csv's quoting to tell where records end: a newline
// ends one unless it lies inside a quoted field, and a line that starts a
// record with the comment character is a comment, whose quotes do not count.
// Input that csv rejects for its quotes stops at that line, which is
// bounded.
//
// csv buffers a record whole, growing its buffer by append (some five
// times the record's length in all), so a record longer than passBytes is
// held back past its first passBytes, in chunks (about its length in
// memory), until its end shows that it is within max: a record past the
// limit costs about the limit, not five times it.
type lineLenReader struct {
	r       io.Reader
	max     int    // longest record accepted, without its final terminator
	comment []byte // the comment character in UTF-8, or nil
	lens    []int  // lengths of the complete lines so far, including a final '\r'
	cur     int    // length of the current, unfinished line
	rec     int    // length of the current record so far
	recLine int    // complete lines before the current record
	quoted  bool   // inside a quoted field
	cmatch  int    // bytes of comment matched at the start of the line; -1: none
	inCmt   bool   // the current line is a comment
	cr      bool   // the last byte of the current line so far is '\r'
	err     error  // the ErrLineTooLong error, once met
	errLine int    // the line it concerns
	q       chunks // bytes read from r and not yet passed on
	free    int    // bytes at the front of q that may be passed on
	rerr    error  // r's error (io.EOF included), once met
}

// passBytes is how much of a record lineLenReader passes on before the
// record ends (csv then reports a syntax error in that part first).
const passBytes = 64 << 10

// newLineLenReader returns a lineLenReader of r for records of at most max
// bytes (0: DefaultMaxLineBytes) with comment lines starting with comment
// (0: none).
func newLineLenReader(r io.Reader, max int, comment rune) *lineLenReader {
	if max == 0 {
		max = DefaultMaxLineBytes
	}
	l := &lineLenReader{r: r, max: max}
	if comment != 0 {
		l.comment = utf8.AppendRune(nil, comment)
	}
	return l
}

func (l *lineLenReader) Read(p []byte) (int, error) {
	for {
		switch {
		case l.free > 0:
			n := l.q.read(p[:min(len(p), l.free)])
			l.free -= n
			return n, nil
		case l.err != nil:
			return 0, l.err
		case l.rerr != nil && l.q.n > 0:
			// The input ends within a record, which ends there.
			l.free = l.q.n
			continue
		case l.rerr != nil:
			return 0, l.rerr
		case len(p) == 0:
			return 0, nil
		}
		// Room for the rest of the current record and its "\r\n", so
		// that the pieces held pass the limit by at most minChunk.
		buf := l.q.space(l.q.n + max(l.max+2-l.rec, minChunk))
		n, err := l.r.Read(buf)
		l.q.commit(n)
		scanned := l.scan(buf[:n])
		// Pass on all but the part of an unfinished record past its first
		// passBytes, and what lies past a record found too long.
		l.free = max(l.q.n-max(l.rec-passBytes, 0)-(n-scanned), 0)
		l.rerr = err
		if n == 0 && err == nil {
			return 0, nil
		}
	}
}

// scan follows b, the next bytes of the input, and returns how many of
// them it read: all, or those up to the end of a record it finds too long
// (setting l.err).
func (l *lineLenReader) scan(b []byte) int {
	for off := 0; off < len(b); {
		// One line, or the part of it in b.
		seg := b[off:]
		k := bytes.IndexByte(seg, '\n')
		if k >= 0 {
			seg = seg[:k]
		}
		// A comment character starting a record's line; its bytes are
		// not quotes.
		q := 0
		for l.cmatch >= 0 && q < len(seg) {
			if l.cmatch < len(l.comment) && seg[q] == l.comment[l.cmatch] {
				l.cmatch++
				q++
				if l.cmatch == len(l.comment) {
					l.inCmt, l.cmatch = true, -1
				}
			} else {
				l.cmatch = -1
			}
		}
		if !l.inCmt && bytes.Count(seg[q:], quoteChar)%2 == 1 {
			l.quoted = !l.quoted
		}
		l.cur += len(seg)
		l.rec += len(seg)
		if len(seg) > 0 {
			l.cr = seg[len(seg)-1] == '\r'
		}
		// The length of the record so far: without a final '\r', which
		// may start its "\r\n", unless a newline inside quotes follows.
		length := l.rec
		if k >= 0 && l.quoted {
			l.rec++ // the newline is part of the record
			length = l.rec
		} else if l.cr {
			length--
		}
		if length > l.max {
			l.err = l.tooLong()
			return off + len(seg)
		}
		if k < 0 {
			break
		}
		l.lens = append(l.lens, l.cur)
		l.cur, l.cr, l.inCmt = 0, false, false
		if l.quoted {
			l.cmatch = -1
		} else {
			l.rec, l.cmatch, l.recLine = 0, 0, len(l.lens)
		}
		off += k + 1
	}
	return len(b)
}

// quoteChar is the CSV quote character, for bytes.Count.
var quoteChar = []byte{'"'}

// tooLong records and returns the error for the current record.
func (l *lineLenReader) tooLong() error {
	l.errLine = len(l.lens) + 1
	if first := l.recLine + 1; first < l.errLine {
		return errorf(ErrLineTooLong, "record quoted across lines %d to %d longer than %d bytes (the MaxLineBytes option)",
			first, l.errLine, l.max)
	}
	return errorf(ErrLineTooLong, "line longer than %d bytes (the MaxLineBytes option)", l.max)
}

// length returns the length of 1-based line n without its terminator.
func (l *lineLenReader) length(n int) int {
	switch {
	case n >= 1 && n <= len(l.lens):
		return l.lens[n-1]
	case n == len(l.lens)+1:
		return l.cur
	}
	return 0
}
