package model_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/quant"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// schemeOf returns the multiclass scheme a model of this module reports.
func schemeOf(t *testing.T, m model.Model) fit.Scheme {
	t.Helper()
	switch v := m.(type) {
	case *linear.Model[float32]:
		return v.Scheme()
	case *linear.Model[float64]:
		return v.Scheme()
	case *expansion.Model[float32]:
		return v.Scheme()
	case *expansion.Model[float64]:
		return v.Scheme()
	case *quant.Model:
		return v.Scheme()
	}
	t.Fatalf("a %T has no scheme", m)
	return fit.Auto
}

// TestSchemeRoundTrip: a model of every scheme, made by every trainer that
// has it, reports that scheme (fit.Auto never) when trained and after a
// round trip through its binary and JSON files, and its file is of the
// kind of model.Kind's table for that scheme.
func TestSchemeRoundTrip(t *testing.T) {
	ctx := context.Background()
	// Four clusters in the plane, labels 3, 5, 7, 9; the ±1 set is the
	// first two, relabelled.
	var X []float64
	var y, yb []int
	for i := range 40 {
		c := i % 4
		X = append(X, float64(c%2)*4+float64(i%5)*0.1, float64(c/2)*4+float64(i%3)*0.1)
		y = append(y, 3+2*c)
		yb = append(yb, 2*(c%2)-1)
	}
	D, Db := dataset.NewData(X, 2, y), dataset.NewData(X, 2, yb)
	lin := func(data *dataset.Data[float64], labels []int, o perceptron.Options) model.Model {
		m, _, err := perceptron.Fit(ctx, data, labels, o)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	kern := func(data *dataset.Data[float64], labels []int, o perceptron.Options) model.Model {
		m, _, err := perceptron.FitKernel(ctx, data, labels, perceptron.KernelOptions{Options: o, Kernel: gram.RBF{Gamma: 0.5}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ksvm := func(data *dataset.Data[float64], labels []int, s fit.Scheme) model.Model {
		m, _, err := svm.Fit(ctx, data, labels, svm.Options{Multiclass: s})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	lsvm := func(data *dataset.Data[float64], labels []int) model.Model {
		m, _, err := svm.FitLinear(ctx, data, labels, svm.LinearOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	q := func(m model.Model) model.Model {
		qm, err := quant.New(m.(quant.Linear))
		if err != nil {
			t.Fatal(err)
		}
		return qm
	}
	averaged := perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5}
	argmax := perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5, Multiclass: fit.Argmax}
	cases := []struct {
		name string
		m    model.Model
		want fit.Scheme
		kind model.Kind
	}{
		{"perceptron-binary", lin(Db, yb, averaged), fit.Binary, model.PerceptronBinary},
		{"perceptron-binary-asked", lin(Db, yb, perceptron.Options{Multiclass: fit.Binary}), fit.Binary, model.PerceptronBinary},
		{"perceptron-ovr", lin(D, y, averaged), fit.OneVsRest, model.PerceptronOneVsRest},
		{"perceptron-argmax", lin(D, y, argmax), fit.Argmax, model.PerceptronArgmax},
		{"perceptron-argmax-pm1", lin(Db, yb, argmax), fit.Argmax, model.PerceptronArgmax},
		{"kernel-perceptron-binary", kern(Db, yb, averaged), fit.Binary, model.KernelPerceptronBinary},
		{"kernel-perceptron-ovr", kern(D, y, averaged), fit.OneVsRest, model.KernelPerceptronOneVsRest},
		{"kernel-perceptron-argmax", kern(D, y, argmax), fit.Argmax, model.KernelPerceptronArgmax},
		{"kernel-svm-binary", ksvm(Db, yb, fit.Auto), fit.Binary, model.KernelSVMBinary},
		{"kernel-svm-binary-asked", ksvm(Db, yb, fit.Binary), fit.Binary, model.KernelSVMBinary},
		{"kernel-svm-ovr", ksvm(D, y, fit.OneVsRest), fit.OneVsRest, model.KernelSVMOneVsRest},
		{"kernel-svm-ovo", ksvm(D, y, fit.Auto), fit.OneVsOne, model.KernelSVMOneVsOne},
		{"kernel-svm-ovo-asked", ksvm(D, y, fit.OneVsOne), fit.OneVsOne, model.KernelSVMOneVsOne},
		{"linear-svm-binary", lsvm(Db, yb), fit.Binary, model.LinearSVMBinary},
		{"linear-svm-ovr", lsvm(D, y), fit.OneVsRest, model.LinearSVMOneVsRest},
		{"quant-binary", q(lin(Db, yb, averaged)), fit.Binary, model.QuantBinary},
		{"quant-ovr", q(lin(D, y, averaged)), fit.OneVsRest, model.QuantOneVsRest},
		{"quant-argmax", q(lin(D, y, argmax)), fit.Argmax, model.QuantArgmax},
		{"quant-linear-svm-ovr", q(lsvm(D, y)), fit.OneVsRest, model.QuantOneVsRest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := schemeOf(t, tc.m); got != tc.want {
				t.Fatalf("trained model: Scheme() = %v, want %v", got, tc.want)
			}
			if k := model.KindOf(tc.m); k != tc.kind {
				t.Fatalf("KindOf = %v, want %v", k, tc.kind)
			}
			for _, f := range []model.Format{model.Binary, model.JSON} {
				data, err := model.Marshal(tc.m, f)
				if f == model.JSON && tc.kind >= model.QuantBinary {
					continue // a quantised model has no JSON form
				}
				if err != nil {
					t.Fatalf("%v: %v", f, err)
				}
				back, err := model.Unmarshal(data)
				if err != nil {
					t.Fatalf("%v: %v", f, err)
				}
				if got := schemeOf(t, back); got != tc.want {
					t.Errorf("%v file: Scheme() = %v, want %v", f, got, tc.want)
				}
				info, err := model.Inspect(bytes.NewReader(data))
				if err != nil || info.Kind != tc.kind {
					t.Errorf("%v file: Inspect kind %v, %v; want %v", f, info.Kind, err, tc.kind)
				}
				// A linear SVM's file is linear's: kind 1 or 2.
				want := map[model.Kind]byte{model.LinearSVMBinary: 1, model.LinearSVMOneVsRest: 2}[tc.kind]
				if want == 0 {
					want = byte(tc.kind)
				}
				if f == model.Binary && data[11] != want {
					t.Errorf("binary file: kind byte %d, want %d", data[11], want)
				}
			}
		})
	}
}

// TestKindOfUntrained: a model that was never trained (its scheme is
// fit.Auto) has no file kind, nor an empty interop pipeline.
func TestKindOfUntrained(t *testing.T) {
	for name, m := range map[string]model.Model{
		"linear32":  new(linear.Model[float32]),
		"linear64":  new(linear.Model[float64]),
		"quant":     new(quant.Model),
		"expansion": new(expansion.Model[float64]),
	} {
		if k := model.KindOf(m); k != 0 {
			t.Errorf("%s: KindOf of an untrained model = %v, want 0", name, k)
		}
	}
}
