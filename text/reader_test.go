package text_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/texttest"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/text"
)

type rec struct {
	labels []string
	doc    string
}

func readAllRecs(t *testing.T, in string, opt text.ReaderOptions) ([]rec, error) {
	t.Helper()
	r, err := text.NewReader(strings.NewReader(in), opt)
	if err != nil {
		t.Fatal(err)
	}
	var out []rec
	for {
		_, doc, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec{append([]string(nil), r.Labels()...), string(doc)})
	}
}

func TestReaderFastText(t *testing.T) {
	in := "\ufeff__label__a hello world\r\n\n   \n__label__b\t__label__c  two labels __label__x\n__label__é café\nno label here\n"
	_, err := readAllRecs(t, in, text.ReaderOptions{Format: text.FastText})
	if !errors.Is(err, text.ErrFormat) || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("two labels: %v, want text.ErrFormat naming line 4", err)
	}
	got, err := readAllRecs(t, in, text.ReaderOptions{Format: text.FastText, MultiLabel: true})
	if !errors.Is(err, text.ErrFormat) || !strings.Contains(err.Error(), "line 6") {
		t.Fatalf("no label: %v, want text.ErrFormat naming line 6", err)
	}
	want := []rec{{[]string{"a"}, "hello world"}, {[]string{"b", "c"}, "two labels __label__x"}, {[]string{"é"}, "café"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	got, err = readAllRecs(t, in, text.ReaderOptions{Format: text.FastText, MultiLabel: true, Unlabelled: true})
	if err != nil || len(got) != 4 || got[3].doc != "no label here" || len(got[3].labels) != 0 {
		t.Fatalf("unlabelled: %q %v", got, err)
	}
	_, err = readAllRecs(t, "__label__a "+strings.Repeat("x", 100)+"\n", text.ReaderOptions{Format: text.FastText, MaxLine: 50})
	if !errors.Is(err, text.ErrTooLarge) || !strings.Contains(err.Error(), "MaxLine") {
		t.Fatalf("long line: %v", err)
	}
	_, err = readAllRecs(t, "__label__ text\n", text.ReaderOptions{Format: text.FastText})
	if !errors.Is(err, text.ErrFormat) {
		t.Fatalf("empty label: %v", err)
	}
	if !text.IsFastText([]byte("\n  \n__label__x y")) || text.IsFastText([]byte("label,text\n__label__x")) || text.IsFastText(nil) {
		t.Error("IsFastText")
	}
}

func TestReaderTSVCSV(t *testing.T) {
	got, err := readAllRecs(t, "id\ttext\tlabel\n1\tHello there\tgreet\n\n2\tbye now\tpart\n", text.ReaderOptions{Format: text.TSV, Header: true, LabelColumn: 2, TextColumn: 1})
	if err != nil || fmt.Sprint(got) != fmt.Sprint([]rec{{[]string{"greet"}, "Hello there"}, {[]string{"part"}, "bye now"}}) {
		t.Fatalf("tsv: %q %v", got, err)
	}
	_, err = readAllRecs(t, "a\tb\nonly\n", text.ReaderOptions{Format: text.TSV})
	if !errors.Is(err, text.ErrFormat) || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("tsv short line: %v", err)
	}
	got, err = readAllRecs(t, "label,text\nx,\"quoted, with \"\"quotes\"\"\nand a line break\"\ny,plain\n", text.ReaderOptions{Format: text.CSV, Header: true})
	if err != nil || fmt.Sprint(got) != fmt.Sprint([]rec{{[]string{"x"}, "quoted, with \"quotes\"\nand a line break"}, {[]string{"y"}, "plain"}}) {
		t.Fatalf("csv: %q %v", got, err)
	}
	_, err = readAllRecs(t, "x,\"unterminated\n", text.ReaderOptions{Format: text.CSV})
	if !errors.Is(err, text.ErrFormat) {
		t.Fatalf("csv quote: %v", err)
	}
	_, err = readAllRecs(t, "x,"+strings.Repeat("y", 5000)+"\n", text.ReaderOptions{Format: text.CSV, MaxLine: 1000})
	if !errors.Is(err, text.ErrTooLarge) {
		t.Fatalf("csv long: %v", err)
	}
}

// corpus is a small fastText file of three topics with Unicode in it.
func corpus() string {
	topics := map[string][]string{
		"cats":    {"cat", "kitten", "purr", "meow", "猫", "chat", "félin"},
		"dogs":    {"dog", "puppy", "bark", "woof", "犬", "chien", "hund"},
		"finance": {"stock", "market", "bond", "yield", "株", "bourse", "🙂"},
	}
	var b strings.Builder
	keys := []string{"cats", "dogs", "finance"}
	for i := range 90 {
		k := keys[(i*7)%3]
		w := topics[k]
		fmt.Fprintf(&b, "__label__%s the %s and a %s %s, THE %s\xff\n", k, w[i%7], w[(i+3)%7], w[(i*5)%7], w[(i+1)%7])
	}
	return b.String()
}

// TestTextEqualsLIBSVM trains on a fastText file through the Reader and on
// the LIBSVM rows of the reference featurizer: the models are the same
// bytes.
func TestTextEqualsLIBSVM(t *testing.T) {
	o := text.Options{Bits: 12, WordNGrams: 2, CharMin: 3, CharMax: 4, TF: text.Log, Signed: true}
	f, err := text.New(o)
	if err != nil {
		t.Fatal(err)
	}
	in := corpus()
	r, _ := text.NewReader(strings.NewReader(in), text.ReaderOptions{Format: text.FastText})
	var names text.Names
	X, err := text.ReadAll[float32](r, f, &names)
	if err != nil {
		t.Fatal(err)
	}
	var lib bytes.Buffer
	r2, _ := text.NewReader(strings.NewReader(in), text.ReaderOptions{Format: text.FastText})
	for {
		lab, doc, err := r2.Next()
		if err == io.EOF {
			break
		}
		y, _ := names.Lookup(lab)
		lib.WriteString(strconv.Itoa(y))
		cols, vals := texttest.Reference(o, nil, string(doc))
		for k, c := range cols {
			fmt.Fprintf(&lib, " %d:%s", c+1, strconv.FormatFloat(float64(float32(vals[k])), 'g', -1, 32))
		}
		lib.WriteByte('\n')
	}
	Y, err := dataset.ReadLIBSVMSparse[float32](&lib, dataset.LIBSVMOptions{Cols: f.Dims()})
	if err != nil {
		t.Fatal(err)
	}
	opt := perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5, Shuffle: true, Seed: 3}
	a, _, err := perceptron.Fit(context.Background(), X, X.Y, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := perceptron.Fit(context.Background(), Y, Y.Y, opt)
	if err != nil {
		t.Fatal(err)
	}
	ab, _ := a.MarshalBinary()
	bb, _ := b.MarshalBinary()
	if !bytes.Equal(ab, bb) {
		t.Fatal("the model trained on text differs from the one trained on the LIBSVM rows")
	}
	if acc, _ := a.AccuracySparse(X, X.Y); acc < 0.9 {
		t.Errorf("training accuracy %v", acc)
	}
}

// TestReaderLines: one document per line with the labels in a second
// file: line i of one labels line i of the other (blank lines are empty
// documents, CRLF and surrounding spaces of a label dropped), and a
// labels file of more or fewer lines, or a blank label, is refused naming
// the line; a model trained from them is the one trained from the same
// documents in fastText's format.
func TestReaderLines(t *testing.T) {
	docs := "\ufeffhello world\r\n\ncafé crème\nthe last one"
	labels := "greeting\r\n  empty \nfood\nlast\n"
	got, err := readAllRecs(t, docs, text.ReaderOptions{Format: text.Lines, Labels: strings.NewReader(labels)})
	want := []rec{{[]string{"greeting"}, "hello world"}, {[]string{"empty"}, ""}, {[]string{"food"}, "café crème"}, {[]string{"last"}, "the last one"}}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, %v\nwant %q", got, err, want)
	}
	for _, c := range []struct{ labels, msg string }{
		{"a\nb\nc\n", "line 4: no label: the labels have 3 lines, fewer than the documents"},
		{"a\nb\nc\nd\ne\n", "the labels have more lines than the 4 documents: label line 5 (\"e\") has no document"},
		{"a\n \nc\nd\n", "line 2 of the labels: an empty label"},
	} {
		_, err := readAllRecs(t, docs, text.ReaderOptions{Format: text.Lines, Labels: strings.NewReader(c.labels)})
		if !errors.Is(err, text.ErrFormat) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("labels %q: %v, want text.ErrFormat %q", c.labels, err, c.msg)
		}
	}
	if _, err := text.NewReader(strings.NewReader(docs), text.ReaderOptions{Format: text.Lines}); !errors.Is(err, text.ErrFormat) {
		t.Errorf("no labels: %v", err)
	}
	got, err = readAllRecs(t, docs, text.ReaderOptions{Format: text.Lines, Unlabelled: true})
	if err != nil || len(got) != 4 || got[3].doc != "the last one" || len(got[3].labels) != 0 {
		t.Fatalf("unlabelled: %q %v", got, err)
	}

	// The same documents as fastText lines train the same model.
	var ft, lines, labs strings.Builder
	for i := range 60 {
		lab := []string{"cats", "dogs", "birds"}[i%3]
		doc := strings.Repeat(lab[:3]+strconv.Itoa(i%7)+" ", 1+i%4) + "common words here"
		fmt.Fprintf(&ft, "__label__%s %s\n", lab, doc)
		fmt.Fprintf(&lines, "%s\n", doc)
		fmt.Fprintf(&labs, "%s\n", lab)
	}
	f, _ := text.New(text.Options{Bits: 10, WordNGrams: 2, TF: text.Log})
	train := func(in string, opt text.ReaderOptions) ([]byte, []string) {
		r, err := text.NewReader(strings.NewReader(in), opt)
		if err != nil {
			t.Fatal(err)
		}
		var names text.Names
		X, err := text.ReadAll[float32](r, f, &names)
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := perceptron.Fit(context.Background(), X, X.Y, perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := m.MarshalBinary()
		return b, names.List()
	}
	a, an := train(ft.String(), text.ReaderOptions{Format: text.FastText})
	b, bn := train(lines.String(), text.ReaderOptions{Format: text.Lines, Labels: strings.NewReader(labs.String())})
	if !bytes.Equal(a, b) || fmt.Sprint(an) != fmt.Sprint(bn) {
		t.Fatalf("the models differ: names %q and %q", an, bn)
	}
}
