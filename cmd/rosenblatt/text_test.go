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
	f, _ := text.New(text.Options{Bits: 12, WordNGrams: 2, TF: text.Log})
	fr, _ := os.Open(train)
	r, _ := text.NewReader(fr, text.ReaderOptions{Format: text.FastText})
	var names text.Names
	X, err := text.ReadAll[float32](r, f, &names)
	fr.Close()
	if err != nil {
		t.Fatal(err)
	}
	var lib bytes.Buffer
	if err := dataset.WriteLIBSVMSparse(&lib, X); err != nil {
		t.Fatal(err)
	}
	libPath := filepath.Join(dir, "docs.libsvm")
	os.WriteFile(libPath, lib.Bytes(), 0o644)
	code, _, errs = runCmd(t, "train", "-algo", "averaged", "-multiclass", "ovr", "-cols", "4096", "-o", filepath.Join(dir, "rows.model"), libPath)
	if code != 0 {
		t.Fatalf("train on rows: %s", errs)
	}
	rows, err := os.ReadFile(filepath.Join(dir, "rows.model"))
	if err != nil {
		t.Fatal(err)
	}
	inner, _ := model.Marshal(tm.Inner(), model.Binary)
	if !bytes.Equal(inner, rows) {
		t.Error("the text model's inner model differs from the model trained on its LIBSVM rows")
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
