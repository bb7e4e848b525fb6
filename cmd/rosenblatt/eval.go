package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The eval subcommand:
//
//	rosenblatt eval [flags] MODEL DATA
//
// prints the accuracy of MODEL on the labelled DATA, the precision, recall
// and F1 of every class, and the confusion matrix.

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", stderr)
	var df dataFlags
	df.register(fs, false)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt eval [flags] MODEL DATA\n\n")
		fmt.Fprintf(stderr, "Prints the model's accuracy on the labelled DATA (read as by train), the precision,\n")
		fmt.Fprintf(stderr, "recall and F1 of every class, and the confusion matrix.\n\nflags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args, "MODEL", "DATA")
	if err != nil {
		return err
	}
	df.finish(fs)
	if done, err := runEvalText(pos, &df, stdio{stdout, stderr}); done {
		return err
	}
	if err := df.check(); err != nil {
		return err
	}
	// The report must not land in an input (eval m d >> d).
	if err := (stdio{stdout, stderr}).notAnInput(append([]string{pos[0]}, df.inputFiles(pos[1])...)...); err != nil {
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

// evalReport is what eval prints.
type evalReport struct {
	labels    []int   // the labels of the model and of the data, sorted
	confusion [][]int // confusion[true][predicted], indexed like labels
	n, right  int
	classes   []classMetrics
}

// newEvalReport scores the predictions pred of the true labels y. The
// labels are those of the model (modelClasses) and of the data, so that a
// true label the model never predicts still has its row.
func newEvalReport(pred, y, modelClasses []int) *evalReport {
	labels := slices.Clone(modelClasses)
	labels = append(labels, y...)
	labels = append(labels, pred...)
	slices.Sort(labels)
	labels = slices.Compact(labels)
	idx := make(map[int]int, len(labels))
	for i, l := range labels {
		idx[l] = i
	}
	r := &evalReport{labels: labels, n: len(y), confusion: make([][]int, len(labels))}
	for i := range r.confusion {
		r.confusion[i] = make([]int, len(labels))
	}
	for i, p := range pred {
		r.confusion[idx[y[i]]][idx[p]]++
		if p == y[i] {
			r.right++
		}
	}
	for i, l := range labels {
		m := classMetrics{label: l, tp: r.confusion[i][i]}
		for j := range labels {
			m.support += r.confusion[i][j]
			m.predicted += r.confusion[j][i]
		}
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

	fmt.Fprintf(w, "\nconfusion matrix (rows: true label, columns: predicted label)\n")
	cw := 1
	for i, l := range r.labels {
		cw = max(cw, len(strconv.Itoa(l)))
		for j := range r.labels {
			cw = max(cw, len(strconv.Itoa(r.confusion[i][j])))
		}
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
			fmt.Fprintf(&b, " %*d", cw, r.confusion[i][j])
		}
		fmt.Fprintln(w, b.String())
	}
	for _, m := range r.classes {
		if m.support > 0 && !slices.Contains(modelClasses, m.label) {
			fmt.Fprintf(w, "note: label %d (%d rows) is not one of the model's classes (%s): those rows are always wrong\n",
				m.label, m.support, joinInts(modelClasses))
		}
	}
}
