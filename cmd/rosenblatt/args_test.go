package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestUnknownFlagOneLine: a mistyped flag is one line that names the flag
// meant, exit status 2, and no usage.
func TestUnknownFlagOneLine(t *testing.T) {
	code, out, errOut := runCmd(t, "train", "-epoch", "3")
	want := "rosenblatt train: usage error: unknown flag -epoch; did you mean -epochs? (rosenblatt train -h lists the flags)\n"
	if code != exitUsage || errOut != want || out != "" {
		t.Errorf("train -epoch 3: exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errOut, exitUsage, want)
	}
}

// helpFlag is a flag line of a command's -h output.
var helpFlag = regexp.MustCompile(`(?m)^  -([a-zA-Z0-9][a-zA-Z0-9-]*)`)

// TestUnknownFlagEveryCommand: for every subcommand (and bench compare),
// a flag no command has is one line with no suggestion, and each of its
// flags cut short by a letter, or with two letters swapped, is one line
// suggesting that flag.
func TestUnknownFlagEveryCommand(t *testing.T) {
	var cmds [][]string
	for name := range commands {
		cmds = append(cmds, []string{name})
	}
	cmds = append(cmds, []string{"bench", "compare"})
	slices.SortFunc(cmds, func(a, b []string) int { return strings.Compare(strings.Join(a, " "), strings.Join(b, " ")) })
	for _, cmd := range cmds {
		name := strings.Join(cmd, " ")
		code, _, help := runCmd(t, append(slices.Clone(cmd), "-h")...)
		var flags []string
		for _, m := range helpFlag.FindAllStringSubmatch(help, -1) {
			flags = append(flags, m[1])
		}
		if code != exitOK || len(flags) == 0 && name != "cpu" {
			t.Errorf("%s -h: exit %d, flags %v", name, code, flags)
			continue
		}
		oneLine := func(args []string, want string) {
			t.Helper()
			code, out, errOut := runCmd(t, append(slices.Clone(cmd), args...)...)
			if code != exitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, want) ||
				!strings.Contains(errOut, "rosenblatt "+name+" -h lists the flags") {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", name, args, code, out, errOut, exitUsage, want)
			}
		}
		oneLine([]string{"-qqqqqqqqqq"}, "unknown flag -qqqqqqqqqq (")
		for _, f := range flags {
			if len(f) < 4 {
				continue
			}
			for _, typo := range []string{f[:len(f)-1], f[:1] + f[2:3] + f[1:2] + f[3:]} {
				if slices.Contains(flags, typo) || typo == f {
					continue
				}
				oneLine([]string{"-" + typo, "x"}, "unknown flag -"+typo+"; did you mean -"+f+"?")
			}
		}
	}
}
