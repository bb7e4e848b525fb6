// Package cli is the command-line plumbing shared by the commands of the
// module: flag parsing with flags before or after the file arguments and
// the closest flag named for an unknown one, a progress bar, output files
// written atomically (or to a descriptor, device or pipe in place) never
// over an input, and input files read within a bound.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// ErrUsage marks errors that are the caller's misuse of the command line.
var ErrUsage = errors.New("usage error")

// NewFlagSet returns a flag set that reports errors instead of exiting, with
// usage going to stderr.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("rosenblatt "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// ParseFlags parses args, which must all be flags (see ParseOnce).
func ParseFlags(fs *flag.FlagSet, args []string) error {
	if err := ParseOnce(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", ErrUsage, fs.Arg(0))
	}
	return nil
}

// ParseArgs parses args with fs, allowing flags before, between and after
// the positional arguments ("train data.libsvm -o m.model" as well as
// "train -o m.model data.libsvm"); everything after "--" is positional. It
// returns the positional arguments, which must be exactly as many as
// names (named in the error otherwise, after fs's usage). Errors are
// usage errors, except flag.ErrHelp for -h; a bad flag is one line (see
// ParseOnce).
func ParseArgs(fs *flag.FlagSet, args []string, names ...string) ([]string, error) {
	pos, err := ParseArgsUpTo(fs, args, names...)
	if err == nil && len(pos) < len(names) {
		fs.Usage()
		return nil, fmt.Errorf("%w: missing %s", ErrUsage, strings.Join(names[len(pos):], " and "))
	}
	return pos, err
}

// ParseArgsUpTo is ParseArgs for a command whose files may be given by
// flags instead (quantize's -model and -o): it returns at most
// len(names) positional arguments, and fewer without complaint.
func ParseArgsUpTo(fs *flag.FlagSet, args []string, names ...string) ([]string, error) {
	var pos []string
	for {
		if err := ParseOnce(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	if len(pos) > len(names) {
		fs.Usage()
		return nil, fmt.Errorf("%w: unexpected argument %q", ErrUsage, pos[len(names)])
	}
	return pos, nil
}

// ParseOnce is fs.Parse(args) with the errors of every subcommand: -h
// prints fs's usage and returns flag.ErrHelp; any other parse error is a
// usage error of one line, without the usage the flag package would print
// before it: an unknown flag names the closest defined one (by edit
// distance), if one is close, and how to list them all.
func ParseOnce(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		usage() // flag.NewFlagSet sets one
		return err
	}
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, undefined); ok {
		msg = fmt.Sprintf("unknown flag -%s", name)
		if near := closestFlag(fs, name); near != "" {
			msg += fmt.Sprintf("; did you mean -%s?", near)
		}
	}
	return fmt.Errorf("%w: %s (%s -h lists the flags)", ErrUsage, msg, fs.Name())
}

// closestFlag returns the flag of fs nearest to name by edit distance
// (editDistance): at most a third of the longer name, or 1, and less than
// the shorter one's length (no suggestion of -o for -x); ties go to a
// flag that begins with name (a flag cut short), then to the first in
// lexical order. It returns "" when no flag is that close.
func closestFlag(fs *flag.FlagSet, name string) string {
	best, bestD := "", 0
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(name, f.Name)
		if d > max(1, max(len(name), len(f.Name))/3) || d >= min(len(name), len(f.Name)) {
			return
		}
		better := best == "" || d < bestD ||
			d == bestD && strings.HasPrefix(f.Name, name) && !strings.HasPrefix(best, name)
		if better {
			best, bestD = f.Name, d
		}
	})
	return best
}

// editDistance is the optimal string alignment distance between a and b
// (Damerau's extension of Levenshtein's: insertions, deletions,
// substitutions and transpositions of adjacent bytes, each costing one,
// with no substring edited twice), by dynamic programming over three
// rows.
func editDistance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
