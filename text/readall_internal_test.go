package text

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// manyDocs is n fastText lines of several labels (named in a scrambled
// order), lengths from 0 to about 4 000 bytes, some of them Unicode with
// combining marks and invalid bytes; every 97th line is blank (no
// document) and every 89th has no label (with Unlabelled).
func manyDocs(n int) string {
	words := []string{"the", "Cat", "sat", "on", "mat", "café", "cafe\u0301", "北京", "ΣΊΣΥΦΟΣ", "a", "b", "\xff\xfe", "🙂", "x1", "naïve", "zz"}
	x := uint32(7)
	next := func() uint32 { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x }
	var b strings.Builder
	for i := range n {
		if i%97 == 5 {
			b.WriteString("\n")
			continue
		}
		if i%89 != 3 {
			fmt.Fprintf(&b, "__label__L%d ", (next()%7)*13%7)
		}
		for k := range int(next() % 600) {
			if k > 0 {
				b.WriteString(" ")
			}
			b.WriteString(words[next()%uint32(len(words))])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// withWorkers runs f with ReadAll on w goroutines.
func withWorkers(t *testing.T, w int, f func()) {
	t.Helper()
	old := readWorkers
	readWorkers = func() int { return w }
	defer func() { readWorkers = old }()
	f()
}

func readAllOf[T kernel.Float](t *testing.T, in string, f *Featurizer, w int) (*dataset.CSR[T], []string, error) {
	t.Helper()
	var X *dataset.CSR[T]
	var names Names
	var err error
	withWorkers(t, w, func() {
		r, e := NewReader(strings.NewReader(in), ReaderOptions{Format: FastText, Unlabelled: true})
		if e != nil {
			t.Fatal(e)
		}
		X, err = ReadAll[T](r, f, &names)
	})
	return X, names.List(), err
}

// sameCSR reports whether a and b hold the same rows, labels and value
// bits.
func sameCSR[T kernel.Float](a, b *dataset.CSR[T]) error {
	switch {
	case a.Rows != b.Rows || a.Cols != b.Cols:
		return fmt.Errorf("%d×%d and %d×%d", a.Rows, a.Cols, b.Rows, b.Cols)
	case !reflect.DeepEqual(a.Ptr, b.Ptr):
		return errors.New("the row offsets differ")
	case !reflect.DeepEqual(a.Y, b.Y):
		return errors.New("the labels differ")
	case !reflect.DeepEqual(a.Idx, b.Idx):
		return errors.New("the columns differ")
	}
	for k := range a.Val {
		if math.Float64bits(float64(a.Val[k])) != math.Float64bits(float64(b.Val[k])) {
			return fmt.Errorf("value %d: %v and %v", k, a.Val[k], b.Val[k])
		}
	}
	return nil
}

// TestReadAllWorkers: ReadAll on 2, 3 and 8 goroutines gives the matrix
// and label names of one goroutine, bit for bit (documents of many
// batches, blank lines, unlabelled lines, float32 and float64), and one
// goroutine's rows are those of Rows.Append document by document.
func TestReadAllWorkers(t *testing.T) {
	in := manyDocs(3000)
	if len(in) < 4*batchBytes {
		t.Fatalf("%d bytes of documents: too few for several batches", len(in))
	}
	for _, o := range []Options{
		DefaultOptions(),
		{Bits: 10, WordNGrams: 3, CharMin: 2, CharMax: 3, TF: Raw, Signed: true},
		{Bits: 16, WordNGrams: 2, TF: Log, IDF: true, Signed: true},
	} {
		var f *Featurizer
		var err error
		if o.IDF {
			// The idf of a few documents of some of the words: the
			// others' columns have no document frequency (idf0).
			r, _ := NewReader(strings.NewReader("the cat sat\non the mat\nthe cafe\u0301\n"), ReaderOptions{Format: FastText, Unlabelled: true})
			var rerr error
			f, err = Fit(o, Docs(r, &rerr))
		} else {
			f, err = New(o)
		}
		if err != nil {
			t.Fatal(err)
		}
		ref, refNames, err := readAllOf[float32](t, in, f, 1)
		if err != nil {
			t.Fatal(err)
		}
		// One goroutine's rows are Append's, document by document (with
		// idf by binary search: NewRows has no table of the idf).
		rows := NewRows[float32](f)
		r, _ := NewReader(strings.NewReader(in), ReaderOptions{Format: FastText, Unlabelled: true})
		var names Names
		for {
			lab, doc, err := r.Next()
			if err != nil {
				break
			}
			y := -1
			if lab != "" {
				y = names.ID(lab)
			}
			rows.Append(doc, y)
		}
		if err := sameCSR(ref, rows.CSR); err != nil {
			t.Fatalf("%v: ReadAll and Append: %v", o, err)
		}
		if ref.Rows < 2900 || !slicesContain(ref.Y, -1) {
			t.Fatalf("%d rows, labels %v: not the test's documents", ref.Rows, refNames)
		}
		for _, w := range []int{2, 3, 8} {
			X, xNames, err := readAllOf[float32](t, in, f, w)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameCSR(ref, X); err != nil {
				t.Errorf("%v, %d workers: %v", o, w, err)
			}
			if !reflect.DeepEqual(xNames, refNames) {
				t.Errorf("%d workers: names %v, one worker %v", w, xNames, refNames)
			}
		}
		ref64, _, err := readAllOf[float64](t, in, f, 1)
		if err != nil {
			t.Fatal(err)
		}
		X64, _, err := readAllOf[float64](t, in, f, 2)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameCSR(ref64, X64); err != nil {
			t.Errorf("%v, float64, 2 workers: %v", o, err)
		}
	}
}

func slicesContain(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestReadAllWorkersError: a bad line after many batches is refused on
// several goroutines with the error of one, naming the line.
func TestReadAllWorkersError(t *testing.T) {
	in := manyDocs(2000) + "__label__a __label__b two labels\n" + manyDocs(500)
	f, _ := New(DefaultOptions())
	_, _, err1 := readAllOf[float32](t, in, f, 1)
	_, _, err2 := readAllOf[float32](t, in, f, 2)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() || !errors.Is(err2, ErrFormat) {
		t.Fatalf("one worker: %v; two: %v", err1, err2)
	}
	if !strings.Contains(err2.Error(), "line 2001") {
		t.Errorf("error %q does not name line 2001", err2)
	}
}

// TestFitReadAll: FitReadAll's one pass gives the featurizer (its stored
// form) and the matrix of Fit over the documents then ReadAll, bit for
// bit, with and without idf, signed features that cancel, float32 and
// float64, on 1 and 2 goroutines.
func TestFitReadAll(t *testing.T) {
	old := batchLimit
	batchLimit = func() (int, int) { return 8 << 10, 8 } // many batches of a few documents
	defer func() { batchLimit = old }()
	in := manyDocs(600)
	for _, o := range []Options{
		{Bits: 20, WordNGrams: 2, TF: Log, IDF: true},
		{Bits: 3, WordNGrams: 2, TF: Raw, IDF: true, Signed: true}, // 8 columns: many cancel
		{Bits: 12, WordNGrams: 1, CharMin: 2, CharMax: 4, TF: Binary, IDF: true, Signed: true},
		{Bits: 14, WordNGrams: 2, TF: Log, IDF: true, NoNormalize: true},
		DefaultOptions(),
	} {
		fitRead(t, in, o, 1)
		fitRead(t, in, o, 2)
	}
}

func fitRead(t *testing.T, in string, o Options, w int) {
	t.Helper()
	ropt := ReaderOptions{Format: FastText, Unlabelled: true}
	r, _ := NewReader(strings.NewReader(in), ropt)
	var rerr error
	want, err := Fit(o, Docs(r, &rerr))
	if err != nil || rerr != nil {
		t.Fatal(err, rerr)
	}
	wantX, wantNames, err := readAllOf[float32](t, in, want, 1)
	if err != nil {
		t.Fatal(err)
	}
	want64, _, err := readAllOf[float64](t, in, want, 1)
	if err != nil {
		t.Fatal(err)
	}
	withWorkers(t, w, func() {
		r, _ := NewReader(strings.NewReader(in), ropt)
		var names Names
		f, X, err := FitReadAll[float32](o, r, &names)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := want.MarshalBinary()
		b, _ := f.MarshalBinary()
		if !bytes.Equal(a, b) {
			t.Errorf("%v, %d workers: the featurizer differs from Fit's", o, w)
		}
		if err := sameCSR(wantX, X); err != nil {
			t.Errorf("%v, %d workers: %v", o, w, err)
		}
		if !reflect.DeepEqual(names.List(), wantNames) {
			t.Errorf("names %v, want %v", names.List(), wantNames)
		}
		r, _ = NewReader(strings.NewReader(in), ropt)
		_, X64, err := FitReadAll[float64](o, r, &Names{})
		if err != nil {
			t.Fatal(err)
		}
		if err := sameCSR(want64, X64); err != nil {
			t.Errorf("%v, %d workers, float64: %v", o, w, err)
		}
	})
}

// TestCountBits: putCount keeps every count FitReadAll may store exactly,
// in float32 (beyond float32's 2²⁴ exact integers) and float64.
func TestCountBits(t *testing.T) {
	for _, c := range []float64{1, -1, 2, 63, -64, 1 << 24, 1<<24 + 1, -(1<<24 + 1), math.MaxInt32, -math.MaxInt32} {
		if g := getCount(putCount[float32](c)); g != c {
			t.Errorf("float32: %v comes back %v", c, g)
		}
		if g := getCount(putCount[float64](c)); g != c {
			t.Errorf("float64: %v comes back %v", c, g)
		}
	}
}

// FuzzReadAllWorkers: on any input, ReadAll on 2 goroutines gives the
// matrix, names and error of one, FitReadAll (idf, signed; on 1 and 2
// goroutines) the featurizer and matrix of Fit then ReadAll, and neither
// panics. Small batches make
// a short input span several of them.
func FuzzReadAllWorkers(f *testing.F) {
	f.Add("__label__a the cat\n__label__b a dog\n\n__label__a cat cat\n", uint8(3))
	f.Add("__label__x café e\u0301 \xff 北京\n__label__y __label__z two\n", uint8(1))
	f.Add("no label\n__label__a a\n", uint8(2))
	f.Fuzz(func(t *testing.T, in string, bits uint8) {
		old := batchLimit
		batchLimit = func() (int, int) { return 16, 2 }
		defer func() { batchLimit = old }()
		o := Options{Bits: 1 + int(bits%12), WordNGrams: 2, TF: Log, Signed: bits&16 != 0}
		fe, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		ropt := ReaderOptions{Format: FastText, Unlabelled: bits&32 != 0, MaxLine: 1 << 12}
		read := func(w int) (*dataset.CSR[float32], []string, error) {
			var X *dataset.CSR[float32]
			var names Names
			var err error
			withWorkers(t, w, func() {
				r, _ := NewReader(strings.NewReader(in), ropt)
				X, err = ReadAll[float32](r, fe, &names)
			})
			return X, names.List(), err
		}
		a, an, aerr := read(1)
		b, bn, berr := read(2)
		if (aerr == nil) != (berr == nil) || aerr != nil && aerr.Error() != berr.Error() {
			t.Fatalf("one worker: %v; two: %v", aerr, berr)
		}
		if aerr == nil {
			if err := sameCSR(a, b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(an, bn) {
				t.Fatalf("names %v and %v", an, bn)
			}
		}
		o.IDF = true
		r, _ := NewReader(strings.NewReader(in), ropt)
		var rerr error
		want, ferr := Fit(o, Docs(r, &rerr))
		if ferr != nil {
			t.Fatal(ferr)
		}
		for _, w := range []int{1, 2} {
			withWorkers(t, w, func() {
				r, _ := NewReader(strings.NewReader(in), ropt)
				var names Names
				g, X, err := FitReadAll[float32](o, r, &names)
				if (err == nil) != (rerr == nil) {
					t.Fatalf("FitReadAll: %v; Fit's reading: %v", err, rerr)
				}
				if err != nil {
					return
				}
				wb, _ := want.MarshalBinary()
				gb, _ := g.MarshalBinary()
				if !bytes.Equal(wb, gb) {
					t.Fatal("the featurizer differs from Fit's")
				}
				r, _ = NewReader(strings.NewReader(in), ropt)
				var names2 Names
				Y, err := ReadAll[float32](r, want, &names2)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameCSR(Y, X); err != nil {
					t.Fatal(err)
				}
			})
		}
	})
}
