package modelfile

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestArrayMatrix(t *testing.T) {
	var m Matrix[float32]
	if err := json.Unmarshal([]byte(` [ [1, 2.5] ,[],[ -3e2 ] ] `), &m); err != nil {
		t.Fatal(err)
	}
	if len(m) != 3 || !slices.Equal(m[0], []float32{1, 2.5}) || len(m[1]) != 0 || !slices.Equal(m[2], []float32{-300}) {
		t.Fatalf("got %v", m)
	}
	flat := Flat(m)
	if !slices.Equal(flat, []float32{1, 2.5, -300}) || &flat[0] != &m[0][0] {
		t.Fatalf("Flat of a decoded matrix copied or differs: %v", flat)
	}
	// Rows that are not one array's consecutive views are copied.
	a, b := []float32{1, 2}, []float32{3}
	if f := Flat([][]float32{a, b}); !slices.Equal(f, []float32{1, 2, 3}) || &f[0] == &a[0] {
		t.Fatalf("Flat of separate rows: %v", f)
	}
	if f := Flat([][]float32{a[1:], a[:1]}); !slices.Equal(f, []float32{2, 1}) {
		t.Fatalf("Flat of rows out of order: %v", f)
	}
	for _, tc := range []struct {
		doc  string
		null bool
	}{
		{`[[1,null]]`, true}, {`[[1],["2"]]`, false}, {`[[1e40]]`, false}, {`[1]`, false}, {`[[1,]]`, false},
	} {
		var m Matrix[float32]
		err := json.Unmarshal([]byte(tc.doc), &m)
		if err == nil || errors.Is(err, ErrNull) != tc.null {
			t.Fatalf("%s: %v", tc.doc, err)
		}
	}
	var ints Array[int32]
	if err := json.Unmarshal([]byte(`[1,-2,2147483647]`), &ints); err != nil || !slices.Equal(ints, Array[int32]{1, -2, 2147483647}) {
		t.Fatalf("%v %v", ints, err)
	}
	var fs Array[float64]
	for _, doc := range []string{`[-Inf]`, `[0x1p3]`, `[NaN]`} {
		if err := fs.UnmarshalJSON([]byte(doc)); err == nil {
			t.Fatalf("%s decoded as %v", doc, fs)
		}
	}
	for _, doc := range []string{`[2147483648]`, `[1.5]`, `[1e3]`, `[true]`} {
		if err := json.Unmarshal([]byte(doc), &ints); err == nil {
			t.Fatalf("%s decoded as %v", doc, ints)
		}
	}
	if err := json.Unmarshal([]byte(`null`), &ints); err != nil || ints != nil {
		t.Fatalf("null array: %v %v", ints, err)
	}
}

func TestNoNull(t *testing.T) {
	for _, tc := range []struct {
		doc, at string
	}{
		{`{"a":1,"w":[[1,2],[3,null]]}`, "w[1][1]"},
		{`{"s":"null","m":[{"b":2},{"b":null}]}`, "m[1].b"},
		{`{"k\"ey":"x","eta":null}`, "eta"},
		{`null`, "the document"},
		{`{"opt":null,"x":[null]}`, "x[0]"},
	} {
		err := testErrs.NoNull([]byte(tc.doc), "opt")
		if !errors.Is(err, errCorrupt) || !errors.Is(err, ErrNull) || !strings.Contains(err.Error(), " at "+tc.at+" ") {
			t.Fatalf("%s: %v, want the null at %s", tc.doc, err, tc.at)
		}
	}
	if err := testErrs.NoNull([]byte(`{"opt":null,"s":"a null \" null","n":[1,2]}`), "opt"); err != nil {
		t.Fatal(err)
	}
	if err := testErrs.NoNull([]byte(`{"a":nan}`)); err != nil {
		t.Fatalf("no JSON, no null: %v", err)
	}
	deep := strings.Repeat("[", 17) + strings.Repeat("]", 17)
	if err := testErrs.NoNull([]byte(deep)); !errors.Is(err, errCorrupt) {
		t.Fatalf("17 levels: %v", err)
	}
}
