package interop

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// svmData is the directory of package svm's test data: the data sets
// (copies of dataset/testdata) and the reference files Debian's tools made.
const svmData = "../svm/testdata"

// refLIBSVM is LIBSVM 3.24's svm_predict_values, transcribed: the model
// file parsed with strings.Fields and evaluated in its own order and in
// float64, independent of the package's mapping onto expansion.Model.
type refLIBSVM struct {
	kernel       string
	gamma, coef0 float64
	degree       int
	k            int
	rho          []float64
	labels, nsv  []int
	coef         [][]float64 // per support vector, k−1
	sv           []map[int]float64
	dense        [][]float64 // sv, dense (made by the first predict)
	width        int
}

func parseRefLIBSVM(t *testing.T, data []byte) *refLIBSVM {
	t.Helper()
	r := &refLIBSVM{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<26)
	inSV := false
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if inSV {
			c := make([]float64, r.k-1)
			for i := range c {
				c[i] = num(f[i])
			}
			x := map[int]float64{}
			for _, p := range f[r.k-1:] {
				is, vs, _ := strings.Cut(p, ":")
				j, _ := strconv.Atoi(is)
				x[j] = num(vs)
			}
			r.coef, r.sv = append(r.coef, c), append(r.sv, x)
			continue
		}
		switch f[0] {
		case "kernel_type":
			r.kernel = f[1]
		case "gamma":
			r.gamma = num(f[1])
		case "coef0":
			r.coef0 = num(f[1])
		case "degree":
			r.degree, _ = strconv.Atoi(f[1])
		case "nr_class":
			r.k, _ = strconv.Atoi(f[1])
		case "rho":
			for _, s := range f[1:] {
				r.rho = append(r.rho, num(s))
			}
		case "label", "nr_sv":
			var v []int
			for _, s := range f[1:] {
				n, _ := strconv.Atoi(s)
				v = append(v, n)
			}
			if f[0] == "label" {
				r.labels = v
			} else {
				r.nsv = v
			}
		case "SV":
			inSV = true
		}
	}
	return r
}

// kvalue is LIBSVM's k_function of x and support vector y (dense, as
// wide as x or wider).
func (r *refLIBSVM) kvalue(x, y []float64) float64 {
	dot, sq := 0.0, 0.0
	for j, w := range y {
		v := 0.0
		if j < len(x) {
			v = x[j]
		}
		dot += v * w
		sq += (v - w) * (v - w)
	}
	for _, v := range x[min(len(x), len(y)):] {
		sq += v * v
	}
	switch r.kernel {
	case "linear":
		return dot
	case "polynomial":
		return math.Pow(r.gamma*dot+r.coef0, float64(r.degree))
	case "rbf":
		return math.Exp(-r.gamma * sq)
	case "sigmoid":
		return math.Tanh(r.gamma*dot + r.coef0)
	}
	panic(r.kernel)
}

// predict returns LIBSVM's label and decision values (its pair order).
func (r *refLIBSVM) predict(x []float64) (int, []float64) {
	if r.dense == nil {
		for _, y := range r.sv {
			for j := range y {
				r.width = max(r.width, j)
			}
		}
		for _, y := range r.sv {
			row := make([]float64, r.width)
			for j, v := range y {
				row[j-1] = v
			}
			r.dense = append(r.dense, row)
		}
	}
	kv := make([]float64, len(r.sv))
	for i, y := range r.dense {
		kv[i] = r.kvalue(x, y)
	}
	start := make([]int, r.k)
	for i := 1; i < r.k; i++ {
		start[i] = start[i-1] + r.nsv[i-1]
	}
	vote := make([]int, r.k)
	var dec []float64
	p := 0
	for i := 0; i < r.k; i++ {
		for j := i + 1; j < r.k; j++ {
			sum := 0.0
			for q := 0; q < r.nsv[i]; q++ {
				sum += r.coef[start[i]+q][j-1] * kv[start[i]+q]
			}
			for q := 0; q < r.nsv[j]; q++ {
				sum += r.coef[start[j]+q][i] * kv[start[j]+q]
			}
			sum -= r.rho[p]
			dec = append(dec, sum)
			if sum > 0 {
				vote[i]++
			} else {
				vote[j]++
			}
			p++
		}
	}
	best := 0
	for i := 1; i < r.k; i++ {
		if vote[i] > vote[best] {
			best = i
		}
	}
	return r.labels[best], dec
}

// refLIBLINEAR is LIBLINEAR 2.3's predict_values, transcribed.
type refLIBLINEAR struct {
	solver    string
	k, nf, nw int
	bias      float64
	labels    []int
	w         []float64
}

func parseRefLIBLINEAR(t *testing.T, data []byte) *refLIBLINEAR {
	t.Helper()
	r := &refLIBLINEAR{}
	inW := false
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if inW {
			for _, s := range f {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatal(err)
				}
				r.w = append(r.w, v)
			}
			continue
		}
		switch f[0] {
		case "solver_type":
			r.solver = f[1]
		case "nr_class":
			r.k, _ = strconv.Atoi(f[1])
		case "nr_feature":
			r.nf, _ = strconv.Atoi(f[1])
		case "bias":
			r.bias, _ = strconv.ParseFloat(f[1], 64)
		case "label":
			for _, s := range f[1:] {
				n, _ := strconv.Atoi(s)
				r.labels = append(r.labels, n)
			}
		case "w":
			inW = true
		}
	}
	r.nw = r.k
	if r.k == 2 && r.solver != "MCSVM_CS" {
		r.nw = 1
	}
	return r
}

// predict returns LIBLINEAR's label and decision values for x (its
// features beyond nr_feature ignored, as liblinear-predict does).
func (r *refLIBLINEAR) predict(x []float64) (int, []float64) {
	dec := make([]float64, r.nw)
	for j, v := range x {
		if j >= r.nf {
			break
		}
		for c := range dec {
			dec[c] += r.w[j*r.nw+c] * v
		}
	}
	if r.bias >= 0 {
		for c := range dec {
			dec[c] += r.w[r.nf*r.nw+c] * r.bias
		}
	}
	if r.k == 2 { // LIBLINEAR: the first column's sign, also for MCSVM_CS
		if dec[0] > 0 {
			return r.labels[0], dec
		}
		return r.labels[1], dec
	}
	best := 0
	for c := range dec {
		if dec[c] > dec[best] {
			best = c
		}
	}
	return r.labels[best], dec
}

// readRows reads a LIBSVM data file as dense rows of at least d columns.
func readRows(t *testing.T, path string, d int) *dataset.Data[float64] {
	t.Helper()
	c, err := dataset.LoadLIBSVMSparse[float64](path, dataset.LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.Cols = max(c.Cols, d)
	x, err := c.ToDense(0)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// readLabels reads a predictor's output, one label a line.
func readLabels(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

// near reports whether a and b agree within float64 rounding of sums of
// a few hundred terms.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*(1+math.Abs(b)) }

// checkLIBSVM checks the model of file against the tool's labels want on
// the rows of test: the labels equal, and the decision values equal
// refLIBSVM's within rounding.
func checkLIBSVM(t *testing.T, file []byte, test string, want []int) {
	t.Helper()
	f, err := ReadLIBSVM(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := parseRefLIBSVM(t, file)
	m := f.Model
	var pred interface {
		Predict([]float64) (int, error)
		PredictBatch([]int, []float64) error
	} = m
	if f.Voting != nil {
		pred = f.Voting
	}
	if (f.Voting != nil) == slices.IsSorted(ref.labels) {
		t.Errorf("Voting set = %v for labels %v: want it exactly when they are not increasing", f.Voting != nil, ref.labels)
	}
	data := readRows(t, test, m.Dims())
	if len(want) != data.Rows {
		t.Fatalf("%d labels from the tool for %d rows", len(want), data.Rows)
	}
	batch := make([]int, data.Rows)
	dense := make([]float64, 0, data.Rows*m.Dims())
	for i := range data.Rows {
		dense = append(dense, data.X[i*data.Cols:i*data.Cols+m.Dims()]...)
	}
	if err := pred.PredictBatch(batch, dense); err != nil {
		t.Fatal(err)
	}
	sorted := slices.Sorted(slices.Values(ref.labels))
	k := len(sorted)
	pos := func(y int) int { i, _ := slices.BinarySearch(sorted, y); return i }
	sc := make([]float64, m.NumScores())
	for i := range data.Rows {
		x := data.X[i*data.Cols : (i+1)*data.Cols]
		refLabel, dec := ref.predict(x)
		if refLabel != want[i] {
			t.Fatalf("row %d: the reference transcription predicts %d, the tool %d", i, refLabel, want[i])
		}
		xm := x[:m.Dims()]
		for _, v := range x[m.Dims():] {
			if v != 0 {
				t.Fatalf("row %d has a feature beyond the model's %d", i, m.Dims())
			}
		}
		got, err := pred.Predict(xm)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[i] || batch[i] != want[i] {
			t.Errorf("row %d: predicted %d (batch %d), the tool %d", i, got, batch[i], want[i])
		}
		if err := m.Scores(sc, xm); err != nil {
			t.Fatal(err)
		}
		p := 0
		for a := 0; a < k; a++ {
			for b := a + 1; b < k; b++ {
				pa, pb := pos(ref.labels[a]), pos(ref.labels[b])
				v := dec[p]
				if pa < pb {
					v = -v
				}
				r := pairIndex(k, min(pa, pb), max(pa, pb))
				if !near(sc[r], v) {
					t.Errorf("row %d pair (%d, %d): decision value %v, reference %v", i, ref.labels[a], ref.labels[b], sc[r], v)
				}
				p++
			}
		}
	}
}

// checkLIBLINEAR is checkLIBSVM for LIBLINEAR.
func checkLIBLINEAR(t *testing.T, file []byte, test string, want []int) {
	t.Helper()
	f, err := ReadLIBLINEAR(file)
	if err != nil {
		t.Fatal(err)
	}
	ref := parseRefLIBLINEAR(t, file)
	m := f.Model
	data := readRows(t, test, m.Dims())
	if len(want) != data.Rows {
		t.Fatalf("%d labels from the tool for %d rows", len(want), data.Rows)
	}
	sorted := slices.Sorted(slices.Values(ref.labels))
	sc := make([]float64, m.NumScores())
	for i := range data.Rows {
		x := data.X[i*data.Cols : (i+1)*data.Cols]
		refLabel, dec := ref.predict(x)
		if refLabel != want[i] {
			t.Fatalf("row %d: the reference transcription predicts %d, the tool %d", i, refLabel, want[i])
		}
		xm := x[:m.Dims()] // liblinear-predict ignores the features beyond
		got, err := m.Predict(xm)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[i] {
			t.Errorf("row %d: predicted %d, the tool %d", i, got, want[i])
		}
		if err := m.Scores(sc, xm); err != nil {
			t.Fatal(err)
		}
		if ref.k == 2 {
			v := dec[0]
			if ref.labels[0] < ref.labels[1] {
				v = -v
			}
			if !near(sc[0], v) {
				t.Errorf("row %d: decision value %v, reference %v", i, sc[0], v)
			}
			continue
		}
		for c, y := range ref.labels {
			r, _ := slices.BinarySearch(sorted, y)
			if !near(sc[r], dec[c]) {
				t.Errorf("row %d class %d: decision value %v, reference %v", i, y, sc[r], dec[c])
			}
		}
	}
}

// tools returns whether the named tools are installed; under CI=true a
// missing tool fails the test (CI installs libsvm-tools and
// liblinear-tools).
func tools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not installed; CI must install it (apt-get install libsvm-tools liblinear-tools)", n)
			}
			t.Skipf("%s not installed (apt-get install libsvm-tools liblinear-tools)", n)
		}
	}
}

// run runs a tool in dir.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}
