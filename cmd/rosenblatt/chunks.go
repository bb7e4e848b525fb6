package main

import "io"

// Sizes of the pieces of a chunks value.
const (
	minChunk = 64 << 10
	maxChunk = 16 << 20
)

// chunks gathers a file of untrusted length (a model or report read from a
// pipe or device) in pieces that grow with what has arrived: a new piece is
// an eighth of the bytes held, 64 KiB to 16 MiB, and never reaches past
// the size the caller reads up to. Reading n bytes thus allocates about n
// bytes (a bytes.Buffer doubles: some twice to four times n in all, and
// its capacity can reach twice the limit), and bytes joins them into one
// slice once they are complete. A size the input justifies (a regular
// file's) is taken in one piece with reserve.
type chunks struct {
	bufs [][]byte // the pieces; all but the last are full
	n    int64    // bytes held
}

// fill reads r until c holds upto bytes, r fails, or r ends (io.EOF is
// returned as is). check, if not nil, sees every piece read, in order,
// and may stop the reading with an error, which fill returns.
func (c *chunks) fill(r io.Reader, upto int64, check func([]byte) error) error {
	for c.n < upto {
		var last []byte
		if k := len(c.bufs); k > 0 && len(c.bufs[k-1]) < cap(c.bufs[k-1]) {
			last = c.bufs[k-1]
		} else {
			size := min(max(c.n/8, minChunk), maxChunk, upto-c.n)
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

// reserve makes the bytes held and those up to n in all one piece of
// capacity n, for a size the input justifies.
func (c *chunks) reserve(n int64) {
	if len(c.bufs) == 1 && int64(cap(c.bufs[0])) >= n {
		return
	}
	b := make([]byte, 0, max(n, c.n))
	for _, p := range c.bufs {
		b = append(b, p...)
	}
	c.bufs = [][]byte{b}
}

// bytes returns the bytes held as one slice, joining the pieces if there
// are several.
func (c *chunks) bytes() []byte {
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
