package perceptron

import (
	"fmt"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"
)

// BenchmarkPredictSparse measures one linear PredictSparse call, checks
// included, on text-like rows of nnz non-zeros cycled over 256 rows (so the
// weights touched vary as in serving):
//
//	go test -run '^$' -bench PredictSparse -count 8 ./perceptron
func BenchmarkPredictSparse(b *testing.B) {
	for _, nnz := range []int{12, 100} {
		c := textLike[float32](newRand(61), 256, 1<<14, nnz, 4)
		bin := trainSparseKind(b, c, false, Options{MaxIter: 2})
		ovr := trainSparseKind(b, c, true, Options{MaxIter: 2})
		for _, m := range []struct {
			name string
			m    *linear.Model[float32]
		}{{"binary", bin}, {"ovr4", ovr}} {
			b.Run(fmt.Sprintf("%s/nnz=%d", m.name, nnz), func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, err := m.m.PredictSparse(c.Row(i & 255)); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}
