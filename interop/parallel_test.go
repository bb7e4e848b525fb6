package interop

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestReadLIBSVMParallel reads files in parts, as a large file is read
// (the threshold lowered to one byte, 2, 3 and 7 parts), and in one pass:
// the same model, or the same error naming the same line, for a generated
// model of 300 support vectors (with blank lines after them, and a last
// line without its newline) and for every malformed file of TestBadFiles.
func TestReadLIBSVMParallel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	fmt.Fprintf(&b, "svm_type c_svc\nkernel_type rbf\ngamma 0.1\nnr_class 3\ntotal_sv 300\nrho 0.1 0.2 0.3\nlabel 3 1 2\nnr_sv 100 120 80\nSV\n")
	for range 300 {
		b.WriteString(strconv.FormatFloat(r.NormFloat64(), 'g', 17, 64) + " " + strconv.FormatFloat(r.NormFloat64(), 'g', -1, 64))
		for j := 1; j <= 40; j++ {
			if r.IntN(3) == 0 {
				fmt.Fprintf(&b, " %d:%s", j, strconv.FormatFloat(r.NormFloat64(), 'g', 17, 64))
			}
		}
		b.WriteString("\n")
	}
	gen := b.String()
	inputs := []string{goodLIBSVM, gen, gen + "\n \n", strings.TrimSuffix(gen, "\n"),
		gen + "1 2 3:4\n", strings.Replace(gen, "\n", "\n\n", 150)}
	lines := strings.Split(gen, "\n")
	for _, at := range []int{9, 100, 200, 308} {
		bad := append([]string(nil), lines...)
		bad[at] += " 1:x"
		inputs = append(inputs, strings.Join(bad, "\n"))
		bad[at] = "0.5 0.5 7:1 3:2"
		inputs = append(inputs, strings.Join(bad, "\n"))
	}
	inputs = append(inputs, strings.Join(lines[:150], "\n"))
	for _, c := range badLIBSVMFiles(t) {
		inputs = append(inputs, c)
	}
	defer func(m, p int) { parallelMinBytes, parallelParts = m, p }(parallelMinBytes, parallelParts)
	for i, in := range inputs {
		parallelMinBytes, parallelParts = 1<<20, 0
		want, werr := ReadLIBSVM([]byte(in), nil)
		if len(in) >= parallelMinBytes {
			t.Fatalf("input %d is not read in one pass", i)
		}
		for _, parts := range []int{2, 3, 7} {
			parallelMinBytes, parallelParts = 1, parts
			got, err := ReadLIBSVM([]byte(in), nil)
			if fmt1(err) != fmt1(werr) {
				t.Fatalf("input %d in %d parts: error %v, in one pass %v", i, parts, err, werr)
			}
			if err == nil && !reflect.DeepEqual(got.Model.Parts(), want.Model.Parts()) {
				t.Fatalf("input %d in %d parts: the model differs", i, parts)
			}
		}
	}
}
