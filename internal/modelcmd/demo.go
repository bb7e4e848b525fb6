package modelcmd

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"github.com/klauspost/cpuid/v2"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// The demo subcommand, also what runs without arguments: a perceptron on
// a small real data set embedded in the binary (the Wisconsin breast
// cancer data, standardised; see data/README.md for its origin and
// licence), then Rosenblatt's perceptron on synthetic separable data, where
// Novikoff's mistake bound R²/γ² applies, and the kernel path in use. The
// bound printed next to the mistakes is the theorem's for the run: R′²/γ′²
// on the points the perceptron trains on (the augmented (x, 1) with a
// bias).

//go:embed data/breast_cancer_std.train.libsvm
var demoTrain []byte

//go:embed data/breast_cancer_std.test.libsvm
var demoTest []byte

// demoCols is the feature count of the breast cancer data.
const demoCols = 30

// demoSynth is the synthetic separable set of the demo's second part.
var demoSynth = dataset.SynthOptions{D: 64, Seed: 42, Gamma: 1, NTrain: 2000, NTest: 1000}

// demoMarginTol is the tolerance of the demo's hard-margin solve: γ_D to
// about 10⁻³ relative in a second or two (10⁻⁶ takes ten times as long).
const demoMarginTol = 1e-3

func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("demo", stderr)
	algo := fs.String("algo", "averaged", "`algorithm` for the breast cancer data: online, batch, minibatch, averaged, voted, pegasos")
	epochs := fs.Int("epochs", 20, "number of `epochs` on the breast cancer data")
	seed := fs.Uint64("seed", 1, "shuffling `seed` for the breast cancer data")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt demo [flags]\n\n")
		fmt.Fprintf(stderr, "Trains on the breast cancer data embedded in this binary and prints the test accuracy,\n")
		fmt.Fprintf(stderr, "then shows the perceptron's mistakes against Novikoff's bound on separable data, with the\n")
		fmt.Fprintf(stderr, "data's own maximum margin γ_D from the exact hard-margin SVM.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	name := *algo
	if name == "pegasos" {
		name = "svm" // package perceptron's name for Pegasos
	} else if name == "svm" {
		return fmt.Errorf("%w: -algo svm: the demo trains perceptrons and Pegasos (-algo pegasos); rosenblatt train -algo svm runs the exact SVM", cli.ErrUsage)
	}
	a, err := linear.ParseAlgorithm(name)
	if err != nil {
		return fmt.Errorf("%w: -algo %q: want one of online, batch, minibatch, averaged, voted, pegasos", cli.ErrUsage, *algo)
	}
	if *epochs < 1 {
		return fmt.Errorf("%w: -epochs %d: want at least 1", cli.ErrUsage, *epochs)
	}
	start := time.Now()
	fmt.Fprintf(stdout, "rosenblatt demo: perceptrons on this CPU's SIMD kernels\n\n")
	fmt.Fprintf(stdout, "kernel path: %s (%s, %s)\n\n", kernel.ActiveImpl().Name(), cli.OrUnknown(cpuid.CPU.BrandName), hostArch())
	if err := demoBreastCancer(stdout, a, *epochs, *seed); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if err := demoSeparable(stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\ndone in %v. Next: rosenblatt train -h, rosenblatt cpu, rosenblatt bench -quick\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// hostArch names the build's architecture.
func hostArch() string {
	return runtime.GOOS + "/" + runtime.GOARCH + cli.Purego
}

// demoBreastCancer trains on the embedded breast cancer data and prints the
// mistakes per epoch and the test accuracy.
func demoBreastCancer(w io.Writer, algo linear.Algorithm, epochs int, seed uint64) error {
	train, err := dataset.ReadLIBSVM[float32](bytes.NewReader(demoTrain),
		dataset.LIBSVMOptions{Cols: demoCols, File: "breast_cancer_std.train.libsvm (embedded)"})
	if err != nil {
		return err
	}
	test, err := dataset.ReadLIBSVM[float32](bytes.NewReader(demoTest),
		dataset.LIBSVMOptions{Cols: demoCols, File: "breast_cancer_std.test.libsvm (embedded)"})
	if err != nil {
		return err
	}
	opt := perceptron.Options{Algorithm: algo, MaxIter: epochs, Shuffle: true, Seed: seed}
	t0 := time.Now()
	m, rep, err := perceptron.Fit(context.Background(), train, train.Y, opt)
	if err != nil {
		return err
	}
	diag := rep.Detail.(*perceptron.Diagnostics)
	took := time.Since(t0)
	fmt.Fprintf(w, "1. Breast cancer (Wisconsin diagnostic, standardised; embedded): %d training rows, %d test rows, %d features\n",
		train.Rows, test.Rows, train.Cols)
	fmt.Fprintf(w, "   %s, up to %d epochs, shuffled (seed %d)\n\n", algoName(algo), epochs, seed)
	bound := 0.0
	if diag.Separable {
		bound = diag.BoundAugmented
	}
	printMistakes(w, diag.Epochs, bound, "R′²/γ′²")
	if diag.Evaluated && diag.Separable {
		fmt.Fprintf(w, "   the model separates the training data: geometric margin γ = %.3g (|w·x + b|/‖w‖), R = max ‖x‖ = %.3g;\n", diag.Margin, diag.Radius)
		fmt.Fprintf(w, "   on the augmented points (x, 1): γ′ = %.3g (|w·x + b|/‖(w, b)‖), R′ = %.3g, Novikoff's bound R′²/γ′² = %.4g\n",
			diag.MarginAugmented, diag.RadiusAugmented, diag.BoundAugmented)
	} else {
		fmt.Fprintf(w, "   the training data is not linearly separated by the model, so Novikoff's R²/γ² mistake\n")
		fmt.Fprintf(w, "   bound does not apply here (part 2 shows it on separable data)\n")
	}
	pred := make([]int, test.Rows)
	if err := m.PredictBatch(pred, test.X); err != nil {
		return err
	}
	ok := correct(pred, test.Y)
	if diag.Evaluated {
		fmt.Fprintf(w, "   train accuracy: %.2f%%\n", 100*diag.TrainAccuracy)
	}
	fmt.Fprintf(w, "   test accuracy:  %.2f%% (%d/%d)   trained in %v\n", 100*float64(ok)/float64(test.Rows), ok, test.Rows, roundDur(took))
	return nil
}

// demoSeparable runs Rosenblatt's perceptron to convergence on synthetic
// separable data and prints its mistakes against Novikoff's bound R²/γ²,
// computed with the margin γ of the generator's hidden separator, and
// against the tightest bound R²/γ_D², with the data's own maximum margin
// γ_D from the exact hard-margin SVM.
func demoSeparable(w io.Writer) error {
	o := demoSynth
	train, test, err := dataset.SynthSeparable(o)
	if err != nil {
		return err
	}
	// γ of the hidden separator w* and the radius R, in float64: the data
	// has no bias term, so the perceptron trains without one.
	sep := o.Separator()
	var norm2 float64
	for _, v := range sep {
		norm2 += float64(v) * float64(v)
	}
	gamma, radius := math.Inf(1), 0.0
	for i := range train.Rows {
		var dot, xx float64
		for j, v := range train.Row(i) {
			dot += float64(v) * float64(sep[j])
			xx += float64(v) * float64(v)
		}
		gamma = min(gamma, float64(train.Y[i])*dot/math.Sqrt(norm2))
		radius = max(radius, math.Sqrt(xx))
	}
	bound := radius * radius / (gamma * gamma)

	opt := perceptron.Options{Algorithm: linear.Online, MaxIter: 1000, NoBias: true}
	t0 := time.Now()
	m, rep, err := perceptron.Fit(context.Background(), train, train.Y, opt)
	if err != nil {
		return err
	}
	diag := rep.Detail.(*perceptron.Diagnostics)
	took := time.Since(t0)
	fmt.Fprintf(w, "2. Separable data (dataset.SynthSeparable: D = %d, seed %d, |x·w*| ≥ %g): %d training rows, %d test rows\n",
		o.D, o.Seed, o.Gamma, train.Rows, test.Rows)
	fmt.Fprintf(w, "   Rosenblatt's online perceptron, no bias, until an epoch without mistakes\n\n")
	printMistakes(w, diag.Epochs, bound, "R²/γ²")
	fmt.Fprintf(w, "   total mistakes %d ≤ R²/γ² = %.0f (Novikoff: R = %.4g, γ = %.4g of the hidden separator w*)\n",
		diag.Updates, bound, radius, gamma)
	// The data's own maximum margin γ_D, from the exact hard-margin SVM on
	// the same points (no bias, as the perceptron), to 10⁻³ relative: the
	// bracket is printed, and R²/Gamma² bounds R²/γ_D² from above.
	t1 := time.Now()
	mg, err := svm.MaxMargin(context.Background(), train, train.Y, svm.MarginOptions{NoBias: true, Tol: demoMarginTol})
	if err != nil {
		return fmt.Errorf("the data margin: %w", err)
	}
	fmt.Fprintf(w, "   the data's own maximum margin (exact hard-margin SVM, package svm, %v): %.5g ≤ γ_D ≤ %.5g,\n",
		roundDur(time.Since(t1)), mg.Gamma, mg.Upper)
	fmt.Fprintf(w, "   so Novikoff's tightest bound is R²/γ_D² ≤ %.0f: %d mistakes, %.1f%% of it\n", mg.Bound, diag.Updates, 100*float64(diag.Updates)/mg.Bound)
	if diag.Converged {
		fmt.Fprintf(w, "   converged after %d epochs: the model separates the training data", len(diag.Epochs))
		if diag.Separable {
			// No bias: the geometric and the augmented margin coincide.
			fmt.Fprintf(w, " with margin γ = %.3g (its own R²/γ² = %.4g)", diag.Margin, diag.BoundAugmented)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "   not converged after %d epochs\n", len(diag.Epochs))
	}
	pred := make([]int, test.Rows)
	if err := m.PredictBatch(pred, test.X); err != nil {
		return err
	}
	ok := correct(pred, test.Y)
	fmt.Fprintf(w, "   test accuracy:  %.2f%% (%d/%d)   trained in %v\n", 100*float64(ok)/float64(test.Rows), ok, test.Rows, roundDur(took))
	return nil
}

// printMistakes prints the mistakes per epoch, their running total and,
// when bound > 0, Novikoff's bound next to them under the heading name.
// Long runs show their first and last epochs.
func printMistakes(w io.Writer, epochs []perceptron.Epoch, bound float64, name string) {
	if bound > 0 {
		fmt.Fprintf(w, "   %5s %9s %9s %9s\n", "epoch", "mistakes", "total", name)
	} else {
		fmt.Fprintf(w, "   %5s %9s %9s\n", "epoch", "mistakes", "total")
	}
	total := 0
	const head, tail = 8, 3
	for i, e := range epochs {
		total += e.Mistakes
		if len(epochs) > head+tail+1 && i >= head && i < len(epochs)-tail {
			if i == head {
				fmt.Fprintf(w, "   %5s\n", "...")
			}
			continue
		}
		if bound > 0 {
			fmt.Fprintf(w, "   %5d %9d %9d %9.0f\n", e.Epoch, e.Mistakes, total, bound)
		} else {
			fmt.Fprintf(w, "   %5d %9d %9d\n", e.Epoch, e.Mistakes, total)
		}
	}
	fmt.Fprintln(w)
}
