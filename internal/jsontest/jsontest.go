// Package jsontest finds the numbers of a JSON document and where they
// are, for the tests that replace each with null and check that the model
// decoders refuse it, naming the place.
package jsontest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// Number is one number of a document: its bytes are doc[Start:End], and
// Path names its place as "weights[2][17]" or "machines[0].bias".
type Number struct {
	Start, End int
	Path       string
}

// Numbers returns every number of the JSON document doc, in order. It
// reads the document with encoding/json's tokenizer, independently of
// the decoders it tests.
func Numbers(doc []byte) ([]Number, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	type frame struct {
		array  bool
		index  int
		key    string
		gotKey bool
	}
	var stack []frame
	var out []Number
	path := func() string {
		var b strings.Builder
		for _, f := range stack {
			if f.array {
				fmt.Fprintf(&b, "[%d]", f.index)
			} else {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			}
		}
		return b.String()
	}
	// value marks that a value ended in the innermost container.
	value := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].gotKey = false
			}
		}
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '[', '{':
				stack = append(stack, frame{array: v == '['})
			default:
				stack = stack[:len(stack)-1]
				value()
			}
		case string:
			if n := len(stack); n > 0 && !stack[n-1].array && !stack[n-1].gotKey {
				stack[n-1].key, stack[n-1].gotKey = v, true
				continue
			}
			value()
		case json.Number:
			end := int(d.InputOffset())
			out = append(out, Number{Start: end - len(v), End: end, Path: path()})
			value()
		default:
			value()
		}
	}
}

// WithNull returns doc with the number n replaced by null.
func WithNull(doc []byte, n Number) []byte {
	out := append([]byte(nil), doc[:n.Start]...)
	out = append(out, "null"...)
	return append(out, doc[n.End:]...)
}

// CheckNulls replaces each number of the JSON document doc by null in
// turn (every weight, bias, coefficient, support vector value, count,
// label and numeric header field) and checks that decode refuses each
// with an error wrapping every one of want that names the number's place
// (" at weights[2][17] "). encoding/json alone reads such a null as 0.
func CheckNulls(t *testing.T, doc []byte, decode func([]byte) error, want ...error) {
	t.Helper()
	if err := decode(doc); err != nil {
		t.Fatalf("the document itself: %v", err)
	}
	nums, err := Numbers(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(nums) < 5 {
		t.Fatalf("only %d numbers in the document", len(nums))
	}
	for _, n := range nums {
		err := decode(WithNull(doc, n))
		ok := err != nil && strings.Contains(err.Error(), " at "+n.Path+" ")
		for _, w := range want {
			ok = ok && errors.Is(err, w)
		}
		if !ok {
			t.Fatalf("null at %s: got %v, want %v naming %s", n.Path, err, want, n.Path)
		}
	}
}

// CheckGrowth decodes doc with decode, which must succeed, and fails the
// test if decoding it again allocates more than max times the document's
// size.
func CheckGrowth(t *testing.T, doc []byte, decode func([]byte) error, max float64) {
	t.Helper()
	if err := decode(doc); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_ = decode(doc)
	runtime.ReadMemStats(&after)
	got := after.TotalAlloc - before.TotalAlloc
	ratio := float64(got) / float64(len(doc))
	t.Logf("%d bytes: %d allocated, %.2f×", len(doc), got, ratio)
	if ratio > max {
		t.Fatalf("decoding allocated %.2f× the document's %d bytes, more than the stated %g×", ratio, len(doc), max)
	}
}
