package modelcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// train -algo svm: the exact SVMs of package svm. With -kernel, the kernel
// SVM (svm.Fit: SMO, one-vs-one by default); without, the linear SVM
// (svm.FitLinear: dual coordinate descent, one-vs-rest). -C is LIBSVM's
// C (½‖w‖² + C·Σξ; in the form ‖θ‖² + C·Σξ, C is twice it), "inf" the hard margin.

// cValue is the -C flag: a number > 0, or inf for the hard margin.
type cValue struct{ v float64 }

func (c *cValue) String() string {
	if c == nil || c.v == 0 {
		return ""
	}
	return strconv.FormatFloat(c.v, 'g', -1, 64)
}

func (c *cValue) Set(s string) error {
	v, err := cli.ParseC(s)
	if err != nil {
		return errors.New("want a number > 0, or inf for the hard margin")
	}
	c.v = v
	return nil
}

// gammaValue is the -gamma flag: a number, scale for scikit-learn's
// gamma="scale" (1/(d·Var(X)), computed from the training data) or auto
// for its gamma="auto" (1/d, LIBSVM's default).
type gammaValue struct {
	v     float64
	scale bool
	auto  bool
}

func (g *gammaValue) String() string {
	switch {
	case g == nil:
		return ""
	case g.scale:
		return "scale"
	case g.auto:
		return "auto"
	case g.v == 0:
		return ""
	}
	return strconv.FormatFloat(g.v, 'g', -1, 64)
}

func (g *gammaValue) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "scale":
		*g = gammaValue{scale: true}
		return nil
	case "auto":
		*g = gammaValue{auto: true}
		return nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return errors.New("want a number > 0, scale (1/(features·Var(X))) or auto (1/features)")
	}
	*g = gammaValue{v: v}
	return nil
}

// svmOnly are the flags of the perceptron trainers that the exact SVMs do
// not take, with what to say instead.
var svmOnly = map[string]string{
	"eta": "", "tau": "", "batch": "", "sampling": "", "shuffle": "", "all-epochs": "", "max-mb": "",
	"normalize": "; scale the data before training if you want", "normalize-features": "; scale the data before training if you want",
	"lambda": "; it is Pegasos's (-algo pegasos), the SVM's regularisation is -C",
	"init":   "; the exact SVMs solve from scratch, -init continues perceptron and Pegasos models",
}

// checkSVM checks the flags of -algo svm before any data is read: flags of
// the other trainers, and values the solvers would refuse, are usage
// errors.
func (tf *trainFlags) checkSVM() error {
	for name, hint := range svmOnly {
		if tf.set[name] {
			return fmt.Errorf("%w: -algo svm takes no -%s%s", cli.ErrUsage, name, hint)
		}
	}
	if tf.typ != "float32" && tf.typ != "float64" {
		return fmt.Errorf("%w: -type %q: want float32 or float64", cli.ErrUsage, tf.typ)
	}
	if _, err := tf.kernelFunc(1, nil); err != nil {
		return err
	}
	if tf.kernel != "" {
		for _, name := range []string{"epochs", "seed", "loss"} {
			if tf.set[name] {
				return fmt.Errorf("%w: -%s is the linear SVM's (-algo svm without -kernel); SMO is deterministic and runs to -tol", cli.ErrUsage, name)
			}
		}
		if tf.set["bias"] && !tf.bias || tf.set["B"] {
			return fmt.Errorf("%w: -bias=false, -B: the kernel SVM's bias b is free and unregularised, as LIBSVM's", cli.ErrUsage)
		}
		if tf.set["multiclass"] {
			if s, err := tf.scheme(); err != nil || s == fit.Argmax {
				return fmt.Errorf("%w: -multiclass %q: the kernel SVM takes ovo (the default, auto), ovr or binary (two classes)", cli.ErrUsage, tf.multiclass)
			}
		}
	} else {
		if s, err := tf.scheme(); tf.set["multiclass"] && (err != nil || s != fit.OneVsRest && s != fit.Auto) {
			return fmt.Errorf("%w: -multiclass %q: the linear SVM is one-vs-rest (as LIBLINEAR); ovo is the kernel SVM's (-kernel)", cli.ErrUsage, tf.multiclass)
		}
		switch tf.loss {
		case "hinge", "l1":
			tf.loss = "hinge"
		case "squared-hinge", "l2":
			tf.loss = "squared-hinge"
		default:
			return fmt.Errorf("%w: -loss %q: want hinge (alias l1) or squared-hinge (alias l2)", cli.ErrUsage, tf.loss)
		}
		if tf.set["loss"] && tf.loss == "squared-hinge" && math.IsInf(tf.c.v, 1) {
			return fmt.Errorf("%w: -C inf is the hard margin, which has no loss: give no -loss", cli.ErrUsage)
		}
		if tf.set["epochs"] && tf.epochs < 1 {
			return fmt.Errorf("%w: -epochs %d: want at least 1", cli.ErrUsage, tf.epochs)
		}
	}
	if tf.set["tol"] && !(tf.tol > 0 && !math.IsInf(tf.tol, 0)) {
		return fmt.Errorf("%w: -tol %v: want a value > 0", cli.ErrUsage, tf.tol)
	}
	if err := tf.checkBiasFeature(); err != nil {
		return err
	}
	if tf.workers < 0 {
		return fmt.Errorf("%w: -workers %d: want at least 0", cli.ErrUsage, tf.workers)
	}
	return nil
}

// svmModel is what train writes of an SVM: *expansion.Model or *linear.Model.
type svmModel[T kernel.Float] interface {
	classifier[T]
	MarshalBinary() ([]byte, error)
	MarshalJSON() ([]byte, error)
	PredictBatchSparse(dst []int, c *dataset.CSR[T]) error
}

// svmRun is the outcome of a training run, for the summary.
type svmRun struct {
	machines  []svmMachine
	converged bool
	solver    string
}

// svmMachine describes one binary machine of a run.
type svmMachine struct {
	pos, neg    int
	rest        bool
	iterations  int
	converged   bool
	gap         float64
	dual        float64
	primal      float64
	sv, bounded int
	margin      float64 // 1/‖w‖, or 0 if not known
	bias        float64
}

// trainSVMOn trains the exact SVM of the flags on the data file at path
// for element type T, writes the model and prints the summary.
func trainSVMOn[T kernel.Float](tf *trainFlags, path string, std cli.Stdio, summary io.Writer) error {
	start := time.Now()
	sd, err := loadSVMData[T](tf, path)
	if err != nil {
		return err
	}
	data, test, format := sd.data, sd.test, sd.format
	loaded := time.Now()
	kern, err := tf.kernelFunc(data.Cols, func() float64 {
		if sd.csr != nil {
			return svm.GammaScale(sd.csr)
		}
		return svm.GammaScale(data)
	})
	if err != nil {
		return err
	}
	C := tf.c.v
	if C == 0 {
		C = svm.DefaultC
	}
	var m svmModel[T]
	var run svmRun
	if kern != nil {
		m, run, err = trainKernelSVM(tf, sd, kern, C)
	} else {
		m, run, err = trainLinearSVM(tf, sd, C)
	}
	if err != nil {
		switch {
		case errors.Is(err, svm.ErrOption):
			return fmt.Errorf("%w: %v", cli.ErrUsage, err)
		case errors.Is(err, svm.ErrNotSeparable):
			return fmt.Errorf("%s: %w (no model written; -C inf asks for the hard margin, which these data do not have: give a finite -C)", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	trained := time.Now()
	train, err := sd.predict(m, data, sd.csr)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	testOK := 0
	if test != nil {
		pred, err := sd.predict(m, test, sd.testCSR)
		if err != nil {
			return fmt.Errorf("%s: %w (no model written)", tf.test, err)
		}
		testOK = correct(pred, test.Y)
	}
	var margins []dataMarginLine
	if tf.dataMargin {
		// The kernel SVM's bias is free; the linear SVM's is LIBLINEAR's -B,
		// or none.
		mo := svm.MarginOptions{Kernel: kern, Workers: tf.workers}
		if kern == nil {
			mo.NoBias, mo.BiasFeature = !tf.bias, cmp(tf.biasFeat, 1)
			if !tf.bias {
				mo.BiasFeature = 0
			}
		}
		if margins, err = dataMargins(data, run.machines, math.IsInf(C, 1), mo); err != nil {
			return fmt.Errorf("%s: data margin: %w", path, err)
		}
	}

	encoded, err := tf.saveModel(std, path, m)
	if err != nil || tf.quiet {
		return err
	}

	w := summaryPrinter(summary)
	printDataLines(w, path, format, tf.typ, data)
	w("model", "%s", m)
	w("training", "%s", run.solver)
	w("kernel path", "%s", kernel.ActiveImpl().Name())
	if tf.verbose {
		w("representation", "%s", sd.repr)
	}
	printMachines(w, summary, run, tf.verbose)
	w("train accuracy", "%.2f%% (%d/%d)", 100*float64(correct(train, data.Y))/float64(data.Rows), correct(train, data.Y), data.Rows)
	for _, l := range margins {
		l.print(w)
	}
	if test != nil {
		w("test accuracy", "%.2f%% (%d/%d) on %s", 100*float64(testOK)/float64(test.Rows), testOK, test.Rows, tf.test)
	}
	tf.printSaved(w, len(encoded))
	w("time", "%v reading, %v training", roundDur(loaded.Sub(start)), roundDur(trained.Sub(loaded)))
	return nil
}

// cText describes C with its value in the ‖θ‖² + C·Σξ convention too.
func cText(C float64) string {
	if math.IsInf(C, 1) {
		return "C = inf (the hard margin: min ½‖w‖² subject to y(w·φ(x) + b) ≥ 1)"
	}
	return fmt.Sprintf("C = %g (½‖w‖² + C·Σξ, LIBSVM's; as ‖w‖² + C′·Σξ, C′ = %g)", C, 2*C)
}

// trainKernelSVM trains the kernel SVM of the flags.
func trainKernelSVM[T kernel.Float](tf *trainFlags, sd *svmData[T], kern gram.Kernel, C float64) (svmModel[T], svmRun, error) {
	o := svm.Options{C: C, Kernel: kern, Tol: tf.tol, Workers: tf.workers}
	if tf.set["multiclass"] {
		o.Multiclass, _ = tf.scheme() // checked by checkSVM
	}
	if tf.set["cache"] {
		switch {
		case tf.cacheMB < 0:
			o.GramBytes = math.MaxInt64
		case tf.cacheMB > 0:
			o.GramBytes = tf.maxBytes()
			o.CacheBytes = tf.maxBytes()
		}
	}
	m, rep, err := svm.Fit(context.Background(), sd.rows(), sd.labels(), o)
	if err != nil {
		return nil, svmRun{}, err
	}
	info := rep.Detail.(*svm.Info)
	tol := cmp(tf.tol, svm.DefaultTol)
	solver := "SMO (LIBSVM's C-SVC, second-order working sets, shrinking)"
	if math.IsInf(C, 1) {
		solver = "the nearest points of the classes' convex hulls (exact hard margin)"
	}
	run := svmRun{converged: info.Converged, solver: fmt.Sprintf("%s, %s, %v, tol %g", solver, cText(C), m.Scheme(), tol)}
	if info.Precomputed {
		run.solver += ", kernel matrix precomputed"
	}
	for _, p := range info.Problems {
		run.machines = append(run.machines, svmMachine{pos: p.Positive, neg: p.Negative, rest: p.Rest, iterations: p.Iterations,
			converged: p.Converged, gap: p.Gap, dual: p.Dual, primal: p.Primal, sv: p.SV, bounded: p.BoundedSV, margin: p.Margin, bias: p.Bias})
	}
	return m, run, nil
}

// trainLinearSVM trains the linear SVM of the flags.
func trainLinearSVM[T kernel.Float](tf *trainFlags, sd *svmData[T], C float64) (svmModel[T], svmRun, error) {
	o := svm.LinearOptions{C: C, Tol: tf.tol, NoBias: !tf.bias, BiasFeature: tf.biasFeat, Seed: tf.seed}
	if tf.loss == "squared-hinge" {
		o.Loss = svm.SquaredHinge
	}
	if tf.set["epochs"] {
		o.MaxIter = tf.epochs
	}
	if tf.set["workers"] {
		o.Workers = tf.workers
	}
	m, rep, err := svm.FitLinear(context.Background(), sd.rows(), sd.labels(), o)
	if err != nil {
		return nil, svmRun{}, err
	}
	info := rep.Detail.(*svm.Info)
	var solver string
	if math.IsInf(C, 1) {
		solver = fmt.Sprintf("the nearest point of the hull of the y·(x, %g) (exact hard margin), %s, tol %g", cmp(tf.biasFeat, 1), cText(C), cmp(tf.tol, svm.DefaultTol))
	} else {
		solver = fmt.Sprintf("dual coordinate descent (LIBLINEAR's -s %d), %s loss, %s, tol %g, up to %d passes, seed %d",
			map[svm.Loss]int{svm.Hinge: 3, svm.SquaredHinge: 1}[o.Loss], o.Loss, cText(C), cmp(tf.tol, svm.DefaultLinearTol),
			cmpInt(o.MaxIter, svm.DefaultLinearMaxIter), o.Seed)
	}
	if o.NoBias {
		solver += ", no bias"
	} else {
		B := cmp(tf.biasFeat, 1)
		solver += fmt.Sprintf(", bias as a weight on a constant feature %g (LIBLINEAR's -B %g)", B, B)
	}
	run := svmRun{converged: info.Converged, solver: solver}
	for r, p := range info.Problems {
		w, b := m.Weights(r)
		wb := float64(b) / cmp(tf.biasFeat, 1) // b = B·w_B
		n2 := wb * wb
		for _, v := range w {
			n2 += float64(v) * float64(v)
		}
		mi := svmMachine{pos: p.Positive, neg: p.Negative, rest: p.Rest, iterations: p.Iterations, converged: p.Converged,
			gap: p.Gap, dual: p.Dual, primal: p.Primal, sv: p.SV, bias: float64(b)}
		if n2 > 0 {
			mi.margin = 1 / math.Sqrt(n2) // of (w, w_B) on the points (x, B)
		}
		run.machines = append(run.machines, mi)
	}
	return m, run, nil
}

func cmpInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// name describes a machine's classes.
func (mi *svmMachine) name() string {
	if mi.rest {
		return fmt.Sprintf("%d vs rest", mi.pos)
	}
	return fmt.Sprintf("%d vs %d", mi.pos, mi.neg)
}

// printMachines prints the machines of a run: each one's line for up to
// three machines or with -v, else a total.
func printMachines(w func(k, f string, a ...any), out io.Writer, run svmRun, verbose bool) {
	line := func(mi *svmMachine) string {
		s := fmt.Sprintf("%d iterations", mi.iterations)
		if !mi.converged {
			s += fmt.Sprintf(" (not converged: gap %.3g)", mi.gap)
		}
		s += fmt.Sprintf(", %d support vectors", mi.sv)
		if mi.bounded > 0 {
			s += fmt.Sprintf(" (%d at C)", mi.bounded)
		}
		s += fmt.Sprintf(", dual %.6g, primal %.6g", mi.dual, mi.primal)
		if mi.margin > 0 && !math.IsInf(mi.margin, 0) {
			s += fmt.Sprintf(", margin 1/‖w‖ = %.4g", mi.margin)
		}
		return s
	}
	ms := run.machines
	if len(ms) <= 3 || verbose {
		for i := range ms {
			w("machine", "%s: %s", ms[i].name(), line(&ms[i]))
		}
	} else {
		it, conv := 0, 0
		for _, mi := range ms {
			it += mi.iterations
			if mi.converged {
				conv++
			}
		}
		w("machines", "%d binary machines, %d iterations in all, %d of them converged (-v: each machine)", len(ms), it, conv)
	}
	if !run.converged {
		fmt.Fprintf(out, "%-15s some machine stopped at its iteration cap before meeting -tol: the model is usable but not optimal\n", "warning:")
	}
}

// dataMarginLine is one binary problem's data margin, for the summary.
type dataMarginLine struct {
	what   string
	mg     *svm.Margin
	err    error
	model  float64 // the model's margin, 0 if unknown
	hard   bool    // the model is the hard-margin machine
	radius string
}

func (l *dataMarginLine) print(w func(k, f string, a ...any)) {
	if l.err != nil {
		w("data margin", "%snot separable: %v", l.what, l.err)
		return
	}
	w("data margin", "%sγ_D = %.6g (%.6g ≤ γ_D ≤ %.6g, exact hard-margin solve), R = max ‖%s‖ = %.4g, R²/γ_D² = %.4g",
		l.what, l.mg.Gamma, l.mg.Gamma, l.mg.Upper, l.radius, l.mg.Radius, l.mg.Bound)
	switch {
	case l.model <= 0 || math.IsInf(l.model, 0):
	case l.hard:
		w("", "%sthe model's margin 1/‖w‖ = %.6g (the hard-margin machine: γ_D to its tolerance)", l.what, l.model)
	default:
		w("", "%sthe model's 1/‖w‖ = %.6g (a soft margin: rows inside it pay slack ξ, so it may exceed γ_D)", l.what, l.model)
	}
}

// dataMargins solves the hard-margin problem of every machine of a run on
// the training data, in float64: the machine's two classes, or its class
// against the rest; hard says the machines are hard-margin ones. Only
// errors other than non-separability are returned.
func dataMargins[T kernel.Float](data *dataset.Data[T], machines []svmMachine, hard bool, o svm.MarginOptions) ([]dataMarginLine, error) {
	radius := "x"
	switch {
	case o.Kernel != nil:
		radius = "φ(x)"
	case o.BiasFeature > 0:
		radius = fmt.Sprintf("(x, %g)", o.BiasFeature)
	}
	var out []dataMarginLine
	for i := range machines {
		mi := &machines[i]
		var X []float64 // the margin is the points': solved in float64 whatever T
		var y []int
		for r, lab := range data.Y {
			switch {
			case lab == mi.pos:
				y = append(y, 1)
			case mi.rest || lab == mi.neg:
				y = append(y, -1)
			default:
				continue
			}
			for _, v := range data.Row(r) {
				X = append(X, float64(v))
			}
		}
		l := dataMarginLine{radius: radius, model: mi.margin, hard: hard}
		if len(machines) > 1 {
			l.what = mi.name() + ": "
		}
		mg, err := svm.MaxMargin(context.Background(), dataset.NewData(X, data.Cols, nil), y, o)
		switch {
		case errors.Is(err, svm.ErrNotSeparable):
			l.err = err
		case err != nil:
			return nil, err
		}
		l.mg = mg
		out = append(out, l)
	}
	return out, nil
}

// printDataMargin prints a perceptron's data margin
// (perceptron.Diagnostics.DataMargin, or why there is none) next to the
// model's augmented margin.
func printDataMargin(w func(k, f string, a ...any), what string, dm *svm.Margin, dmErr error, model float64, separates bool) {
	if dm == nil {
		w("data margin", "%snot separable: %v", what, dmErr)
		return
	}
	w("data margin", "%sγ′_D = %.6g (%.6g ≤ γ′_D ≤ %.6g, exact hard-margin solve on the same points), R′ = %.4g,",
		what, dm.Gamma, dm.Gamma, dm.Upper, dm.Radius)
	if separates {
		w("", "%sNovikoff's best bound R′²/γ′_D² = %.4g (the model's γ′ = %.4g is %.1f%% of γ′_D)", what, dm.Bound, model, 100*model/dm.Gamma)
	} else {
		w("", "%sNovikoff's best bound R′²/γ′_D² = %.4g (the model does not separate the data)", what, dm.Bound)
	}
}
