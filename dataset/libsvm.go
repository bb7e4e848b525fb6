package dataset

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/pages"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// DefaultMaxValues is the default cap on Rows*Cols for ReadLIBSVM: 2³⁰
// values, 4 GiB of float32. LIBSVM files are sparse, so a small file can
// describe a huge dense matrix ("1 1000000000:1" on each of many lines); the
// cap turns that into an ErrTooLarge error instead of an out-of-memory crash.
const DefaultMaxValues = 1 << 30

// DenseRatio and DenseSlack bound the dense matrix ReadLIBSVM allocates when
// the caller leaves both LIBSVMOptions.Cols and LIBSVMOptions.MaxValues at 0:
// Rows×Cols values of T may take at most DenseRatio bytes per byte of input
// read, plus DenseSlack bytes.
//
// A stored LIBSVM value takes at least 4 bytes of text ("j:v "), 5 to 15 in
// practice, and a dense value 4 (float32) or 8 (float64) bytes, so a file
// in which every feature is stored needs at most 2 bytes of matrix per byte
// of input. A file storing one feature in f, at b bytes of text each, needs
// about 8f/b bytes per byte in float64: the files in testdata need 0.4 to
// 2.9, and w8a, one of the sparser data sets on the LIBSVM site (3.9% of
// its 300 features stored, about 70 bytes a line), about 35. A ratio of 64
// admits any file that stores at least one feature in 40 (float64 at 5
// bytes a value; one in 80 for float32). Sparser data, such as text (rcv1
// stores 0.16% of its features), is over 97% zeros in a dense matrix:
// reading it dense is a deliberate choice, which the caller states by
// giving Cols or MaxValues. DenseSlack lets small files with a few wide
// rows through ("1 784:1" makes one row of 784 features, 6 KiB of float64
// for 8 bytes of input).
const (
	DenseRatio = 64
	DenseSlack = 1 << 20
)

// DefaultMaxLineBytes is the default limit on the length of a line for
// ReadLIBSVM and ReadCSV (and of a CSV record, which may span lines inside
// quotes): 64 MiB, a dense row of millions of features. The readers
// buffer one line at a time, so the limit bounds that buffer: input without
// a newline, such as /dev/zero or a binary file read by mistake, fails with
// ErrLineTooLong after 64 MiB instead of being buffered whole, having
// allocated about the limit (a long line is gathered in pieces that grow
// with it, not in a buffer that doubles). A line within the limit that
// is longer than the 64 KiB read buffer allocates about twice its length
// in ReadLIBSVM (the pieces, then the joined line), up to CSVLineGrowth
// times in ReadCSV.
const DefaultMaxLineBytes = 64 << 20

// maxIndex is the largest feature index ReadLIBSVM accepts.
const maxIndex = math.MaxInt32

// LIBSVMOptions configures ReadLIBSVM and LoadLIBSVM. The zero value infers
// the feature count and uses the default size limits.
type LIBSVMOptions struct {
	// Cols is the number of features. An index above Cols is an error
	// wrapping ErrTooManyFeatures. 0 infers Cols from the largest index
	// seen, which undercounts when the last features are zero in every row:
	// LIBSVM files leave zero features out, so give Cols whenever it is
	// known, and always for a test set that must match its training set.
	// Giving Cols also lifts the DenseRatio bound: the caller has asked for
	// rows of that width, however little of them the file stores.
	Cols int
	// File names the input in error messages. LoadLIBSVM sets it to the
	// path when it is empty.
	File string
	// MaxValues is the caller's budget for Rows*Cols, the size of the dense
	// result; input that would exceed it fails with an error wrapping
	// ErrTooLarge. 0 means the default rule: at most DefaultMaxValues
	// values, and, when Cols is 0 too, at most DenseRatio bytes of matrix
	// per byte of input plus DenseSlack. A MaxValues > 0 replaces that rule
	// by the budget alone, so it also allows a sparse file to make a matrix
	// many times its size.
	MaxValues int
	// MaxLineBytes is the longest line accepted, in bytes without the line
	// terminator; a longer line fails with an error wrapping ErrLineTooLong.
	// 0 means DefaultMaxLineBytes.
	MaxLineBytes int
	// MaxGzipRatio bounds, for LoadLIBSVM and LoadLIBSVMSparse of a
	// gzip-compressed file, the bytes of text per compressed byte (plus
	// GzipSlack); past it the read fails with an error wrapping ErrTooLarge
	// and ErrGzipRatio. 0 means DefaultGzipRatio; a negative value, no
	// bound but deflate's.
	MaxGzipRatio int
}

// ReadLIBSVM reads a data set in LIBSVM / SVMlight text format: one example
// per line, "label index:value index:value ...".
//
//   - The label is an integer ("+1", "-1", "3"); an integral decimal such
//     as "1.0" or "1e0" is accepted too.
//   - Indices are 1-based and strictly increasing along a line; features
//     left out are 0. Feature index j is stored in column j-1.
//   - Values are decimal numbers, as LIBSVM's own reader (C's strtod)
//     accepts them: an optional sign, digits with an optional decimal point
//     ("5", "-0.25", ".5", "5."), and an optional exponent ("1e-3", "2E+5").
//     Go-only forms that strconv.ParseFloat would take, such as "1_000" and
//     "0x1p-3", are syntax errors. Values are parsed as T with correct
//     rounding (as strconv.ParseFloat with T's bit size does); NaN, Inf
//     and values that overflow T are errors.
//   - Tokens are separated by spaces or tabs; trailing blanks, CRLF line
//     ends, blank lines and comments (from '#' to the end of the line) are
//     allowed, and SVMlight "qid:n" tokens are checked and skipped.
//
// Memory is bounded by the input unless the caller asks for more: see
// LIBSVMOptions.MaxValues, DenseRatio and MaxLineBytes. A matrix over the
// bound fails with ErrTooLarge before it is allocated.
//
// Errors in the content are *ParseError values carrying the line and the
// 1-based byte column, wrapping ErrSyntax, ErrLabel, ErrIndex,
// ErrTooManyFeatures, ErrNonFinite, ErrTooLarge, ErrLineTooLong, or
// ErrEmpty (no rows at all). Errors from r itself are returned wrapped with
// the file name.
func ReadLIBSVM[T kernel.Float](r io.Reader, opts LIBSVMOptions) (*Data[T], error) {
	p, err := parseLIBSVM[T](r, opts, false)
	if err != nil {
		return nil, err
	}
	return p.dense(), nil
}

// ReadLIBSVMSparse reads a data set in LIBSVM / SVMlight text format, as
// ReadLIBSVM does, into a CSR matrix: the values the file stores, with
// their column indices, never a dense matrix. It is the reader for text
// and other high-dimensional data, whose dense form would not fit in
// memory; CSR.ToDense converts when the caller wants dense rows after all.
// An explicit zero in the file ("3:0") is kept as a stored value.
//
// Options mean what they mean for ReadLIBSVM, except MaxValues: for a
// sparse read it bounds the number of stored values (an error wrapping
// ErrTooLarge past it), and 0 means no bound but the input's size. The
// dense bounds (DefaultMaxValues, DenseRatio) do not apply: the matrix's
// memory is bounded by the input naturally. A stored value takes at least
// 4 bytes of text ("j:v" and a blank) and 4 + sizeof(T) bytes of matrix
// (index and value), a row at least 2 bytes ("1" and a newline) and 16
// bytes (label and offset), so the matrix holds at most 8 bytes per byte
// of input (plus 16: the first offset, and a last line without its
// newline), in slices grown by append (Go's growth allocates up to about
// five times a slice's final size in all, so at most about 40 bytes per
// byte plus the line buffer; the fuzz target checks the allocations).
// Feature indices go up to 2³¹−1 (CSR indices are int32).
//
// Errors are those of ReadLIBSVM.
func ReadLIBSVMSparse[T kernel.Float](r io.Reader, opts LIBSVMOptions) (*CSR[T], error) {
	p, err := parseLIBSVM[T](r, opts, true)
	if err != nil {
		return nil, err
	}
	return p.csr(), nil
}

// parseLIBSVM reads r into a parser's sparse rows, with the dense bounds
// unless sparse is set.
func parseLIBSVM[T kernel.Float](r io.Reader, opts LIBSVMOptions, sparse bool) (*libsvmParser[T], error) {
	return parseLIBSVMInto[T](r, opts, sparse, nil, 0)
}

// blockError carries the error of a ScanLIBSVM callback through parseLine.
type blockError struct{ err error }

func (e *blockError) Error() string { return e.err.Error() }

// ScanLIBSVM reads r as ReadLIBSVM does with opts.Cols > 0, but hands the
// rows to fn in order, in blocks of at most blockRows rows, instead of
// returning one matrix: memory is that of one block (and the labels),
// however long the input. Blocks hold at most opts.MaxValues values
// (DefaultMaxValues if 0): blockRows is lowered to fit, and a row wider than
// the bound is ErrTooLarge; the file's rows × Cols is not bounded. The block's X and Y are reused after fn returns;
// fn must not keep them. An error of fn stops the read and is returned as
// it is; a parse error is returned after fn has seen the blocks before its
// line. Cols must be given (> 0), and blockRows > 0, else the error wraps
// ErrInvalid.
func ScanLIBSVM[T kernel.Float](r io.Reader, opts LIBSVMOptions, blockRows int, fn func(*Data[T]) error) error {
	if opts.Cols <= 0 || blockRows <= 0 {
		return &ParseError{File: opts.File, Err: errorf(ErrInvalid, "ScanLIBSVM needs Cols > 0 and blockRows > 0 (Cols %d, blockRows %d)", opts.Cols, blockRows)}
	}
	p, err := parseLIBSVMInto[T](r, opts, false, fn, blockRows)
	if err != nil {
		return err
	}
	if len(p.x) > 0 {
		return p.flush()
	}
	return nil
}

// parseLIBSVMInto is parseLIBSVM, handing the rows to block as they are
// read if block is set (then opts.Cols > 0).
func parseLIBSVMInto[T kernel.Float](r io.Reader, opts LIBSVMOptions, sparse bool, block func(*Data[T]) error, blockRows int) (*libsvmParser[T], error) {
	if opts.Cols < 0 || opts.MaxValues < 0 || opts.MaxLineBytes < 0 {
		return nil, &ParseError{File: opts.File,
			Err: errorf(ErrInvalid, "invalid options: Cols %d, MaxValues %d, MaxLineBytes %d",
				opts.Cols, opts.MaxValues, opts.MaxLineBytes)}
	}
	maxValues := opts.MaxValues
	if maxValues == 0 && !sparse {
		maxValues = DefaultMaxValues
	}
	if block != nil {
		// One block at a time: at most maxValues values in it, so a large
		// blockRows asks for no more memory than the bound allows.
		blockRows = min(blockRows, max(1, maxValues/opts.Cols))
	}
	p := &libsvmParser[T]{opts: opts, sparse: sparse, maxValues: maxValues, bits: bitsOf[T](), cols: opts.Cols, ptr: []int{0},
		direct: !sparse && opts.Cols > 0, block: block, blockRows: blockRows}
	lr := newLineReader(r, opts.MaxLineBytes)
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, readError(opts.File, lr.n+1, err)
		}
		p.line = lr.n
		if err := p.parseLine(line); err != nil {
			if be, ok := err.(*blockError); ok {
				return nil, be.err
			}
			pe := err.(*ParseError)
			pe.File, pe.Line = opts.File, lr.n
			return nil, pe
		}
	}
	if len(p.labels) == 0 {
		return nil, &ParseError{File: opts.File, Err: errorf(ErrEmpty, "no data rows")}
	}
	if !sparse {
		if err := p.checkDense(lr.read); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// libsvmParser accumulates the rows of a LIBSVM file in sparse form.
type libsvmParser[T kernel.Float] struct {
	opts LIBSVMOptions
	// sparse: the rows are wanted as a CSR, without the dense bounds;
	// maxValues then bounds the stored values (0: no bound).
	sparse    bool
	maxValues int
	bits      int
	line      int     // number of the line being parsed
	cols      int     // Cols so far: opts.Cols, or the largest index seen
	wideLine  int     // line and 1-based column of the index that set cols
	wideCol   int     //
	labels    []int   // one per row
	ptr       []int   // ptr[i] = start of row i in idx and val; one more than the rows
	idx       []int32 // 0-based feature indices
	val       []T
	// direct: the rows are wanted dense and their width is known (Cols),
	// so each line is parsed straight into its row of x, without the
	// sparse rows and their copy into a matrix.
	direct bool
	chunks [][]T // full chunks of rows
	done   int   // the values in chunks
	x      []T   // the chunk being filled
	// block, if set, takes each chunk of blockRows rows as it fills
	// (ScanLIBSVM): the chunk is then cleared and reused.
	block     func(*Data[T]) error
	blockRows int
	blockY    int // the first row of the chunk being filled
}

// checkDense applies the default rule of LIBSVMOptions.MaxValues to the
// rows read from input bytes of text: without Cols and MaxValues, the dense
// matrix may take at most DenseRatio bytes per byte of input plus
// DenseSlack. The error points at the index that set the width.
func (p *libsvmParser[T]) checkDense(input int64) error {
	if p.opts.Cols > 0 || p.opts.MaxValues > 0 {
		return nil // the caller asked for this width or this budget
	}
	rows := len(p.labels)
	// rows*cols <= DefaultMaxValues was checked while parsing, so the
	// products fit in an int64.
	need := int64(rows) * int64(p.cols) * int64(p.bits/8)
	allow := DenseRatio*input + DenseSlack
	if need <= allow {
		return nil
	}
	return &ParseError{File: p.opts.File, Line: p.wideLine, Col: p.wideCol,
		Err: errorf(ErrTooLarge, "index %d makes a %d×%d matrix of float%d, %d bytes, more than %d bytes of input "+
			"justify (%d per byte + %d); to read so sparse a file dense, give the feature count (Cols) or a budget (MaxValues)",
			p.cols, rows, p.cols, p.bits, need, input, DenseRatio, DenseSlack)}
}

// at returns a ParseError at byte offset off (0-based) of the current line.
func at(off int, kind error, format string, args ...any) error {
	return &ParseError{Col: off + 1, Err: errorf(kind, format, args...)}
}

// parseLine parses one line, without its line terminator.
func (p *libsvmParser[T]) parseLine(line []byte) error {
	for i, c := range line {
		if c == '#' {
			line = line[:i]
			break
		}
	}
	pos := 0
	tok, start := nextToken(line, &pos)
	if tok == nil {
		return nil // blank or comment-only line
	}
	label, ok := parseLabel(tok)
	if !ok {
		return at(start, ErrLabel, "label %s is not an integer", quote(tok))
	}
	rows := len(p.labels) + 1
	held := rows // the rows whose values are held at once
	if p.block != nil {
		held = 1 // ScanLIBSVM: a block of at most maxValues/cols rows (parseLIBSVMInto)
	}
	if n, ok := mulOK(held, p.cols); !p.sparse && (!ok || n > p.maxValues) {
		return at(start, ErrTooLarge, "%d rows of %d features exceed the limit of %d values", held, p.cols, p.maxValues)
	}
	base := 0 // the start of the row in x, if direct
	if p.direct {
		if err := p.growRow(); err != nil {
			return &blockError{err}
		}
		base = len(p.x) - p.cols
	}
	prev := 0
	for {
		tok, start = nextToken(line, &pos)
		if tok == nil {
			break
		}
		colon := -1
		for i, c := range tok {
			if c == ':' {
				colon = i
				break
			}
		}
		if colon < 0 {
			return at(start, ErrSyntax, "expected index:value, got %s", quote(tok))
		}
		name, value := tok[:colon], tok[colon+1:]
		if string(name) == "qid" {
			if _, ok := parseUint(value); !ok {
				return at(start+colon+1, ErrSyntax, "qid %s is not a non-negative integer", quote(value))
			}
			continue
		}
		j, ok := parseUint(name)
		switch {
		case !ok && len(name) > 0 && allDigits(name):
			j = math.MaxInt // overflow
		case !ok:
			return at(start, ErrIndex, "index %s is not a positive integer", quote(name))
		}
		switch {
		case j == 0:
			return at(start, ErrIndex, "index 0: indices start at 1")
		case p.opts.Cols > 0 && j > p.opts.Cols:
			return at(start, ErrTooManyFeatures, "index %s exceeds the feature count %d", name, p.opts.Cols)
		case j > maxIndex:
			return at(start, ErrTooLarge, "index %s is too large", name)
		case j <= prev:
			return at(start, ErrIndex, "index %d not increasing (previous %d)", j, prev)
		}
		prev = j
		if p.sparse && p.maxValues > 0 && len(p.val) >= p.maxValues {
			return at(start, ErrTooLarge, "more than %d stored values (the MaxValues option)", p.maxValues)
		}
		if j > p.cols {
			if n, ok := mulOK(rows, j); !p.sparse && (!ok || n > p.maxValues) {
				return at(start, ErrTooLarge, "%d rows of %d features exceed the limit of %d values", rows, j, p.maxValues)
			}
			p.cols = j
			p.wideLine, p.wideCol = p.line, start+1
		}
		vstart := start + colon + 1
		if len(value) == 0 {
			return at(vstart, ErrSyntax, "missing value after index %d", j)
		}
		v, err := parseFloat[T](value, p.bits)
		if err != nil {
			return at(vstart, errKind(err), "%s", err.(*kindError).msg)
		}
		if p.direct {
			p.x[base+j-1] = v
			continue
		}
		p.idx = pages.Append(p.idx, int32(j-1))
		p.val = pages.Append(p.val, v)
	}
	p.labels = append(p.labels, label)
	if !p.direct {
		p.ptr = append(p.ptr, len(p.idx))
	}
	return nil
}

// directChunk is the number of values of a chunk of a direct read's rows
// (rounded down to whole rows, at least one): 512 KiB of float64.
const directChunk = 1 << 16

// growRow appends a row of p.cols zeros to p.x, starting a new chunk when
// the current one is full: the rows are copied once, into the matrix,
// where a matrix grown by append would copy them about four times. A chunk
// holds at most the values the bound p.maxValues leaves (the caller
// checked that the row is within it).
func (p *libsvmParser[T]) growRow() error {
	n := p.cols
	if p.block != nil && len(p.x)+n > cap(p.x) {
		if len(p.x) > 0 {
			if err := p.flush(); err != nil {
				return err
			}
			clear(p.x)
			p.x = p.x[:0]
		} else {
			p.x = make([]T, 0, p.blockRows*n)
		}
	}
	if len(p.x)+n > cap(p.x) {
		if len(p.x) > 0 {
			p.chunks = append(p.chunks, p.x)
			p.done += len(p.x)
		}
		c := max(directChunk/n, 1) * n
		c = max(min(c, p.maxValues-p.done), n)
		p.x = make([]T, 0, c)
	}
	p.x = p.x[:len(p.x)+n]
	return nil
}

// flush hands the rows of the chunk being filled to p.block.
func (p *libsvmParser[T]) flush() error {
	rows := len(p.x) / p.cols
	y := p.labels[p.blockY : p.blockY+rows : p.blockY+rows]
	p.blockY += rows
	return p.block(&Data[T]{X: p.x, Y: y, Rows: rows, Cols: p.cols})
}

// dense expands the sparse rows into a Data.
func (p *libsvmParser[T]) dense() *Data[T] {
	rows, cols := len(p.labels), p.cols
	if p.direct && len(p.chunks) == 0 {
		return &Data[T]{X: p.x[: rows*cols : rows*cols], Y: p.labels, Rows: rows, Cols: cols}
	}
	x := Alloc[T](rows * cols)
	if p.direct {
		n := 0
		for _, c := range append(p.chunks, p.x) {
			n += copy(x[n:], c)
		}
		return &Data[T]{X: x, Y: p.labels, Rows: rows, Cols: cols}
	} // rows*cols <= maxValues was checked while parsing
	for r := range rows {
		row := x[r*cols : (r+1)*cols]
		for k := p.ptr[r]; k < p.ptr[r+1]; k++ {
			row[p.idx[k]] = p.val[k]
		}
	}
	return &Data[T]{X: x, Y: p.labels, Rows: rows, Cols: cols}
}

// csr hands the sparse rows over as a CSR.
func (p *libsvmParser[T]) csr() *CSR[T] {
	return &CSR[T]{Ptr: p.ptr, Idx: p.idx, Val: p.val, Y: p.labels, Rows: len(p.labels), Cols: p.cols}
}

// nextToken returns the next blank-separated token of line at or after
// *pos, and its 0-based start offset, or nil at the end of the line.
func nextToken(line []byte, pos *int) ([]byte, int) {
	i := *pos
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	start := i
	for i < len(line) && line[i] != ' ' && line[i] != '\t' {
		i++
	}
	*pos = i
	if start == i {
		return nil, start
	}
	return line[start:i], start
}

// parseUint parses a non-empty string of ASCII digits that fits in an int.
func parseUint(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int(c - '0')
		if n > (math.MaxInt-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// allDigits reports whether b consists of ASCII digits only.
func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseLabel parses an integer label: "3", "+1", "-1", or an integral
// decimal such as "1.0" or "1e0".
func parseLabel(b []byte) (int, bool) {
	s := unsafeString(b)
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	if !isDecimal(b) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false // also Inf: Inf > 2^53
	}
	return int(f), true
}

// parseFloat parses b as a finite T, correctly rounded. b must be a decimal
// number (see scanDecimal); NaN and Inf in strconv's spelling are reported
// as non-finite rather than as syntax errors. Errors are *kindError values
// wrapping ErrSyntax or ErrNonFinite.
//
// Most numbers in data files take a fast path; the others go to
// strconv.ParseFloat. For float64, Clinger's: when the digits m (below
// 2^53) and 10^|e| (|e| <= 22) are both exact, the one multiplication or
// division m·10^e is correctly rounded. For float32, the same computation
// in float64, with up to 19 digits of m, is within 3 float64 ulps of the
// exact value, and rounds to the correctly rounded float32 unless it lies
// within that distance of a point halfway between two float32 values; such
// rare numbers go to strconv.
func parseFloat[T kernel.Float](b []byte, bits int) (T, error) {
	d, ok := scanDecimal(b)
	if !ok {
		if isNonFiniteWord(b) {
			return 0, errorf(ErrNonFinite, "value %s is not finite", quote(b))
		}
		return 0, errorf(ErrSyntax, "value %s is not a number", quote(b))
	}
	if d.exp >= -22 && d.exp <= 22 && (bits == 32 || !d.trunc && d.mant < 1<<53) {
		f := float64(d.mant) // exact if mant < 2^53
		if d.exp < 0 {
			f /= pow10f64[-d.exp]
		} else {
			f *= pow10f64[d.exp]
		}
		if d.neg {
			f = -f
		}
		switch {
		case bits == 64 && !d.trunc && d.mant < 1<<53:
			return T(f), nil
		case bits == 32 && math.Abs(f) <= math.MaxFloat32:
			// Distance, in float64 ulps, from the float32 midpoint
			// inside whose float32 interval f lies (f is a normal
			// float32 or 0: 10^-22 <= |f| for mant >= 1).
			low := math.Float64bits(f) & (1<<29 - 1)
			if low < 1<<28-16 || low > 1<<28+16 {
				return T(float32(f)), nil
			}
		}
	}
	f, err := strconv.ParseFloat(unsafeString(b), bits)
	if err != nil {
		ne, ok := err.(*strconv.NumError)
		switch {
		case !ok || ne.Err != strconv.ErrRange:
			return 0, errorf(ErrSyntax, "value %s is not a number", quote(b))
		case math.IsInf(f, 0):
			return 0, errorf(ErrNonFinite, "value %s overflows float%d", quote(b), bits)
		}
		// Underflow: f is the correctly rounded tiny value (or ±0); accept it.
	}
	return T(f), nil
}

// pow10f64 holds the powers of ten exact in float64, up to 10^22.
var pow10f64 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimal is a number scanned by scanDecimal: ±(mant + a fraction below 1
// if trunc)·10^exp.
type decimal struct {
	mant  uint64 // the first 19 significant digits, below 10^19
	exp   int    // its explicit part clamped near ±10^6, far outside the fast paths
	neg   bool
	trunc bool // digits after the first 19 significant ones were dropped
}

// scanDecimal scans b as a number in the decimal form of the LIBSVM and CSV
// formats, what C's strtod reads apart from its hexadecimal and special
// forms: an optional sign, digits with an optional decimal point and at
// least one digit on either side of it, and an optional exponent ('e' or
// 'E', an optional sign, digits). ok is false for anything else, including
// what only Go's strconv.ParseFloat takes, such as "1_000" and "0x1p-3".
func scanDecimal(b []byte) (d decimal, ok bool) {
	i, n := 0, len(b)
	if i < n && (b[i] == '+' || b[i] == '-') {
		d.neg = b[i] == '-'
		i++
	}
	// Digits join the mantissa while it is below 10^18, so it stays below
	// 10^19; the others are dropped, those of the integer part counting in
	// the exponent.
	start := i
	for ; i < n && b[i]-'0' < 10; i++ {
		if d.mant < 1e18 {
			d.mant = d.mant*10 + uint64(b[i]-'0')
		} else {
			d.exp++
			d.trunc = d.trunc || b[i] != '0'
		}
	}
	digits := i - start
	if i < n && b[i] == '.' {
		i++
		frac := i
		for ; i < n && b[i]-'0' < 10; i++ {
			if d.mant < 1e18 {
				d.mant = d.mant*10 + uint64(b[i]-'0')
				d.exp--
			} else {
				d.trunc = d.trunc || b[i] != '0'
			}
		}
		digits += i - frac
	}
	if digits == 0 {
		return d, false
	}
	if i < n && b[i]|0x20 == 'e' {
		i++
		neg := false
		if i < n && (b[i] == '+' || b[i] == '-') {
			neg = b[i] == '-'
			i++
		}
		exp := i
		e := 0
		for ; i < n && b[i]-'0' < 10; i++ {
			if e < 1e6 {
				e = e*10 + int(b[i]-'0')
			}
		}
		if i == exp {
			return d, false
		}
		if neg {
			e = -e
		}
		d.exp += e
	}
	return d, i == n
}

// isDecimal reports whether b is a decimal number (see scanDecimal).
func isDecimal(b []byte) bool {
	_, ok := scanDecimal(b)
	return ok
}

// isNonFiniteWord reports whether b is one of the spellings of NaN and
// infinity that strconv.ParseFloat and C's strtod read: "inf", "infinity"
// or "nan" in any case, with an optional sign.
func isNonFiniteWord(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	s := unsafeString(b)
	return strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") || strings.EqualFold(s, "nan")
}

// errKind returns the sentinel a *kindError wraps.
func errKind(err error) error { return err.(*kindError).kind }

// unsafeString views b as a string without copying. The string must not
// outlive b: it is only passed to strconv and strings functions, and this
// package never keeps the *strconv.NumError they may return.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// lineReader reads lines up to a maximum length, reusing its buffer.
type lineReader struct {
	br   *bufio.Reader
	buf  []byte // a line longer than br's buffer, joined
	long chunks // the pieces of such a line while it is read
	max  int    // longest line accepted, without its terminator
	n    int    // number of the line last returned, 1-based
	read int64  // bytes consumed so far, line terminators included
}

// newLineReader returns a lineReader of r for lines of at most max bytes;
// max 0 means DefaultMaxLineBytes.
func newLineReader(r io.Reader, max int) *lineReader {
	if max == 0 {
		max = DefaultMaxLineBytes
	}
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its "\n" or "\r\n" terminator. The
// slice is valid until the following call. It returns io.EOF after the last
// line, an error wrapping ErrLineTooLong for a line longer than lr.max, and
// any other error from the underlying reader.
//
// A line longer than the 64 KiB read buffer is gathered in chunks (about
// its length in memory, and no more than lr.max+2 bytes of it however long
// it is), then joined into one slice once its end shows it is within the
// limit: a line past the limit costs about the limit, one within it about
// twice its length.
func (lr *lineReader) next() ([]byte, error) {
	line, err := lr.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		total := len(line) // the line's length so far, kept or not
		keep := lr.max + 2 // enough to tell a line of lr.max bytes and its "\r\n"
		lr.long.write(line[:min(len(line), keep)], keep)
		for err == bufio.ErrBufferFull {
			// The line so far has no '\n'; all but a final '\r' is content.
			if total > lr.max+1 {
				lr.long.reset()
				return nil, lr.tooLong()
			}
			line, err = lr.br.ReadSlice('\n')
			total += len(line)
			if room := keep - lr.long.n; room > 0 {
				lr.long.write(line[:min(len(line), room)], keep)
			}
		}
		if total > keep {
			lr.long.reset()
			return nil, lr.tooLong()
		}
		lr.buf = lr.long.join(lr.buf)
		lr.long.reset()
		line = lr.buf
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(line) == 0 {
		return nil, io.EOF
	}
	lr.read += int64(len(line))
	if line[len(line)-1] == '\n' {
		line = line[:len(line)-1]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
	}
	if len(line) > lr.max {
		return nil, lr.tooLong()
	}
	lr.n++
	return line, nil
}

// tooLong returns the error for line lr.n+1 being longer than lr.max.
func (lr *lineReader) tooLong() error {
	return errorf(ErrLineTooLong, "line longer than %d bytes (the MaxLineBytes option)", lr.max)
}

// readError wraps an error of the underlying reader with the position.
func readError(file string, line int, err error) error {
	return &ParseError{File: file, Line: line, Err: err}
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

func appendFloat[T kernel.Float](b []byte, v T, bits int) []byte {
	return strconv.AppendFloat(b, float64(v), 'g', -1, bits)
}
