package modelcmd

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The predict subcommand:
//
//	rosenblatt predict [flags] MODEL DATA
//
// writes one predicted label per row of DATA, one per line, to stdout or
// -o FILE (never over an existing file without -f, never over MODEL or
// DATA; "-o -" and /dev/stdout are standard output, which must not be MODEL
// or DATA either). DATA is read like train's (its labels are read but not
// used).

func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("predict", stderr)
	var df dataFlags
	out := fs.String("o", "", "write the labels to `file` instead of stdout")
	force := fs.Bool("f", false, "overwrite the -o file if it exists")
	scores := fs.Bool("scores", false, "after each label, the model's decision values (one for a binary model, one per class for\n"+
		"one-vs-rest and argmax, one per pair of classes for a one-vs-one SVM, in the order (0,1), (0,2), ...)")
	df.register(fs, false)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt predict [flags] MODEL DATA\n\n")
		fmt.Fprintf(stderr, "Writes the label the model predicts for each row of DATA, one per line. DATA is read\n")
		fmt.Fprintf(stderr, "as by train and must have the model's feature count; its labels are ignored.\n\nflags:\n")
		fs.PrintDefaults()
	}
	pos, err := cli.ParseArgs(fs, args, "MODEL", "DATA")
	if err != nil {
		return err
	}
	df.finish(fs)
	if done, err := runPredictText(pos, &df, *out, *force, *scores, cli.Stdio{Out: stdout, Err: stderr}); done {
		return err
	}
	if err := df.check(); err != nil {
		return err
	}
	// The model and the data files are inputs that -o, or standard
	// output, must not be.
	inputs := append([]string{pos[0]}, df.inputFiles(pos[1])...)
	std := cli.Stdio{Out: stdout, Err: stderr}
	if *out != "" {
		err = std.CheckWritable(*out, *force, inputs...)
	} else {
		err = std.NotAnInput(inputs...)
	}
	if err != nil {
		return err
	}
	lm, err := loadModel(pos[0])
	if err != nil {
		return err
	}
	if lm.m64 != nil {
		return predictOn(lm.m64, pos[1], &df, *out, *force, inputs, *scores, std)
	}
	return predictOn(lm.m32, pos[1], &df, *out, *force, inputs, *scores, std)
}

// predictOn is predict for element type T.
func predictOn[T kernel.Float](c classifier[T], dataPath string, df *dataFlags, out string, force bool, inputs []string, withScores bool, std cli.Stdio) error {
	pred, _, sc, _, err := predictFile(c, dataPath, df, withScores)
	if err != nil {
		return err
	}
	k := c.NumScores()
	bits := int(unsafe.Sizeof(T(0))) * 8
	write := func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		var b []byte
		for i, p := range pred {
			b = strconv.AppendInt(b[:0], int64(p), 10)
			if withScores {
				for _, v := range sc[i*k : (i+1)*k] {
					b = append(b, ' ')
					b = strconv.AppendFloat(b, float64(v), 'g', -1, bits)
				}
			}
			b = append(b, '\n')
			if _, err := bw.Write(b); err != nil {
				return err
			}
		}
		return bw.Flush()
	}
	if out == "" {
		return write(std.Stdout())
	}
	return std.WriteOutput(out, force, inputs, write)
}

// predictAll returns the model's label for every row of d.
func predictAll[T kernel.Float](c classifier[T], d *dataset.Data[T]) ([]int, error) {
	pred := make([]int, d.Rows)
	if err := c.PredictBatch(pred, d.X); err != nil {
		return nil, err
	}
	return pred, nil
}

// sparseBatch is a model that predicts CSR rows.
type sparseBatch[T kernel.Float] interface {
	Dims() int
	NumScores() int
	PredictBatchSparse(dst []int, c *dataset.CSR[T]) error
	ScoresBatchSparse(dst []T, c *dataset.CSR[T]) error
}

// sparseReader returns c as a sparseBatch if predict reads LIBSVM files
// sparse for it: a linear perceptron model, a linear SVM, or a kernel SVM
// or kernel perceptron trained on sparse rows (its support vectors sparse).
func sparseReader[T kernel.Float](c classifier[T]) (sparseBatch[T], bool) {
	switch m := c.(type) {
	case *linear.Model[T]:
		return m, true
	case *expansion.Model[T]:
		return m, m.SparseSupport() != nil
	}
	return nil, false
}

// predictFile reads the data file at dataPath for the classifier c and
// predicts every row, with the decision values (NumScores per row) if
// withScores; it returns the predictions, the file's labels, the scores and
// the format read. A LIBSVM file read for a linear perceptron model, a
// linear SVM or a kernel model with sparse support vectors is read sparse
// (CSR), with the model's width: text-sized feature spaces that the dense
// matrix's bound refuses work as they do in train; other models and formats
// read dense rows.
func predictFile[T kernel.Float](c classifier[T], dataPath string, df *dataFlags, withScores bool) (pred, y []int, sc []T, format string, err error) {
	format, err = df.formatOf(dataPath)
	if err != nil {
		return nil, nil, nil, "", err
	}
	if m, ok := sparseReader(c); ok && format == fmtLIBSVM {
		X, err := loadSparse[T](dataPath, m.Dims(), df)
		if err != nil {
			return nil, nil, nil, "", err
		}
		pred = make([]int, X.Rows)
		if err := m.PredictBatchSparse(pred, X); err != nil {
			return nil, nil, nil, "", fmt.Errorf("%s: %w", dataPath, err)
		}
		if withScores {
			sc = make([]T, X.Rows*m.NumScores())
			if err := m.ScoresBatchSparse(sc, X); err != nil {
				return nil, nil, nil, "", fmt.Errorf("%s: %w", dataPath, err)
			}
		}
		return pred, X.Y, sc, format + ", sparse", nil
	}
	if format == fmtLIBSVM && c.Dims() > 0 {
		pred, y, sc, err = predictStream(c, dataPath, df, withScores)
		return pred, y, sc, format, err
	}
	d, format, err := loadData[T](dataPath, df, c.Dims(), "the model")
	if err != nil {
		return nil, nil, nil, "", err
	}
	if pred, err = predictAll(c, d); err != nil {
		return nil, nil, nil, "", fmt.Errorf("%s: %w", dataPath, err)
	}
	if withScores {
		sc = make([]T, d.Rows*c.NumScores())
		if err := c.ScoresBatch(sc, d.X); err != nil {
			return nil, nil, nil, "", fmt.Errorf("%s: %w", dataPath, err)
		}
	}
	return pred, d.Y, sc, format, nil
}

// streamRows is the number of rows predictStream reads at a time.
const streamRows = 4096

// predictStream is predictFile for a LIBSVM file read dense with the
// model's width: the rows are predicted a block at a time as they are
// read (dataset.ScanLIBSVMFile), so that memory is one block's, not the
// whole matrix's, and the rows are predicted while they are in cache.
func predictStream[T kernel.Float](c classifier[T], dataPath string, df *dataFlags, withScores bool) (pred, y []int, sc []T, err error) {
	k := c.NumScores()
	err = dataset.ScanLIBSVMFile(dataPath, dataset.LIBSVMOptions{Cols: c.Dims(), MaxGzipRatio: df.gzipRatio()}, streamRows, func(d *dataset.Data[T]) error {
		n := len(pred)
		pred = append(pred, make([]int, d.Rows)...)
		y = append(y, d.Y...)
		if err := c.PredictBatch(pred[n:], d.X); err != nil {
			return blockErr(dataPath, n, d.Rows, err)
		}
		if withScores {
			sc = append(sc, make([]T, d.Rows*k)...)
			if err := c.ScoresBatch(sc[n*k:], d.X); err != nil {
				return blockErr(dataPath, n, d.Rows, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return pred, y, sc, nil
}

// blockErr names the rows of the block of predictStream that err, whose
// own row numbers count within the block, came from (0-based, as the
// batch methods count).
func blockErr(path string, first, rows int, err error) error {
	return fmt.Errorf("%s: rows %d to %d of the file (the row below counts from %d): %w", path, first, first+rows-1, first, err)
}

// correct counts the predictions equal to the labels.
func correct(pred, y []int) int {
	n := 0
	for i, p := range pred {
		if p == y[i] {
			n++
		}
	}
	return n
}
