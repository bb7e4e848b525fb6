package text

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Format is a file format of labelled documents.
type Format uint8

const (
	// FastText is fastText's format: a line per document, its labels the
	// leading words "__label__NAME" (NAME their name), the rest its text.
	// A "__label__" word after the first word of text is text.
	FastText Format = iota + 1
	// TSV is a line per document, fields separated by tabs, unquoted.
	TSV
	// CSV is RFC 4180 CSV (encoding/csv): quoted fields may hold commas,
	// quotes and line breaks.
	CSV
	// Lines is one document per line, all of it text (a blank line is an
	// empty document), with the labels in a second file of one label per
	// line (ReaderOptions.Labels): line i of one is the label of line i of
	// the other.
	Lines
)

// String returns "fasttext", "tsv" or "csv".
func (f Format) String() string {
	switch f {
	case FastText:
		return "fasttext"
	case TSV:
		return "tsv"
	case CSV:
		return "csv"
	case Lines:
		return "lines"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat is the inverse of String.
func ParseFormat(s string) (Format, error) {
	for _, f := range []Format{FastText, TSV, CSV, Lines} {
		if strings.EqualFold(s, f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("%w: format %q (want fasttext, tsv, csv or lines)", ErrFormat, s)
}

// LabelPrefix starts a label word of fastText's format.
const LabelPrefix = "__label__"

// IsFastText reports whether the first line of prefix that is not blank
// starts with LabelPrefix: how a fastText file is told by its content.
func IsFastText(prefix []byte) bool {
	for len(prefix) > 0 {
		line := prefix
		if i := bytes.IndexByte(prefix, '\n'); i >= 0 {
			line, prefix = prefix[:i], prefix[i+1:]
		} else {
			prefix = nil
		}
		line = bytes.TrimLeft(line, " \t\r\ufeff")
		if len(line) > 0 {
			return bytes.HasPrefix(line, []byte(LabelPrefix))
		}
	}
	return false
}

// DefaultMaxLine is ReaderOptions.MaxLine when zero: 16 MiB.
const DefaultMaxLine = 16 << 20

// ReaderOptions configure a Reader.
type ReaderOptions struct {
	Format Format
	// LabelColumn and TextColumn are the 0-based fields of TSV and CSV
	// that hold the label and the text; both 0 means label 0, text 1.
	LabelColumn, TextColumn int
	// Header skips the first record of TSV and CSV.
	Header bool
	// MultiLabel accepts fastText lines of several labels (Labels returns
	// them all); by default such a line is an error naming it.
	MultiLabel bool
	// Unlabelled accepts fastText lines without a label (documents to
	// predict); by default such a line is an error naming it.
	Unlabelled bool
	// MaxLine bounds a line (a record of CSV) in bytes; 0 means
	// DefaultMaxLine.
	MaxLine int
	// Labels are the labels of Lines, one per line (surrounding spaces
	// trimmed; a blank one is an error naming its line), as many lines as
	// the documents have: a file with more or fewer is refused, naming
	// the first line without a partner. Nil reads the documents without
	// labels, which needs Unlabelled.
	Labels io.Reader
}

// Reader reads labelled documents one at a time, in bounded memory: one
// line (one CSV record) at a time.
type Reader struct {
	opt    ReaderOptions
	br     *bufio.Reader
	cr     *csv.Reader
	line   int
	labels []string
	doc    []byte
	buf    []byte
	lab    *Reader // Lines: the reader of the labels' lines
	size   int64   // the bytes of a regular file read, else 0 (ReadAll's estimate)
}

// NewReader returns a reader of r.
func NewReader(r io.Reader, opt ReaderOptions) (*Reader, error) {
	if opt.MaxLine <= 0 {
		opt.MaxLine = DefaultMaxLine
	}
	if opt.LabelColumn == 0 && opt.TextColumn == 0 {
		opt.TextColumn = 1
	}
	switch {
	case opt.Format < FastText || opt.Format > Lines:
		return nil, fmt.Errorf("%w: %s", ErrFormat, opt.Format)
	case opt.LabelColumn < 0 || opt.TextColumn < 0 || opt.LabelColumn == opt.TextColumn:
		return nil, fmt.Errorf("%w: label column %d, text column %d", ErrFormat, opt.LabelColumn, opt.TextColumn)
	case opt.Format == Lines && opt.Labels == nil && !opt.Unlabelled:
		return nil, fmt.Errorf("%w: one document per line needs its labels (ReaderOptions.Labels, the flag -labels)", ErrFormat)
	case opt.Format != Lines && opt.Labels != nil:
		return nil, fmt.Errorf("%w: labels in a second file go with one document per line (format lines), not %s", ErrFormat, opt.Format)
	}
	rd := &Reader{opt: opt, br: bufio.NewReaderSize(r, 256<<10)}
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			rd.size = fi.Size()
		}
	}
	if opt.Labels != nil {
		rd.lab = &Reader{opt: opt, br: bufio.NewReaderSize(opt.Labels, 16<<10)}
	}
	if opt.Format == CSV {
		rd.cr = csv.NewReader(&limitedLines{r: rd.br, max: opt.MaxLine})
		rd.cr.FieldsPerRecord = -1
		rd.cr.ReuseRecord = true
	}
	return rd, nil
}

// limitedLines refuses a line longer than max bytes, so that encoding/csv
// never buffers more.
type limitedLines struct {
	r   *bufio.Reader
	max int
	cur int
}

var errLongLine = errors.New("line too long")

func (l *limitedLines) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			l.cur = 0
		} else if l.cur++; l.cur > l.max {
			return 0, errLongLine
		}
	}
	return n, err
}

// Line returns the number (from 1) of the line the last record began on.
func (r *Reader) Line() int { return r.line }

// Labels returns the labels of the last record (one, or several with
// MultiLabel, or none for an unlabelled line). The slice is reused.
func (r *Reader) Labels() []string { return r.labels }

// Next reads the next document: its first label ("" for none) and its
// text, valid until the next call. It returns io.EOF after the last one;
// other errors wrap ErrFormat or ErrTooLarge and name the line.
func (r *Reader) Next() (label string, doc []byte, err error) {
	for {
		if r.opt.Format == CSV {
			err = r.nextCSV()
		} else {
			err = r.nextLine()
		}
		if err != nil {
			return "", nil, err
		}
		if r.doc == nil { // a blank line
			continue
		}
		if len(r.labels) > 0 {
			label = r.labels[0]
		}
		return label, r.doc, nil
	}
}

func (r *Reader) errorf(base error, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", base, r.line, fmt.Sprintf(format, args...))
}

// readLine reads one line into r.buf, without its line break.
func (r *Reader) readLine() error {
	r.buf = r.buf[:0]
	r.line++
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(r.buf)+len(chunk) > r.opt.MaxLine+1 {
			return r.errorf(ErrTooLarge, "longer than %d bytes (ReaderOptions.MaxLine, the flag -max-line)", r.opt.MaxLine)
		}
		r.buf = append(r.buf, chunk...)
		switch err {
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(r.buf) == 0 {
				return io.EOF
			}
		case nil:
		default:
			return err
		}
		r.buf = bytes.TrimSuffix(bytes.TrimSuffix(r.buf, []byte("\n")), []byte("\r"))
		if r.line == 1 {
			r.buf = bytes.TrimPrefix(r.buf, []byte("\ufeff"))
		}
		return nil
	}
}

func (r *Reader) nextLine() error {
	if err := r.readLine(); err != nil {
		if err == io.EOF && r.lab != nil {
			if err := r.lab.readLine(); err != io.EOF {
				if err != nil {
					return fmt.Errorf("the labels: %w", err)
				}
				return fmt.Errorf("%w: the labels have more lines than the %d documents: label line %d (%.40q) has no document", ErrFormat, r.line-1, r.lab.line, r.lab.buf)
			}
		}
		return err
	}
	r.labels = r.labels[:0]
	r.doc = nil
	if r.opt.Format == Lines {
		r.doc = r.buf[:len(r.buf):len(r.buf)] // a blank line is an empty document
		if r.lab == nil {
			return nil
		}
		if err := r.lab.readLine(); err != nil {
			if err == io.EOF {
				return r.errorf(ErrFormat, "no label: the labels have %d lines, fewer than the documents", r.lab.line-1)
			}
			return fmt.Errorf("the labels: %w", err)
		}
		lab := strings.TrimSpace(string(r.lab.buf))
		if lab == "" {
			return fmt.Errorf("%w: line %d of the labels: an empty label", ErrFormat, r.lab.line)
		}
		r.labels = append(r.labels, lab)
		return nil
	}
	if r.opt.Format == TSV {
		if r.opt.Header && r.line == 1 {
			return nil
		}
		if len(bytes.TrimSpace(r.buf)) == 0 {
			return nil
		}
		var lab, doc []byte
		var n int
		for f := range bytes.SplitSeq(r.buf, []byte("\t")) {
			switch n {
			case r.opt.LabelColumn:
				lab = f
			case r.opt.TextColumn:
				doc = f
			}
			n++
		}
		if n <= max(r.opt.LabelColumn, r.opt.TextColumn) {
			return r.errorf(ErrFormat, "%d fields, the label is field %d and the text field %d (from 1)", n, r.opt.LabelColumn+1, r.opt.TextColumn+1)
		}
		return r.set(string(lab), doc)
	}
	rest := bytes.TrimLeft(r.buf, " \t\v\f")
	if len(rest) == 0 {
		return nil
	}
	for bytes.HasPrefix(rest, []byte(LabelPrefix)) {
		end := bytes.IndexAny(rest, " \t\v\f")
		if end < 0 {
			end = len(rest)
		}
		name := rest[len(LabelPrefix):end]
		if len(name) == 0 {
			return r.errorf(ErrFormat, "an empty label %q", LabelPrefix)
		}
		r.labels = append(r.labels, string(name))
		rest = bytes.TrimLeft(rest[end:], " \t\v\f")
	}
	switch {
	case len(r.labels) == 0 && !r.opt.Unlabelled:
		return r.errorf(ErrFormat, "no %sNAME label", LabelPrefix)
	case len(r.labels) > 1 && !r.opt.MultiLabel:
		return r.errorf(ErrFormat, "%d labels (%s…); several labels per document need MultiLabel (the flag -multilabel)", len(r.labels), LabelPrefix+r.labels[0])
	}
	r.doc = rest[:len(rest):len(rest)]
	return nil
}

// set records one label and the document.
func (r *Reader) set(lab string, doc []byte) error {
	lab = strings.TrimSpace(lab)
	if lab == "" {
		return r.errorf(ErrFormat, "an empty label")
	}
	r.labels = append(r.labels[:0], lab)
	r.doc = doc
	if r.doc == nil {
		r.doc = r.buf[:0]
	}
	return nil
}

func (r *Reader) nextCSV() error {
	r.labels = r.labels[:0]
	r.doc = nil
	rec, err := r.cr.Read()
	if err == nil {
		r.line, _ = r.cr.FieldPos(0)
	}
	line := r.line
	switch {
	case errors.Is(err, errLongLine):
		return fmt.Errorf("%w: a line after line %d is longer than %d bytes (ReaderOptions.MaxLine, the flag -max-line)", ErrTooLarge, r.line, r.opt.MaxLine)
	case err == io.EOF:
		return io.EOF
	case err != nil:
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if r.opt.Header && line == 1 {
		return nil
	}
	if len(rec) <= max(r.opt.LabelColumn, r.opt.TextColumn) {
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			return nil
		}
		return r.errorf(ErrFormat, "%d fields, the label is field %d and the text field %d (from 1)", len(rec), r.opt.LabelColumn+1, r.opt.TextColumn+1)
	}
	return r.set(rec[r.opt.LabelColumn], []byte(rec[r.opt.TextColumn]))
}

// Names numbers label names in the order they first appear: the first is
// label 0.
type Names struct {
	names []string
	ids   map[string]int
}

// ID returns the label of name, numbering a new name.
func (n *Names) ID(name string) int {
	if id, ok := n.ids[name]; ok {
		return id
	}
	if n.ids == nil {
		n.ids = map[string]int{}
	}
	n.ids[name] = len(n.names)
	n.names = append(n.names, name)
	return len(n.names) - 1
}

// Lookup returns the label of name, if it has one.
func (n *Names) Lookup(name string) (int, bool) {
	id, ok := n.ids[name]
	return id, ok
}

// List returns the names, label 0 first.
func (n *Names) List() []string { return n.names }

// ReadAll featurizes every document of r with f into a CSR matrix in one
// pass, numbering labels by names (the first label of each document); the
// documents are not kept. It featurizes on up to GOMAXPROCS goroutines
// (at most 8) while it reads, which gives the same matrix as one.
func ReadAll[T kernel.Float](r *Reader, f *Featurizer, names *Names) (*dataset.CSR[T], error) {
	if w := readWorkers(); w > 1 {
		return readAllWorkers[T](r, f, names, w)
	}
	rows := newRows[T](r, f)
	rows.rank = f.idfRanks(nil)
	for {
		lab, doc, err := r.Next()
		if err == io.EOF {
			return rows.CSR, nil
		}
		if err != nil {
			return nil, err
		}
		y := -1
		if lab != "" {
			y = names.ID(lab)
		}
		rows.Append(doc, y)
	}
}

// maxEstimate bounds the stored values ReadAll makes room for before it
// reads (256 MiB of float32 values and indices).
const maxEstimate = 32 << 20

// Docs returns the documents of r as a sequence, for Fit; it stops at the
// first error, which *err receives.
func Docs(r *Reader, err *error) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for {
			_, doc, e := r.Next()
			if e == io.EOF {
				return
			}
			if e != nil {
				*err = e
				return
			}
			if !yield(doc) {
				return
			}
		}
	}
}
