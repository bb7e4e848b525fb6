package dataset

// Sizes of the pieces of a chunks value.
const (
	minChunk = 64 << 10
	maxChunk = 16 << 20
)

// chunks holds a run of bytes of untrusted length (a long line, the held
// part of a CSV record) in pieces that grow with it: a new piece is an
// eighth of what is held, 64 KiB to 16 MiB, and never reaches past the
// limit the caller gives. Holding n bytes thus allocates about n bytes:
// no doubling copies, no capacity beyond what arrived (a growing slice
// allocates about twice its final length in all, encoding/csv's append
// about five times). Bytes are taken from the front with read; once all
// are taken, a first piece of 64 KiB is kept for reuse.
type chunks struct {
	bufs [][]byte // the pieces; all but the last are full
	off  int      // bytes of bufs[0] already taken by read
	n    int      // bytes held and not taken
}

// space returns room at the end for more bytes, allocating a piece if the
// last one is full: at least one byte, and no allocation that would let c
// hold more than limit bytes (limit > c.n).
func (c *chunks) space(limit int) []byte {
	if k := len(c.bufs); k > 0 {
		if last := c.bufs[k-1]; len(last) < cap(last) {
			return last[len(last):cap(last)]
		}
	}
	size := min(max(c.n/8, minChunk), maxChunk, max(limit-c.n, 1))
	c.bufs = append(c.bufs, make([]byte, 0, size))
	return c.bufs[len(c.bufs)-1][:size]
}

// commit adds the m bytes written at the start of the slice space
// returned.
func (c *chunks) commit(m int) {
	k := len(c.bufs) - 1
	c.bufs[k] = c.bufs[k][:len(c.bufs[k])+m]
	c.n += m
}

// write appends p; limit (at least c.n+len(p)) is the most c will have to
// hold, which bounds the pieces allocated.
func (c *chunks) write(p []byte, limit int) {
	for len(p) > 0 {
		m := copy(c.space(limit), p)
		c.commit(m)
		p = p[m:]
	}
}

// read takes up to len(p) bytes from the front into p.
func (c *chunks) read(p []byte) int {
	n := 0
	for n < len(p) && c.n > 0 {
		m := copy(p[n:], c.bufs[0][c.off:])
		n += m
		c.off += m
		c.n -= m
		if c.off == len(c.bufs[0]) && len(c.bufs) > 1 {
			c.bufs[0] = nil
			c.bufs = c.bufs[1:]
			c.off = 0
		}
	}
	if c.n == 0 {
		c.reset()
	}
	return n
}

// join appends the bytes held to dst[:0], in a new slice of exactly their
// length if dst is too small, and returns it.
func (c *chunks) join(dst []byte) []byte {
	if cap(dst) < c.n {
		dst = make([]byte, 0, c.n)
	}
	dst = dst[:0]
	for i, b := range c.bufs {
		if i == 0 {
			b = b[c.off:]
		}
		dst = append(dst, b...)
	}
	return dst
}

// reset drops the bytes held, keeping a first piece of minChunk bytes for
// reuse (larger ones go, so that one long line does not pin its memory).
func (c *chunks) reset() {
	var keep []byte
	if len(c.bufs) > 0 && cap(c.bufs[0]) == minChunk {
		keep = c.bufs[0][:0]
	}
	clear(c.bufs)
	c.bufs = c.bufs[:0]
	if keep != nil {
		c.bufs = append(c.bufs, keep)
	}
	c.off, c.n = 0, 0
}
