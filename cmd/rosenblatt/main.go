// Command rosenblatt is the command line of the rosenblatt library.
//
// Usage:
//
//	rosenblatt cpu     describe this CPU and the kernel implementation in use
//
// Exit status: 0 on success, 2 for a usage error (unknown subcommand or bad
// flag), 1 for any other failure.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// exit codes
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// errUsage marks errors that are the caller's misuse of the command line.
var errUsage = errors.New("usage error")

type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"cpu":   {"describe this CPU and the kernel implementation in use", runCPU},
	"bench": {"time the kernels on every implementation against the estimated peak", runBench},
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
	fmt.Fprintln(w, "\nrun 'rosenblatt <command> -h' for a command's flags")
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rosenblatt: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	err := cmd.run(args[1:], stdout, stderr)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "rosenblatt %s: %v\n", args[0], err)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "rosenblatt %s: %v\n", args[0], err)
		return exitFail
	}
}

// newFlagSet returns a flag set that reports errors instead of exiting, with
// usage going to stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("rosenblatt "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args, wrapping a parse error as a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}
