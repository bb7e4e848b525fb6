// Package bounded reads input of untrusted length: a file whose header
// claims a size, or a stream with no size, in memory bounded by what
// arrives and by a limit the caller names.
package bounded

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// ErrTooLarge reports an input larger than the limit it is read under, or
// one that goes on after the size its header gives.
var ErrTooLarge = errors.New("file too large")

// Sizes of the pieces of a Chunks value.
const (
	MinChunk = 64 << 10
	maxChunk = 16 << 20
)

// Chunks gathers input of untrusted length in pieces that grow with what
// has arrived: a new piece is an eighth of the bytes held, 64 KiB to
// 16 MiB, and never reaches past the size the caller reads up to. Reading
// n bytes thus allocates about n bytes (a bytes.Buffer doubles: some twice
// to four times n in all, and its capacity can reach twice the limit), and
// Bytes joins them into one slice once they are complete. A size the input
// justifies (a regular file's) is taken in one piece with Reserve.
type Chunks struct {
	bufs [][]byte // the pieces; all but the last are full
	n    int64    // bytes held
}

// Len returns the number of bytes held.
func (c *Chunks) Len() int64 { return c.n }

// First returns the first piece (it holds at least the first bytes read).
func (c *Chunks) First() []byte {
	if len(c.bufs) == 0 {
		return nil
	}
	return c.bufs[0]
}

// Fill reads r until c holds upto bytes, r fails, or r ends (io.EOF is
// returned as is). check, if not nil, sees every piece read, in order,
// and may stop the reading with an error, which Fill returns.
func (c *Chunks) Fill(r io.Reader, upto int64, check func([]byte) error) error {
	for c.n < upto {
		var last []byte
		if k := len(c.bufs); k > 0 && len(c.bufs[k-1]) < cap(c.bufs[k-1]) {
			last = c.bufs[k-1]
		} else {
			size := min(max(c.n/8, MinChunk), maxChunk, upto-c.n)
			last = make([]byte, 0, size)
			c.bufs = append(c.bufs, last)
		}
		free := last[len(last):cap(last)]
		if int64(len(free)) > upto-c.n {
			free = free[:upto-c.n]
		}
		m, err := r.Read(free)
		c.bufs[len(c.bufs)-1] = last[:len(last)+m]
		c.n += int64(m)
		if m > 0 && check != nil {
			if cerr := check(free[:m]); cerr != nil {
				return cerr
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Reserve makes the bytes held and those up to n in all one piece of
// capacity n, for a size the input justifies.
func (c *Chunks) Reserve(n int64) {
	if len(c.bufs) == 1 && int64(cap(c.bufs[0])) >= n {
		return
	}
	b := make([]byte, 0, max(n, c.n))
	for _, p := range c.bufs {
		b = append(b, p...)
	}
	c.bufs = [][]byte{b}
}

// Bytes returns the bytes held as one slice, joining the pieces if there
// are several.
func (c *Chunks) Bytes() []byte {
	switch len(c.bufs) {
	case 0:
		return nil
	case 1:
		return c.bufs[0]
	}
	b := make([]byte, 0, c.n)
	for _, p := range c.bufs {
		b = append(b, p...)
	}
	c.bufs = [][]byte{b}
	return b
}

// ReadAll reads all of r, which must not exceed limit bytes: otherwise it
// stops after limit+1 bytes with an error wrapping ErrTooLarge that names
// the limit and, if flag is not empty, the flag that raises it. fi, if the
// file's, lets a regular file be refused from its size before anything is
// read, and read into one slice of that size. Other input (a pipe, a
// device) is gathered in chunks that grow with what arrives: about limit
// bytes allocated before it is refused, about twice its size if it is
// within the limit.
//
// check, if not nil, sees the bytes as they arrive (the first 64 KiB are
// read before the rest) and stops the reading with its error, returned as
// it is: a file can be refused from its first bytes, however long it is.
// Other errors are r's.
func ReadAll(r io.Reader, fi os.FileInfo, limit int64, flag string, check func([]byte) error) ([]byte, error) {
	regular := fi != nil && fi.Mode().IsRegular()
	if regular && fi.Size() > limit {
		return nil, TooLarge(FormatBytes(fi.Size()), limit, flag)
	}
	var c Chunks
	var checkErr error
	checked := check
	if check != nil {
		checked = func(p []byte) error {
			checkErr = check(p)
			return checkErr
		}
	}
	err := c.Fill(r, min(limit+1, MinChunk), checked)
	if err == nil {
		if regular {
			c.Reserve(fi.Size() + 1) // +1: room to see the end
		}
		err = c.Fill(r, limit+1, checked)
	}
	switch {
	case err == nil || err == io.EOF:
	case checkErr != nil:
		return nil, checkErr
	default:
		return nil, err
	}
	if c.n > limit {
		return nil, TooLarge("longer", limit, flag)
	}
	return c.Bytes(), nil
}

// TooLarge is the error for an input of size what (a size, or "longer")
// over limit, which flag raises if it is not empty.
func TooLarge(what string, limit int64, flag string) error {
	if flag != "" {
		return fmt.Errorf("%w: %s, more than the limit of %s (%s raises it)", ErrTooLarge, what, FormatBytes(limit), flag)
	}
	return fmt.Errorf("%w: %s, more than the limit of %s", ErrTooLarge, what, FormatBytes(limit))
}

// FormatBytes formats a byte count in B, KiB, MiB or GiB, with one decimal
// when it is not a whole number of the unit.
func FormatBytes(b int64) string {
	f := func(v float64, unit string) string {
		if v == math.Trunc(v) {
			return fmt.Sprintf("%.0f %s", v, unit)
		}
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	switch {
	case b >= 1<<30:
		return f(float64(b)/(1<<30), "GiB")
	case b >= 1<<20:
		return f(float64(b)/(1<<20), "MiB")
	case b >= 1<<10:
		return f(float64(b)/(1<<10), "KiB")
	}
	return fmt.Sprintf("%d B", b)
}
