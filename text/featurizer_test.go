package text

import (
	"bytes"
	"errors"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// reference is a deliberately plain featurizer: ToValidUTF8, FieldsFunc,
// feature strings, hash/fnv, a map.
func reference(o Options, idfs []float64, doc string) (cols []int32, vals []float64) {
	doc = strings.ToValidUTF8(doc, "\uFFFD")
	tokenRune := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r) || strings.ContainsRune(o.Extra, r)
	}
	toks := strings.FieldsFunc(doc, func(r rune) bool { return r == unicode.ReplacementChar || !tokenRune(r) })
	if !o.KeepCase {
		for i, t := range toks {
			toks[i] = strings.Map(unicode.ToLower, t)
		}
	}
	var feats []string
	prefix := map[int]string{1: "u ", 2: "b "}
	for n := 1; n <= o.WordNGrams; n++ {
		p, ok := prefix[n]
		if !ok {
			p = string(rune('0'+n)) + " "
		}
		for i := 0; i+n <= len(toks); i++ {
			feats = append(feats, p+strings.Join(toks[i:i+n], " "))
		}
	}
	if o.CharMax > 0 {
		for _, t := range toks {
			r := []rune("<" + t + ">")
			for n := o.CharMin; n <= o.CharMax; n++ {
				for i := 0; i+n <= len(r); i++ {
					feats = append(feats, "c "+string(r[i:i+n]))
				}
			}
		}
	}
	count := map[int32]float64{}
	for _, s := range feats {
		h := fnv.New64a()
		h.Write([]byte(s))
		x := h.Sum64()
		c := int32(x % (1 << o.Bits))
		if o.Signed && x>>63 == 1 {
			count[c]--
		} else {
			count[c]++
		}
	}
	for c, v := range count {
		if v != 0 {
			cols = append(cols, c)
		}
	}
	slices.Sort(cols)
	var ss float64
	for _, c := range cols {
		v := count[c]
		switch o.TF {
		case Log:
			if v > 0 {
				v = 1 + math.Log(v)
			} else {
				v = -(1 + math.Log(-v))
			}
		case Binary:
			if v > 0 {
				v = 1
			} else {
				v = -1
			}
		}
		if idfs != nil {
			v *= idfs[c]
		}
		vals = append(vals, v)
		ss += v * v
	}
	if !o.NoNormalize && ss > 0 {
		for i := range vals {
			vals[i] *= 1 / math.Sqrt(ss)
		}
	}
	return cols, vals
}

var edgeDocs = []string{
	"",
	"   \t\n",
	"Hello, World! hello world",
	"The cat sat on the mat; the CAT sat.",
	"café cafe\u0301 CAFÉ naïve", // NFC, NFD (combining acute), upper case
	"\u0301leading mark and trailing e\u0301\u0308",                 // marks at a token's start
	"我爱北京天安门 東京は日本の首都です",                                            // scripts without spaces
	"ภาษาไทยไม่มีช่องว่าง",                                          // Thai: letters and spacing marks
	"emoji 🙂👍🏽 in 😀text 🇫🇷 flags",                                   // symbols separate
	"bad \xff\xfe bytes\xc3 mid\xe2\x82word \xed\xa0\x80 surrogate", // invalid UTF-8
	"digits 123 ٣٤٥ ＡＢＣ full-width",                                 // other digits, full-width letters
	"İstanbul ΣΊΣΥΦΟΣ ǅ title case",                                 // special lower-casing
	"under_score it's well-known",                                   // Extra
	"\uFFFD replacement \uFFFD char",
	"a a a a a a b",
	strings.Repeat("word ", 50),
}

var edgeOptions = []Options{
	DefaultOptions(),
	{Bits: 4, WordNGrams: 1, TF: Raw},
	{Bits: 3, WordNGrams: 3, TF: Raw, Signed: true, NoNormalize: true},
	{Bits: 10, WordNGrams: 2, CharMin: 1, CharMax: 4, TF: Log, Signed: true},
	{Bits: 12, WordNGrams: 0, CharMin: 2, CharMax: 3, TF: Binary},
	{Bits: 16, WordNGrams: 8, TF: Log, KeepCase: true, Extra: "_'-"},
	{Bits: 6, WordNGrams: 2, TF: Raw, Extra: "🙂"},
}

func checkRow(t *testing.T, f *Featurizer, doc string) {
	t.Helper()
	r := NewRows[float64](f)
	r.AppendString(doc, 0)
	wc, wv := reference(f.opt, f.idf, doc)
	row := r.CSR.Row(0)
	if !slices.Equal(row.Idx, wc) {
		t.Fatalf("%+v %q: columns %v, the reference %v", f.opt, doc, row.Idx, wc)
	}
	for k := range wv {
		if d := math.Abs(row.Val[k] - wv[k]); d > 1e-12 {
			t.Fatalf("%+v %q: column %d value %v, the reference %v", f.opt, doc, wc[k], row.Val[k], wv[k])
		}
	}
	if err := r.CSR.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestMatchesReference(t *testing.T) {
	for _, o := range edgeOptions {
		f, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range edgeDocs {
			checkRow(t, f, d)
		}
	}
}

func seq(docs []string) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for _, d := range docs {
			if !yield([]byte(d)) {
				return
			}
		}
	}
}

func TestIDF(t *testing.T) {
	o := Options{Bits: 18, WordNGrams: 1, TF: Raw, IDF: true}
	docs := []string{"a b c", "a b", "a", "d"}
	f, err := Fit(o, seq(docs))
	if err != nil {
		t.Fatal(err)
	}
	// scikit-learn's smooth idf by hand: n = 4; df(a) = 3, df(d) = 1.
	col := func(w string) int {
		h := fnv.New64a()
		h.Write([]byte("u " + w))
		return int(h.Sum64() % (1 << 18))
	}
	if got, want := f.IDF(col("a")), math.Log(5.0/4)+1; got != want {
		t.Errorf("idf(a) %v, want %v", got, want)
	}
	if got, want := f.IDF(col("d")), math.Log(5.0/2)+1; got != want {
		t.Errorf("idf(d) %v, want %v", got, want)
	}
	if got, want := f.IDF(col("zzz")), math.Log(5.0)+1; got != want {
		t.Errorf("idf of an unseen column %v, want %v", got, want)
	}
	for _, d := range append(docs, edgeDocs...) {
		checkRow(t, f, d)
	}
	if _, err := New(o); !errors.Is(err, ErrOptions) {
		t.Errorf("New with IDF: %v, want ErrOptions", err)
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, o := range []Options{
		{},
		{Bits: 29, WordNGrams: 1},
		{Bits: 10, WordNGrams: 9},
		{Bits: 10},
		{Bits: 10, WordNGrams: 1, CharMin: 3, CharMax: 2},
		{Bits: 10, WordNGrams: 1, CharMin: 3},
		{Bits: 10, WordNGrams: 1, TF: 3},
		{Bits: 10, WordNGrams: 1, Extra: "\xff"},
	} {
		if _, err := New(o); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v: %v, want ErrOptions", o, err)
		}
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	o := Options{Bits: 8, WordNGrams: 2, CharMin: 2, CharMax: 3, TF: Log, IDF: true, Signed: true, Extra: "_é"}
	f, err := Fit(o, seq(edgeDocs))
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var g Featurizer
	if err := g.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if g.opt != f.opt || g.docs != f.docs || !slices.Equal(g.idf, f.idf) {
		t.Fatalf("round trip: %+v %d, want %+v %d", g.opt, g.docs, f.opt, f.docs)
	}
	b2, _ := g.MarshalBinary()
	if !bytes.Equal(b, b2) {
		t.Fatal("re-marshalled bytes differ")
	}
	// every single-byte change and every truncation is refused
	for i := range b {
		c := bytes.Clone(b)
		c[i] ^= 0x40
		if err := new(Featurizer).UnmarshalBinary(c); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d changed: %v, want ErrCorrupt", i, err)
		}
		if err := new(Featurizer).UnmarshalBinary(b[:i]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d: %v, want ErrCorrupt", i, err)
		}
	}
	if err := new(Featurizer).UnmarshalBinary(append(b, 0)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("padded: %v", err)
	}
}

func TestRowsNoAllocs(t *testing.T) {
	f, _ := New(Options{Bits: 20, WordNGrams: 2, CharMin: 3, CharMax: 5, TF: Log})
	r := NewRows[float32](f)
	doc := []byte("Le café de la gare — naïve ÉCOLE 東京 emoji 🙂 words words")
	var row = r.Row(dataset0[float32](), doc)
	if n := testing.AllocsPerRun(100, func() { row = r.Row(row, doc) }); n != 0 {
		t.Errorf("Row allocates %v times per document after the first", n)
	}
}
