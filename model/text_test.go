package model_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/text"
)

var textDocs = []struct {
	doc   string
	label int
}{
	{"the cat sat on the mat", 0}, {"a cat and a kitten purr", 0}, {"kitten cat meow", 0},
	{"dogs bark at the mailman", 1}, {"a dog and a puppy bark", 1}, {"puppy dog woof", 1},
	{"stocks fell on the market", 2}, {"market rally lifts stocks", 2}, {"bond market and stocks", 2},
}

func trainText(t *testing.T) *model.Text {
	t.Helper()
	f, err := text.New(text.Options{Bits: 10, WordNGrams: 2, TF: text.Log})
	if err != nil {
		t.Fatal(err)
	}
	r := text.NewRows[float32](f)
	for _, d := range textDocs {
		r.AppendString(d.doc, d.label)
	}
	m, _, err := perceptron.Fit(context.Background(), r.CSR, r.CSR.Y, perceptron.Options{Algorithm: linear.Averaged, MaxIter: 20})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := model.NewText(f, m, []string{"cats", "dogs", "finance"})
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func TestTextModelRoundTrip(t *testing.T) {
	tm := trainText(t)
	for _, d := range textDocs {
		got, err := tm.PredictText(d.doc)
		if err != nil {
			t.Fatal(err)
		}
		if want := tm.Names()[d.label]; got != want {
			t.Errorf("%q: %q, want %q", d.doc, got, want)
		}
	}
	path := filepath.Join(t.TempDir(), "text.model")
	if err := model.SaveFile(path, tm, model.Binary); err != nil {
		t.Fatal(err)
	}
	m, err := model.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	back, ok := m.(*model.Text)
	if !ok {
		t.Fatalf("LoadFile gave %T", m)
	}
	a, _ := model.Marshal(tm, model.Binary)
	b, _ := model.Marshal(back, model.Binary)
	if !bytes.Equal(a, b) {
		t.Fatal("the loaded text model marshals to other bytes")
	}
	ia, _ := model.Marshal(tm.Inner(), model.Binary)
	ib, _ := model.Marshal(back.Inner(), model.Binary)
	if !bytes.Equal(ia, ib) {
		t.Fatal("the inner models differ")
	}
	for _, doc := range []string{"a puppy", "the stocks", "cat", "", "\xff"} {
		x, err1 := tm.PredictText(doc)
		y, err2 := back.PredictText(doc)
		if x != y || err1 != nil || err2 != nil {
			t.Errorf("%q: %q %v, loaded %q %v", doc, x, err1, y, err2)
		}
	}
	if k := model.KindOf(back); k != model.TextModel || k.String() != "text model" {
		t.Errorf("KindOf %v", k)
	}
	info, err := model.InspectFile(path)
	if err != nil || info.Kind != model.TextModel || info.Dims != 1024 || len(info.Classes) != 3 || info.Elem != "float32" {
		t.Errorf("Inspect: %+v %v", info, err)
	}
	if c, err := model.As[float32](back); err != nil || c.Dims() != 1024 {
		t.Errorf("As: %v", err)
	}
	if _, err := model.As[float64](back); !errors.Is(err, model.ErrType) {
		t.Errorf("As[float64]: %v", err)
	}
	sc := make([]float64, back.NumScores())
	if err := back.ScoresText(sc, "woof"); err != nil || sc[1] <= sc[0] || sc[1] <= sc[2] {
		t.Errorf("ScoresText %v %v", sc, err)
	}
	// every byte flipped, every truncation refused as corrupt
	for i := range a {
		c := bytes.Clone(a)
		c[i] ^= 0x08
		if _, err := model.Unmarshal(c); err == nil {
			t.Fatalf("byte %d flipped: decoded", i)
		}
		if i%7 == 0 {
			if _, err := model.Load(bytes.NewReader(a[:i])); err == nil {
				t.Fatalf("truncated to %d: decoded", i)
			}
		}
	}
	if _, err := model.Load(bytes.NewReader(a)); err != nil {
		t.Fatalf("Load from a reader: %v", err)
	}
}

func TestNewTextRefuses(t *testing.T) {
	tm := trainText(t)
	f := tm.Featurizer()
	for name, names := range map[string][]string{
		"count":     {"a", "b"},
		"duplicate": {"a", "b", "a"},
		"utf8":      {"a", "b", "\xff"},
	} {
		if _, err := model.NewText(f, tm.Inner(), names); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	g, _ := text.New(text.Options{Bits: 11, WordNGrams: 1})
	if _, err := model.NewText(g, tm.Inner(), nil); err == nil {
		t.Error("a featurizer of other dims accepted")
	}
	if _, err := model.NewText(f, tm, nil); !errors.Is(err, model.ErrUnsupported) {
		t.Errorf("nested: %v", err)
	}
	d, _ := model.NewText(f, tm.Inner(), nil)
	if got := d.Names(); got[0] != "0" || got[2] != "2" {
		t.Errorf("default names %v", got)
	}
}

// BenchmarkPredictText is prediction from a raw 20-word document by a
// 20-class one-vs-rest text model (2^20 columns, unigrams and bigrams).
func BenchmarkPredictText(b *testing.B) {
	f, err := text.New(text.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	r := text.NewRows[float32](f)
	words := func(i, n int) string {
		var s []byte
		for k := range n {
			if k > 0 {
				s = append(s, ' ')
			}
			s = append(s, "w"...)
			s = strconv.AppendInt(s, int64((i*7919+k*104729)%5000), 10)
		}
		return string(s)
	}
	for i := range 2000 {
		r.AppendString(words(i, 20), i%20)
	}
	m, _, err := perceptron.Fit(context.Background(), r.CSR, r.CSR.Y, perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5})
	if err != nil {
		b.Fatal(err)
	}
	tm, err := model.NewText(f, m, nil)
	if err != nil {
		b.Fatal(err)
	}
	doc := words(12345, 20)
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()
	for b.Loop() {
		if _, err := tm.PredictText(doc); err != nil {
			b.Fatal(err)
		}
	}
	if cpu0 >= 0 { // the thread's CPU time, which a loaded machine does not inflate as it does wall time
		b.ReportMetric(float64(threadCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// TestTextPredictNoAllocs: once warm, prediction from text (the label, its
// name, the scores) allocates nothing, whatever the inner model's type,
// and gives what the inner model gives on the featurized row.
func TestTextPredictNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops objects under -race")
	}
	tm := trainText(t)
	f := tm.Featurizer()
	m32 := tm.Inner().(*linear.Model[float32])
	r := text.NewRows[float64](f)
	for _, d := range textDocs {
		r.AppendString(d.doc, d.label)
	}
	m64, _, err := perceptron.Fit(context.Background(), r.CSR, r.CSR.Y, perceptron.Options{Algorithm: linear.Averaged, MaxIter: 20})
	if err != nil {
		t.Fatal(err)
	}
	t64, err := model.NewText(f, m64, tm.Names())
	if err != nil {
		t.Fatal(err)
	}
	doc := "the cat chased a dog past the bank"
	row := text.NewRows[float32](f).Row(dataset.SparseRow[float32]{}, []byte(doc))
	want, err := m32.PredictSparse(row)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*model.Text{tm, t64} {
		dst := make([]float64, c.NumScores())
		var name string
		var label int
		allocs := testing.AllocsPerRun(200, func() {
			var err error
			if name, err = c.PredictText(doc); err != nil {
				t.Fatal(err)
			}
			if label, err = c.PredictTextLabel(doc); err != nil {
				t.Fatal(err)
			}
			if err = c.ScoresText(dst, doc); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations a prediction, want 0", c.Inner(), allocs)
		}
		if c == tm && (label != want || name != c.Name(want)) {
			t.Errorf("label %d %q, the inner model's %d %q", label, name, want, c.Name(want))
		}
		if name != c.Name(label) || name == "" {
			t.Errorf("name %q of label %d, want %q", name, label, c.Name(label))
		}
	}
}
