package text_test

import (
	"bytes"
	"errors"
	"hash/fnv"
	"math"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/texttest"
	"github.com/rosenblatt-go/rosenblatt/text"
)

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

var edgeOptions = []text.Options{
	text.DefaultOptions(),
	{Bits: 4, WordNGrams: 1, TF: text.Raw},
	{Bits: 3, WordNGrams: 3, TF: text.Raw, Signed: true, NoNormalize: true},
	{Bits: 10, WordNGrams: 2, CharMin: 1, CharMax: 4, TF: text.Log, Signed: true},
	{Bits: 12, WordNGrams: 0, CharMin: 2, CharMax: 3, TF: text.Binary},
	{Bits: 16, WordNGrams: 8, TF: text.Log, KeepCase: true, Extra: "_'-"},
	{Bits: 6, WordNGrams: 2, TF: text.Raw, Extra: "🙂"},
	{Bits: 20, WordNGrams: 2, TF: text.Log, KeepCase: true, Signed: true},
	{Bits: 8, WordNGrams: 1, TF: text.Raw, Signed: true, Extra: "_'-ß́"},
	{Bits: 28, WordNGrams: 2, TF: text.Binary, Extra: "'"},
}

func checkRow(t *testing.T, f *text.Featurizer, doc string) {
	t.Helper()
	if err := texttest.Check(f, doc); err != nil {
		t.Fatal(err)
	}
}

func TestMatchesReference(t *testing.T) {
	for _, o := range edgeOptions {
		f, err := text.New(o)
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
	o := text.Options{Bits: 18, WordNGrams: 1, TF: text.Raw, IDF: true}
	docs := []string{"a b c", "a b", "a", "d"}
	f, err := text.Fit(o, seq(docs))
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
	if _, err := text.New(o); !errors.Is(err, text.ErrOptions) {
		t.Errorf("New with IDF: %v, want text.ErrOptions", err)
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, o := range []text.Options{
		{},
		{Bits: 29, WordNGrams: 1},
		{Bits: 10, WordNGrams: 9},
		{Bits: 10},
		{Bits: 10, WordNGrams: 1, CharMin: 3, CharMax: 2},
		{Bits: 10, WordNGrams: 1, CharMin: 3},
		{Bits: 10, WordNGrams: 1, TF: 3},
		{Bits: 10, WordNGrams: 1, Extra: "\xff"},
		{Bits: 10, WordNGrams: 1, Extra: "_\x00"},  // NUL always separates tokens
		{Bits: 10, WordNGrams: 1, Extra: "\uFFFD"}, // so does U+FFFD, invalid UTF-8's rune
	} {
		if _, err := text.New(o); !errors.Is(err, text.ErrOptions) {
			t.Errorf("%+v: %v, want text.ErrOptions", o, err)
		}
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	o := text.Options{Bits: 8, WordNGrams: 2, CharMin: 2, CharMax: 3, TF: text.Log, IDF: true, Signed: true, Extra: "_é"}
	f, err := text.Fit(o, seq(edgeDocs))
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var g text.Featurizer
	if err := g.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if g.Options() != f.Options() || g.Docs() != f.Docs() || g.Docs() != int64(len(edgeDocs)) {
		t.Fatalf("round trip: %+v %d, want %+v %d", g.Options(), g.Docs(), f.Options(), f.Docs())
	}
	for j := range f.Dims() {
		if g.IDF(j) != f.IDF(j) {
			t.Fatalf("idf of column %d: %v, want %v", j, g.IDF(j), f.IDF(j))
		}
	}
	b2, _ := g.MarshalBinary()
	if !bytes.Equal(b, b2) {
		t.Fatal("re-marshalled bytes differ")
	}
	// every single-byte change and every truncation is refused
	for i := range b {
		c := bytes.Clone(b)
		c[i] ^= 0x40
		if err := new(text.Featurizer).UnmarshalBinary(c); !errors.Is(err, text.ErrCorrupt) {
			t.Fatalf("byte %d changed: %v, want text.ErrCorrupt", i, err)
		}
		if err := new(text.Featurizer).UnmarshalBinary(b[:i]); !errors.Is(err, text.ErrCorrupt) {
			t.Fatalf("truncated to %d: %v, want text.ErrCorrupt", i, err)
		}
	}
	if err := new(text.Featurizer).UnmarshalBinary(append(b, 0)); !errors.Is(err, text.ErrCorrupt) {
		t.Fatalf("padded: %v", err)
	}
}

func TestRowsNoAllocs(t *testing.T) {
	f, _ := text.New(text.Options{Bits: 20, WordNGrams: 2, CharMin: 3, CharMax: 5, TF: text.Log})
	r := text.NewRows[float32](f)
	doc := []byte("Le café de la gare — naïve ÉCOLE 東京 emoji 🙂 words words")
	var row = r.Row(dataset.SparseRow[float32]{}, doc)
	if n := testing.AllocsPerRun(100, func() { row = r.Row(row, doc) }); n != 0 {
		t.Errorf("Row allocates %v times per document after the first", n)
	}
}

// TestMaxFeatures: the bound holds on the edge documents and on the
// densest ones (one-byte tokens, long tokens), under every option set,
// and is within 4× of the features of the densest document: a bound
// that undercounts word or character n-grams fails here.
func TestMaxFeatures(t *testing.T) {
	docs := append([]string{strings.Repeat("a ", 300), strings.Repeat("é", 200), strings.Repeat("ab,", 100) + "x"}, edgeDocs...)
	for _, o := range edgeOptions {
		o.TF, o.Signed, o.NoNormalize, o.IDF = text.Raw, false, true, false
		f, err := text.New(o)
		if err != nil {
			t.Fatal(err)
		}
		rows := text.NewRows[float64](f)
		for i, d := range docs {
			var row dataset.SparseRow[float64]
			row = rows.Row(row, []byte(d))
			got := 0.0
			for _, v := range row.Val {
				got += v // raw, unsigned, unscaled: the count of features
			}
			bound := f.MaxFeatures(len(d))
			if got > float64(bound) {
				t.Fatalf("%+v, doc %d (%d bytes): %v features, MaxFeatures %d", o, i, len(d), got, bound)
			}
			if i == 0 && float64(bound) > 4*got {
				t.Fatalf("%+v: the densest document has %v features, MaxFeatures %d is over 4× that", o, got, bound)
			}
		}
	}
}
