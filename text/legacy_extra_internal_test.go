package text

import (
	"errors"
	"reflect"
	"testing"
)

// TestLoadDropsSeparatorsFromExtra: a featurizer file written before
// Options.Check refused U+0000 and U+FFFD in Extra still loads, without
// them, and featurizes as the featurizer that wrote it did (both were
// always separators); New still refuses them.
func TestLoadDropsSeparatorsFromExtra(t *testing.T) {
	old := DefaultOptions()
	old.Extra = "\x00-\uFFFD_"
	if _, err := New(old); !errors.Is(err, ErrOptions) {
		t.Fatalf("New with U+0000 and U+FFFD in Extra: %v, want ErrOptions", err)
	}
	wrote := newFeaturizer(old) // as an earlier version made it, unchecked
	file, err := wrote.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var loaded Featurizer
	if err := loaded.UnmarshalBinary(file); err != nil {
		t.Fatalf("loading the old file: %v", err)
	}
	if got := loaded.Options().Extra; got != "-_" {
		t.Fatalf("Extra %q after loading, want %q", got, "-_")
	}
	docs := []string{"a-b c_d", "x\x00y-z", "bad\xffbytes_here \uFFFDq-r", "ü\u0301-\x00_"}
	for _, doc := range docs {
		a := NewRows[float32](wrote)
		b := NewRows[float32](&loaded)
		a.AppendString(doc, 1)
		b.AppendString(doc, 1)
		if !reflect.DeepEqual(a.CSR.Idx, b.CSR.Idx) || !reflect.DeepEqual(a.CSR.Val, b.CSR.Val) {
			t.Errorf("%q: loaded featurizer gives %v %v, the writer %v %v", doc, b.CSR.Idx, b.CSR.Val, a.CSR.Idx, a.CSR.Val)
		}
	}
}
