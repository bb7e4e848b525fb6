package online

// keyWindow remembers the most recent idempotency keys, each with the
// sequence number of its record: a map and a ring of the keys in order.
type keyWindow struct {
	m    map[string]uint64
	ring []string
	next int
	n    int
}

func (w *keyWindow) init(size int) {
	*w = keyWindow{m: make(map[string]uint64), ring: make([]string, size)}
}

func (w *keyWindow) get(k string) (uint64, bool) {
	s, ok := w.m[k]
	return s, ok
}

func (w *keyWindow) len() int { return w.n }

// add remembers k (a new key), forgetting the oldest if the window is full.
func (w *keyWindow) add(k string, seq uint64) {
	if k == "" || len(w.ring) == 0 {
		return
	}
	if _, ok := w.m[k]; ok {
		w.m[k] = seq
		return
	}
	if w.n == len(w.ring) {
		delete(w.m, w.ring[w.next])
	} else {
		w.n++
	}
	w.ring[w.next] = k
	w.m[k] = seq
	w.next = (w.next + 1) % len(w.ring)
}

// list returns the keys, oldest first.
func (w *keyWindow) list() []keyEntry {
	out := make([]keyEntry, 0, w.n)
	start := (w.next - w.n + len(w.ring)) % max(len(w.ring), 1)
	for i := range w.n {
		k := w.ring[(start+i)%len(w.ring)]
		out = append(out, keyEntry{k, w.m[k]})
	}
	return out
}
