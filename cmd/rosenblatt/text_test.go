package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/text"
)

// textCorpus writes a fastText file of three topics, n lines.
func textCorpus(t *testing.T, path string, n, seed int) {
	t.Helper()
	topics := map[string][]string{
		"cats":    {"cat", "kitten", "purr", "meow", "猫", "félin"},
		"dogs":    {"dog", "puppy", "bark", "woof", "犬", "chien"},
		"finance": {"stock", "market", "bond", "yield", "株", "bourse"},
	}
	keys := []string{"cats", "dogs", "finance"}
	var b strings.Builder
	for i := range n {
		k := keys[(i*7+seed)%3]
		w := topics[k]
		fmt.Fprintf(&b, "__label__%s the %s and a %s of %s\n", k, w[(i+seed)%6], w[(i*5)%6], w[(i+2)%6])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// textRowsFile writes the rows of the fastText file train, featurized as
// train -bits 12 featurizes them, to the LIBSVM file path, and returns path.
func textRowsFile(t *testing.T, train, path string) string {
	t.Helper()
	f, _ := text.New(text.Options{Bits: 12, WordNGrams: 2, TF: text.Log})
	fr, err := os.Open(train)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	r, _ := text.NewReader(fr, text.ReaderOptions{Format: text.FastText})
	var names text.Names
	X, err := text.ReadAll[float32](r, f, &names)
	if err != nil {
		t.Fatal(err)
	}
	var lib bytes.Buffer
	if err := dataset.WriteLIBSVMSparse(&lib, X); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, lib.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTextTrainEvalPredict(t *testing.T) {
	dir := t.TempDir()
	train, test, mpath := filepath.Join(dir, "docs.txt"), filepath.Join(dir, "test.txt"), filepath.Join(dir, "docs.model")
	textCorpus(t, train, 90, 0)
	textCorpus(t, test, 30, 1)
	code, out, errs := runCmd(t, "train", "-algo", "averaged", "-bits", "12", "-o", mpath, "-test", test, train)
	if code != 0 {
		t.Fatalf("train: %d %s", code, errs)
	}
	if !strings.Contains(out, "(fasttext): 90 documents, 3 labels") || !strings.Contains(out, "test acc:       1.0000") {
		t.Errorf("train's summary:\n%s", out)
	}
	m, err := model.LoadFile(mpath)
	if err != nil {
		t.Fatal(err)
	}
	tm := m.(*model.Text)
	if got := tm.Names(); strings.Join(got, ",") != "cats,dogs,finance" {
		t.Errorf("names %v", got)
	}
	// The same training on the featurized rows gives the same inner model.
	libPath := textRowsFile(t, train, filepath.Join(dir, "docs.libsvm"))
	// Text input is shuffled by default (seed 1), LIBSVM rows with
	// -shuffle; -shuffle=false on text is the rows' file order.
	inner, _ := model.Marshal(tm.Inner(), model.Binary)
	for _, c := range []struct {
		textArgs, rowArgs []string
	}{
		{nil, []string{"-shuffle"}},
		{[]string{"-shuffle=false"}, nil},
		{[]string{"-seed", "9"}, []string{"-shuffle", "-seed", "9"}},
	} {
		got := inner
		if c.textArgs != nil {
			tpath := filepath.Join(dir, "docs2.model")
			args := append(append([]string{"train", "-q", "-f", "-algo", "averaged", "-bits", "12", "-o", tpath}, c.textArgs...), train)
			if code, _, errs := runCmd(t, args...); code != 0 {
				t.Fatalf("%v: %s", args, errs)
			}
			m2, err := model.LoadFile(tpath)
			if err != nil {
				t.Fatal(err)
			}
			got, _ = model.Marshal(m2.(*model.Text).Inner(), model.Binary)
		}
		args := append(append([]string{"train", "-q", "-f", "-algo", "averaged", "-multiclass", "ovr", "-cols", "4096", "-o", filepath.Join(dir, "rows.model")}, c.rowArgs...), libPath)
		if code, _, errs := runCmd(t, args...); code != 0 {
			t.Fatalf("train on rows %v: %s", args, errs)
		}
		rows, err := os.ReadFile(filepath.Join(dir, "rows.model"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, rows) {
			t.Errorf("text %v: the text model's inner model differs from the model trained on its LIBSVM rows %v", c.textArgs, c.rowArgs)
		}
	}

	code, out, errs = runCmd(t, "eval", mpath, test)
	if code != 0 || !strings.Contains(out, "accuracy:  100.00% (30/30)") || !strings.Contains(out, "0=cats 1=dogs 2=finance") {
		t.Errorf("eval: %d %s %s", code, out, errs)
	}
	unl := filepath.Join(dir, "unlabelled.txt")
	os.WriteFile(unl, []byte("a puppy barks\n\nthe bond market\n__label__x kitten purr\n"), 0o644)
	code, out, errs = runCmd(t, "predict", mpath, unl)
	if code != 0 || out != "dogs\nfinance\ncats\n" {
		t.Errorf("predict: %d %q %s", code, out, errs)
	}
	// Several labels on a line are refused, naming the line.
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("__label__a x\n__label__a __label__b y\n"), 0o644)
	code, _, errs = runCmd(t, "train", "-o", filepath.Join(dir, "bad.model"), bad)
	if code == 0 || !strings.Contains(errs, "line 2") || !strings.Contains(errs, "-multilabel") {
		t.Errorf("two labels: %d %s", code, errs)
	}
	code, _, errs = runCmd(t, "train", "-json", "-o", filepath.Join(dir, "j.model"), train)
	if code == 0 || !strings.Contains(errs, "JSON") {
		t.Errorf("-json: %d %s", code, errs)
	}
}

// TestTextLinesLabels: one document per line with the labels in a second
// file (-labels) trains the very model the same documents give as
// fastText lines, string labels and all; eval takes -labels, predict
// -format text-lines answers the names; a labels file of another length
// is refused naming the line, and -test without -test-labels is refused.
func TestTextLinesLabels(t *testing.T) {
	dir := t.TempDir()
	ft := filepath.Join(dir, "docs.txt")
	textCorpus(t, ft, 60, 0)
	raw, _ := os.ReadFile(ft)
	var docs, labs strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		lab, doc, _ := strings.Cut(strings.TrimPrefix(line, "__label__"), " ")
		docs.WriteString(doc + "\n")
		labs.WriteString(lab + "\n")
	}
	lines, labels := filepath.Join(dir, "lines.txt"), filepath.Join(dir, "labels.txt")
	os.WriteFile(lines, []byte(docs.String()), 0o644)
	os.WriteFile(labels, []byte(labs.String()), 0o644)
	a, b := filepath.Join(dir, "a.model"), filepath.Join(dir, "b.model")
	if code, _, errs := runCmd(t, "train", "-algo", "averaged", "-bits", "12", "-o", a, ft); code != 0 {
		t.Fatalf("train fastText: %s", errs)
	}
	code, out, errs := runCmd(t, "train", "-algo", "averaged", "-bits", "12", "-o", b, "-labels", labels, "-test", lines, "-test-labels", labels, lines)
	if code != 0 || !strings.Contains(out, "(lines): 60 documents, 3 labels") || !strings.Contains(out, "test acc:       1.0000 (60 documents") {
		t.Fatalf("train -labels: %d %s %s", code, out, errs)
	}
	ma, _ := os.ReadFile(a)
	mb, _ := os.ReadFile(b)
	if !bytes.Equal(ma, mb) {
		t.Fatal("the model of -labels differs from the model of the same fastText lines")
	}
	code, out, errs = runCmd(t, "eval", "-labels", labels, b, lines)
	if code != 0 || !strings.Contains(out, "accuracy:  100.00% (60/60)") || !strings.Contains(out, "0=cats 1=dogs 2=finance") {
		t.Fatalf("eval -labels: %d %s %s", code, out, errs)
	}
	code, out, errs = runCmd(t, "predict", "-format", "text-lines", b, lines)
	if code != 0 || out != labs.String() {
		t.Fatalf("predict -format text-lines: %d %s\n%s, want\n%s", code, errs, out, labs.String())
	}
	short := filepath.Join(dir, "short.txt")
	os.WriteFile(short, []byte(labs.String()[:strings.Index(labs.String(), "\n")+1]+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"train", "-o", filepath.Join(dir, "c.model"), "-labels", short, lines}, "line 2 of the labels: an empty label"},
		{[]string{"train", "-o", filepath.Join(dir, "d.model"), "-labels", labels, ft}, ""},
		{[]string{"eval", "-labels", short, b, lines}, "line 2 of the labels: an empty label"},
		{[]string{"train", "-o", filepath.Join(dir, "c.model"), "-labels", labels, "-test", lines, lines}, "needs its labels: -test-labels FILE"},
	} {
		code, _, errs := runCmd(t, c.args...)
		if c.msg == "" { // fastText lines read as plain documents with -labels: trained
			if code != 0 {
				t.Errorf("%v: %d %s", c.args, code, errs)
			}
			continue
		}
		if code == 0 || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: %d %q, want %q", c.args, code, errs, c.msg)
		}
	}
	os.WriteFile(short, []byte(labs.String()[:len(labs.String())/2]), 0o644)
	short2 := strings.Count(labs.String()[:len(labs.String())/2], "\n")
	code, _, errs = runCmd(t, "train", "-o", filepath.Join(dir, "c.model"), "-labels", short, lines)
	if want := fmt.Sprintf("line %d: no label: the labels have", short2+1); code == 0 || !strings.Contains(errs, want) {
		t.Errorf("a short labels file: %d %q, want %q", code, errs, want)
	}
	os.WriteFile(short, []byte(labs.String()+"extra\n"), 0o644)
	code, _, errs = runCmd(t, "train", "-o", filepath.Join(dir, "c.model"), "-labels", short, lines)
	if code == 0 || !strings.Contains(errs, "the labels have more lines than the 60 documents: label line 61") {
		t.Errorf("a long labels file: %d %q", code, errs)
	}
}

// TestTextLinearSVM: -algo svm on text trains the linear SVM (dual
// coordinate descent) of the featurized rows: its inner model is the one
// the same rows give as a LIBSVM file, for each loss, and it predicts the
// held-out documents; -kernel and -init stay refused on text.
func TestTextLinearSVM(t *testing.T) {
	dir := t.TempDir()
	train, test := filepath.Join(dir, "docs.txt"), filepath.Join(dir, "test.txt")
	textCorpus(t, train, 90, 0)
	textCorpus(t, test, 30, 1)
	libPath := textRowsFile(t, train, filepath.Join(dir, "docs.libsvm"))
	for _, loss := range []string{"hinge", "squared-hinge"} {
		mpath := filepath.Join(dir, loss+".model")
		code, out, errs := runCmd(t, "train", "-algo", "svm", "-loss", loss, "-bits", "12", "-o", mpath, "-test", test, train)
		if code != 0 {
			t.Fatalf("%s: train: %d %s", loss, code, errs)
		}
		if !strings.Contains(out, "dual coordinate descent") || !strings.Contains(out, "test acc:       1.0000") {
			t.Errorf("%s: train's summary:\n%s", loss, out)
		}
		m, err := model.LoadFile(mpath)
		if err != nil {
			t.Fatal(err)
		}
		tm := m.(*model.Text)
		if got := tm.Names(); strings.Join(got, ",") != "cats,dogs,finance" {
			t.Errorf("%s: names %v", loss, got)
		}
		inner, _ := model.Marshal(tm.Inner(), model.Binary)
		rpath := filepath.Join(dir, "rows.model")
		if code, _, errs := runCmd(t, "train", "-q", "-f", "-algo", "svm", "-loss", loss, "-cols", "4096", "-o", rpath, libPath); code != 0 {
			t.Fatalf("%s: train on rows: %s", loss, errs)
		}
		rows, err := os.ReadFile(rpath)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(inner, rows) {
			t.Errorf("%s: the text model's inner linear SVM differs from the one trained on its LIBSVM rows", loss)
		}
		if code, out, errs := runCmd(t, "eval", mpath, test); code != 0 || !strings.Contains(out, "accuracy:  100.00% (30/30)") {
			t.Errorf("%s: eval: %d %s %s", loss, code, out, errs)
		}
	}
	for _, args := range [][]string{{"-kernel", "rbf"}, {"-init", filepath.Join(dir, "hinge.model")}} {
		a := append(append([]string{"train", "-algo", "svm", "-o", filepath.Join(dir, "x.model")}, args...), train)
		if code, _, errs := runCmd(t, a...); code != 2 || !strings.Contains(errs, "no -kernel or -init") {
			t.Errorf("%v: %d %s", args, code, errs)
		}
	}
	// The perceptrons' flags are the linear SVM's usage errors on text too.
	if code, _, errs := runCmd(t, "train", "-algo", "svm", "-eta", "2", "-o", filepath.Join(dir, "y.model"), train); code != 2 || !strings.Contains(errs, "-eta") {
		t.Errorf("-eta: %d %s", code, errs)
	}
}
