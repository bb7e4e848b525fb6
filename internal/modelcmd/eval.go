package modelcmd

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The eval subcommand:
//
//	rosenblatt eval [flags] MODEL DATA
//
// prints the accuracy of MODEL on the labelled DATA, the precision, recall
// and F1 of every class that occurs in the data or in the predictions, and
// the confusion matrix over those classes (beyond maxDenseConfusion of
// them, its nonzero cells): the report is sized by the data, not by the
// model's classes, which it says it leaves out.

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("eval", stderr)
	var df dataFlags
	df.register(fs, false)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt eval [flags] MODEL DATA\n\n")
		fmt.Fprintf(stderr, "Prints the model's accuracy on the labelled DATA (read as by train), the precision,\n")
		fmt.Fprintf(stderr, "recall and F1 of every class that occurs in the data or in the predictions, and the\n")
		fmt.Fprintf(stderr, "confusion matrix over those classes (its nonzero cells beyond %d classes). The model's\n", maxDenseConfusion)
		fmt.Fprintf(stderr, "other classes are left out, so the report grows with the data, not the model.\n\nflags:\n")
		fs.PrintDefaults()
	}
	pos, err := cli.ParseArgs(fs, args, "MODEL", "DATA")
	if err != nil {
		return err
	}
	df.finish(fs)
	if done, err := runEvalText(pos, &df, cli.Stdio{Out: stdout, Err: stderr}); done {
		return err
	}
	if err := df.check(); err != nil {
		return err
	}
	// The report must not land in an input (eval m d >> d).
	if err := (cli.Stdio{Out: stdout, Err: stderr}).NotAnInput(append([]string{pos[0]}, df.inputFiles(pos[1])...)...); err != nil {
		return err
	}
	lm, err := loadModel(pos[0])
	if err != nil {
		return err
	}
	var rep *evalReport
	var format string
	if lm.m64 != nil {
		rep, format, err = evalOn(lm.m64, pos[1], &df)
	} else {
		rep, format, err = evalOn(lm.m32, pos[1], &df)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%-10s %s (%s)\n", "model:", lm.path, lm.desc)
	fmt.Fprintf(stdout, "%-10s %s (%s): %d rows\n", "data:", pos[1], format, rep.n)
	rep.print(stdout, lm.classes())
	return nil
}

// evalOn predicts every row of the data file with c and scores the
// predictions.
func evalOn[T kernel.Float](c classifier[T], dataPath string, df *dataFlags) (*evalReport, string, error) {
	pred, y, _, format, err := predictFile(c, dataPath, df, false)
	if err != nil {
		return nil, "", err
	}
	return newEvalReport(pred, y, c.Classes()), format, nil
}

// classMetrics are one class's statistics; a ratio whose denominator is 0
// is undefined (its ok flag false).
type classMetrics struct {
	label              int
	tp, fp, fn         int
	support, predicted int
	precision, recall  float64
	f1                 float64
	pOK, rOK, fOK      bool
}

// evalReport is what eval prints. It is sized by the data, not by the
// model: its classes are the labels that occur in the data or in the
// predictions (at most twice the rows), and its confusion matrix keeps
// only the cells that occur (at most one per row), so that a model of
// 20,000 classes evaluated on two rows reports on at most four.
type evalReport struct {
	labels    []int        // the labels of the data and of the predictions, sorted
	confusion map[cell]int // the nonzero cells of the matrix [true][predicted], indexed like labels
	n, right  int
	classes   []classMetrics
	others    int // the model's classes that occur in neither, left out
}

// cell is one cell of the confusion matrix: the indices in labels of a
// true and a predicted label.
type cell struct{ t, p int }

// count returns the rows of true label labels[t] predicted as labels[p].
func (r *evalReport) count(t, p int) int { return r.confusion[cell{t, p}] }

// maxDenseConfusion is the most classes whose confusion matrix eval prints
// whole; beyond it eval lists the nonzero cells.
const maxDenseConfusion = 30

// newEvalReport scores the predictions pred of the true labels y. The
// report covers the labels of the data and of the predictions; a class of
// the model (modelClasses) in neither is counted in others, its precision,
// recall and F1 being undefined and no part of the averages anyway.
func newEvalReport(pred, y, modelClasses []int) *evalReport {
	labels := slices.Concat(y, pred)
	slices.Sort(labels)
	labels = slices.Compact(labels)
	idx := make(map[int]int, len(labels))
	for i, l := range labels {
		idx[l] = i
	}
	r := &evalReport{labels: labels, n: len(y), confusion: map[cell]int{}}
	for _, l := range modelClasses {
		if _, ok := idx[l]; !ok {
			r.others++
		}
	}
	support, predicted := make([]int, len(labels)), make([]int, len(labels))
	for i, p := range pred {
		t, q := idx[y[i]], idx[p]
		r.confusion[cell{t, q}]++
		support[t]++
		predicted[q]++
		if p == y[i] {
			r.right++
		}
	}
	for i, l := range labels {
		m := classMetrics{label: l, tp: r.count(i, i), support: support[i], predicted: predicted[i]}
		m.fp, m.fn = m.predicted-m.tp, m.support-m.tp
		if m.predicted > 0 {
			m.precision, m.pOK = float64(m.tp)/float64(m.predicted), true
		}
		if m.support > 0 {
			m.recall, m.rOK = float64(m.tp)/float64(m.support), true
		}
		// F1 = 2·P·R/(P+R) = 2TP/(2TP+FP+FN), defined unless the class
		// is neither in the data nor predicted.
		if d := 2*m.tp + m.fp + m.fn; d > 0 {
			m.f1, m.fOK = float64(2*m.tp)/float64(d), true
		}
		r.classes = append(r.classes, m)
	}
	return r
}

// accuracy returns the fraction of right predictions.
func (r *evalReport) accuracy() float64 { return float64(r.right) / float64(r.n) }

// averages returns the macro (unweighted) and weighted (by support) means
// of precision, recall and F1 over the classes with support > 0; an
// undefined value counts as 0.
func (r *evalReport) averages() (macro, weighted [3]float64) {
	k := 0
	for _, m := range r.classes {
		if m.support == 0 {
			continue
		}
		k++
		v := [3]float64{m.precision, m.recall, m.f1}
		for i := range v {
			macro[i] += v[i]
			weighted[i] += v[i] * float64(m.support)
		}
	}
	for i := range macro {
		if k > 0 {
			macro[i] /= float64(k)
		}
		if r.n > 0 {
			weighted[i] /= float64(r.n)
		}
	}
	return macro, weighted
}

// print writes the report; modelClasses are the labels the model knows.
// Its length is proportional to the classes of the report, not the
// model's.
func (r *evalReport) print(w io.Writer, modelClasses []int) {
	fmt.Fprintf(w, "%-10s %.2f%% (%d/%d)\n\n", "accuracy:", 100*r.accuracy(), r.right, r.n)
	ratio := func(v float64, ok bool) string {
		if !ok {
			return "-"
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	lw := len("weighted")
	for _, l := range r.labels {
		lw = max(lw, len(strconv.Itoa(l)))
	}
	fmt.Fprintf(w, "%*s %9s %9s %9s %8s\n", lw, "class", "precision", "recall", "f1", "support")
	for _, m := range r.classes {
		fmt.Fprintf(w, "%*d %9s %9s %9s %8d\n", lw, m.label, ratio(m.precision, m.pOK), ratio(m.recall, m.rOK), ratio(m.f1, m.fOK), m.support)
	}
	macro, weighted := r.averages()
	fmt.Fprintf(w, "%*s %9.4f %9.4f %9.4f %8d\n", lw, "macro", macro[0], macro[1], macro[2], r.n)
	fmt.Fprintf(w, "%*s %9.4f %9.4f %9.4f %8d\n", lw, "weighted", weighted[0], weighted[1], weighted[2], r.n)
	for _, m := range r.classes {
		if !m.pOK || !m.rOK {
			fmt.Fprintln(w, "(-: undefined, no row is predicted or labelled with the class; the averages count it")
			fmt.Fprintln(w, "as 0 and are over the classes that occur in the data)")
			break
		}
	}

	if r.others > 0 {
		fmt.Fprintf(w, "(the model's %d other classes occur neither in the data nor in the predictions: left out)\n", r.others)
	}
	if len(r.labels) > maxDenseConfusion {
		r.printCells(w, lw)
	} else {
		r.printMatrix(w, lw)
	}
	known := make(map[int]bool, len(r.labels))
	for _, l := range modelClasses {
		known[l] = true
	}
	for _, m := range r.classes {
		if m.support > 0 && !known[m.label] {
			fmt.Fprintf(w, "note: label %d (%d rows) is not one of the model's classes (%s): those rows are always wrong\n",
				m.label, m.support, joinInts(modelClasses))
		}
	}
}

// printMatrix writes the confusion matrix whole.
func (r *evalReport) printMatrix(w io.Writer, lw int) {
	fmt.Fprintf(w, "\nconfusion matrix (rows: true label, columns: predicted label)\n")
	cw := 1
	for _, l := range r.labels {
		cw = max(cw, len(strconv.Itoa(l)))
	}
	for _, v := range r.confusion {
		cw = max(cw, len(strconv.Itoa(v)))
	}
	head := "true\\pred"
	hw := max(len(head), lw)
	var b strings.Builder
	fmt.Fprintf(&b, "%*s", hw, head)
	for _, l := range r.labels {
		fmt.Fprintf(&b, " %*d", cw, l)
	}
	fmt.Fprintln(w, b.String())
	for i, l := range r.labels {
		b.Reset()
		fmt.Fprintf(&b, "%*d", hw, l)
		for j := range r.labels {
			fmt.Fprintf(&b, " %*d", cw, r.count(i, j))
		}
		fmt.Fprintln(w, b.String())
	}
}

// printCells writes the nonzero cells of a confusion matrix of more than
// maxDenseConfusion classes, ordered by true then predicted label.
func (r *evalReport) printCells(w io.Writer, lw int) {
	cells := make([]cell, 0, len(r.confusion))
	for c := range r.confusion {
		cells = append(cells, c)
	}
	slices.SortFunc(cells, func(a, b cell) int {
		if a.t != b.t {
			return a.t - b.t
		}
		return a.p - b.p
	})
	fmt.Fprintf(w, "\nconfusion matrix of %d classes, more than the %d printed whole: its %d nonzero cells\n",
		len(r.labels), maxDenseConfusion, len(cells))
	fmt.Fprintf(w, "%*s %*s %8s\n", lw, "true", lw, "pred", "rows")
	for _, c := range cells {
		fmt.Fprintf(w, "%*d %*d %8d\n", lw, r.labels[c.t], lw, r.labels[c.p], r.confusion[c])
	}
}
