package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

func TestRunExitCodes(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		code     int
		inStdout []string
		inStderr []string
	}{
		{"no arguments runs the demo", nil, exitOK, []string{"kernel path: " + kernel.ActiveImpl().Name(), "test accuracy:", "R²/γ²"}, nil},
		{"help", []string{"help"}, exitOK, []string{"commands:", "cpu"}, nil},
		{"unknown command", []string{"frobnicate"}, exitUsage, nil, []string{`unknown command "frobnicate"`}},
		{"cpu", []string{"cpu"}, exitOK, []string{"vendor:", "L1 cache:", "kernel " + kernel.ActiveImpl().Name() + ":", "ACTIVE", "int8 " + kernel.ActiveImpl().Int8().Name() + ":", "in use"}, nil},
		{"cpu bad flag", []string{"cpu", "-nope"}, exitUsage, nil, []string{"unknown flag -nope"}},
		{"cpu stray argument", []string{"cpu", "extra"}, exitUsage, nil, []string{`unexpected argument "extra"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(c.args, &out, &errb); code != c.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out.String(), errb.String())
			}
			for _, s := range c.inStdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range c.inStderr {
				if !strings.Contains(errb.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, errb.String())
				}
			}
		})
	}
}
