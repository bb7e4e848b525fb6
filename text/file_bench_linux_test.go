package text

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
)

// EnvBenchFile names a fastText file for BenchmarkFile.
const envBenchFile = "ROSENBLATT_TEXT_FILE"

// BenchmarkFile measures, on the fastText file that ROSENBLATT_TEXT_FILE
// names, the thread's CPU seconds of each stage of featurizing it, each
// stage a pass of its own from the file: "read" reads it through one
// 256 KiB buffer and counts its lines, "lines" reads its documents (Reader.Next), "tokens" also
// splits them into lower-cased tokens (the plain tokeniser of the
// character n-gram path), and "featurize" is ReadAll with the default
// options (2^20 columns, unigrams and bigrams, log tf, unit rows): what
// rosenblatt train does before it trains. These are floors of the whole
// path from raw text to a saved model.
func BenchmarkFile(b *testing.B) {
	path := os.Getenv(envBenchFile)
	if path == "" {
		b.Skip("set " + envBenchFile + " to a fastText file")
	}
	f := newFeaturizer(DefaultOptions())
	stages := []struct {
		name string
		run  func(*os.File) (int, error)
	}{
		{"read", func(fl *os.File) (int, error) {
			buf := make([]byte, 256<<10)
			n := 0
			for {
				k, err := fl.Read(buf)
				n += bytes.Count(buf[:k], []byte{'\n'})
				if err == io.EOF {
					return n, nil
				}
				if err != nil {
					return n, err
				}
			}
		}},
		{"lines", func(fl *os.File) (int, error) {
			r, err := NewReader(fl, ReaderOptions{Format: FastText})
			if err != nil {
				return 0, err
			}
			n := 0
			for {
				_, _, err := r.Next()
				if err == io.EOF {
					return n, nil
				}
				if err != nil {
					return n, err
				}
				n++
			}
		}},
		{"tokens", func(fl *os.File) (int, error) {
			r, err := NewReader(fl, ReaderOptions{Format: FastText})
			if err != nil {
				return 0, err
			}
			var s scratch
			n := 0
			for {
				_, doc, err := r.Next()
				if err == io.EOF {
					return n, nil
				}
				if err != nil {
					return n, err
				}
				s.tokenize(f, doc)
				n += len(s.ends)
			}
		}},
		{"featurize", func(fl *os.File) (int, error) {
			r, err := NewReader(fl, ReaderOptions{Format: FastText})
			if err != nil {
				return 0, err
			}
			var names Names
			X, err := ReadAll[float32](r, f, &names)
			if err != nil {
				return 0, err
			}
			return X.NNZ(), nil
		}},
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, st := range stages {
		b.Run(st.name, func(b *testing.B) {
			b.SetBytes(fi.Size())
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu int64
			n := 0
			for b.Loop() {
				fl, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				c0 := cputime.Thread()
				n, err = st.run(fl)
				cpu += cputime.Thread() - c0
				fl.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpu)/1e9/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(fi.Size())*float64(b.N)/(float64(cpu)/1e9)/1e6, "cpu-MB/s")
			b.ReportMetric(float64(n), "items")
		})
	}
}
