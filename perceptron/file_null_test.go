package perceptron

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/jsontest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// TestJSONNullRefused: a null in place of any number of a model's JSON
// document, of every kind and algorithm, is refused naming its place.
func TestJSONNullRefused(t *testing.T) {
	for name, m := range fileModels(t) {
		t.Run(name, func(t *testing.T) {
			doc, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			jsontest.CheckNulls(t, doc, func(b []byte) error { return new(linear.Model[float32]).UnmarshalJSON(b) }, linear.ErrCorrupt, modelfile.ErrNull)
		})
	}
	models, _, _ := kernelModels[float64](t)
	X, y, _, _ := separable(newRand(47), 30, 4, 3, 1, true)
	sm, _, err := trainKernelBinarySparse(csrOf(t, X, 4, y), y, KernelOptions{Options: Options{Algorithm: linear.Voted, MaxIter: 2}, Kernel: gram.RBF{Gamma: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	models["sparse-voted"] = sm
	for name, m := range models {
		t.Run("kernel-"+name, func(t *testing.T) {
			doc, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			jsontest.CheckNulls(t, doc, func(b []byte) error { return json.Unmarshal(b, new(expansion.Model[float64])) }, expansion.ErrCorrupt, modelfile.ErrNull)
		})
	}
}

// A null as a whole member that MarshalJSON may write empty reads as
// empty (as encoding/json reads it, and as MarshalJSON writes a kernel
// model without support vectors), so such a document still decodes; as a
// number or a member that always holds values it is refused.
func TestJSONNullMembers(t *testing.T) {
	doc, err := json.Marshal(fileModels(t)["ovr-averaged"])
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	edit := strings.Replace(s, `"eta":1`, `"eta":null`, 1)
	if edit == s {
		t.Fatal("no eta in", s)
	}
	if err := new(linear.Model[float32]).UnmarshalJSON([]byte(edit)); !errors.Is(err, modelfile.ErrNull) || !strings.Contains(err.Error(), "at eta ") {
		t.Fatalf("eta null: %v", err)
	}
	// "weights" is no member that may be null.
	edit = strings.Replace(s, `"weights":[[`, `"weights":null,"x":[[`, 1)
	if err := new(linear.Model[float32]).UnmarshalJSON([]byte(edit)); !errors.Is(err, modelfile.ErrNull) || !strings.Contains(err.Error(), "at weights ") {
		t.Fatalf("weights null: %v", err)
	}
	// An averaging state of null is none, as encoding/json reads it.
	doc, err = json.Marshal(fileModels(t)["ovr-online"])
	if err != nil {
		t.Fatal(err)
	}
	edit = strings.Replace(string(doc), `"weights":`, `"averaging":null,"weights":`, 1)
	if err := new(linear.Model[float32]).UnmarshalJSON([]byte(edit)); err != nil || edit == string(doc) {
		t.Fatalf("averaging null: %v", err)
	}
}

// TestJSONDecodeMemory holds the bound modelfile.MaxJSONGrowth states:
// decoding a document of one-character numbers (the most values per byte)
// allocates at most that many times the document's size, for a linear
// model of wide rows, one of many one-value rows (the per-row cost), and a
// kernel model's support vectors.
func TestJSONDecodeMemory(t *testing.T) {
	zeros := func(n int) string { return strings.TrimSuffix(strings.Repeat("0,", n), ",") }
	rows := func(r, d int) string {
		row := "[" + zeros(d) + "]"
		return "[" + strings.TrimSuffix(strings.Repeat(row+",", r), ",") + "]"
	}
	for _, tc := range []struct {
		name string
		doc  string
		dec  func([]byte) error
	}{
		{"ovr-wide-float64", fmt.Sprintf(`{"format":"rosenblatt-perceptron","version":2,"type":"float64","kind":"ovr","algorithm":"online","dims":%d,"bias":true,"normalize":false,"eta":1,"labels":[0,1,2],"weights":%s,"biases":[0,0,0]}`, 200000, rows(3, 200000)),
			func(b []byte) error { return new(linear.Model[float64]).UnmarshalJSON(b) }},
		{"ovr-narrow-float64", fmt.Sprintf(`{"format":"rosenblatt-perceptron","version":2,"type":"float64","kind":"ovr","algorithm":"online","dims":1,"bias":true,"normalize":false,"eta":1,"labels":[%s],"weights":%s,"biases":[%s]}`, labelList(100000), rows(100000, 1), zeros(100000)),
			func(b []byte) error { return new(linear.Model[float64]).UnmarshalJSON(b) }},
		{"kernel-sv-float64", fmt.Sprintf(`{"format":"rosenblatt-perceptron","version":2,"type":"float64","kind":"kernel-binary","algorithm":"online","dims":2,"bias":true,"normalize":false,"eta":1,"labels":[-1,1],"kernel":{"type":"linear"},"support_indices":[%s],"support_vectors":%s,"coefficients":[[%s]],"biases":[0]}`, labelList(50000), rows(50000, 2), zeros(50000)),
			func(b []byte) error { return new(expansion.Model[float64]).UnmarshalJSON(b) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jsontest.CheckGrowth(t, []byte(tc.doc), tc.dec, modelfile.MaxJSONGrowth)
		})
	}
}

// labelList is "0,1,…,n−1".
func labelList(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, i)
	}
	return b.String()
}
