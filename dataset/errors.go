package dataset

import (
	"errors"
	"fmt"
	"strconv"
)

// Sentinel errors. Every error this package returns about the content of its
// input or about an argument wraps exactly one of them, so callers can
// classify failures with errors.Is. Errors from the operating system or from
// the caller's io.Reader are passed on wrapped (a missing file satisfies
// errors.Is(err, fs.ErrNotExist)) and wrap no sentinel.
var (
	// ErrSyntax reports malformed text: a token that is not "index:value", a
	// value that is not a number, an unterminated CSV quote, ...
	ErrSyntax = errors.New("dataset: syntax error")
	// ErrIndex reports a bad LIBSVM feature index: not a positive integer,
	// or not strictly increasing along the line.
	ErrIndex = errors.New("dataset: bad feature index")
	// ErrTooManyFeatures reports a feature index larger than the feature
	// count the caller gave (LIBSVMOptions.Cols).
	ErrTooManyFeatures = errors.New("dataset: feature index exceeds the feature count")
	// ErrNonFinite reports a NaN or infinite value, including a number too
	// large for the element type.
	ErrNonFinite = errors.New("dataset: non-finite value")
	// ErrLabel reports a label that is missing or not an integer.
	ErrLabel = errors.New("dataset: bad label")
	// ErrEmpty reports input without a single data row.
	ErrEmpty = errors.New("dataset: no rows")
	// ErrRagged reports a CSV row whose field count differs from the first row's.
	ErrRagged = errors.New("dataset: ragged rows")
	// ErrTooLarge reports a data set whose dense size would exceed the
	// configured limit or the bound the input's size justifies (see
	// LIBSVMOptions.MaxValues and DenseRatio), an IDX header announcing
	// more than MaxIDXBytes, or sizes beyond the address space.
	ErrTooLarge = errors.New("dataset: data set too large")
	// ErrLineTooLong reports a text line (or CSV record) longer than the
	// reader's limit (see DefaultMaxLineBytes).
	ErrLineTooLong = errors.New("dataset: line too long")
	// ErrFormat reports a corrupt binary file: a bad IDX magic number,
	// impossible dimensions, trailing bytes.
	ErrFormat = errors.New("dataset: bad file format")
	// ErrUnsupported reports a valid file in a variant this package does
	// not read, such as an IDX file of int32 or float elements.
	ErrUnsupported = errors.New("dataset: unsupported format")
	// ErrTruncated reports a file that ends before the data its header
	// announces.
	ErrTruncated = errors.New("dataset: truncated data")
	// ErrMismatch reports two inputs that must agree but do not, such as an
	// IDX image file and label file with different counts.
	ErrMismatch = errors.New("dataset: inputs do not match")
	// ErrInvalid reports an invalid argument or option, such as a negative
	// feature count or an unknown Fashion-MNIST split.
	ErrInvalid = errors.New("dataset: invalid argument")
)

// ParseError is the error the text readers return for a problem at a known
// place in the input. Err wraps one of the sentinel errors.
type ParseError struct {
	File string // file name, "" when reading from an io.Reader without one
	Line int    // 1-based line number; 0 when the error concerns the whole input
	Col  int    // 1-based byte offset in the line; 0 when unknown
	Err  error  // what went wrong; wraps a sentinel such as ErrSyntax
}

// Error formats the error as "file:line:col: message", leaving out the parts
// that are unknown.
func (e *ParseError) Error() string {
	var b []byte
	if e.File != "" {
		b = append(b, e.File...)
		b = append(b, ':')
	}
	if e.Line > 0 {
		b = strconv.AppendInt(b, int64(e.Line), 10)
		b = append(b, ':')
		if e.Col > 0 {
			b = strconv.AppendInt(b, int64(e.Col), 10)
			b = append(b, ':')
		}
	}
	if len(b) > 0 {
		b = append(b, ' ')
	}
	if e.Err == nil {
		return string(append(b, "unknown error"...))
	}
	return string(append(b, e.Err.Error()...))
}

// Unwrap returns e.Err, so errors.Is(err, ErrSyntax) and friends work.
func (e *ParseError) Unwrap() error { return e.Err }

// kindError is a message that wraps a sentinel without repeating its text,
// so a ParseError reads "heart.libsvm:12:7: index 3 not increasing (previous 5)".
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// errorf returns an error with the formatted message that wraps kind.
func errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// quote shortens a token for an error message and quotes it.
func quote(b []byte) string {
	const max = 32
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}
