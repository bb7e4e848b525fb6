package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// The train subcommand:
//
//	rosenblatt train [flags] DATA
//
// trains a model on DATA (LIBSVM, CSV or IDX) with every option of package
// perceptron as a flag, prints a summary and writes the model file (-o,
// default DATA's base name + ".model"; never over an existing file without
// -f, never over DATA, the -test file, the -init model or their IDX label
// files). With -init MODEL it continues training from a model file
// (perceptron.Model.Continue).

// trainFlags are the flags of train.
type trainFlags struct {
	data       dataFlags
	algo       string
	multiclass string
	typ        string
	epochs     int
	eta, tau   float64
	batch      int
	seed       uint64
	shuffle    bool
	sampling   string
	allEpochs  bool
	normalize  bool
	normFeat   bool
	bias       bool
	init       string
	lambda, c  float64
	tol        float64
	workers    int
	out        string
	force      bool
	asJSON     bool
	quiet      bool
	verbose    bool
	test       string
	maxMB      int64
	dense      bool

	// The kernel perceptron: -kernel selects it.
	kernel  string
	gamma   float64
	coef0   float64
	degree  int
	cacheMB int64

	set map[string]bool // the flags given on the command line
}

func (tf *trainFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&tf.algo, "algo", "online", "training `algorithm`: online, batch, minibatch, averaged, voted, svm")
	fs.StringVar(&tf.multiclass, "multiclass", "ovr", "multiclass `strategy`: ovr (one-vs-rest, every algorithm) or argmax\n"+
		"(alias multi: the multiclass perceptron, online and averaged); labels other than -1/+1\n"+
		"train a multiclass model, and giving -multiclass makes -1/+1 data multiclass too")
	fs.IntVar(&tf.epochs, "epochs", 100, "maximum number of `epochs` (passes over the data)")
	fs.Float64Var(&tf.eta, "eta", 1, "step size `η` of online, batch, averaged, voted and argmax")
	fs.Float64Var(&tf.tau, "tau", 1, "step size `τ` of minibatch (each step moves by τ/B·Σ y·x over the mistakes of its B samples)")
	fs.IntVar(&tf.batch, "batch", 32, "mini-batch size `B` of minibatch")
	fs.StringVar(&tf.sampling, "sampling", "default", "which samples an epoch visits: `mode` sweep (each once, in order or -shuffle'd),\n"+
		"subsets (minibatch: a fresh random B-subset per step, ⌈N/B⌉ steps an epoch), replace (each visit\n"+
		"drawn at random, repeats allowed), or default (subsets for minibatch, sweep otherwise)")
	fs.BoolVar(&tf.shuffle, "shuffle", false, "sweep: visit the samples in a new random order every epoch")
	fs.Uint64Var(&tf.seed, "seed", 1, "`seed` of the random sampling and -shuffle (the same seed trains the same model)")
	fs.BoolVar(&tf.allEpochs, "all-epochs", false, "run all -epochs even after an epoch without mistakes")
	fs.BoolVar(&tf.normalize, "normalize", false, "scale every augmented sample (x, 1) to unit Euclidean length, as the notes do\n"+
		"(the model scales the samples it predicts too; Novikoff's R becomes 1)")
	fs.BoolVar(&tf.normFeat, "normalize-features", false, "scale x to unit length, then add the bias (what -normalize did before model files\nof version 2)")
	fs.BoolVar(&tf.bias, "bias", true, "learn a bias term b (-bias=false: the separator goes through 0)")
	fs.StringVar(&tf.init, "init", "", "continue training from this model `file`: its algorithm resumes its state (averaged: its\n"+
		"running weights and sums; voted: its vectors; svm: its step count and λ), another -algo starts\n"+
		"from its weights; -algo, -multiclass, -normalize, -normalize-features, -bias and -type default to\n"+
		"the model's")
	fs.Float64Var(&tf.lambda, "lambda", 0, "svm: regularisation `λ` > 0 (default 1e-4 unless -C is given)")
	fs.Float64Var(&tf.c, "C", 0, "svm: soft-margin constant `C` > 0, as λ = 1/(C·N); give -lambda or -C, not both")
	fs.Float64Var(&tf.tol, "tol", 0, "svm: stop when an epoch lowers the objective by less than this relative `amount` (0: run all epochs)")
	fs.IntVar(&tf.workers, "workers", 0, "`n` goroutines for one-vs-rest training and evaluation (default GOMAXPROCS)")
	fs.StringVar(&tf.typ, "type", "float32", "element `type`: float32 or float64")
	fs.StringVar(&tf.out, "o", "", "model `file` to write (default: DATA's base name + \".model\", in the current directory;\n"+
		"\"-\": standard output, the summary then goes to stderr)")
	fs.BoolVar(&tf.force, "f", false, "overwrite the model file if it exists")
	fs.BoolVar(&tf.asJSON, "json", false, "write the model as JSON instead of the binary format")
	fs.StringVar(&tf.test, "test", "", "also report the accuracy on this test `file` (same format flags as DATA)")
	fs.BoolVar(&tf.quiet, "q", false, "quiet: no progress bar and no summary, only errors (-test is still read and scored)")
	fs.BoolVar(&tf.verbose, "v", false, "print the statistics of every epoch")
	fs.Int64Var(&tf.maxMB, "max-mb", 0, "voted: memory budget in `MB` for the kept vectors (the model); training fails\n"+
		"before exceeding it (default 1024; -1: no limit)")
	fs.StringVar(&tf.kernel, "kernel", "", "train the kernel (dual) perceptron with this `kernel`: linear, poly or rbf\n"+
		"(algorithms online, averaged, voted; default: the linear models of -algo)")
	fs.Float64Var(&tf.gamma, "gamma", 0, "poly, rbf: kernel parameter `γ` > 0, in (γ·x·x′ + coef0)^degree (default 1) and\nexp(−γ·‖x−x′‖²) (default 1/features)")
	fs.Float64Var(&tf.coef0, "coef0", 1, "poly: the constant `c` in (γ·x·x′ + c)^degree")
	fs.IntVar(&tf.degree, "degree", 3, "poly: the `degree` m of the notes' polynomial kernel (1 + x·x′)^m")
	fs.Int64Var(&tf.cacheMB, "cache", 0, "kernel: memory budget in `MB` for kernel values: the whole Gram matrix when it fits,\n"+
		"else an LRU cache of its rows (default 2048; -1: no limit)")
	fs.BoolVar(&tf.dense, "dense", false, "LIBSVM: read DATA and -test as dense rows (default: sparse CSR rows, at O(stored values)\n"+
		"per epoch, whenever the trainer takes them: the linear models, not -kernel; -v says which)")
	tf.data.register(fs, true)
}

// representation says whether train reads path sparse (CSR) or dense,
// and why: sparse for a LIBSVM file when the trainer takes CSR rows.
func (tf *trainFlags) representation(path string) (sparse bool, why string, err error) {
	format, err := tf.data.formatOf(path)
	switch {
	case err != nil:
		return false, "", err
	case format != fmtLIBSVM:
		return false, "dense: " + format + " input", nil
	case tf.dense:
		return false, "dense: -dense", nil
	case tf.kernel != "":
		return false, "dense: the kernel perceptron trains on dense rows", nil
	}
	return true, "sparse (CSR)", nil
}

// kernelFunc returns the kernel of the -kernel flags for data with cols
// features, or nil for the linear (primal) models. Kernel flags without
// -kernel, or that the kernel does not take, are usage errors.
func (tf *trainFlags) kernelFunc(cols int) (gram.Kernel, error) {
	takes := map[string][]string{"": nil, "linear": {"cache"}, "poly": {"gamma", "coef0", "degree", "cache"}, "rbf": {"gamma", "cache"}}
	params, ok := takes[tf.kernel]
	if !ok {
		return nil, fmt.Errorf("%w: -kernel %q: want linear, poly or rbf", errUsage, tf.kernel)
	}
	for _, f := range []string{"gamma", "coef0", "degree", "cache"} {
		if tf.set[f] && !slices.Contains(params, f) {
			if tf.kernel == "" {
				return nil, fmt.Errorf("%w: -%s needs -kernel", errUsage, f)
			}
			return nil, fmt.Errorf("%w: -kernel %s takes no -%s", errUsage, tf.kernel, f)
		}
	}
	var k gram.Kernel
	switch tf.kernel {
	case "":
		return nil, nil
	case "linear":
		k = gram.Linear{}
	case "poly":
		// The notes' kernel (1 + x·x′)^m by default.
		gamma := 1.0
		if tf.set["gamma"] {
			gamma = tf.gamma
		}
		k = gram.Polynomial{Gamma: gamma, Coef0: tf.coef0, Degree: tf.degree}
	case "rbf":
		gamma := 1 / float64(max(cols, 1))
		if tf.set["gamma"] {
			gamma = tf.gamma
		}
		k = gram.RBF{Gamma: gamma}
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return k, nil
}

// maxBytes is the -cache budget in bytes for KernelOptions.MaxBytes.
func (tf *trainFlags) maxBytes() int64 {
	if tf.cacheMB < 0 {
		return -1
	}
	return min(tf.cacheMB, 1<<40) << 20
}

// options turns the flags into perceptron.Options. A bad value is a usage
// error.
func (tf *trainFlags) options() (perceptron.Options, error) {
	algo, err := perceptron.ParseAlgorithm(tf.algo)
	if err != nil {
		return perceptron.Options{}, fmt.Errorf("%w: -algo %q: want one of online, batch, minibatch, averaged, voted, svm", errUsage, tf.algo)
	}
	var strategy perceptron.Strategy
	switch tf.multiclass {
	case "ovr":
		strategy = perceptron.OneVsRest
	case "argmax", "multi":
		strategy = perceptron.Argmax
	default:
		return perceptron.Options{}, fmt.Errorf("%w: -multiclass %q: want ovr or argmax (multi)", errUsage, tf.multiclass)
	}
	if tf.epochs < 1 {
		return perceptron.Options{}, fmt.Errorf("%w: -epochs %d: want at least 1", errUsage, tf.epochs)
	}
	if tf.batch < 1 {
		return perceptron.Options{}, fmt.Errorf("%w: -batch %d: want at least 1", errUsage, tf.batch)
	}
	if tf.typ != "float32" && tf.typ != "float64" {
		return perceptron.Options{}, fmt.Errorf("%w: -type %q: want float32 or float64", errUsage, tf.typ)
	}
	sampling, err := perceptron.ParseSampling(tf.sampling)
	if err != nil {
		return perceptron.Options{}, fmt.Errorf("%w: -sampling %q: want default, sweep, subsets or replace", errUsage, tf.sampling)
	}
	if tf.normalize && tf.normFeat {
		return perceptron.Options{}, fmt.Errorf("%w: give -normalize or -normalize-features, not both", errUsage)
	}
	opt := perceptron.Options{
		Algorithm:         algo,
		Multiclass:        strategy,
		MaxIter:           tf.epochs,
		Eta:               tf.eta,
		Tau:               tf.tau,
		BatchSize:         tf.batch,
		Sampling:          sampling,
		Shuffle:           tf.shuffle,
		Seed:              tf.seed,
		RunAllEpochs:      tf.allEpochs,
		Normalize:         tf.normalize,
		NormalizeFeatures: tf.normFeat,
		NoBias:            !tf.bias,
		Lambda:            tf.lambda,
		C:                 tf.c,
		Tol:               tf.tol,
		Workers:           tf.workers,
	}
	if tf.set["max-mb"] {
		if algo != perceptron.Voted {
			return opt, fmt.Errorf("%w: -max-mb is the budget of -algo voted", errUsage)
		}
		if tf.maxMB == 0 {
			return opt, fmt.Errorf("%w: -max-mb 0: want a budget in MB, or -1 for no limit", errUsage)
		}
		opt.VotedMaxBytes = -1
		if tf.maxMB > 0 {
			opt.VotedMaxBytes = min(tf.maxMB, 1<<40) << 20
		}
	}
	// Eta, Tau, Lambda, C, Tol and Workers are checked by the package;
	// zero values there mean "default", which a flag must not smuggle in.
	for _, v := range []struct {
		name string
		v    float64
	}{{"eta", tf.eta}, {"tau", tf.tau}} {
		if !(v.v > 0) {
			return opt, fmt.Errorf("%w: -%s %v: want a value > 0", errUsage, v.name, v.v)
		}
	}
	return opt, nil
}

func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", stderr)
	var tf trainFlags
	tf.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt train [flags] DATA\n\n")
		fmt.Fprintf(stderr, "Trains a perceptron or linear SVM on DATA (LIBSVM/SVMlight, CSV, or an IDX image file\n")
		fmt.Fprintf(stderr, "with its label file; gzip is fine) and writes the model file.\n\nflags:\n")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args, "DATA")
	if err != nil {
		return err
	}
	tf.data.finish(fs)
	tf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { tf.set[f.Name] = true })
	if err := tf.data.check(); err != nil {
		return err
	}
	var init *loadedModel
	if tf.init != "" {
		if tf.kernel != "" {
			return fmt.Errorf("%w: -init continues a linear model; the kernel perceptron starts from α = 0 (no -kernel with -init)", errUsage)
		}
		if init, err = loadModel(tf.init); err != nil {
			return err
		}
		if err := tf.fromModel(init); err != nil {
			return err
		}
	}
	opt, err := tf.options()
	if err != nil {
		return err
	}
	if _, err := tf.kernelFunc(1); err != nil {
		return err
	}
	if tf.kernel != "" && opt.Algorithm != perceptron.Online && opt.Algorithm != perceptron.Averaged && opt.Algorithm != perceptron.Voted {
		return fmt.Errorf("%w: -kernel: the kernel perceptron trains with -algo online, averaged or voted, not %s", errUsage, opt.Algorithm)
	}
	path := pos[0]
	if tf.out == "" {
		tf.out = strings.TrimSuffix(filepath.Base(path), ".gz") + ".model"
	}
	// Refuse before the long work, not after it.
	std := stdio{stdout, stderr}
	if err := std.checkWritable(tf.out, tf.force, tf.inputFiles(path)...); err != nil {
		return err
	}
	// The summary goes to standard output, or to standard error when the
	// model does; it must not land in an input (train d >> d).
	summary := stdout
	if fd, ok := descriptorOf(tf.out); ok && fd == 1 {
		summary = stderr
	} else if !tf.quiet {
		if err := std.notAnInput(tf.inputFiles(path)...); err != nil {
			return err
		}
	}
	if tf.typ == "float64" {
		return trainOn[float64](&tf, path, opt, init, std, summary)
	}
	return trainOn[float32](&tf, path, opt, init, std, summary)
}

// inputFiles are the files train reads: no output may replace them.
func (tf *trainFlags) inputFiles(path string) []string {
	files := tf.data.inputFiles(path, tf.test)
	if tf.init != "" {
		files = append(files, tf.init)
	}
	return files
}

// fromModel sets the flags not given on the command line from the -init
// model: its algorithm, multiclass strategy, scaling, bias and element
// type; a -type that differs from the model's is a usage error.
func (tf *trainFlags) fromModel(lm *loadedModel) error {
	var m interface {
		Kind() perceptron.Kind
		Algorithm() perceptron.Algorithm
		HasBias() bool
		Scaling() perceptron.Scaling
	}
	typ := "float32"
	if m32, ok := lm.m32.(*perceptron.Model[float32]); ok {
		m = m32
	} else if m64, ok := lm.m64.(*perceptron.Model[float64]); ok {
		m, typ = m64, "float64"
	}
	if m == nil || m.Kind().IsKernel() {
		return fmt.Errorf("%w: -init %s: a kernel model (%s); -init continues a linear model", errUsage, lm.path, lm.desc)
	}
	if tf.set["type"] && tf.typ != typ {
		return fmt.Errorf("%w: -type %s, but the -init model holds %s values", errUsage, tf.typ, typ)
	}
	tf.typ = typ
	if !tf.set["algo"] {
		tf.algo = m.Algorithm().String()
	}
	if !tf.set["multiclass"] && m.Kind() == perceptron.KindArgmax {
		tf.multiclass = "argmax"
	}
	if !tf.set["normalize"] && !tf.set["normalize-features"] {
		tf.normalize = m.Scaling() == perceptron.ScaleAugmented
		tf.normFeat = m.Scaling() == perceptron.ScaleFeatures
	}
	if !tf.set["bias"] {
		tf.bias = m.HasBias()
	}
	return nil
}

// trainOn is train for element type T, from the model init if not nil;
// the summary goes to summary.
func trainOn[T kernel.Float](tf *trainFlags, path string, opt perceptron.Options, init *loadedModel, std stdio, summary io.Writer) error {
	stderr := std.stderr()
	start := time.Now()
	sparse, repr, err := tf.representation(path)
	if err != nil {
		return err
	}
	var data *dataset.Data[T]
	var csr *dataset.CSR[T]
	format := fmtLIBSVM
	if sparse {
		if csr, err = loadSparse[T](path, tf.data.cols); err != nil {
			return err
		}
		repr += fmt.Sprintf(", %d stored values (%.1f per row), %.1f MB; the trainer reads only the stored values", csr.NNZ(), float64(csr.NNZ())/float64(max(csr.Rows, 1)), float64(csr.Bytes())/1e6)
		// Only what the summary reads of the dense form.
		data = &dataset.Data[T]{Y: csr.Y, Rows: csr.Rows, Cols: csr.Cols}
	} else if data, format, err = loadData[T](path, &tf.data, 0, ""); err != nil {
		return err
	}
	var test *dataset.Data[T]
	var testCSR *dataset.CSR[T]
	if tf.test != "" {
		if tsparse, _, _ := tf.representation(tf.test); tsparse && sparse {
			if testCSR, err = loadSparse[T](tf.test, data.Cols); err == nil {
				test = &dataset.Data[T]{Y: testCSR.Y, Rows: testCSR.Rows, Cols: testCSR.Cols}
			}
		} else {
			test, _, err = loadData[T](tf.test, &tf.data, data.Cols, "the training data")
		}
		if err != nil {
			return err
		}
	}
	loaded := time.Now()

	prog := newProgress(opt.MaxIter, "training", tf.quiet, stderr)
	opt.Callback = func(e perceptron.Epoch) error {
		prog.Describe(fmt.Sprintf("epoch %d: %d mistakes", e.Epoch, e.Mistakes))
		prog.Add(1)
		return nil
	}
	classes := data.Classes()
	binary := slices.Equal(classes, []int{-1, 1}) && !tf.set["multiclass"]
	kern, err := tf.kernelFunc(data.Cols)
	if err != nil {
		prog.Finish()
		return err
	}
	var from *perceptron.Model[T]
	if init != nil {
		from = initModel[T](init)
		binary = from.Kind() == perceptron.KindBinary
		if data.Cols != from.Dims() {
			prog.Finish()
			return fmt.Errorf("%s: %d features, the -init model %s has %d", path, data.Cols, tf.init, from.Dims())
		}
	}
	var m storedModel[T]
	var diag *perceptron.Diagnostics
	switch {
	case from != nil && sparse:
		m, diag, err = from.ContinueSparse(csr, csr.Y, opt)
	case from != nil:
		m, diag, err = from.Continue(data.X, data.Cols, data.Y, opt)
	case kern != nil:
		kopt := perceptron.KernelOptions{Options: opt, Kernel: kern, MaxBytes: tf.maxBytes()}
		var km *perceptron.KernelModel[T]
		if binary {
			km, diag, err = perceptron.TrainKernel(data.X, data.Cols, data.Y, kopt)
		} else {
			km, diag, err = perceptron.TrainKernelMulticlass(data.X, data.Cols, data.Y, kopt)
		}
		m = km
	case sparse && binary:
		m, diag, err = perceptron.TrainSparse(csr, csr.Y, opt)
	case sparse:
		m, diag, err = perceptron.TrainMulticlassSparse(csr, csr.Y, opt)
	case binary:
		m, diag, err = perceptron.Train(data.X, data.Cols, data.Y, opt)
	default:
		m, diag, err = perceptron.TrainMulticlass(data.X, data.Cols, data.Y, opt)
	}
	prog.Finish()
	if from != nil && errors.Is(err, perceptron.ErrLabels) {
		err = fmt.Errorf("%w (the -init model's classes are %s)", err, joinInts(from.Classes()))
	}
	if err != nil {
		switch {
		case errors.Is(err, perceptron.ErrOption):
			return fmt.Errorf("%w: %v", errUsage, err)
		case errors.Is(err, perceptron.ErrDiverged):
			// The message names the remedies by their options, which are
			// the flags -eta, -tau, -lambda, -normalize and -type.
			return fmt.Errorf("%s: %w (no model written)", path, err)
		case errors.Is(err, perceptron.ErrBudget) && opt.Algorithm == perceptron.Voted && kern == nil:
			return fmt.Errorf("%s: %w (no model written; -max-mb sets the voted perceptron's budget)", path, err)
		case errors.Is(err, perceptron.ErrBudget) && opt.Algorithm == perceptron.Voted:
			return fmt.Errorf("%s: %w (no model written; -max-mb sets the voted perceptron's budget, -cache the kernel values)", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	trained := time.Now()
	// The -test accuracy, with -q too: a test file that the model cannot
	// score (a non-finite score) fails the command, and no model is
	// written.
	testOK := 0
	if test != nil {
		var pred []int
		if testCSR != nil {
			pred = make([]int, testCSR.Rows)
			err = m.(*perceptron.Model[T]).PredictBatchSparse(pred, testCSR)
		} else {
			pred, err = predictAll(m, test)
		}
		if err != nil {
			return fmt.Errorf("%s: %w (no model written)", tf.test, err)
		}
		testOK = correct(pred, test.Y)
	}

	var encoded []byte
	if tf.asJSON {
		encoded, err = m.MarshalJSON()
		encoded = append(encoded, '\n')
	} else {
		encoded, err = m.MarshalBinary()
	}
	if err != nil {
		return err
	}
	if err := std.writeOutput(tf.out, tf.force, tf.inputFiles(path), func(w io.Writer) error {
		_, err := w.Write(encoded)
		return err
	}); err != nil {
		return err
	}
	if tf.quiet {
		return nil
	}

	w := func(k, f string, a ...any) {
		if k != "" {
			k += ":"
		}
		fmt.Fprintf(summary, "%-15s "+f+"\n", append([]any{k}, a...)...)
	}
	counts := data.ClassCounts()
	var perClass []string
	for _, c := range classes {
		perClass = append(perClass, fmt.Sprint(counts[c]))
	}
	w("data", "%s (%s): %d rows, %d features, %s", path, format, data.Rows, data.Cols, tf.typ)
	w("classes", "%s (%s rows)", joinInts(classes), strings.Join(perClass, " "))
	w("model", "%s", describeModel(m, tf.typ))
	w("training", "%s", describeOptions(opt, binary))
	if from != nil {
		how := "its weights as the start"
		if opt.Algorithm == from.Algorithm() {
			how = fmt.Sprintf("its %s state resumed after %d samples", opt.Algorithm, from.Steps())
		}
		w("from", "%s (%s)", tf.init, how)
	}
	if km, ok := m.(*perceptron.KernelModel[T]); ok {
		w("support", "%d support vectors of %d training rows", km.NumSupport(), data.Rows)
	}
	w("kernel path", "%s", kernel.Active())
	if tf.verbose {
		w("representation", "%s", repr)
		printEpochs(summary, diag.Epochs, opt.Algorithm == perceptron.SVM)
	}
	end := "not converged"
	switch {
	case diag.Stopped:
		end = "stopped"
	case diag.Converged && opt.Algorithm == perceptron.SVM:
		end = "converged: the objective changed by less than -tol"
	case diag.Converged:
		end = "converged: an epoch without mistakes"
	case opt.RunAllEpochs:
		end = "-all-epochs"
	}
	w("epochs", "%d (%s)", len(diag.Epochs), end)
	w("updates", "%d", diag.Updates)
	if diag.Evaluated {
		w("train accuracy", "%.2f%% (a zero score counts as wrong)", 100*diag.TrainAccuracy)
	}
	if binary && diag.Evaluated {
		space := ""
		if kern != nil {
			space = " (in the kernel's feature space)"
		}
		if diag.Separable {
			x, aug := "x", "(x, 1)"
			if kern != nil {
				x, aug = "φ(x)", "(φ(x), 1)"
			}
			switch {
			case opt.NoBias && opt.Normalize:
				aug = x + "/‖" + x + "‖"
			case opt.NoBias:
				aug = x
			case opt.Normalize:
				aug = aug + "/‖" + aug + "‖"
			}
			w("margin", "the model separates the training data%s: geometric margin γ = min y(w·%s + b)/‖w‖ = %.4g,", space, x, diag.Margin)
			w("", "radius R = max ‖%s‖ = %.4g, R²/γ² = %.4g", x, diag.Radius, diag.Bound)
			w("augmented", "on the points %s the update adds: γ′ = %.4g, R′ = %.4g, Novikoff's bound R′²/γ′² = %.4g", aug, diag.MarginAugmented, diag.RadiusAugmented, diag.BoundAugmented)
		} else {
			w("margin", "the model does not separate the training data")
		}
	}
	if test != nil {
		w("test accuracy", "%.2f%% (%d/%d) on %s", 100*float64(testOK)/float64(test.Rows), testOK, test.Rows, tf.test)
	}
	kind := "binary format"
	if tf.asJSON {
		kind = "JSON"
	}
	w("saved", "%s (%s, %d bytes)", tf.out, kind, len(encoded))
	w("time", "%v reading, %v training", roundDur(loaded.Sub(start)), roundDur(trained.Sub(loaded)))
	return nil
}

// describeOptions says how a model was trained.
func describeOptions(opt perceptron.Options, binary bool) string {
	var parts []string
	if !binary {
		if opt.Multiclass == perceptron.Argmax {
			parts = append(parts, "multiclass perceptron (argmax)")
		} else {
			parts = append(parts, "one-vs-rest")
		}
	}
	parts = append(parts, fmt.Sprintf("up to %d epochs", opt.MaxIter))
	switch opt.Algorithm {
	case perceptron.MiniBatch:
		parts = append(parts, fmt.Sprintf("B = %d, τ = %g (steps τ/B)", opt.BatchSize, opt.Tau))
	case perceptron.SVM:
		if opt.C > 0 {
			parts = append(parts, fmt.Sprintf("C = %g", opt.C))
		} else {
			parts = append(parts, fmt.Sprintf("λ = %g", cmp(opt.Lambda, 1e-4)))
		}
		if opt.Tol > 0 {
			parts = append(parts, fmt.Sprintf("tol %g", opt.Tol))
		}
	default:
		parts = append(parts, fmt.Sprintf("η = %g", opt.Eta))
	}
	switch {
	case opt.Sampling == perceptron.SampleReplace:
		parts = append(parts, fmt.Sprintf("samples drawn with repeats (seed %d)", opt.Seed))
	case opt.Algorithm == perceptron.MiniBatch && (opt.Sampling == perceptron.SampleDefault || opt.Sampling == perceptron.SampleSubsets):
		parts = append(parts, fmt.Sprintf("a fresh random B-subset per step (seed %d)", opt.Seed))
	case opt.Shuffle && opt.Algorithm != perceptron.Batch:
		parts = append(parts, fmt.Sprintf("shuffled (seed %d)", opt.Seed))
	}
	switch {
	case opt.Normalize:
		parts = append(parts, "(x, 1) normalised")
	case opt.NormalizeFeatures:
		parts = append(parts, "x normalised")
	}
	return strings.Join(parts, ", ")
}

// roundDur rounds d for people: to µs below 10 ms, else to ms.
func roundDur(d time.Duration) time.Duration {
	if d < 10*time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// cmp returns v, or def when v is 0.
func cmp(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// printEpochs prints the statistics of every epoch.
func printEpochs(w io.Writer, epochs []perceptron.Epoch, svm bool) {
	if svm {
		fmt.Fprintf(w, "\n%6s %9s %9s %10s %9s %12s\n", "epoch", "mistakes", "updates", "loss", "accuracy", "objective")
	} else {
		fmt.Fprintf(w, "\n%6s %9s %9s %10s %9s\n", "epoch", "mistakes", "updates", "loss", "accuracy")
	}
	for _, e := range epochs {
		fmt.Fprintf(w, "%6d %9d %9d %10.4g %8.2f%%", e.Epoch, e.Mistakes, e.Updates, e.Loss, 100*e.Accuracy)
		if svm {
			fmt.Fprintf(w, " %12.6g", e.Objective)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// initModel returns the -init model as a *perceptron.Model[T] (fromModel
// has checked its kind and element type).
func initModel[T kernel.Float](lm *loadedModel) *perceptron.Model[T] {
	if m, ok := any(lm.m32).(*perceptron.Model[T]); ok {
		return m
	}
	m, _ := any(lm.m64).(*perceptron.Model[T])
	return m
}
