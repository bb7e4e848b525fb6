package dataset

import (
	"bufio"
	"bytes"
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
// byte of the longest record while it is read. A test holds them with
// fields of one character (the most values per byte) and with one long
// field (the line alone).
const (
	CSVLineGrowth  = 8
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
// up to five times its final size, the labels and line lengths more:
// ReadCSV allocates at most CSVInputGrowth bytes per byte of input, plus
// CSVLineGrowth per byte of its longest record while it is read (the line
// gathered past the 64 KiB read buffer). Records are parsed as
// encoding/csv parses them, field by field, without keeping the record
// (encoding/csv keeps an offset, a position and a string for every field,
// some 40 bytes for a field of 2: a line of a million features cost 100
// times its size that way, 27 times here).
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
	cs := newCSVScanner(lr, opts.Comma, opts.Comment)
	at := func(line, col int, kind error, format string, args ...any) error {
		return &ParseError{File: opts.File, Line: line, Col: col, Err: errorf(kind, format, args...)}
	}
	d := &Data[T]{}
	width, label, firstLine := -1, 0, 0
	// A record's fields are parsed as they come (see csvScanner); the
	// record's first error in field order is kept, and reported after the
	// checks of the whole record that come first (the label column, the
	// field count).
	var (
		nf, lab      int
		first, skip  bool
		bad          error
		badField     int
		pos0, posW   [2]int // where fields 0 and width start
		last         []byte // the first row's last field, when it is the label
		lastPos      [2]int
		y            int
		haveY        bool
		lastIsLabel  bool
		lastAppended bool
		rowX         int
	)
	field := func(b []byte, line, col int) {
		j := nf
		nf++
		switch {
		case j == 0:
			pos0 = [2]int{line, col}
		case !first && j == width:
			posW = [2]int{line, col}
		}
		if skip || bad != nil || !first && j >= width {
			if lastIsLabel {
				last, lastPos = append(last[:0], b...), [2]int{line, col}
			}
			return
		}
		lastAppended = false
		if lastIsLabel {
			last, lastPos = append(last[:0], b...), [2]int{line, col}
		}
		s := bytes.TrimSpace(b)
		switch {
		case len(s) == 0:
			bad, badField = at(line, col, ErrSyntax, "empty field %d", j+1), j
		case j == lab:
			v, ok := parseLabel(s)
			if !ok {
				bad, badField = at(line, col, ErrLabel, "label %s is not an integer", quote(s)), j
				return
			}
			y, haveY = v, true
		default:
			v, err := parseFloat[T](s, bits)
			if err != nil {
				bad, badField = at(line, col, errKind(err), "%s", err.(*kindError).msg), j
				return
			}
			d.X = pages.Append(d.X, v)
			lastAppended = true
		}
	}
	for {
		first = width < 0
		skip = first && opts.Header
		lab, lastIsLabel = label, false
		if first {
			lab = opts.LabelColumn
			lastIsLabel = lab == -1
		}
		nf, bad, haveY, lastAppended, rowX = 0, nil, false, false, len(d.X)
		_, err := cs.record(field)
		if err == io.EOF {
			break
		}
		if err != nil {
			if lr.err != nil && err == lr.err {
				// The line or record got too long.
				return nil, &ParseError{File: opts.File, Line: lr.errLine, Err: lr.err}
			}
			if se, ok := err.(*csvSyntaxError); ok {
				// At the end of the input the column may be the one after
				// the last line's newline; keep positions inside the line.
				col := min(se.col, lr.length(se.line)+1)
				return nil, &ParseError{File: opts.File, Line: se.line, Col: col, Err: errorf(ErrSyntax, "%v", se.err)}
			}
			return nil, &ParseError{File: opts.File, Err: err}
		}
		if first {
			width = nf
			firstLine = pos0[0]
			label = opts.LabelColumn
			if label == -1 {
				label = width - 1
			}
			if label >= width {
				return nil, at(pos0[0], pos0[1], ErrInvalid, "label column %d out of range: the first row has %d fields", label, width)
			}
			d.Cols = width - 1
			if opts.Header {
				continue
			}
			if lastIsLabel {
				// The last field was read as a value: it is the label.
				if bad != nil && badField == nf-1 {
					bad = nil
				} else if bad == nil && lastAppended {
					d.X = d.X[:len(d.X)-1]
				}
				if bad == nil {
					s := bytes.TrimSpace(last)
					if len(s) == 0 {
						return nil, at(lastPos[0], lastPos[1], ErrSyntax, "empty field %d", nf)
					}
					v, ok := parseLabel(s)
					if !ok {
						return nil, at(lastPos[0], lastPos[1], ErrLabel, "label %s is not an integer", quote(s))
					}
					y, haveY = v, true
				}
			}
		} else if nf != width {
			p := pos0
			if nf > width {
				p = posW
			}
			return nil, at(p[0], p[1], ErrRagged, "row has %d fields, want %d as on line %d", nf, width, firstLine)
		}
		if bad != nil {
			return nil, bad
		}
		if !haveY || len(d.X)-rowX != d.Cols {
			return nil, at(pos0[0], pos0[1], ErrInvalid, "row of %d values and label %v", len(d.X)-rowX, haveY) // not expected
		}
		d.Y = append(d.Y, y)
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
// (without its "\n" or "\r\n"), for clamping the columns the record
// reader reports, and stops with an error wrapping ErrLineTooLong once a
// record gets longer than max bytes. It follows CSV quoting (RFC 4180) to
// tell where records end: a newline ends one unless it lies inside a
// quoted field, and a line that starts a record with the comment character
// is a comment, whose quotes do not count. Input that the record reader
// rejects for its quotes stops at that line, which is bounded.
//
// The record reader (csvScanner) gathers a line longer than its read
// buffer by append (some three times the line's length in all), so a
// record longer than passBytes is held back past its first passBytes, in
// chunks (about its length in memory), until its end shows that it is
// within max: a record past the limit costs about the limit, not three
// times it.
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
// record ends (the record reader then reports a syntax error in that part
// first).
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
