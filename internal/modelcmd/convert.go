package modelcmd

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/model"
)

// The convert subcommand:
//
//	rosenblatt convert -to FORMAT IN OUT
//
// reads the model file IN in any format package model reads (the module's
// binary and JSON files, LIBSVM's and LIBLINEAR's model files, ONNX-ML
// models, told apart by content) and writes it to OUT in FORMAT: rosenblatt
// (the binary format), json, libsvm, liblinear or onnx; atomically, never
// over an existing file without -f nor over IN. A conversion that would
// lose information is refused: a model the format cannot hold (a
// one-vs-rest kernel SVM in LIBSVM's, a perceptron in LIBLINEAR's, a
// normalising or voted perceptron in ONNX's (other perceptrons are written
// as LinearClassifier), an ONNX pipeline's feature steps in any but ONNX), LIBSVM's and SVMClassifier's
// probability parameters and LIBLINEAR's logistic-regression solver
// (without -drop-prob), float64 values that are not float32s in ONNX's
// float32 attributes (without -round32), and the tie order of a LIBSVM file
// whose labels are not increasing in the module's formats (without
// -sorted-ties).

// errLossy marks a conversion refused because it would lose information.
var errLossy = errors.New("the conversion would lose information")

// convertFormats maps the names -to takes to model formats.
var convertFormats = map[string]model.Format{
	"rosenblatt": model.Binary,
	"json":       model.JSON,
	"libsvm":     model.LIBSVM,
	"liblinear":  model.LIBLINEAR,
	"onnx":       model.ONNX,
}

func runConvert(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("convert", stderr)
	to := fs.String("to", "", "the `format` to write: rosenblatt (binary), json, libsvm, liblinear or onnx (required)")
	force := fs.Bool("f", false, "overwrite OUT if it exists")
	maxBytes := fs.Int64("max-model-bytes", 0, "the largest model file IN, in `bytes` (0: package model's default, 1 GiB)")
	dropProb := fs.Bool("drop-prob", false, "convert a LIBSVM model with probability parameters (probA, probB) or a LIBLINEAR logistic regression, dropping its probability estimates")
	round32 := fs.Bool("round32", false, "-to onnx: write a float64 model's values rounded to float32 (ONNX-ML's attribute type) instead of refusing values that are not float32s")
	sortedTies := fs.Bool("sorted-ties", false, "convert a LIBSVM model whose labels are not in increasing order to the rosenblatt or json format, breaking vote ties in increasing label order")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt convert -to FORMAT IN OUT\n\n")
		fmt.Fprintf(stderr, "Reads the model file IN (rosenblatt binary or JSON, LIBSVM, LIBLINEAR or ONNX-ML, told apart by content)\n")
		fmt.Fprintf(stderr, "and writes it to OUT in FORMAT, refusing a conversion that would lose information.\n\nflags:\n")
		fs.PrintDefaults()
	}
	pos, err := cli.ParseArgs(fs, args, "IN", "OUT")
	if err != nil {
		return err
	}
	format, ok := convertFormats[*to]
	switch {
	case *to == "":
		return fmt.Errorf("%w: -to is required (rosenblatt, json, libsvm, liblinear or onnx)", cli.ErrUsage)
	case !ok:
		return fmt.Errorf("%w: -to %q: want rosenblatt, json, libsvm, liblinear or onnx", cli.ErrUsage, *to)
	case *round32 && format != model.ONNX:
		return fmt.Errorf("%w: -round32 is for -to onnx", cli.ErrUsage)
	case *maxBytes < 0:
		return fmt.Errorf("%w: -max-model-bytes must not be negative", cli.ErrUsage)
	}
	in, out := pos[0], pos[1]
	std := cli.Stdio{Out: stdout, Err: stderr}
	if err := std.CheckWritable(out, *force, in); err != nil {
		return err
	}
	opts := model.Options{MaxBytes: *maxBytes, Flag: "-max-model-bytes"}
	data, err := opts.ReadFile(in)
	if err != nil {
		return err
	}
	if err := lossless(data, *dropProb); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	m, err := model.Unmarshal(data)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if v, ok := m.(*interop.Voting); ok && (format == model.Binary || format == model.JSON) {
		if !*sortedTies {
			return fmt.Errorf("%s: %w: its labels are not in increasing order, and svm-predict breaks vote ties in their order, which the %s format does not hold (-sorted-ties converts it breaking ties in increasing label order)", in, errLossy, *to)
		}
		m = v.Model
	}
	var text []byte
	if format == model.ONNX && *round32 {
		text, err = interop.MarshalONNX(m, &interop.ONNXOptions{Round: true})
	} else {
		text, err = model.Marshal(m, format)
	}
	if errors.Is(err, interop.ErrUnsupported) && strings.Contains(err.Error(), "float32") {
		return fmt.Errorf("%s: %w: %w (-round32 rounds them)", in, errLossy, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return std.WriteOutput(out, *force, []string{in}, func(w io.Writer) error {
		_, err := w.Write(text)
		return err
	})
}

// lossless refuses a LIBSVM or LIBLINEAR file whose probability estimates
// no other file holds, unless drop is set.
func lossless(data []byte, drop bool) error {
	if drop {
		return nil
	}
	switch s := string(data[:min(len(data), 12)]); {
	case strings.HasPrefix(s, interop.LIBSVMPrefix):
		f, err := interop.ReadLIBSVM(data, nil)
		if err == nil && f.ProbA != nil {
			return fmt.Errorf("%w: it has probability parameters (probA, probB) that no written model keeps (-drop-prob converts it without them)", errLossy)
		}
	case interop.IsONNX(data):
		f, err := interop.ReadONNX(data, nil)
		if err == nil && f.ProbA != nil {
			return fmt.Errorf("%w: its SVMClassifier has probability parameters (prob_a, prob_b) that no written model keeps (-drop-prob converts it without them)", errLossy)
		}
	case strings.HasPrefix(s, interop.LIBLINEARPrefix):
		f, err := interop.ReadLIBLINEAR(data)
		if err == nil && slices.Contains([]string{"L2R_LR", "L1R_LR", "L2R_LR_DUAL"}, f.Solver) {
			return fmt.Errorf("%w: it is a logistic regression (%s), whose probability estimates no written model keeps (-drop-prob converts it without them)", errLossy, f.Solver)
		}
	}
	return nil
}
