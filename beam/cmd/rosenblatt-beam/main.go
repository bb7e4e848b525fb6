// Command rosenblatt-beam trains a perceptron past one machine, by
// iterative parameter mixing on Apache Beam (package ipm), or the linear
// SVM by CoCoA, and writes a model file that the rosenblatt command's
// predict and eval read.
//
//	rosenblatt-beam train -cols 784 -shards 4 -epochs 10 -algo averaged \
//	    -o model.bin 'data/part-*.svm'
//
// Flags shared with the rosenblatt command's train are spelled alike
// (-algo, -o, -cols, -epochs, -eta, -C, -seed, -format, -type, -f); the
// earlier spellings -algorithm, -out and -dims are still accepted.
//
// The runner is Beam's usual flag: --runner=prism (the default: in this
// process), or --runner=flink / --runner=spark with --endpoint=host:8099 (a
// Beam job server), or --runner=dataflow with --project, --region,
// --staging_location and --temp_location; --job_name and every other Beam
// pipeline flag is accepted. Input patterns and -o may be on any Beam
// filesystem the binary includes (local files, gs://).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/rosenblatt-go/rosenblatt/beam/ipm"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

const usage = `usage: rosenblatt-beam train [flags] -cols D -o MODEL PATTERN...

Trains the online or averaged perceptron by iterative parameter mixing
(McDonald, Hall & Mann 2010), or the linear SVM (L1 loss) by CoCoA (Jaggi
et al. 2014; CoCoA+, Ma et al. 2015), on Apache Beam and writes MODEL in
the rosenblatt model format (and MODEL.ipm.json, the epochs' report).

Flags of train:
  -cols D            number of features (required)
  -o MODEL           model file to write (required; any Beam filesystem)
  -shards S          shards (default 4): each shard trains in one worker's memory
  -epochs E          epochs (default 10): all run
  -algo A            online, averaged or svm (default averaged)
  -mixing M          perceptrons: uniform or mistakes; svm: uniform (CoCoA's
                     averaging) or adding (CoCoA+) (default uniform)
  -eta η             step size of the perceptrons (default 1)
  -C c               svm: C of ½‖w‖² + C·Σ hinge, LIBLINEAR's convention (default 1)
  -seed n            svm: seed of the shards' visiting orders (default 0)
  -format F          libsvm or csv (label first, no header) (default libsvm)
  -type T            float32 or float64 (default float32)
  -max-model-mb M    the most memory (MiB) the model may take in a worker, at 32 bytes a
                     value of classes × (D+1) (default 4096): a larger -cols is refused
                     before anything is allocated
  -f                 replace an existing MODEL (and its report)
  -v                 show Beam's informational log (default: warnings only)

Beam flags: --runner=prism|flink|spark|dataflow (default prism, in-process),
--endpoint (Flink/Spark job server), --project, --region, --temp_location,
--staging_location, --job_name, ... (see the README).
`

var (
	dims      = alias(flag.Int("cols", 0, "number of features"), "cols", "dims")
	out       = alias(flag.String("o", "", "model file to write"), "o", "out")
	shards    = flag.Int("shards", 4, "shards")
	epochs    = flag.Int("epochs", 10, "epochs")
	algorithm = alias(flag.String("algo", "averaged", "online, averaged or svm"), "algo", "algorithm")
	mixing    = flag.String("mixing", "uniform", "uniform or mistakes")
	eta       = flag.Float64("eta", 1, "step size")
	svmC      = flag.Float64("C", 1, "SVM constant C")
	seed      = flag.Uint64("seed", 0, "SVM seed")
	format    = flag.String("format", "libsvm", "libsvm or csv")
	typ       = flag.String("type", "float32", "float32 or float64")
	force     = flag.Bool("f", false, "replace an existing model file")
	maxModel  = flag.Int64("max-model-mb", ipm.DefaultMaxModelBytes>>20, "most memory of the model in a worker, MiB")
	verbose   = flag.Bool("v", false, "show Beam's log")
)

// alias defines old as a second name of the flag name, whose value p
// points to (old is its spelling before the flags were named as the
// rosenblatt command's; the usage does not list it), and returns p.
func alias[T any](p *T, name, old string) *T {
	flag.Var(flag.Lookup(name).Value, old, "the earlier name of -"+name)
	return p
}

func main() {
	// A Beam worker runs this binary with Beam's own flags and no
	// subcommand: beam.Init takes over in that case.
	train := len(os.Args) > 1 && os.Args[1] == "train"
	flag.Usage = func() { fmt.Fprint(os.Stderr, usage) }
	if train {
		_ = flag.CommandLine.Parse(os.Args[2:])
	} else {
		flag.Parse()
	}
	if !*verbose {
		slog.SetLogLoggerLevel(slog.LevelWarn)
	}
	beam.Init()
	if !train {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if err := run(context.Background(), flag.Args(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rosenblatt-beam:", err)
		if errors.Is(err, ipm.ErrConfig) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, patterns []string, stdout io.Writer) error {
	alg, err := linear.ParseAlgorithm(*algorithm)
	if err != nil {
		return fmt.Errorf("%w: %v", ipm.ErrConfig, err)
	}
	mx, err := ipm.ParseMixing(*mixing)
	if err != nil {
		return err
	}
	cfg := ipm.Config{Inputs: patterns, Format: *format, Dims: *dims, Type: *typ, Algorithm: alg,
		Mixing: mx, Shards: *shards, Epochs: *epochs, Eta: *eta, C: *svmC, Seed: *seed, Output: *out, Overwrite: *force}
	if *maxModel < 1 || *maxModel > math.MaxInt64>>20 {
		return fmt.Errorf("%w: -max-model-mb %d (want 1 to 2⁴³)", ipm.ErrConfig, *maxModel)
	}
	cfg.MaxModelBytes = *maxModel << 20
	start := time.Now()
	rep, err := ipm.Run(ctx, cfg, beamx.Run)
	if err != nil {
		return err
	}
	what := rep.Algorithm + " perceptron"
	if alg == linear.SVM {
		what = fmt.Sprintf("linear SVM (C = %g)", rep.C)
	}
	fmt.Fprintf(stdout, "%d rows from %d files, %d shards, %s, %s mixing, %d epochs in %.1fs\n",
		rep.Rows(), len(rep.Files), rep.Shards, what, rep.Mixing, rep.Epochs, time.Since(start).Seconds())
	for _, e := range rep.History {
		k := 0
		for _, s := range e.Shards {
			k += s.Mistakes
		}
		if alg == linear.SVM {
			fmt.Fprintf(stdout, "epoch %d: %d margins ≤ 0, dual objective %.6g\n", e.Epoch, k, e.Dual)
		} else {
			fmt.Fprintf(stdout, "epoch %d: %d mistakes\n", e.Epoch, k)
		}
	}
	if alg == linear.SVM {
		fmt.Fprintf(stdout, "primal %.6g, duality gap %.3g (%.2g of the primal)\n", rep.Primal, rep.Gap, rep.Gap/rep.Primal)
	}
	fmt.Fprintf(stdout, "wrote %s (report %s.ipm.json)\n", *out, *out)
	return nil
}
