package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func BenchmarkReadLIBSVM(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "digits.train.libsvm"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("float32", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := ReadLIBSVM[float32](bytes.NewReader(raw), LIBSVMOptions{Cols: 64}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("float64", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := ReadLIBSVM[float64](bytes.NewReader(raw), LIBSVMOptions{Cols: 64}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkReadCSV(b *testing.B) {
	d, err := LoadLIBSVM[float64](filepath.Join("testdata", "digits.train.libsvm"), LIBSVMOptions{Cols: 64})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d, CSVOptions{}); err != nil {
		b.Fatal(err)
	}
	raw := buf.Bytes()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := ReadCSV[float32](bytes.NewReader(raw), CSVOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseValues parses the values of three files: digits (small
// integers), heart_scale (six decimals) and breast_cancer_std (17 digits,
// beyond the float64 fast path), as float32 and float64. parseFloat, which
// checks the decimal syntax and takes its fast paths where it can, is
// measured against strconv.ParseFloat alone, what the readers called
// before.
func BenchmarkParseValues(b *testing.B) {
	for _, name := range []string{"digits.train", "heart_scale", "breast_cancer_std.train"} {
		raw, err := os.ReadFile(filepath.Join("testdata", name+".libsvm"))
		if err != nil {
			b.Fatal(err)
		}
		var values [][]byte
		for _, tok := range bytes.Fields(raw) {
			if i := bytes.IndexByte(tok, ':'); i >= 0 {
				values = append(values, tok[i+1:])
			}
		}
		perValue := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(values)), "ns/value")
		}
		b.Run(name+"/float32/parseFloat", func(b *testing.B) {
			for b.Loop() {
				for _, v := range values {
					if _, err := parseFloat[float32](v, 32); err != nil {
						b.Fatal(err)
					}
				}
			}
			perValue(b)
		})
		b.Run(name+"/float64/parseFloat", func(b *testing.B) {
			for b.Loop() {
				for _, v := range values {
					if _, err := parseFloat[float64](v, 64); err != nil {
						b.Fatal(err)
					}
				}
			}
			perValue(b)
		})
		for _, bits := range []int{32, 64} {
			b.Run(name+"/float"+strconv.Itoa(bits)+"/strconv", func(b *testing.B) {
				for b.Loop() {
					for _, v := range values {
						if _, err := strconv.ParseFloat(unsafeString(v), bits); err != nil {
							b.Fatal(err)
						}
					}
				}
				perValue(b)
			})
		}
	}
}
