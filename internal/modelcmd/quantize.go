package modelcmd

import (
	"errors"
	"fmt"
	"io"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// The quantize subcommand:
//
//	rosenblatt quantize [flags] IN OUT
//	rosenblatt quantize IN -o OUT
//	rosenblatt quantize -model IN -o OUT
//
// writes the int8 quantised form of the linear model IN (binary or JSON,
// float32 or float64, any kind and algorithm) to OUT, atomically,
// never over an existing file without -f nor over IN. predict and eval
// read the result like any model file.

// errNotQuantizable marks a model quantize cannot convert.
var errNotQuantizable = errors.New("cannot quantise this model")

func runQuantize(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("quantize", stderr)
	in := fs.String("model", "", "the linear model `file` to quantise (IN: the first argument, if not given here)")
	out := fs.String("o", "", "the quantised model `file` to write (OUT: the last argument, if not given here)")
	force := fs.Bool("f", false, "overwrite OUT if it exists")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt quantize [flags] IN OUT   (or IN -o OUT, or -model IN -o OUT)\n\n")
		fmt.Fprintf(stderr, "Writes the int8 quantised form of the linear model IN (int8 weights with one scale per class,\n")
		fmt.Fprintf(stderr, "samples quantised per vector when predicting) to OUT; predict and eval read it.\n\nflags:\n")
		fs.PrintDefaults()
	}
	// The files are arguments, like every command's, or flags: each of IN
	// and OUT given once, by one or the other.
	pos, err := cli.ParseArgsUpTo(fs, args, "IN", "OUT")
	if err != nil {
		return err
	}
	var open []*string // IN and OUT, if no flag gave them
	for _, s := range []*string{in, out} {
		if *s == "" {
			open = append(open, s)
		}
	}
	if len(pos) > len(open) {
		fs.Usage()
		return fmt.Errorf("%w: unexpected argument %q (IN and OUT are given by -model and -o)", cli.ErrUsage, pos[len(open)])
	}
	for i, p := range pos {
		*open[i] = p
	}
	switch {
	case *in == "":
		return fmt.Errorf("%w: -model is required (or IN, the first argument)", cli.ErrUsage)
	case *out == "":
		return fmt.Errorf("%w: -o is required (or OUT, the last argument)", cli.ErrUsage)
	}
	std := cli.Stdio{Out: stdout, Err: stderr}
	if err := std.CheckWritable(*out, *force, *in); err != nil {
		return err
	}
	lm, err := loadModel(*in)
	if err != nil {
		return err
	}
	var q *quant.Model
	switch m := anyModel(lm).(type) {
	case *linear.Model[float32]:
		q, err = quant.New(m)
	case *linear.Model[float64]:
		q, err = quant.New(m)
	case *quant.Model:
		return fmt.Errorf("%s: %w: it is quantised already", *in, errNotQuantizable)
	default:
		return fmt.Errorf("%s: %w: %s (only linear models are quantised: perceptrons and linear SVMs)", *in, errNotQuantizable, lm.desc)
	}
	if err != nil {
		return fmt.Errorf("%s: %w: %w", *in, errNotQuantizable, err)
	}
	data, err := q.MarshalBinary()
	if err != nil {
		return err
	}
	return std.WriteOutput(*out, *force, []string{*in}, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// anyModel returns the model lm holds.
func anyModel(lm *loadedModel) any {
	if lm.m64 != nil {
		return lm.m64
	}
	return lm.m32
}
