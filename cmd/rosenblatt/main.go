// Command rosenblatt is the command line of the rosenblatt library.
//
// Usage:
//
//	rosenblatt                              the same as rosenblatt demo
//	rosenblatt demo [flags]                 train on data embedded in the binary, show accuracy,
//	                                        mistakes against Novikoff's bound, and the kernel path
//	rosenblatt train [flags] DATA           train a model on a LIBSVM, CSV or IDX file (-o FILE):
//	                                        any algorithm of package perceptron (-algo), or the
//	                                        kernel perceptron (-kernel linear|poly|rbf)
//	rosenblatt predict [flags] MODEL DATA   one predicted label per line, to stdout or -o FILE
//	rosenblatt eval [flags] MODEL DATA      accuracy, per-class precision/recall/F1, confusion matrix
//	rosenblatt quantize [flags] IN OUT      the int8 quantised form of a linear model, for predict and eval
//	                                        (or -model IN -o OUT)
//	rosenblatt serve -model FILE [flags]    serve the model's predictions over HTTP, reloading it when it changes
//	rosenblatt serve -models DIR [flags]    serve every model file of DIR by name, each reloaded on its own
//	rosenblatt cpu                          describe this CPU and the kernel implementation in use
//	rosenblatt bench [flags]                measure the roofline; time the kernels against it
//	rosenblatt bench compare A.json B.json  put two bench reports side by side
//
// Run "rosenblatt COMMAND -h" for a command's flags. Flags may come before
// or after the file arguments. Data files are LIBSVM/SVMlight text, CSV
// (-label-col, -header, -sep) or an IDX image file with its IDX label file
// (-labels), optionally gzip-compressed (LIBSVM and CSV to at most 16
// bytes of text per compressed byte, -gzip-ratio); the format follows the
// file name unless -format says it. Errors in a data file name the file, line and
// column. No command writes over an existing file unless given -f, nor
// over one of its input files even with -f.
//
// Exit status: 0 on success, 2 for a usage error (unknown command, bad
// flag or flag value, missing or extra arguments; a bad flag is one line,
// naming the closest flag for an unknown one, the others print the usage), 1
// for any other failure (unreadable or malformed data or model files, data
// that does not fit the model, training that diverged or would exceed its
// memory budget, an output file that exists or is an input, an error writing
// an output file or standard output).
//
// Output files are written atomically (a temporary file in the same
// directory, then renamed); devices and pipes are written in place; an
// output naming one of the process's descriptors ("-", /dev/stdout,
// /dev/fd/N, /proc/self/fd/N) is written to that descriptor, appending
// where the shell's >> opened it; no command removes a file it did not
// create, nor writes its output into one of its inputs, standard output
// included. See package internal/cli.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/rosenblatt-go/rosenblatt/internal/benchcmd"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/internal/modelcmd"
)

// exit codes
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"demo":     {"train on data embedded in the binary (what runs without arguments)", modelcmd.Demo},
	"train":    {"train a model on a LIBSVM, CSV or IDX data file", modelcmd.Train},
	"predict":  {"predict a label for every row of a data file", modelcmd.Predict},
	"eval":     {"accuracy, per-class precision/recall/F1 and confusion matrix", modelcmd.Eval},
	"convert":  {"convert a model file between the rosenblatt, json, libsvm and liblinear formats", modelcmd.Convert},
	"quantize": {"write the int8 quantised form of a linear model (predict and eval read it)", modelcmd.Quantize},
	"cpu":      {"describe this CPU and the kernel implementation in use", runCPU},
	"bench":    {"measure the roofline, and time the kernels on every implementation against it", benchcmd.Run},
	"serve":    {"serve a model's predictions over HTTP, reloading it when the file changes", runServe},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: rosenblatt <command> [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nwithout a command, rosenblatt runs the demo; run 'rosenblatt <command> -h' for a command's flags")
	fmt.Fprintln(w, "exit status: 0 success, 1 failure (bad data or model file, existing output file, write error), 2 usage error")
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status. Whatever
// goes to stdout passes through an errWriter: a command whose output was
// lost (a full disk, a closed pipe) fails with exit status 1 even if the
// command itself ignored the write error.
func run(args []string, stdout, stderr io.Writer) int {
	if err := cli.KernelSelection(); err != nil {
		fmt.Fprintf(stderr, "rosenblatt: %v\n", err) // a bad ROSENBLATT_KERNEL: said once, then the run goes on
	}
	if len(args) == 0 {
		args = []string{"demo"}
	}
	out := &cli.ErrWriter{W: stdout}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(out)
		if out.Err != nil {
			fmt.Fprintf(stderr, "rosenblatt: writing standard output: %v\n", cli.WithoutPath(out.Err))
			return exitFail
		}
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rosenblatt: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	err := cmd.run(args[1:], out, stderr)
	if out.Err != nil && (err == nil || errors.Is(err, flag.ErrHelp)) {
		err = fmt.Errorf("writing standard output: %w", cli.WithoutPath(out.Err))
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, cli.ErrUsage):
		fmt.Fprintf(stderr, "rosenblatt %s: %v\n", args[0], err)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "rosenblatt %s: %v\n", args[0], err)
		return exitFail
	}
}
