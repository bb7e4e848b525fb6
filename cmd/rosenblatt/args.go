package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
)

// parseArgs parses args with fs, allowing flags before, between and after
// the positional arguments ("train data.libsvm -o m.model" as well as
// "train -o m.model data.libsvm"); everything after "--" is positional. It
// returns the positional arguments, which must be exactly as many as
// names (named in the error otherwise, after fs's usage, as the flag
// package prints it for a bad flag). Errors are usage errors, except
// flag.ErrHelp for -h.
func parseArgs(fs *flag.FlagSet, args []string, names ...string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
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
	var err error
	switch {
	case len(pos) < len(names):
		err = fmt.Errorf("%w: missing %s", errUsage, strings.Join(names[len(pos):], " and "))
	case len(pos) > len(names):
		err = fmt.Errorf("%w: unexpected argument %q", errUsage, pos[len(names)])
	}
	if err != nil {
		fs.Usage()
		return nil, err
	}
	return pos, nil
}
