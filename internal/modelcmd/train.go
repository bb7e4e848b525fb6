package modelcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// The train subcommand:
//
//	rosenblatt train [flags] DATA
//
// trains a model on DATA (LIBSVM, CSV or IDX) with every option of package
// perceptron as a flag, or an exact SVM of package svm (-algo svm: see
// train_svm.go), prints a summary and writes the model file (-o, default
// DATA's base name + ".model"; never over an existing file without -f,
// never over DATA, the -test file, the -init model or their IDX label
// files). With -init MODEL it continues training from a model file
// (perceptron.Fit with Options.Init).

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
	resumable  bool
	normalize  bool
	normFeat   bool
	bias       bool
	biasFeat   float64 // -B: 0 when not given
	init       string
	lambda     float64
	c          cValue
	tol        float64
	loss       string
	dataMargin bool
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
	gamma   gammaValue
	coef0   float64
	degree  int
	cacheMB int64

	set map[string]bool // the flags given on the command line
}

func (tf *trainFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&tf.algo, "algo", "online", "training `algorithm`: online, batch, minibatch, averaged, voted (the perceptrons),\n"+
		"pegasos (the stochastic linear SVM, which -init and Update continue), or svm (the exact SVM:\n"+
		"with -kernel the kernel SVM by SMO, as LIBSVM; without, the linear SVM by dual coordinate\n"+
		"descent, as LIBLINEAR)")
	fs.StringVar(&tf.multiclass, "multiclass", "auto", "multiclass `scheme`: ovr (one-vs-rest, every algorithm), argmax (alias multi: the\n"+
		"multiclass perceptron, online and averaged), ovo (one-vs-one: the kernel SVM's), binary (the\n"+
		"perceptrons: labels -1/+1 only; the kernel SVM: two classes) or auto (ovr, ovo for the kernel SVM as\n"+
		"LIBSVM; with -init the model's); for the perceptrons and pegasos, labels other than -1/+1 train a\n"+
		"multiclass model, and -multiclass argmax makes -1/+1 data multiclass too (the SVMs are binary for\n"+
		"two classes)")
	fs.IntVar(&tf.epochs, "epochs", 100, "maximum number of `epochs` (passes over the data)")
	fs.Float64Var(&tf.eta, "eta", 1, "step size `η` of online, batch, averaged, voted and argmax")
	fs.Float64Var(&tf.tau, "tau", 1, "step size `τ` of minibatch (each step moves by τ/B·Σ y·x over the mistakes of its B samples)")
	fs.IntVar(&tf.batch, "batch", 32, "mini-batch size `B` of minibatch")
	fs.StringVar(&tf.sampling, "sampling", "default", "which samples an epoch visits: `mode` sweep (each once, in order or -shuffle'd),\n"+
		"subsets (minibatch: a fresh random B-subset per step, ⌈N/B⌉ steps an epoch), replace (each visit\n"+
		"drawn at random, repeats allowed), or default (subsets for minibatch, sweep otherwise)")
	fs.BoolVar(&tf.shuffle, "shuffle", false, "sweep: visit the samples in a new random order every epoch (default true for text input:\n-shuffle=false keeps the file's order)")
	fs.Uint64Var(&tf.seed, "seed", 1, "`seed` of the random sampling and -shuffle (the same seed trains the same model)")
	fs.BoolVar(&tf.allEpochs, "all-epochs", false, "run all -epochs even after an epoch without mistakes (the default of averaged and\n"+
		"voted, whose average or vote goes on over every epoch; -all-epochs=false stops them too)")
	fs.BoolVar(&tf.resumable, "resumable", false, "keep the training state in the model file, so that -init can continue it exactly\n(an averaged model's file is three times the size)")
	fs.BoolVar(&tf.normalize, "normalize", false, "scale every augmented sample (x, 1) (with -B: (x, B)) to unit Euclidean length\n(Novikoff's bound then has R = 1)\n"+
		"(the model scales the samples it predicts too; Novikoff's R becomes 1)")
	fs.BoolVar(&tf.normFeat, "normalize-features", false, "scale x to unit length, then add the bias (what -normalize did before model files\nof version 2)")
	fs.BoolVar(&tf.bias, "bias", true, "learn a bias term b (-bias=false: the separator goes through 0)")
	fs.Float64Var(&tf.biasFeat, "B", 0, "the value `B` > 0 of the constant feature that carries the bias (LIBLINEAR's -B; default 1,\n"+
		"with -init the model's): a mistake moves b by η·y·B², and -normalize scales (x, B); 0.1 damps the\n"+
		"bias as scikit-learn's SGD does on sparse data. Perceptrons and the linear SVM")
	fs.StringVar(&tf.init, "init", "", "continue training from this model `file`: its algorithm resumes its state (averaged: its\n"+
		"running weights and sums; voted: its vectors; pegasos: its step count and λ), another -algo starts\n"+
		"from its weights; -algo, -multiclass, -normalize, -normalize-features, -bias and -type default to\n"+
		"the model's")
	fs.Float64Var(&tf.lambda, "lambda", 0, "pegasos: regularisation `λ` > 0 (default 1e-4 unless -C is given)")
	fs.Var(&tf.c, "C", "svm, pegasos: soft-margin constant `C` of ½‖w‖² + C·Σ hinge (LIBSVM's; in the ‖θ‖² + C·Σξ form it is 2C);\n"+
		"svm: default 1, and inf trains the hard margin (non-separable data is an error);\n"+
		"pegasos: λ = 1/(C·N), give -lambda or -C, not both")
	fs.Float64Var(&tf.tol, "tol", 0, "svm: stopping tolerance on the KKT violation (default 0.001 with -kernel or -C inf, else\n"+
		"LIBLINEAR's 0.1 on the projected gradient); pegasos: stop when an epoch lowers the objective\n"+
		"by less than this relative `amount` (default 0: run all epochs)")
	fs.StringVar(&tf.loss, "loss", "hinge", "svm without -kernel: the `loss`, hinge (alias l1, LIBLINEAR's -s 3) or squared-hinge\n(alias l2, -s 1)")
	fs.BoolVar(&tf.dataMargin, "data-margin", false, "also solve the hard-margin problem on the training data and report its own maximum\n"+
		"margin γ_D, bracketed, and R²/γ_D², next to the model's margin (costs about a kernel SVM fit\n"+
		"per binary problem)")
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
	fs.StringVar(&tf.kernel, "kernel", "", "the `kernel` of the kernel perceptron (algorithms online, averaged, voted) or, with\n"+
		"-algo svm, of the kernel SVM: linear, poly or rbf (default: the linear models of -algo)")
	fs.Var(&tf.gamma, "gamma", "poly, rbf: kernel parameter `γ` > 0, in (γ·x·x′ + coef0)^degree (default 1) and\n"+
		"exp(−γ·‖x−x′‖²) (default 1/features), or scale: 1/(features·Var(X)), scikit-learn's gamma=\"scale\",\n"+
		"or auto: 1/features (scikit-learn's gamma=\"auto\", LIBSVM's default)")
	fs.Float64Var(&tf.coef0, "coef0", 1, "poly: the constant `c` in (γ·x·x′ + c)^degree")
	fs.IntVar(&tf.degree, "degree", 3, "poly: the `degree` m of the polynomial kernel (1 + x·x′)^m")
	fs.Int64Var(&tf.cacheMB, "cache", 0, "kernel: memory budget in `MB` for kernel values: the whole Gram matrix when it fits,\n"+
		"else an LRU cache of its rows (default 2048; -1: no limit; the kernel SVM's row cache is\n"+
		"this budget too, default 100)")
	fs.BoolVar(&tf.dense, "dense", false, "LIBSVM: read DATA and -test as dense rows (default: sparse CSR rows, at O(stored values)\n"+
		"per epoch, whenever the trainer takes them: the perceptrons, Pegasos, the kernel perceptron and -algo svm\n"+
		"(linear and -kernel), not -data-margin of the kernel machines; -v says which)")
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
	case (tf.kernel != "" || tf.algo == "svm") && tf.dataMargin:
		return false, "dense: -data-margin solves on dense rows", nil
	case tf.algo == "svm" && tf.kernel == "" && math.IsInf(tf.c.v, 1):
		return false, "dense: the linear hard margin (-C inf) solves on dense rows", nil
	}
	return true, "sparse (CSR)", nil
}

// kernelFunc returns the kernel of the -kernel flags for data with cols
// features, or nil for the linear (primal) models; scale computes -gamma
// scale (nil before the data are read: then it is 1). Kernel flags without
// -kernel, or that the kernel does not take, are usage errors.
func (tf *trainFlags) kernelFunc(cols int, scale func() float64) (gram.Kernel, error) {
	takes := map[string][]string{"": nil, "linear": {"cache"}, "poly": {"gamma", "coef0", "degree", "cache"}, "rbf": {"gamma", "cache"}}
	params, ok := takes[tf.kernel]
	if !ok {
		return nil, fmt.Errorf("%w: -kernel %q: want linear, poly or rbf", cli.ErrUsage, tf.kernel)
	}
	for _, f := range []string{"gamma", "coef0", "degree", "cache"} {
		if tf.set[f] && !slices.Contains(params, f) {
			if tf.kernel == "" {
				return nil, fmt.Errorf("%w: -%s needs -kernel", cli.ErrUsage, f)
			}
			return nil, fmt.Errorf("%w: -kernel %s takes no -%s", cli.ErrUsage, tf.kernel, f)
		}
	}
	gammaOr := func(def float64) float64 {
		switch {
		case tf.gamma.scale && scale != nil:
			return scale()
		case tf.gamma.scale:
			return 1
		case tf.gamma.auto:
			return 1 / float64(max(cols, 1))
		case tf.set["gamma"]:
			return tf.gamma.v
		}
		return def
	}
	var k gram.Kernel
	switch tf.kernel {
	case "":
		return nil, nil
	case "linear":
		k = gram.Linear{}
	case "poly":
		// The classical polynomial kernel (1 + x·x′)^m by default.
		k = gram.Polynomial{Gamma: gammaOr(1), Coef0: tf.coef0, Degree: tf.degree}
	case "rbf":
		k = gram.RBF{Gamma: gammaOr(1 / float64(max(cols, 1)))}
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", cli.ErrUsage, err)
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

// checkBiasFeature checks -B: a finite value > 0, with a bias.
func (tf *trainFlags) checkBiasFeature() error {
	switch b := tf.biasFeat; {
	case !tf.set["B"]:
		return nil
	case !(b > 0) || math.IsInf(b, 0):
		return fmt.Errorf("%w: -B %v: want a finite value > 0", cli.ErrUsage, b)
	case !tf.bias:
		return fmt.Errorf("%w: -B with -bias=false: there is no bias to carry", cli.ErrUsage)
	}
	return nil
}

// options turns the flags into perceptron.Options. A bad value is a usage
// error.
func (tf *trainFlags) options() (perceptron.Options, error) {
	name := tf.algo
	switch name {
	case "pegasos":
		name = "svm" // the package's name for Pegasos
	case "svm":
		name = "" // the exact SVMs are not the package's (see train_svm.go)
	}
	algo, err := linear.ParseAlgorithm(name)
	if err != nil || algo == linear.DualCD { // "dcd": the linear SVM is -algo svm -kernel linear
		return perceptron.Options{}, fmt.Errorf("%w: -algo %q: want one of online, batch, minibatch, averaged, voted, pegasos, svm", cli.ErrUsage, tf.algo)
	}
	scheme, err := tf.scheme()
	if err != nil {
		return perceptron.Options{}, err
	}
	if scheme == fit.OneVsOne {
		return perceptron.Options{}, fmt.Errorf("%w: -multiclass ovo: one-vs-one is the kernel SVM's (-algo svm -kernel ...)", cli.ErrUsage)
	}
	if tf.epochs < 1 {
		return perceptron.Options{}, fmt.Errorf("%w: -epochs %d: want at least 1", cli.ErrUsage, tf.epochs)
	}
	if tf.batch < 1 {
		return perceptron.Options{}, fmt.Errorf("%w: -batch %d: want at least 1", cli.ErrUsage, tf.batch)
	}
	if tf.typ != "float32" && tf.typ != "float64" {
		return perceptron.Options{}, fmt.Errorf("%w: -type %q: want float32 or float64", cli.ErrUsage, tf.typ)
	}
	sampling, err := perceptron.ParseSampling(tf.sampling)
	if err != nil {
		return perceptron.Options{}, fmt.Errorf("%w: -sampling %q: want default, sweep, subsets or replace", cli.ErrUsage, tf.sampling)
	}
	if err := tf.checkBiasFeature(); err != nil {
		return perceptron.Options{}, err
	}
	if tf.normalize && tf.normFeat {
		return perceptron.Options{}, fmt.Errorf("%w: give -normalize or -normalize-features, not both", cli.ErrUsage)
	}
	opt := perceptron.Options{
		Algorithm:         algo,
		Multiclass:        scheme,
		MaxIter:           tf.epochs,
		Eta:               tf.eta,
		Tau:               tf.tau,
		BatchSize:         tf.batch,
		Sampling:          sampling,
		Shuffle:           tf.shuffle,
		Seed:              tf.seed,
		Stop:              tf.stopping(),
		Resumable:         tf.resumable,
		Normalize:         tf.normalize,
		NormalizeFeatures: tf.normFeat,
		NoBias:            !tf.bias,
		BiasFeature:       tf.biasFeat,
		Lambda:            tf.lambda,
		C:                 tf.c.v,
		Tol:               tf.tol,
		Workers:           tf.workers,
		DataMargin:        tf.dataMargin,
	}
	if tf.set["loss"] {
		return opt, fmt.Errorf("%w: -loss is the linear SVM's (-algo svm without -kernel)", cli.ErrUsage)
	}
	if math.IsInf(tf.c.v, 1) {
		return opt, fmt.Errorf("%w: -C inf is the hard margin of the exact SVM (-algo svm); %s needs a finite C", cli.ErrUsage, tf.algo)
	}
	if tf.set["max-mb"] {
		if algo != linear.Voted {
			return opt, fmt.Errorf("%w: -max-mb is the budget of -algo voted", cli.ErrUsage)
		}
		if tf.maxMB == 0 {
			return opt, fmt.Errorf("%w: -max-mb 0: want a budget in MB, or -1 for no limit", cli.ErrUsage)
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
			return opt, fmt.Errorf("%w: -%s %v: want a value > 0", cli.ErrUsage, v.name, v.v)
		}
	}
	return opt, nil
}

func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("train", stderr)
	var tf trainFlags
	tf.register(fs)
	var xf textFlags
	xf.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt train [flags] DATA\n\n")
		fmt.Fprintf(stderr, "Trains a perceptron, a kernel perceptron, Pegasos or an exact SVM (-algo svm) on DATA\n")
		fmt.Fprintf(stderr, "(LIBSVM/SVMlight, CSV, or an IDX image file with its label file; gzip is fine) and\n")
		fmt.Fprintf(stderr, "writes the model file.\n\nflags:\n")
		fs.PrintDefaults()
	}
	pos, err := cli.ParseArgs(fs, args, "DATA")
	if err != nil {
		return err
	}
	tf.data.finish(fs)
	tf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { tf.set[f.Name] = true })
	if format, _ := textFormat(&tf.data, pos[0]); format != 0 {
		return runTrainText(&tf, &xf, pos[0], format, cli.Stdio{Out: stdout, Err: stderr})
	}
	if err := tf.data.check(); err != nil {
		return err
	}
	exact := tf.algo == "svm"
	var init *loadedModel
	var opt perceptron.Options
	if exact {
		if err := tf.checkSVM(); err != nil {
			return err
		}
	} else {
		if tf.init != "" {
			if tf.kernel != "" {
				return fmt.Errorf("%w: -init continues a linear model; the kernel perceptron starts from α = 0 (no -kernel with -init)", cli.ErrUsage)
			}
			if init, err = loadModel(tf.init); err != nil {
				return err
			}
			if err := tf.fromModel(init); err != nil {
				return err
			}
		}
		if opt, err = tf.options(); err != nil {
			return err
		}
		if _, err := tf.kernelFunc(1, nil); err != nil {
			return err
		}
		if tf.kernel != "" && opt.Algorithm != linear.Online && opt.Algorithm != linear.Averaged && opt.Algorithm != linear.Voted {
			return fmt.Errorf("%w: -kernel: the kernel perceptron trains with -algo online, averaged or voted, not %s (-algo svm: the kernel SVM)", cli.ErrUsage, tf.algo)
		}
	}
	path := pos[0]
	if tf.out == "" {
		tf.out = strings.TrimSuffix(filepath.Base(path), ".gz") + ".model"
	}
	// Refuse before the long work, not after it.
	std := cli.Stdio{Out: stdout, Err: stderr}
	if err := std.CheckWritable(tf.out, tf.force, tf.inputFiles(path)...); err != nil {
		return err
	}
	// The summary goes to standard output, or to standard error when the
	// model does; it must not land in an input (train d >> d).
	summary := stdout
	if fd, ok := cli.DescriptorOf(tf.out); ok && fd == 1 {
		summary = stderr
	} else if !tf.quiet {
		if err := std.NotAnInput(tf.inputFiles(path)...); err != nil {
			return err
		}
	}
	switch {
	case exact && tf.typ == "float64":
		return trainSVMOn[float64](&tf, path, std, summary)
	case exact:
		return trainSVMOn[float32](&tf, path, std, summary)
	case tf.typ == "float64":
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
// model: its algorithm, multiclass scheme, scaling, bias and element
// type; a -type that differs from the model's is a usage error.
func (tf *trainFlags) fromModel(lm *loadedModel) error {
	var m interface {
		Scheme() fit.Scheme
		Algorithm() linear.Algorithm
		HasBias() bool
		BiasFeature() float64
		Scaling() linear.Scaling
		Steps() int64
	}
	typ := "float32"
	if m32, ok := lm.m32.(*linear.Model[float32]); ok {
		m = m32
	} else if m64, ok := lm.m64.(*linear.Model[float64]); ok {
		m, typ = m64, "float64"
	}
	if m == nil || m.Algorithm() == linear.DualCD {
		return fmt.Errorf("%w: -init %s: a %s; -init continues a linear model (a perceptron's or Pegasos's)", cli.ErrUsage, lm.path, lm.desc)
	}
	if tf.set["type"] && tf.typ != typ {
		return fmt.Errorf("%w: -type %s, but the -init model holds %s values", cli.ErrUsage, tf.typ, typ)
	}
	tf.typ = typ
	if !tf.set["algo"] {
		tf.algo = algoFlag(m.Algorithm())
		if a := m.Algorithm(); (a == linear.Averaged || a == linear.SVM) && m.Steps() == 0 {
			return fmt.Errorf("%w: -init %s: the %s model's file holds no training state, so it cannot be continued exactly (train it with -resumable); give -algo to start another algorithm from its weights",
				cli.ErrUsage, lm.path, tf.algo)
		}
	}
	if !tf.set["multiclass"] {
		tf.multiclass = m.Scheme().String()
	}
	if !tf.set["normalize"] && !tf.set["normalize-features"] {
		tf.normalize = m.Scaling() == linear.ScaleAugmented
		tf.normFeat = m.Scaling() == linear.ScaleFeatures
	}
	if !tf.set["bias"] {
		tf.bias = m.HasBias()
	}
	if !tf.set["B"] && tf.bias && m.HasBias() {
		tf.biasFeat = m.BiasFeature()
	}
	return nil
}

// trainOn is train for element type T, from the model init if not nil;
// the summary goes to summary.
func trainOn[T kernel.Float](tf *trainFlags, path string, opt perceptron.Options, init *loadedModel, std cli.Stdio, summary io.Writer) error {
	stderr := std.Stderr()
	start := time.Now()
	sparse, repr, err := tf.representation(path)
	if err != nil {
		return err
	}
	var data *dataset.Data[T]
	var csr *dataset.CSR[T]
	format := fmtLIBSVM
	if sparse {
		if csr, err = loadSparse[T](path, tf.data.cols, &tf.data); err != nil {
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
			if testCSR, err = loadSparse[T](tf.test, data.Cols, &tf.data); err == nil {
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

	prog := cli.NewProgress(opt.MaxIter, "training", tf.quiet, stderr)
	opt.Callback = func(e perceptron.Epoch) error {
		prog.Describe(fmt.Sprintf("epoch %d: %d mistakes", e.Epoch, e.Mistakes))
		prog.Add(1)
		return nil
	}
	classes := data.Classes()
	binary := slices.Equal(classes, []int{-1, 1}) && opt.Multiclass != fit.Argmax
	kern, err := tf.kernelFunc(data.Cols, func() float64 {
		if csr != nil {
			return svm.GammaScale(csr)
		}
		return svm.GammaScale(data)
	})
	if err != nil {
		prog.Finish()
		return err
	}
	var from *linear.Model[T]
	if init != nil {
		from = initModel[T](init)
		binary = from.Scheme() == fit.Binary
		if data.Cols != from.Dims() {
			prog.Finish()
			return fmt.Errorf("%s: %d features, the -init model %s has %d", path, data.Cols, tf.init, from.Dims())
		}
	}
	var m storedModel[T]
	var rows dataset.Rows[T] = data
	if sparse {
		rows = csr
	}
	if from != nil {
		opt.Init = from
	}
	var rep *fit.Report
	if kern != nil && from == nil {
		var km *expansion.Model[T]
		km, rep, err = perceptron.FitKernel(context.Background(), rows, labelsOf(data, csr), perceptron.KernelOptions{Options: opt, Kernel: kern, MaxBytes: tf.maxBytes()})
		m = km
	} else {
		var lm *linear.Model[T]
		lm, rep, err = perceptron.Fit(context.Background(), rows, labelsOf(data, csr), opt)
		m = lm
	}
	var diag *perceptron.Diagnostics
	if rep != nil {
		diag = rep.Detail.(*perceptron.Diagnostics)
	}
	prog.Finish()
	if from != nil && errors.Is(err, linear.ErrLabels) {
		err = fmt.Errorf("%w (the -init model's classes are %s)", err, joinInts(from.Classes()))
	}
	if err != nil {
		switch {
		case errors.Is(err, perceptron.ErrOption):
			return fmt.Errorf("%w: %v", cli.ErrUsage, err)
		case errors.Is(err, linear.ErrDiverged):
			// The message names the remedies by their options, which are
			// the flags -eta, -tau, -lambda, -normalize and -type.
			return fmt.Errorf("%s: %w (no model written)", path, err)
		case errors.Is(err, perceptron.ErrBudget) && opt.Algorithm == linear.Voted && kern == nil:
			return fmt.Errorf("%s: %w (no model written; -max-mb sets the voted perceptron's budget)", path, err)
		case errors.Is(err, perceptron.ErrBudget) && opt.Algorithm == linear.Voted:
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
			err = m.(sparseBatch[T]).PredictBatchSparse(pred, testCSR)
		} else {
			pred, err = predictAll(m, test)
		}
		if err != nil {
			return fmt.Errorf("%s: %w (no model written)", tf.test, err)
		}
		testOK = correct(pred, test.Y)
	}

	encoded, err := tf.saveModel(std, path, m)
	if err != nil || tf.quiet {
		return err
	}

	w := summaryPrinter(summary)
	printDataLines(w, path, format, tf.typ, data)
	w("model", "%s", m)
	w("training", "%s", describeOptions(opt, binary, from != nil))
	if from != nil {
		how := "its weights as the start"
		if opt.Algorithm == from.Algorithm() {
			how = fmt.Sprintf("its %s state resumed after %d samples", algoFlag(opt.Algorithm), from.Steps())
		}
		w("from", "%s (%s)", tf.init, how)
	}
	if km, ok := m.(*expansion.Model[T]); ok {
		w("support", "%d support vectors of %d training rows", km.NumSupport(), data.Rows)
	}
	w("kernel path", "%s", kernel.ActiveImpl().Name())
	if tf.verbose {
		w("representation", "%s", repr)
		printEpochs(summary, diag.Epochs, opt.Algorithm == linear.SVM)
	}
	end := "not converged"
	switch {
	case diag.Stopped:
		end = "stopped"
	case diag.Converged && opt.Algorithm == linear.SVM:
		end = "converged: the objective changed by less than -tol"
	case diag.Converged:
		end = "converged: an epoch without mistakes"
	case opt.Stop == perceptron.StopNever:
		end = "-all-epochs"
	case opt.Stop == perceptron.StopDefault && (opt.Algorithm == linear.Averaged || opt.Algorithm == linear.Voted):
		end = "all epochs, as " + opt.Algorithm.String() + " runs by default"
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
			x, aug := "x", fmt.Sprintf("(x, %g)", cmp(opt.BiasFeature, 1))
			if kern != nil {
				x, aug = "φ(x)", fmt.Sprintf("(φ(x), %g)", cmp(opt.BiasFeature, 1))
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
	if diag.DataMargin != nil || diag.DataMarginErr != nil {
		printDataMargin(w, "", diag.DataMargin, diag.DataMarginErr, diag.MarginAugmented, diag.Separable)
	}
	for c, cd := range diag.Classes {
		if cd.DataMargin != nil || cd.DataMarginErr != nil {
			printDataMargin(w, fmt.Sprintf("class %d: ", classes[c]), cd.DataMargin, cd.DataMarginErr, cd.MarginAugmented, cd.Separable)
		}
	}
	if test != nil {
		w("test accuracy", "%.2f%% (%d/%d) on %s", 100*float64(testOK)/float64(test.Rows), testOK, test.Rows, tf.test)
	}
	tf.printSaved(w, len(encoded))
	w("time", "%v reading, %v training", roundDur(loaded.Sub(start)), roundDur(trained.Sub(loaded)))
	return nil
}

// scheme returns the scheme of -multiclass: a name of fit.ParseScheme, or
// "multi" for argmax.
func (tf *trainFlags) scheme() (fit.Scheme, error) {
	name := tf.multiclass
	if strings.EqualFold(name, "multi") {
		name = fit.Argmax.String()
	}
	s, err := fit.ParseScheme(name)
	if err != nil {
		return s, fmt.Errorf("%w: -multiclass %q: want ovr, argmax (multi), ovo, binary or auto", cli.ErrUsage, tf.multiclass)
	}
	return s, nil
}

// describeOptions says how a model was trained.
func describeOptions(opt perceptron.Options, binary, continued bool) string {
	var parts []string
	if !binary {
		if opt.Multiclass == fit.Argmax {
			parts = append(parts, "multiclass perceptron (argmax)")
		} else {
			parts = append(parts, "one-vs-rest")
		}
	}
	parts = append(parts, fmt.Sprintf("up to %d epochs", opt.MaxIter))
	switch opt.Algorithm {
	case linear.MiniBatch:
		parts = append(parts, fmt.Sprintf("B = %d, τ = %g (steps τ/B)", opt.BatchSize, opt.Tau))
	case linear.SVM:
		switch {
		case opt.C > 0:
			parts = append(parts, fmt.Sprintf("C = %g", opt.C))
		case opt.Lambda == 0 && continued:
			parts = append(parts, "λ of the -init model") // Continue keeps it
		default:
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
	case opt.Algorithm == linear.MiniBatch && (opt.Sampling == perceptron.SampleDefault || opt.Sampling == perceptron.SampleSubsets):
		parts = append(parts, fmt.Sprintf("a fresh random B-subset per step (seed %d)", opt.Seed))
	case opt.Shuffle && opt.Algorithm != linear.Batch:
		parts = append(parts, fmt.Sprintf("shuffled (seed %d)", opt.Seed))
	}
	switch {
	case opt.Normalize:
		parts = append(parts, fmt.Sprintf("(x, %g) normalised", cmp(opt.BiasFeature, 1)))
		if opt.NoBias {
			parts[len(parts)-1] = "x normalised (no bias)"
		}
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

// initModel returns the -init model as a *linear.Model[T] (fromModel
// has checked its kind and element type).
func initModel[T kernel.Float](lm *loadedModel) *linear.Model[T] {
	if m, ok := any(lm.m32).(*linear.Model[T]); ok {
		return m
	}
	m, _ := any(lm.m64).(*linear.Model[T])
	return m
}

// modelMarshaler is a model train can write: the perceptron's and the
// SVMs'.
type modelMarshaler interface {
	MarshalBinary() ([]byte, error)
	MarshalJSON() ([]byte, error)
}

// saveModel encodes m as the flags ask (-json or the binary format) and
// writes it atomically to the -o file, never over one of the inputs of
// training on path. It returns the bytes written.
func (tf *trainFlags) saveModel(std cli.Stdio, path string, m modelMarshaler) ([]byte, error) {
	var encoded []byte
	var err error
	if tf.asJSON {
		encoded, err = m.MarshalJSON()
		encoded = append(encoded, '\n')
	} else {
		encoded, err = m.MarshalBinary()
	}
	if err != nil {
		return nil, err
	}
	err = std.WriteOutput(tf.out, tf.force, tf.inputFiles(path), func(w io.Writer) error {
		_, err := w.Write(encoded)
		return err
	})
	return encoded, err
}

// printSaved prints the summary's line about the model file of n bytes.
func (tf *trainFlags) printSaved(w func(k, f string, a ...any), n int) {
	kind := "binary format"
	if tf.asJSON {
		kind = "JSON"
	}
	w("saved", "%s (%s, %d bytes)", tf.out, kind, n)
}

// summaryPrinter returns the printer of train's summary lines, "key:"
// padded to a column, then the formatted value.
func summaryPrinter(summary io.Writer) func(k, f string, a ...any) {
	return func(k, f string, a ...any) {
		if k != "" {
			k += ":"
		}
		fmt.Fprintf(summary, "%-15s "+f+"\n", append([]any{k}, a...)...)
	}
}

// printDataLines prints the summary's lines about the training data: its
// file, size and element type, and its classes with their row counts.
func printDataLines[T kernel.Float](w func(k, f string, a ...any), path, format, typ string, data *dataset.Data[T]) {
	classes := data.Classes()
	counts := data.ClassCounts()
	var perClass []string
	for _, c := range classes {
		perClass = append(perClass, fmt.Sprint(counts[c]))
	}
	w("data", "%s (%s): %d rows, %d features, %s", path, format, data.Rows, data.Cols, typ)
	w("classes", "%s (%s rows)", joinInts(classes), strings.Join(perClass, " "))
}

// loadTrainTest reads the training data at path and the -test file, if
// any, with the -test file's width checked against the training data's.
func loadTrainTest[T kernel.Float](tf *trainFlags, path string) (data, test *dataset.Data[T], format string, err error) {
	if data, format, err = loadData[T](path, &tf.data, 0, ""); err != nil {
		return nil, nil, "", err
	}
	if tf.test != "" {
		if test, _, err = loadData[T](tf.test, &tf.data, data.Cols, "the training data"); err != nil {
			return nil, nil, "", err
		}
	}
	return data, test, format, nil
}

// algoFlag is the -algo name of a perceptron algorithm: pegasos for the
// package's SVM (Pegasos), whose name -algo svm gave before the exact SVMs.
func algoFlag(a linear.Algorithm) string {
	if a == linear.SVM {
		return "pegasos"
	}
	return a.String()
}

// labelsOf returns the labels of the training data, dense or sparse.
func labelsOf[T kernel.Float](data *dataset.Data[T], csr *dataset.CSR[T]) []int {
	if csr != nil {
		return csr.Y
	}
	return data.Y
}

// stopping returns the perceptron's Options.Stop for -all-epochs: the
// library's default unless the flag is given.
func (tf *trainFlags) stopping() perceptron.Stopping {
	switch {
	case !tf.set["all-epochs"]:
		return perceptron.StopDefault
	case tf.allEpochs:
		return perceptron.StopNever
	}
	return perceptron.StopClean
}
