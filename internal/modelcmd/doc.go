// Package modelcmd holds the subcommands of command rosenblatt that train,
// apply and rewrite models: demo, train, predict, eval, convert and
// quantize (each a function of the command's arguments and output
// writers; see the command's documentation for their flags and exit
// statuses), and bench's training and Gram cases (its init sets
// benchcmd.Fit and benchcmd.Gram).
//
// They live outside package main for the first build's sake. Go compiles
// a generic function's instantiations, and every generic method and
// function they reach, in each package that instantiates it: these
// commands train and predict with both element types, so the package
// compiles perceptron.Fit, FitKernel, the SVMs and the linear and
// expansion models' methods for float32 and float64, the most compile
// work of any package of the module. Package main is compiled last, after
// everything it imports, with nothing else to do beside it; this package
// does not import package serve (the serve subcommand's), so the go
// command compiles the two side by side, and package main, left with the
// command table, cpu and serve, takes a fraction of a second
// (bench/results/cli/compile-profile-modelcmd-zen3.txt).
package modelcmd

import (
	"io"

	"github.com/rosenblatt-go/rosenblatt/model"
)

// Demo runs the demo subcommand (what runs without arguments).
func Demo(args []string, stdout, stderr io.Writer) error { return runDemo(args, stdout, stderr) }

// Train runs the train subcommand.
func Train(args []string, stdout, stderr io.Writer) error { return runTrain(args, stdout, stderr) }

// Predict runs the predict subcommand.
func Predict(args []string, stdout, stderr io.Writer) error { return runPredict(args, stdout, stderr) }

// Eval runs the eval subcommand.
func Eval(args []string, stdout, stderr io.Writer) error { return runEval(args, stdout, stderr) }

// Convert runs the convert subcommand.
func Convert(args []string, stdout, stderr io.Writer) error { return runConvert(args, stdout, stderr) }

// Quantize runs the quantize subcommand.
func Quantize(args []string, stdout, stderr io.Writer) error {
	return runQuantize(args, stdout, stderr)
}

// LoadModel reads the model file at path as the subcommands do (bounded
// by cli.MaxModel where its size is not known; errors name the file), for
// the command's tests.
func LoadModel(path string) (model.Model, error) {
	lm, err := loadModel(path)
	if err != nil {
		return nil, err
	}
	return lm.m, nil
}

// SmallDemo makes the demo's separable part train and test on 500 rows
// each instead of 2000 and 1000, for the command's tests in a small run
// (package smalltest).
func SmallDemo() { demoSynth.NTrain, demoSynth.NTest = 500, 500 }
