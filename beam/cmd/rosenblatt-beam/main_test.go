package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/rosenblatt-go/rosenblatt/beam/ipm"
)

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init()
	os.Exit(m.Run())
}

// The local run of docs/beam.md: the digits data, 4 shards, 10 epochs on prism
// (Beam's default runner, in this process), then the model file is an
// ordinary one-vs-rest averaged model; a second run refuses to replace it.
func TestTrainDigits(t *testing.T) {
	out := filepath.Join(t.TempDir(), "digits.model")
	for name, v := range map[string]string{"cols": "64", "shards": "4", "epochs": "10", "o": out} {
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	data := "../../../dataset/testdata/digits.train.libsvm"
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{data}, &stdout); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "1437 rows from 1 files, 4 shards, averaged perceptron, uniform mixing, 10 epochs") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var m linear.Model[float32]
	if err := m.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if m.Scheme() != fit.OneVsRest || m.Algorithm() != linear.Averaged || len(m.Classes()) != 10 || m.Dims() != 64 {
		t.Errorf("model: %v %v, %d classes, %d features", m.Scheme(), m.Algorithm(), len(m.Classes()), m.Dims())
	}
	if err := run(context.Background(), []string{data}, &stdout); !errors.Is(err, ipm.ErrExists) {
		t.Errorf("second run: %v, want ErrExists", err)
	}
	// The linear SVM by CoCoA+: a one-vs-rest linear SVM file (linear.Model), asked
	// for by the flags' earlier names (-algorithm, -dims, -out), which set
	// the same values as -algo, -cols and -o.
	svmOut := filepath.Join(t.TempDir(), "digits-svm.model")
	for name, v := range map[string]string{"algorithm": "svm", "mixing": "adding", "C": "0.01", "epochs": "5", "dims": "64", "out": svmOut} {
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	stdout.Reset()
	if err := run(context.Background(), []string{data}, &stdout); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "4 shards, linear SVM (C = 0.01), adding mixing, 5 epochs") || !strings.Contains(stdout.String(), "duality gap") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	if b, err = os.ReadFile(svmOut); err != nil {
		t.Fatal(err)
	}
	var sm linear.Model[float32]
	if err := sm.UnmarshalBinary(b); err != nil || sm.Scheme() != fit.OneVsRest || sm.Algorithm() != linear.DualCD || sm.Dims() != 64 {
		t.Errorf("SVM model: %v, %v, %d features", err, sm.String(), sm.Dims())
	}
	if err := flag.Set("mixing", "median"); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{data}, &stdout); !errors.Is(err, ipm.ErrConfig) {
		t.Errorf("bad -mixing: %v, want ErrConfig", err)
	}
}
