package main

import (
	"errors"
	"flag"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"io"
	"slices"
	"testing"
)

func TestParseArgs(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		names []string
		pos   []string
		o     string
		q     bool
		usage bool // a usage error
	}{
		{"flags first", []string{"-o", "m", "-q", "d"}, []string{"DATA"}, []string{"d"}, "m", true, false},
		{"flags last", []string{"d", "-o", "m", "-q"}, []string{"DATA"}, []string{"d"}, "m", true, false},
		{"flags between", []string{"a", "-q", "b", "-o=m"}, []string{"MODEL", "DATA"}, []string{"a", "b"}, "m", true, false},
		{"double dash", []string{"-q", "--", "-o"}, []string{"DATA"}, []string{"-o"}, "", true, false},
		{"missing", []string{"-q"}, []string{"MODEL", "DATA"}, nil, "", true, true},
		{"extra", []string{"a", "b"}, []string{"DATA"}, nil, "", false, true},
		{"bad flag", []string{"a", "-x"}, []string{"DATA"}, nil, "", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := cli.NewFlagSet("t", io.Discard)
			o := fs.String("o", "", "")
			q := fs.Bool("q", false, "")
			pos, err := cli.ParseArgs(fs, c.args, c.names...)
			if c.usage {
				if !errors.Is(err, cli.ErrUsage) {
					t.Fatalf("err = %v, want a usage error", err)
				}
				return
			}
			if err != nil || !slices.Equal(pos, c.pos) || *o != c.o || *q != c.q {
				t.Errorf("pos %q o %q q %v err %v, want %q %q %v nil", pos, *o, *q, err, c.pos, c.o, c.q)
			}
		})
	}
	fs := cli.NewFlagSet("t", io.Discard)
	if _, err := cli.ParseArgs(fs, []string{"-h"}, "DATA"); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: err = %v, want flag.ErrHelp", err)
	}
}
