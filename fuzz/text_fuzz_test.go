package fuzz

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/texttest"
	"github.com/rosenblatt-go/rosenblatt/text"
)

// textOptions maps fuzz bytes to valid featurizer options.
func textOptions(bits, words, chars, flags uint8, extra string) text.Options {
	o := text.Options{
		Bits:        1 + int(bits)%16,
		WordNGrams:  int(words) % 5,
		TF:          text.Weighting(flags % 3),
		Signed:      flags&4 != 0,
		KeepCase:    flags&8 != 0,
		NoNormalize: flags&16 != 0,
	}
	if c := int(chars) % 6; c > 0 {
		o.CharMin, o.CharMax = 1+int(chars/6)%c, c
	}
	if o.WordNGrams == 0 && o.CharMax == 0 {
		o.WordNGrams = 1
	}
	if flags&32 != 0 && len(extra) <= 8 {
		o.Extra = extra
	}
	return o
}

// FuzzTextFeaturizer checks that the featurizer never panics and gives
// the columns and values of the plain reference implementation
// (internal/texttest) on any bytes, invalid UTF-8 included, and that the
// stored form of a featurizer with the idf of a document decodes to one
// that featurizes the same.
func FuzzTextFeaturizer(f *testing.F) {
	for _, s := range []string{
		"", "Hello, World! hello world", "café cafe\u0301 CAFÉ", "我爱北京天安门 東京は日本の首都です",
		"emoji 🙂👍🏽 in 😀text 🇫🇷", "bad \xff\xfe bytes\xc3 mid\xe2\x82word \xed\xa0\x80", "İstanbul ΣΊΣΥΦΟΣ ǅ",
		"a a a a b", "\uFFFD x \uFFFD", "under_score it's",
	} {
		f.Add([]byte(s), uint8(10), uint8(2), uint8(0), uint8(1), "")
		f.Add([]byte(s), uint8(3), uint8(3), uint8(10), uint8(4|32), "_'🙂")
	}
	f.Fuzz(func(t *testing.T, doc []byte, bits, words, chars, flags uint8, extra string) {
		o := textOptions(bits, words, chars, flags, extra)
		if o.Check() != nil {
			return // Extra that is not valid UTF-8
		}
		fz, err := text.New(o)
		if err != nil {
			t.Fatal(err)
		}
		if err := texttest.Check(fz, string(doc)); err != nil {
			t.Fatal(err)
		}
		o.IDF = true
		fi, err := text.Fit(o, func(yield func([]byte) bool) { yield(doc) })
		if err != nil {
			t.Fatal(err)
		}
		if err := texttest.Check(fi, string(doc)); err != nil {
			t.Fatal(err)
		}
		b, err := fi.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back text.Featurizer
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if err := texttest.Check(&back, string(doc)); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzTextStored checks that decoding any bytes as a stored featurizer
// never panics and fails with ErrCorrupt, or gives a featurizer whose
// stored form is those bytes.
func FuzzTextStored(f *testing.F) {
	fz, _ := text.New(text.Options{Bits: 4, WordNGrams: 2, CharMin: 2, CharMax: 3, Extra: "_"})
	b, _ := fz.MarshalBinary()
	f.Add(b)
	fi, _ := text.Fit(text.Options{Bits: 3, WordNGrams: 1, IDF: true}, func(yield func([]byte) bool) { yield([]byte("a b")) })
	b, _ = fi.MarshalBinary()
	f.Add(b)
	f.Add([]byte("RBLTTEXT"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var g text.Featurizer
		if err := g.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, text.ErrCorrupt) {
				t.Fatalf("%v does not wrap ErrCorrupt", err)
			}
			return
		}
		again, err := g.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("decoded, but stores as other bytes (%v)", err)
		}
	})
}

// FuzzTextReader checks that the readers of labelled documents never
// panic and fail only with the package's errors.
func FuzzTextReader(f *testing.F) {
	f.Add([]byte("__label__a hello\n__label__b __label__c x\n\nno label\n"), uint8(0))
	f.Add([]byte("l\tt\nx\ty z\n"), uint8(1))
	f.Add([]byte("l,t\nx,\"a,\"\"b\"\"\nc\"\n"), uint8(2))
	f.Fuzz(func(t *testing.T, in []byte, how uint8) {
		opt := text.ReaderOptions{Format: text.Format(1 + how%3), MultiLabel: how&4 != 0, Unlabelled: how&8 != 0, Header: how&16 != 0, MaxLine: 64}
		r, err := text.NewReader(bytes.NewReader(in), opt)
		if err != nil {
			t.Fatal(err)
		}
		for range len(in) + 2 {
			_, doc, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				if !errors.Is(err, text.ErrFormat) && !errors.Is(err, text.ErrTooLarge) {
					t.Fatalf("%v wraps neither ErrFormat nor ErrTooLarge", err)
				}
				return
			}
			if len(doc) > len(in) {
				t.Fatalf("a document of %d bytes from %d", len(doc), len(in))
			}
		}
		t.Fatal("more documents than bytes")
	})
}
