package svm

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/jsontest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestJSONNullRefused: a null in place of any number of an SVM's JSON
// document (coefficients, biases, support vector values, labels, indices,
// dims, kernel parameters), kernel or linear, dense or sparse, is refused
// naming its place.
func TestJSONNullRefused(t *testing.T) {
	kernels, linears, _, _ := fileModels(t)
	_, y, c := sparseInt(rand.New(rand.NewPCG(3, 4)), 40, 5, 2)
	for i := range y {
		y[i] = 2*y[i] - 1
	}
	sm, _, err := trainSparse(c, y, Options{Kernel: gram.RBF{Gamma: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range kernels {
		t.Run(fmt.Sprint("kernel-", i), func(t *testing.T) {
			doc, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			jsontest.CheckNulls(t, doc, func(b []byte) error { return new(expansion.Model[float64]).UnmarshalJSON(b) }, expansion.ErrCorrupt, modelfile.ErrNull)
		})
	}
	t.Run("kernel-sparse", func(t *testing.T) {
		doc, err := sm.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		jsontest.CheckNulls(t, doc, func(b []byte) error { return new(expansion.Model[float32]).UnmarshalJSON(b) }, expansion.ErrCorrupt, modelfile.ErrNull)
	})
	for i, m := range linears {
		t.Run(fmt.Sprint("linear-", i), func(t *testing.T) {
			doc, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			jsontest.CheckNulls(t, doc, func(b []byte) error { return new(linear.Model[float64]).UnmarshalJSON(b) }, linear.ErrCorrupt, modelfile.ErrNull)
		})
	}
}

// TestJSONDecodeMemory holds modelfile.MaxJSONGrowth for the SVMs'
// documents of one-character numbers: a kernel model of many
// one-feature support vectors (the most rows per byte) and a linear
// model of wide rows.
func TestJSONDecodeMemory(t *testing.T) {
	zeros := func(n int) string { return strings.TrimSuffix(strings.Repeat("0,", n), ",") }
	rows := func(r, d, v int) string {
		row := "[" + strings.TrimSuffix(strings.Repeat(fmt.Sprint(v, ","), d), ",") + "]"
		return "[" + strings.TrimSuffix(strings.Repeat(row+",", r), ",") + "]"
	}
	const s = 100000
	for _, tc := range []struct {
		name string
		doc  string
		dec  func([]byte) error
	}{
		{"kernel-narrow", fmt.Sprintf(`{"format":"rosenblatt-svm","version":2,"type":"float64","kind":"kernel-binary","algorithm":"svm","dims":1,"labels":[-1,1],"kernel":{"type":"linear"},"support_vectors":%s,"machines":[{"negative":-1,"positive":1,"coefficients":[%s],"bias":0}]}`, rows(s, 1, 1), zeros(s)),
			func(b []byte) error { return new(expansion.Model[float64]).UnmarshalJSON(b) }},
		{"linear-wide", fmt.Sprintf(`{"format":"rosenblatt-svm","version":2,"type":"float64","kind":"linear-ovr","algorithm":"svm","dims":200000,"labels":[0,1,2],"weights":%s,"biases":[0,0,0]}`, rows(3, 200000, 0)),
			func(b []byte) error { return new(linear.Model[float64]).UnmarshalJSON(b) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jsontest.CheckGrowth(t, []byte(tc.doc), tc.dec, modelfile.MaxJSONGrowth)
		})
	}
}
