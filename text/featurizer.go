package text

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/pages"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Sentinel errors; every error of this package wraps one of them.
var (
	// ErrOptions reports options out of range.
	ErrOptions = errors.New("text: bad options")
	// ErrCorrupt reports a stored featurizer that does not decode.
	ErrCorrupt = errors.New("text: corrupt featurizer")
	// ErrFormat reports a line of input that is not in the format read.
	ErrFormat = errors.New("text: bad input")
	// ErrTooLarge reports input over a limit.
	ErrTooLarge = errors.New("text: input too large")
)

// Weighting is how a feature's count in a document becomes its value.
type Weighting uint8

const (
	// Raw is the count itself (signed under Options.Signed).
	Raw Weighting = iota
	// Log is 1 + ln|c| with the count's sign: sublinear tf.
	Log
	// Binary is the count's sign: 1 for a feature present (or −1).
	Binary
)

// String returns "raw", "log" or "binary".
func (w Weighting) String() string {
	switch w {
	case Raw:
		return "raw"
	case Log:
		return "log"
	case Binary:
		return "binary"
	}
	return fmt.Sprintf("Weighting(%d)", uint8(w))
}

// Limits of the options.
const (
	MaxBits       = 28 // 2²⁸ columns
	MaxWordNGrams = 8
	MaxCharNGram  = 16
	MaxExtra      = 64 // runes in Options.Extra
)

// Options configure a Featurizer. The zero value is not valid: Bits must
// be set; DefaultOptions returns a usable configuration.
type Options struct {
	// Bits: features are hashed into 2^Bits columns, 1 ≤ Bits ≤ MaxBits.
	Bits int
	// WordNGrams: word n-grams of every n from 1 to WordNGrams are
	// features (1 is unigrams only, 2 adds bigrams). 0 means none, which
	// needs character n-grams.
	WordNGrams int
	// CharMin, CharMax: character n-grams of every length from CharMin to
	// CharMax of each token between the boundary marks '<' and '>' (as
	// fastText's subwords, Bojanowski et al. 2017) are features too.
	// CharMax 0 means none.
	CharMin, CharMax int
	// KeepCase keeps letters' case; by default each rune is lower-cased
	// with unicode.ToLower.
	KeepCase bool
	// Extra are further runes that belong to tokens, e.g. "_'-". Letters
	// (unicode.IsLetter), digits (unicode.IsDigit) and combining marks
	// (unicode.M) always do. U+0000 and U+FFFD (what invalid UTF-8 reads
	// as) always separate tokens and are refused here.
	Extra string
	// Signed hashing (Weinberger et al. 2009): the top bit of a feature's
	// hash gives it the sign −1 or +1, so that collisions cancel on average.
	Signed bool
	// TF is the term-frequency weighting.
	TF Weighting
	// IDF multiplies each value by the column's inverse document frequency
	// learned by Fit: ln((1+n)/(1+df)) + 1 (scikit-learn's smooth_idf).
	IDF bool
	// NoNormalize leaves rows unscaled; by default each row is scaled to
	// Euclidean norm 1.
	NoNormalize bool
}

// DefaultOptions are 2²⁰ columns, unigrams and bigrams, log tf, unsigned,
// no idf, unit rows.
func DefaultOptions() Options {
	return Options{Bits: 20, WordNGrams: 2, TF: Log}
}

// Check reports options out of range, wrapping ErrOptions.
func (o Options) Check() error {
	switch {
	case o.Bits < 1 || o.Bits > MaxBits:
		return fmt.Errorf("%w: Bits %d, want 1 to %d", ErrOptions, o.Bits, MaxBits)
	case o.WordNGrams < 0 || o.WordNGrams > MaxWordNGrams:
		return fmt.Errorf("%w: WordNGrams %d, want 0 to %d", ErrOptions, o.WordNGrams, MaxWordNGrams)
	case o.CharMax < 0 || o.CharMax > MaxCharNGram || o.CharMax > 0 && (o.CharMin < 1 || o.CharMin > o.CharMax):
		return fmt.Errorf("%w: character n-grams %d to %d, want 1 ≤ CharMin ≤ CharMax ≤ %d (CharMax 0 for none)", ErrOptions, o.CharMin, o.CharMax, MaxCharNGram)
	case o.CharMax == 0 && o.CharMin != 0:
		return fmt.Errorf("%w: CharMin %d without CharMax", ErrOptions, o.CharMin)
	case o.WordNGrams == 0 && o.CharMax == 0:
		return fmt.Errorf("%w: no features (WordNGrams 0 and no character n-grams)", ErrOptions)
	case o.TF > Binary:
		return fmt.Errorf("%w: %s", ErrOptions, o.TF)
	case !utf8.ValidString(o.Extra) || utf8.RuneCountInString(o.Extra) > MaxExtra:
		return fmt.Errorf("%w: Extra must be valid UTF-8 of at most %d runes", ErrOptions, MaxExtra)
	case strings.ContainsAny(o.Extra, "\x00\uFFFD"):
		return fmt.Errorf("%w: Extra may not hold U+0000 or U+FFFD, which always separate tokens", ErrOptions)
	}
	return nil
}

// Featurizer turns documents into hashed sparse rows. Its methods are safe
// for concurrent use; the scratch space of featurizing is in a Rows.
type Featurizer struct {
	opt   Options
	extra []rune
	ascii [256]byte // per ASCII byte: 0 a separator, else the byte of the token (lower-cased); 0 past ASCII
	// per rune below 0x800 (one or two bytes of UTF-8: Latin, Greek,
	// Cyrillic, Hebrew, Arabic, the combining marks U+0300…): 0 a
	// separator, else the rune of the token (lower-cased); rune 0 is a
	// separator
	low  [0x800]uint16
	docs int64 // documents Fit saw
	// The idf, learned by Fit: of the columns dfCols (increasing), whose
	// document frequencies are dfs, idfs; of every other column, idf0.
	dfCols []uint32
	dfs    []uint32
	idfs   []float64
	idf0   float64
}

// New returns a featurizer of opt. A featurizer with Options.IDF must be
// made by Fit instead.
func New(opt Options) (*Featurizer, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	if opt.IDF {
		return nil, fmt.Errorf("%w: IDF needs the documents: use Fit", ErrOptions)
	}
	return newFeaturizer(opt), nil
}

func newFeaturizer(opt Options) *Featurizer {
	f := &Featurizer{opt: opt, extra: []rune(opt.Extra)}
	slices.Sort(f.extra)
	for c := range rune(utf8.RuneSelf) {
		if f.isToken(c) {
			f.ascii[c] = byte(c)
			if !opt.KeepCase && 'A' <= c && c <= 'Z' {
				f.ascii[c] += 'a' - 'A'
			}
		}
	}
	for r := rune(1); r < rune(len(f.low)); r++ {
		if f.isToken(r) {
			l := r
			if !opt.KeepCase {
				l = unicode.ToLower(r)
			}
			if l > 0 && l < 1<<16 {
				f.low[r] = uint16(l)
			}
		}
	}
	return f
}

// Fit returns a featurizer of opt whose inverse document frequencies are
// those of docs (read once; nothing is kept of them but a count per
// column). Without Options.IDF docs is not read.
func Fit(opt Options, docs iter.Seq[[]byte]) (*Featurizer, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	f := newFeaturizer(opt)
	if !opt.IDF {
		return f, nil
	}
	cols := f.Dims()
	df := make([]uint32, cols)
	var s scratch
	for doc := range docs {
		if f.docs == math.MaxUint32 {
			return nil, fmt.Errorf("%w: more than %d documents for the idf", ErrTooLarge, uint32(math.MaxUint32))
		}
		s.hashes(f, doc)
		for i, e := range s.ent {
			if i == 0 || e>>1 != s.ent[i-1]>>1 {
				df[e>>1]++
			}
		}
		f.docs++
	}
	for j, d := range df {
		if d > 0 {
			f.dfCols = append(f.dfCols, uint32(j))
			f.dfs = append(f.dfs, d)
		}
	}
	f.setIDF()
	return f, nil
}

// setIDF computes the idf of f.docs and f.dfs.
func (f *Featurizer) setIDF() {
	f.idf0 = idf(f.docs, 0)
	f.idfs = make([]float64, len(f.dfs))
	for k, d := range f.dfs {
		f.idfs[k] = idf(f.docs, d)
	}
}

// idf is scikit-learn's smooth inverse document frequency.
func idf(n int64, df uint32) float64 {
	return math.Log(float64(1+n)/float64(1+int64(df))) + 1
}

// Options returns the featurizer's options.
func (f *Featurizer) Options() Options { return f.opt }

// Dims returns the number of columns, 2^Bits.
func (f *Featurizer) Dims() int { return 1 << f.opt.Bits }

// Docs returns the number of documents Fit learned the idf from (0 without
// idf).
func (f *Featurizer) Docs() int64 { return f.docs }

// IDF returns the idf of column j (1 without idf).
func (f *Featurizer) IDF(j int) float64 {
	if !f.opt.IDF {
		return 1
	}
	if k, ok := slices.BinarySearch(f.dfCols, uint32(j)); ok {
		return f.idfs[k]
	}
	return f.idf0
}

// String describes the featurizer in one line.
func (f *Featurizer) String() string {
	o := f.opt
	s := fmt.Sprintf("hashed text features: 2^%d columns, word n-grams 1..%d", o.Bits, o.WordNGrams)
	if o.CharMax > 0 {
		s += fmt.Sprintf(", character n-grams %d..%d", o.CharMin, o.CharMax)
	}
	s += ", tf " + o.TF.String()
	if o.IDF {
		s += fmt.Sprintf(", idf of %d documents", f.docs)
	}
	if o.Signed {
		s += ", signed"
	}
	if !o.NoNormalize {
		s += ", unit rows"
	}
	return s
}

// isToken reports whether r belongs to a token.
func (f *Featurizer) isToken(r rune) bool {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return true
		}
		if len(f.extra) == 0 {
			return false
		}
	} else if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r) {
		return true
	}
	_, ok := slices.BinarySearch(f.extra, r)
	return ok
}

// tokenRune returns r lower-cased (unless KeepCase) and true if r belongs
// to a token, else false: from f.low below 0x800.
func (f *Featurizer) tokenRune(r rune) (rune, bool) {
	if uint32(r) < uint32(len(f.low)) {
		l := f.low[r]
		return rune(l), l != 0
	}
	if r == utf8.RuneError || !f.isToken(r) {
		return r, false
	}
	if !f.opt.KeepCase {
		r = unicode.ToLower(r)
	}
	return r, true
}

// FNV-1a, 64 bits.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvBytes(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

// scratch is the reusable space of featurizing one document.
type scratch struct {
	toks []byte   // the tokens' bytes, one after another
	ends []int    // end of each token in toks
	ent  []uint64 // column<<1 | negative, sorted
	tmp  []uint64 // the radix sort's other buffer
	rbuf []byte   // a character n-gram's window
	pos  []int    // rune offsets in "<token>"
	vals []float64
	cnt  []int64  // the signed count of each column (counts)
	zero []uint64 // columns whose signed features cancel (counts)
}

// ngramPrefix is what the hash of a word n-gram of n words starts with
// (ngramPrefix[n]), or of a character n-gram (ngramPrefix[0]).
var ngramPrefix = [MaxWordNGrams + 1]string{"c ", "u ", "b ", "3 ", "4 ", "5 ", "6 ", "7 ", "8 "}

// prefixHash[n] is the FNV-1a state after ngramPrefix[n].
var prefixHash = func() (h [MaxWordNGrams + 1]uint64) {
	for n, p := range ngramPrefix {
		h[n] = fnvBytes(fnvOffset, []byte(p))
	}
	return h
}()

func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// tokenize splits doc into lower-cased tokens in s.toks / s.ends.
func (s *scratch) tokenize(f *Featurizer, doc []byte) {
	s.toks, s.ends = slices.Grow(s.toks[:0], len(doc)), s.ends[:0]
	in := false
	for i := 0; i < len(doc); {
		if c := doc[i]; c < utf8.RuneSelf {
			i++
			if b := f.ascii[c]; b != 0 {
				s.toks = append(s.toks, b)
				in = true
			} else if in {
				s.ends = append(s.ends, len(s.toks))
				in = false
			}
			continue
		}
		r, n := utf8.DecodeRune(doc[i:]) // invalid bytes: utf8.RuneError, U+FFFD, a separator
		i += n
		r, ok := f.tokenRune(r)
		if !ok {
			if in {
				s.ends = append(s.ends, len(s.toks))
				in = false
			}
			continue
		}
		s.toks = utf8.AppendRune(s.toks, r)
		in = true
	}
	if in {
		s.ends = append(s.ends, len(s.toks))
	}
}

// add records the feature of hash h.
func (s *scratch) add(f *Featurizer, h uint64) {
	e := (h & (1<<f.opt.Bits - 1)) << 1
	if f.opt.Signed {
		e |= h >> 63
	}
	s.ent = append(s.ent, e)
}

// hashes fills s.ent with the sorted features of doc.
func (s *scratch) hashes(f *Featurizer, doc []byte) {
	if f.opt.CharMax == 0 && f.opt.WordNGrams <= 2 {
		s.hashWords(f, doc)
		s.sortEntries(f.opt.Bits + 1)
		return
	}
	s.tokenize(f, doc)
	o := &f.opt
	nt := len(s.ends)
	// Room for every feature at once, so that a long document's features
	// are not copied as they grow: the word n-grams exactly, and at most
	// one character n-gram of each length per rune of "<token>".
	room := 0
	for n := 1; n <= o.WordNGrams; n++ {
		room += max(0, nt-n+1)
	}
	if o.CharMax > 0 {
		room += (o.CharMax - o.CharMin + 1) * (len(s.toks) + 2*nt)
	}
	s.ent = slices.Grow(s.ent[:0], room)
	tok := func(i int) []byte {
		lo := 0
		if i > 0 {
			lo = s.ends[i-1]
		}
		return s.toks[lo:s.ends[i]]
	}
	for n := 1; n <= o.WordNGrams; n++ {
		for i := 0; i+n <= nt; i++ {
			h := prefixHash[n]
			for k := range n {
				if k > 0 {
					h = (h ^ ' ') * fnvPrime
				}
				h = fnvBytes(h, tok(i+k))
			}
			s.add(f, h)
		}
	}
	if o.CharMax > 0 {
		for i := range nt {
			t := tok(i)
			s.rbuf = append(append(append(s.rbuf[:0], '<'), t...), '>')
			s.pos = s.pos[:0]
			for j := range s.rbuf {
				if utf8.RuneStart(s.rbuf[j]) {
					s.pos = append(s.pos, j)
				}
			}
			s.pos = append(s.pos, len(s.rbuf))
			runes := len(s.pos) - 1
			for n := o.CharMin; n <= o.CharMax; n++ {
				for j := 0; j+n <= runes; j++ {
					s.add(f, fnvBytes(prefixHash[0], s.rbuf[s.pos[j]:s.pos[j+n]]))
				}
			}
		}
	}
	s.sortEntries(f.opt.Bits + 1)
}

// hashWords fills s.ent with the features of doc's unigrams and, with
// WordNGrams 2, bigrams (unsorted), in one pass over doc: each token's
// lower-cased bytes go into three FNV-1a states as they are read, that of
// "u " + token (the unigram), of "b " + token (the start of the bigram the
// token begins) and of the bigram the token ends ("b " + previous + " " +
// token, carried over from the previous token's second state). The three
// chains of multiplications are independent, so they overlap in the CPU;
// no token is copied and no byte read twice. Its features are those of
// tokenize and the loops of hashes, in another order (sortEntries sorts
// them).
func (s *scratch) hashWords(f *Featurizer, doc []byte) {
	ent := s.ent[:0]
	mask := uint64(1)<<f.opt.Bits - 1
	var sign uint64 // the hash's top bit, with Signed
	if f.opt.Signed {
		sign = 1
	}
	bigrams := f.opt.WordNGrams == 2
	uni, next, big := uint64(prefixHash[1]), uint64(prefixHash[2]), uint64(0)
	prev := false // a token came before the current one (big is its bigram)
	var rb [utf8.UTFMax]byte
	for i, n := 0, len(doc); ; {
		// The ASCII separators before a token.
		for i < n && doc[i] < utf8.RuneSelf && f.ascii[doc[i]] == 0 {
			i++
		}
		if i == n {
			break
		}
		// A token (or non-ASCII separators, then maybe a token): its runs
		// of ASCII bytes in a loop of their own, whose only branch taken
		// the other way is the run's end.
		in := false // a byte of the token was read
		for i < n {
			for ; i < n; i++ {
				b := uint64(f.ascii[doc[i]])
				if b == 0 {
					break
				}
				uni = (uni ^ b) * fnvPrime
				next = (next ^ b) * fnvPrime
				big = (big ^ b) * fnvPrime
				in = true
			}
			if i == n || doc[i] < utf8.RuneSelf {
				break // the token's end
			}
			r, k := utf8.DecodeRune(doc[i:]) // invalid bytes: utf8.RuneError, U+FFFD, a separator
			i += k
			r, ok := f.tokenRune(r)
			if !ok {
				if in {
					break // the token's end
				}
				continue // a separator before the token
			}
			for _, b := range rb[:utf8.EncodeRune(rb[:], r)] {
				uni = (uni ^ uint64(b)) * fnvPrime
				next = (next ^ uint64(b)) * fnvPrime
				big = (big ^ uint64(b)) * fnvPrime
			}
			in = true
		}
		if !in {
			continue
		}
		// A separator after a token: its features, and the states of the
		// next token.
		ent = append(ent, (uni&mask)<<1|uni>>63&sign)
		if bigrams && prev {
			ent = append(ent, (big&mask)<<1|big>>63&sign)
		}
		big = (next ^ ' ') * fnvPrime
		uni, next = prefixHash[1], prefixHash[2]
		prev = true
	}
	s.ent = ent
}

// sortEntries sorts s.ent, whose values are below 2^bits: an LSD radix
// sort of 8-bit digits for 128 entries or more, sortSmall for fewer.
func (s *scratch) sortEntries(bits int) {
	n := len(s.ent)
	if n < 128 {
		s.sortSmall(bits)
		return
	}
	s.tmp = slices.Grow(s.tmp[:0], n)[:n]
	src, dst := s.ent, s.tmp
	// The counts of every digit in one pass over the entries.
	passes := (bits + 7) / 8
	var counts [4][256]uint32
	if passes > len(counts) {
		passes = len(counts) // bits ≤ MaxBits+1 = 29
	}
	for _, e := range src {
		counts[0][e&0xff]++
		counts[1][(e>>8)&0xff]++
		counts[2][(e>>16)&0xff]++
		counts[3][(e>>24)&0xff]++
	}
	for p := range passes {
		shift := 8 * p
		cnt := &counts[p]
		if int(cnt[(src[0]>>shift)&0xff]) == n {
			continue // one digit value: the pass would keep the order
		}
		var sum uint32
		for d := range cnt {
			sum, cnt[d] = sum+cnt[d], sum
		}
		for _, e := range src {
			d := (e >> shift) & 0xff
			dst[cnt[d]] = e
			cnt[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &s.ent[0] {
		copy(s.ent, src)
	}
}

// sortSmall is sortEntries of fewer than 128 entries: placed by their top
// 6 bits (a counting sort into 64 buckets), then an insertion sort, which
// moves each entry past only the few of its bucket (model's
// BenchmarkPredictText times prediction from a short text with it:
// docs/benchmarks/text-raw.md).
func (s *scratch) sortSmall(bits int) {
	ent := s.ent
	if bits > 6 && len(ent) > 16 {
		shift := uint(bits - 6)
		var cnt [64]uint8 // < 128 entries
		for _, e := range ent {
			cnt[(e>>shift)&63]++
		}
		var sum uint8
		for d := range cnt {
			sum, cnt[d] = sum+cnt[d], sum
		}
		s.tmp = slices.Grow(s.tmp[:0], len(ent))[:len(ent)]
		tmp := s.tmp
		for _, e := range ent {
			d := (e >> shift) & 63
			tmp[cnt[d]&127] = e
			cnt[d]++
		}
		copy(ent, tmp)
	}
	for i := 1; i < len(ent); i++ {
		e := ent[i]
		j := i
		for ; j > 0 && ent[j-1] > e; j-- {
			ent[j] = ent[j-1]
		}
		ent[j] = e
	}
}

// noRank marks a column of no document frequency in idfRanks' table.
const noRank = math.MaxUint32

// maxRankBits bounds the columns of the table of idfRanks: 2²⁴ columns,
// 64 MiB. Past it featurizing looks the idf up by binary search.
const maxRankBits = 24

// rankSpread bounds the table of idfRanks by the featurizer's own size: a
// new table is made only when the columns are at most rankSpread times the
// columns with an idf (plus a floor), so a featurizer whose idf names few
// of many hashed columns does not allocate 2^Bits entries for every read;
// it looks its idf up by binary search instead.
const (
	rankSpread = 16
	rankFloor  = 1 << 16
)

// idfRanks returns, for a featurizer with idf of at most 2^maxRankBits
// columns and at most rankSpread times as many columns as idf values (plus
// rankFloor), the index in f.idfs of each column's idf (noRank for idf0),
// for featurizing many documents at one load a value (weigh); else nil.
// If rank is not nil it is used (it has the featurizer's Dims values).
func (f *Featurizer) idfRanks(rank []uint32) []uint32 {
	if !f.opt.IDF || rank == nil && (f.opt.Bits > maxRankBits || f.Dims() > rankSpread*len(f.dfCols)+rankFloor) {
		return nil
	}
	if rank == nil {
		rank = make([]uint32, f.Dims())
	}
	for j := range rank {
		rank[j] = noRank
	}
	for k, c := range f.dfCols {
		rank[c] = uint32(k)
	}
	return rank
}

// counts sets s.ent to the sorted columns of doc whose signed count of
// features is not 0, and s.vals to those counts. With zeros (and
// Options.Signed) the columns whose features cancel are appended to
// s.zero, for the document frequencies of FitReadAll.
func (s *scratch) counts(f *Featurizer, doc []byte, zeros bool) {
	s.hashes(f, doc)
	s.zero = s.zero[:0]
	ent := s.ent
	n := len(ent)
	s.vals = slices.Grow(s.vals[:0], n)
	s.cnt = slices.Grow(s.cnt[:0], n)[:n]
	cnt := s.cnt
	// The runs of equal columns summed without a branch on where a run
	// ends (half of a document's features start one): the column and the
	// sum of the run go to its index k, in place.
	k := -1
	prev := ^uint64(0)
	for _, e := range ent {
		col := e >> 1
		start := 0
		if col != prev {
			start = 1
		}
		k += start
		cnt[k] = cnt[k]&int64(start-1) + 1 - 2*int64(e&1)
		ent[k] = col
		prev = col
	}
	out := ent[:0]
	for i, c := range cnt[:k+1] {
		if c == 0 {
			if zeros {
				s.zero = append(s.zero, ent[i])
			}
			continue // signed features that cancel
		}
		out = append(out, ent[i])
		s.vals = append(s.vals, float64(c))
	}
	s.ent = out
}

// weigh turns the counts of s.vals (columns s.ent, counts) into the
// row's values but for the scale: weighted by Options.TF, times the idf;
// it returns the scale of the row (to unit norm; 1 with
// Options.NoNormalize), by which the caller multiplies each value as it
// stores it (the same bits as scaling s.vals). With idf, rank (if not
// nil: idfRanks) finds a column's idf in one load instead of a binary
// search of the columns.
func (s *scratch) weigh(f *Featurizer, rank []uint32) (scale float64) {
	o := &f.opt
	dfCols := f.dfCols // the columns not yet passed, for idf
	for k, c := range s.vals {
		v := c
		switch o.TF {
		case Log:
			if a := math.Abs(c); a < float64(len(logTF)) {
				v = math.Copysign(logTF[int(a)], c)
			} else {
				v = math.Copysign(1+math.Log(a), c)
			}
		case Binary:
			v = math.Copysign(1, c)
		}
		if o.IDF && rank != nil {
			if i := rank[s.ent[k]]; i == noRank {
				v *= f.idf0
			} else {
				v *= f.idfs[i]
			}
		} else if o.IDF {
			i, ok := slices.BinarySearch(dfCols, uint32(s.ent[k]))
			if ok {
				v *= f.idfs[len(f.idfs)-len(dfCols)+i]
			} else {
				v *= f.idf0
			}
			dfCols = dfCols[i:]
		}
		s.vals[k] = v
	}
	if !o.NoNormalize {
		var ss float64
		for _, v := range s.vals {
			ss += v * v
		}
		if ss > 0 {
			return 1 / math.Sqrt(ss)
		}
	}
	return 1
}

// logTF[c] is 1 + ln c, the Log weighting of the counts a document
// mostly has, computed once (the same bits as computing it each time).
var logTF = func() (t [64]float64) {
	for c := 1; c < len(t); c++ {
		t[c] = 1 + math.Log(float64(c))
	}
	return t
}()

// Rows featurizes documents into a CSR matrix, reusing its scratch space
// between documents. A Rows is not safe for concurrent use; make one per
// goroutine (they may share the Featurizer).
type Rows[T kernel.Float] struct {
	f *Featurizer
	s scratch
	// CSR receives the rows; its Cols is the featurizer's Dims.
	CSR *dataset.CSR[T]
	// The capacity of CSR.Idx and CSR.Val below ahead is backed by the
	// system already (pages.Populate), in the array starting at base.
	ahead int
	base  *int32
	rank  []uint32 // the idf's table (idfRanks), or nil
}

// populateChunk is the stored values whose pages Append has the system
// back at once, ahead of writing them (4 MiB of indices, as much of values
// of float32): memory fresh from the system faults in page by page as it
// is first written, at about 12 µs a page in some virtual machines, and a
// training file's rows are tens of megabytes.
const populateChunk = 1 << 20

// NewRows returns a Rows appending to an empty matrix.
func NewRows[T kernel.Float](f *Featurizer) *Rows[T] {
	return &Rows[T]{f: f, CSR: &dataset.CSR[T]{Ptr: []int{0}, Cols: f.Dims()}}
}

// Append featurizes doc into a new row of label y.
func (r *Rows[T]) Append(doc []byte, y int) {
	r.s.counts(r.f, doc, false)
	scale := r.s.weigh(r.f, r.rank)
	cols, vals := r.s.ent, r.s.vals
	c := r.CSR
	c.Idx, c.Val = reserve(c.Idx, len(cols)), reserve(c.Val, len(cols))
	if n := len(c.Idx) + len(cols); n > r.ahead || unsafe.SliceData(c.Idx) != r.base {
		r.populate(n)
	}
	c.Idx, c.Val = store(c.Idx, c.Val, cols, vals, scale)
	c.Ptr = append(c.Ptr, len(c.Idx))
	c.Y = append(c.Y, y)
	c.Rows++
}

// store appends the columns cols and the values vals times scale to idx
// and val, which have room for them.
func store[T kernel.Float](idx []int32, val []T, cols []uint64, vals []float64, scale float64) ([]int32, []T) {
	n := len(idx)
	idx, val = idx[:n+len(cols)], val[:n+len(cols)]
	di, dv := idx[n:], val[n:]
	vals = vals[:len(di)]
	dv = dv[:len(di)]
	for k, j := range cols[:len(di)] {
		di[k] = int32(j)
		dv[k] = T(vals[k] * scale)
	}
	return idx, val
}

// reserve returns s with room for n more elements, doubling its
// capacity when it grows: append's growth of large slices (1.25×) copied
// a training file's features about four times over, a third of
// featurizing it.
// The new array is made and copied rather than grown by append, which
// clears the capacity past the length: memory fresh from the system then
// stays untouched until it is written.
func reserve[E any](s []E, n int) []E {
	if cap(s)-len(s) >= n {
		return s
	}
	t := make([]E, len(s), len(s)+max(n, len(s)))
	copy(t, s)
	return t
}

// populate has the system back the capacity of the matrix's indices and
// values from their length to past n, a chunk at a time.
func (r *Rows[T]) populate(n int) {
	c := r.CSR
	if unsafe.SliceData(c.Idx) != r.base {
		r.base, r.ahead = unsafe.SliceData(c.Idx), len(c.Idx)
	}
	lo, hi := r.ahead, min(cap(c.Idx), max(n, r.ahead+populateChunk))
	if hi <= lo {
		return
	}
	pages.Populate(c.Idx[lo:hi])
	pages.Populate(c.Val[lo:hi])
	r.ahead = hi
}

// AppendString is Append of a string.
func (r *Rows[T]) AppendString(doc string, y int) {
	r.Append(unsafeBytes(doc), y)
}

// Row featurizes doc into dst's slices (reused) and returns the row.
func (r *Rows[T]) Row(dst dataset.SparseRow[T], doc []byte) dataset.SparseRow[T] {
	r.s.counts(r.f, doc, false)
	scale := r.s.weigh(r.f, nil)
	n := len(r.s.ent)
	dst.Idx, dst.Val = store(slices.Grow(dst.Idx[:0], n), slices.Grow(dst.Val[:0], n), r.s.ent, r.s.vals, scale)
	return dst
}

// Reset empties the matrix, keeping its memory.
func (r *Rows[T]) Reset() {
	c := r.CSR
	c.Ptr, c.Idx, c.Val, c.Y, c.Rows = c.Ptr[:1], c.Idx[:0], c.Val[:0], c.Y[:0], 0
}

// MaxFeatures bounds the features (before they are summed into columns) of
// a document of n bytes: a document has at most (n+1)/2 tokens, each of
// which starts up to WordNGrams word n-grams, and R + 2·tokens runes in its
// framed tokens (R ≤ n the runes of the tokens), each of which starts at
// most one character n-gram of each length. Featurizing holds about 32
// bytes per feature (the hashes, their sort buffer and the values), so a
// server can bound what one document costs before it featurizes it.
func (f *Featurizer) MaxFeatures(n int) int {
	o := &f.opt
	t := (n + 1) / 2
	k := o.WordNGrams * t
	if o.CharMax > 0 {
		k += (o.CharMax - o.CharMin + 1) * (n + t + 1)
	}
	return k
}
