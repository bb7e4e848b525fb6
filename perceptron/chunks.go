package perceptron

import "unsafe"

// chunkMaxBytes is the largest chunk a chunkList allocates.
const chunkMaxBytes = 1 << 20

// chunkList is a list that grows by chunks and never moves what it holds.
// The voted perceptron keeps a weight vector per mistake in chunkLists: a
// slice grown by append would reallocate and copy (holding the old and the
// new array at once, and up to a quarter more capacity than it uses), so
// the memory it takes would be up to about 2.25 times the bytes counted
// against Options.VotedMaxBytes. Chunks start small and double up to
// chunkMaxBytes, so the capacity allocated beyond what is used is at most
// min(used, chunkMaxBytes) bytes per list.
//
// Items are appended in units (a weight vector of d values, or one bias);
// a unit never straddles two chunks.
type chunkList[E any] struct {
	chunks [][]E // each chunk's len is what is used, its cap what is allocated
	cur    int   // the chunk being filled
	n      int   // items held
}

// reset empties the list, keeping its chunks for reuse.
func (l *chunkList[E]) reset() {
	for i := range l.chunks {
		l.chunks[i] = l.chunks[i][:0]
	}
	l.cur, l.n = 0, 0
}

// len returns the number of items held.
func (l *chunkList[E]) len() int { return l.n }

// add appends one unit of items. Every unit of a list has the same size.
func (l *chunkList[E]) add(items ...E) {
	u := len(items)
	for l.cur < len(l.chunks) && len(l.chunks[l.cur])+u > cap(l.chunks[l.cur]) {
		l.cur++ // full; chunks after it are empty ones kept by reset
	}
	if l.cur == len(l.chunks) {
		var zero E
		maxUnits := max(1, chunkMaxBytes/(u*int(unsafe.Sizeof(zero))))
		units := 4
		if l.cur > 0 {
			units = 2 * cap(l.chunks[l.cur-1]) / u
		}
		l.chunks = append(l.chunks, make([]E, 0, max(1, min(units, maxUnits))*u))
	}
	l.chunks[l.cur] = append(l.chunks[l.cur], items...)
	l.n += u
}

// appendTo appends every item, in order, to dst and returns it.
func (l *chunkList[E]) appendTo(dst []E) []E {
	for _, c := range l.chunks {
		dst = append(dst, c...)
	}
	return dst
}
