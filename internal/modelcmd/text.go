package modelcmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/svm"
	"github.com/rosenblatt-go/rosenblatt/text"
)

// Text input of train, eval and predict (package text): fastText's format
// (recognised by content: the first line that is not blank starts with
// "__label__"; or -format fasttext), TSV/CSV with a label column and a
// text column (-format text-tsv, text-csv), or one document per line with
// the labels in a second file (-labels FILE, -format text-lines). train featurizes the documents
// with the -bits, -ngrams, -char-ngrams, -tf, -idf and -signed flags and
// writes a text model (model.Text: the featurizer, the label names and the
// linear model in one file); eval and predict take such a model and text.

// The text formats of -format.
const (
	fmtFastText = "fasttext"
	fmtTextTSV  = "text-tsv"
	fmtTextCSV  = "text-csv"
	fmtLines    = "text-lines"
)

// textFlags are train's flags of the featurizer.
type textFlags struct {
	bits       int
	ngrams     int
	charNGrams string
	tf         string
	idf        bool
	signed     bool
	keepCase   bool
	extra      string
	textCol    int
	multiLabel bool
	maxLine    int
	testLabels string
}

func (xf *textFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&xf.bits, "bits", 20, "text: features are hashed into 2^`b` columns")
	fs.IntVar(&xf.ngrams, "ngrams", 2, "text: word n-grams of `n` = 1..n words (2: unigrams and bigrams)")
	fs.StringVar(&xf.charNGrams, "char-ngrams", "", "text: character n-grams of each word, `min-max` characters (e.g. 3-5; default none)")
	fs.StringVar(&xf.tf, "tf", "log", "text: term-frequency `weighting`: raw, log (1+ln tf) or binary")
	fs.BoolVar(&xf.idf, "idf", false, "text: multiply by the idf learned on the training file (scikit-learn's smooth idf; reads it twice)")
	fs.BoolVar(&xf.signed, "signed", false, "text: signed hashing (a feature's hash gives it the sign ±1)")
	fs.BoolVar(&xf.keepCase, "keep-case", false, "text: do not lower-case")
	fs.StringVar(&xf.extra, "token-chars", "", "text: further `characters` of tokens besides letters, digits and marks (e.g. _')")
	fs.IntVar(&xf.textCol, "text-col", 1, "text-tsv, text-csv: 0-based `column` of the text (-label-col is the label's; -1 there means 0)")
	fs.BoolVar(&xf.multiLabel, "multilabel", false, "fasttext: accept lines of several labels (the first is trained on)")
	fs.IntVar(&xf.maxLine, "max-line", text.DefaultMaxLine, "text: the longest line (CSV record) read, in `bytes`")
	fs.StringVar(&xf.testLabels, "test-labels", "", "text-lines: the labels of -test, one per line (as -labels are the training file's)")
}

// options returns the featurizer's options.
func (xf *textFlags) options() (text.Options, error) {
	o := text.Options{Bits: xf.bits, WordNGrams: xf.ngrams, IDF: xf.idf, Signed: xf.signed, KeepCase: xf.keepCase, Extra: xf.extra}
	switch xf.tf {
	case "raw":
		o.TF = text.Raw
	case "log":
		o.TF = text.Log
	case "binary":
		o.TF = text.Binary
	default:
		return o, fmt.Errorf("%w: -tf %q: want raw, log or binary", cli.ErrUsage, xf.tf)
	}
	if xf.charNGrams != "" {
		lo, hi, ok := strings.Cut(xf.charNGrams, "-")
		if !ok {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil {
			return o, fmt.Errorf("%w: -char-ngrams %q: want min-max, e.g. 3-5", cli.ErrUsage, xf.charNGrams)
		}
		o.CharMin, o.CharMax = a, b
	}
	if err := o.Check(); err != nil {
		return o, fmt.Errorf("%w: %w", cli.ErrUsage, err)
	}
	return o, nil
}

// textFormat returns the text format of path, or 0 if it is no text input:
// -format fasttext, text-tsv or text-csv, or with -format auto a file
// whose first line that is not blank starts with "__label__".
func textFormat(d *dataFlags, path string) (text.Format, error) {
	switch d.format {
	case fmtFastText:
		return text.FastText, nil
	case fmtTextTSV:
		return text.TSV, nil
	case fmtTextCSV:
		return text.CSV, nil
	case fmtLines:
		return text.Lines, nil
	case fmtAuto, "":
	default:
		return 0, nil
	}
	if name, _ := d.formatOf(path); d.labels != "" && name != fmtIDX {
		return text.Lines, nil // documents, and their labels in a second file
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, nil // the data reader reports it
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	if text.IsFastText(head[:n]) {
		return text.FastText, nil
	}
	return 0, nil
}

// readerOptions are the reader's options of format, the labels of
// text-lines in the file labels (-labels, -test-labels; none for
// unlabelled input).
func (xf *textFlags) readerOptions(d *dataFlags, format text.Format, unlabelled bool, labels string) text.ReaderOptions {
	o := text.ReaderOptions{Format: format, MultiLabel: xf.multiLabel || unlabelled, Unlabelled: unlabelled, MaxLine: xf.maxLine, Header: d.header}
	switch format {
	case text.Lines:
		if labels != "" && !unlabelled {
			o.Labels = labelsFile(labels)
		}
	case text.TSV, text.CSV:
		o.LabelColumn, o.TextColumn = max(d.labelCol, 0), xf.textCol
	}
	return o
}

// labelsFile is the path of a labels file in text.ReaderOptions.Labels,
// opened by openText as each reading starts.
type labelsFile string

func (l labelsFile) Read([]byte) (int, error) {
	return 0, fmt.Errorf("%s: the labels file is read through openText", string(l))
}

// openText opens a text file (and its labels file) for a Reader.
func openText(path string, opt text.ReaderOptions) (*text.Reader, func() error, error) {
	var lf *os.File
	if p, ok := opt.Labels.(labelsFile); ok {
		var err error
		if lf, err = os.Open(string(p)); err != nil {
			return nil, nil, err
		}
		opt.Labels = lf
	}
	f, err := os.Open(path)
	if err != nil {
		if lf != nil {
			lf.Close()
		}
		return nil, nil, err
	}
	closeAll := func() error {
		if lf != nil {
			lf.Close()
		}
		return f.Close()
	}
	r, err := text.NewReader(f, opt)
	if err != nil {
		closeAll()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, closeAll, nil
}

// textModelFile wraps a text model for train's saveModel: it has no JSON
// form.
type textModelFile struct{ *model.Text }

func (textModelFile) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("%w: a text model has no JSON form (no -json)", cli.ErrUsage)
}

// runTrainText is train on a text file of format.
func runTrainText(tf *trainFlags, xf *textFlags, path string, format text.Format, std cli.Stdio) error {
	switch {
	case tf.kernel != "" || tf.init != "":
		return fmt.Errorf("%w: text input trains the linear models: the perceptrons, Pegasos and the linear SVM (no -kernel or -init)", cli.ErrUsage)
	case tf.asJSON:
		return fmt.Errorf("%w: a text model has no JSON form (no -json)", cli.ErrUsage)
	}
	var opt perceptron.Options
	var err error
	if tf.algo == "svm" {
		// The linear SVM by dual coordinate descent (LIBLINEAR's solver),
		// which visits the samples in a random order of its own.
		if err := tf.checkSVM(); err != nil {
			return err
		}
	} else if opt, err = tf.options(); err != nil {
		return err
	}
	// Text files are often grouped by label (one corpus after another);
	// a perceptron that sweeps them in file order learns the last group
	// and forgets the others. So text input is shuffled every epoch by
	// default, as scikit-learn's Perceptron and SGDClassifier shuffle
	// (shuffle=True) and fastText's threads read the file from scattered
	// offsets; -shuffle=false keeps file order, and -seed makes the run
	// reproducible.
	if !tf.set["shuffle"] {
		opt.Shuffle = true
	}
	fo, err := xf.options()
	if err != nil {
		return err
	}
	if tf.out == "" {
		tf.out = filepath.Base(path) + ".model"
	}
	inputs := []string{path, tf.test}
	if err := std.CheckWritable(tf.out, tf.force, inputs...); err != nil {
		return err
	}
	summary := std.Stdout()
	if fd, ok := cli.DescriptorOf(tf.out); ok && fd == 1 {
		summary = std.Stderr()
	}
	if tf.typ == "float64" {
		return trainTextOn[float64](tf, xf, fo, opt, path, format, std, summary)
	}
	return trainTextOn[float32](tf, xf, fo, opt, path, format, std, summary)
}

func trainTextOn[T kernel.Float](tf *trainFlags, xf *textFlags, fo text.Options, opt perceptron.Options, path string, format text.Format, std cli.Stdio, summary io.Writer) error {
	start, cpu0 := time.Now(), processCPU()
	if format == text.Lines && tf.test != "" && xf.testLabels == "" {
		return fmt.Errorf("%w: -test %s of one document per line needs its labels: -test-labels FILE", cli.ErrUsage, tf.test)
	}
	ropt := xf.readerOptions(&tf.data, format, false, tf.data.labels)
	if err := fo.Check(); err != nil {
		return err
	}
	// One pass over the file: with -idf the rows keep their counts until
	// the idf is known (text.FitReadAll).
	r, closeFile, err := openText(path, ropt)
	if err != nil {
		return err
	}
	var names text.Names
	f, X, err := text.FitReadAll[T](fo, r, &names)
	closeFile()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(names.List()) < 2 {
		return fmt.Errorf("%s: %w: %d label(s), a classifier needs two", path, errMismatch, len(names.List()))
	}
	featurized, cpu1 := time.Now(), processCPU()
	var m model.Model
	var diag *fit.Report
	var run svmRun
	if tf.algo == "svm" {
		C := tf.c.v
		if C == 0 {
			C = svm.DefaultC
		}
		var sm svmModel[T]
		sm, run, err = trainLinearSVM(tf, &svmData[T]{csr: X}, C)
		if err != nil {
			if errors.Is(err, svm.ErrOption) {
				return fmt.Errorf("%w: %v", cli.ErrUsage, err)
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		m = sm
	} else {
		if !tf.quiet {
			opt.Callback = func(e perceptron.Epoch) error { return nil }
		}
		var pm *linear.Model[T]
		if pm, diag, err = perceptron.Fit(context.Background(), X, X.Y, opt); err != nil {
			return err
		}
		m = pm
	}
	tm, err := model.NewText(f, m, names.List())
	if err != nil {
		return err
	}
	trained, cpu2 := time.Now(), processCPU()
	encoded, err := tf.saveModel(std, path, textModelFile{tm})
	if err != nil {
		return err
	}
	saved, cpu3 := time.Now(), processCPU()
	if tf.quiet {
		return nil
	}
	w := summaryPrinter(summary)
	w("data", "%s (%s): %d documents, %d labels, %d stored values", path, format, X.Rows, len(names.List()), X.NNZ())
	w("features", "%s", f)
	w("model", "%s", m)
	if diag != nil {
		order := "file order"
		if opt.Shuffle {
			order = fmt.Sprintf("shuffled every epoch, seed %d", opt.Seed)
		}
		w("epochs", "%d (%s)", diag.Epochs, order)
	} else {
		w("training", "%s", run.solver)
		printMachines(w, summary, run, tf.verbose)
	}
	w("time", "featurize %v, train %v, save %v", roundDur(featurized.Sub(start)), roundDur(trained.Sub(featurized)), roundDur(saved.Sub(trained)))
	if cpu0 >= 0 && cpu3 >= 0 {
		// The process's CPU time (user + system, every thread) of each
		// phase: on a busy machine the wall times above include waiting.
		w("cpu time", "featurize %v, train %v, save %v", roundDur(cpu1-cpu0), roundDur(cpu2-cpu1), roundDur(cpu3-cpu2))
	}
	// The trainer's final pass over the training data gave the accuracy
	// (Diagnostics.TrainAccuracy: the rows whose highest score is their
	// class), so the rows are not scored again here.
	if d, ok := trainDetail(diag); ok && d.Evaluated {
		w("train acc", "%.4f", d.TrainAccuracy)
	} else if c, ok := m.(model.Classifier[T]); ok {
		pred := make([]int, X.Rows)
		if err := c.PredictBatchSparse(pred, X); err == nil {
			w("train acc", "%.4f", float64(correct(pred, X.Y))/float64(max(X.Rows, 1)))
		}
	}
	if tf.test != "" {
		rep, err := evalTextFile(tm, tf.test, xf.readerOptions(&tf.data, format, false, xf.testLabels))
		if err != nil {
			return err
		}
		w("test acc", "%.4f (%d documents of %s)", float64(rep.right)/float64(max(rep.n, 1)), rep.n, tf.test)
	}
	tf.printSaved(w, len(encoded))
	return nil
}

// trainDetail returns the perceptron trainer's diagnostics of rep, if any.
func trainDetail(rep *fit.Report) (*perceptron.Diagnostics, bool) {
	if rep == nil {
		return nil, false
	}
	d, ok := rep.Detail.(*perceptron.Diagnostics)
	return d, ok
}

// isTextModelFile reports whether path holds a text model (kind 64).
func isTextModelFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [12]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	return string(head[:len(modelfile.Magic)]) == modelfile.Magic && model.Kind(head[11]) == model.TextModel
}

// loadTextModel reads a text model file.
func loadTextModel(path string) (*model.Text, error) {
	m, err := model.Options{MaxBytes: cli.MaxModel}.LoadFile(path)
	if err != nil {
		return nil, err
	}
	tm, ok := m.(*model.Text)
	if !ok {
		return nil, fmt.Errorf("%s: %w: not a text model", path, errMismatch)
	}
	return tm, nil
}

// openTextModel loads the text model at path and returns the options of
// reading data for it, in the format -format names (see dataTextFormat;
// the text column of TSV and CSV is 1, the label's -label-col or 0).
func openTextModel(path string, df *dataFlags, unlabelled bool) (*model.Text, text.ReaderOptions, error) {
	format, err := dataTextFormat(df)
	if err != nil {
		return nil, text.ReaderOptions{}, err
	}
	tm, err := loadTextModel(path)
	if err != nil {
		return nil, text.ReaderOptions{}, err
	}
	xf := textFlags{textCol: 1, maxLine: text.DefaultMaxLine}
	return tm, xf.readerOptions(df, format, unlabelled, df.labels), nil
}

// dataTextFormat is the text format eval and predict read for a text
// model: -format's, else fastText's (a line without labels is all text).
func dataTextFormat(d *dataFlags) (text.Format, error) {
	switch d.format {
	case fmtFastText, fmtAuto, "":
		if d.labels != "" && d.format != fmtFastText {
			return text.Lines, nil // documents, and their labels in a second file
		}
		return text.FastText, nil
	case fmtTextTSV:
		return text.TSV, nil
	case fmtTextCSV:
		return text.CSV, nil
	case fmtLines:
		return text.Lines, nil
	}
	return 0, fmt.Errorf("%w: -format %q: a text model reads text (fasttext, text-tsv, text-csv or text-lines)", cli.ErrUsage, d.format)
}

// evalTextFile predicts every document of path; a label the model does
// not know is a class of its own, never predicted.
func evalTextFile(tm *model.Text, path string, ropt text.ReaderOptions) (*evalReport, error) {
	r, closeFile, err := openText(path, ropt)
	if err != nil {
		return nil, err
	}
	defer closeFile()
	ids := map[string]int{}
	next := 0
	for i, n := range tm.Names() {
		ids[n] = tm.Classes()[i]
		next = max(next, tm.Classes()[i]+1)
	}
	var pred, y []int
	for {
		lab, doc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		id, ok := ids[lab]
		if !ok {
			id = next
			ids[lab] = id
			next++
		}
		p, err := tm.PredictTextLabel(string(doc))
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, r.Line(), err)
		}
		pred, y = append(pred, p), append(y, id)
	}
	return newEvalReport(pred, y, tm.Classes()), nil
}

// runEvalText is eval of a text model; done is false if pos[0] is none.
func runEvalText(pos []string, df *dataFlags, std cli.Stdio) (done bool, err error) {
	if !isTextModelFile(pos[0]) {
		return false, nil
	}
	if err := std.NotAnInput(pos...); err != nil {
		return true, err
	}
	stdout := std.Stdout()
	tm, ropt, err := openTextModel(pos[0], df, false)
	if err != nil {
		return true, err
	}
	rep, err := evalTextFile(tm, pos[1], ropt)
	if err != nil {
		return true, err
	}
	fmt.Fprintf(stdout, "%-10s %s (%s)\n", "model:", pos[0], tm)
	fmt.Fprintf(stdout, "%-10s %s (%s): %d documents\n", "data:", pos[1], ropt.Format, rep.n)
	var legend []string
	for i, n := range tm.Names() {
		legend = append(legend, fmt.Sprintf("%d=%s", tm.Classes()[i], n))
	}
	fmt.Fprintf(stdout, "%-10s %s\n", "labels:", strings.Join(legend, " "))
	rep.print(stdout, tm.Classes())
	return true, nil
}

// runPredictText is predict with a text model: a label name per document
// (per line of fastText's format, whose labels are ignored), then its
// scores with -scores; done is false if pos[0] is no text model.
func runPredictText(pos []string, df *dataFlags, out string, force, withScores bool, std cli.Stdio) (done bool, err error) {
	if !isTextModelFile(pos[0]) {
		return false, nil
	}
	inputs := []string{pos[0], pos[1]}
	if out != "" {
		err = std.CheckWritable(out, force, inputs...)
	} else {
		err = std.NotAnInput(inputs...)
	}
	if err != nil {
		return true, err
	}
	// The labels of the file are not read: a fastText line without one is
	// all text.
	tm, ropt, err := openTextModel(pos[0], df, true)
	if err != nil {
		return true, err
	}
	var buf bytes.Buffer
	r, closeFile, err := openText(pos[1], ropt)
	if err != nil {
		return true, err
	}
	defer closeFile()
	bw := bufio.NewWriter(&buf)
	sc := make([]float64, tm.NumScores())
	bits := 32
	if model.Elem(tm) == "float64" {
		bits = 64
	}
	for {
		_, doc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return true, fmt.Errorf("%s: %w", pos[1], err)
		}
		name, err := tm.PredictText(string(doc))
		if err != nil {
			return true, fmt.Errorf("%s: line %d: %w", pos[1], r.Line(), err)
		}
		bw.WriteString(name)
		if withScores {
			if err := tm.ScoresText(sc, string(doc)); err != nil {
				return true, err
			}
			for _, v := range sc {
				bw.WriteByte(' ')
				bw.WriteString(strconv.FormatFloat(v, 'g', -1, bits))
			}
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return true, err
	}
	write := func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	}
	if out == "" {
		return true, write(std.Stdout())
	}
	return true, std.WriteOutput(out, force, inputs, write)
}
