package text_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/text"
)

// benchDocs are n documents of 20 words from a vocabulary of 5 000
// made-up ASCII words of 3 to 10 letters, or of Latin, Greek and Han words
// with combining marks (unicode).
func benchDocs(n int, unicode bool) []string {
	vocab := make([]string, 5000)
	x := uint32(1)
	next := func() uint32 { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x }
	alpha := []rune("abcdefghijklmnopqrstuvwxyz")
	if unicode {
		alpha = []rune("aeiouéèçαβγδεζηθ北京東京日本語猫犬e\u0301")
	}
	for i := range vocab {
		var b strings.Builder
		for range 3 + next()%8 {
			b.WriteRune(alpha[next()%uint32(len(alpha))])
		}
		if next()%4 == 0 {
			b.WriteString(strings.ToUpper(b.String()[:1]))
		}
		vocab[i] = b.String()
	}
	docs := make([]string, n)
	for i := range docs {
		var b strings.Builder
		for k := range 20 {
			if k > 0 {
				b.WriteString(" ")
			}
			b.WriteString(vocab[next()%uint32(len(vocab))])
			if next()%10 == 0 {
				b.WriteString(",")
			}
		}
		docs[i] = b.String()
	}
	return docs
}

// BenchmarkFeaturize is the featurizer's throughput on one core: bytes of
// text per second (the MB/s column, wall time) into a float32 CSR matrix,
// and per second of the thread's CPU time (cpu-MB/s, on Linux), which a
// machine shared with other jobs does not understate.
func BenchmarkFeaturize(b *testing.B) {
	for _, c := range []struct {
		name    string
		unicode bool
		opt     text.Options
	}{
		{"ascii/uni+bigrams", false, text.DefaultOptions()},
		{"ascii/uni+bigrams+char3-5", false, text.Options{Bits: 20, WordNGrams: 2, CharMin: 3, CharMax: 5, TF: text.Log}},
		{"unicode/uni+bigrams", true, text.DefaultOptions()},
	} {
		b.Run(c.name, func(b *testing.B) {
			docs := benchDocs(1000, c.unicode)
			n := 0
			for _, d := range docs {
				n += len(d) + 1
			}
			f, err := text.New(c.opt)
			if err != nil {
				b.Fatal(err)
			}
			r := text.NewRows[float32](f)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0 := threadCPU()
			for b.Loop() {
				r.Reset()
				for _, d := range docs {
					r.AppendString(d, 0)
				}
			}
			if cpu0 >= 0 {
				b.ReportMetric(float64(n)*float64(b.N)/(float64(threadCPU()-cpu0)/1e9)/1e6, "cpu-MB/s")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
		})
	}
}

func ExampleRows() {
	f, _ := text.New(text.Options{Bits: 4, WordNGrams: 1, TF: text.Raw, NoNormalize: true})
	r := text.NewRows[float32](f)
	r.AppendString("The cat, the CAT!", 0)
	row := r.CSR.Row(0)
	for k, j := range row.Idx {
		fmt.Println(j, row.Val[k])
	}
	// "the" and "cat" twice each, in the columns FNV-1a("u the") and
	// FNV-1a("u cat") modulo 2⁴:
	// Output:
	// 4 2
	// 11 2
}
