package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

func runCPU(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("cpu", stderr)
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	c := cpuid.CPU
	w := func(k, f string, a ...any) { fmt.Fprintf(stdout, "%-18s "+f+"\n", append([]any{k + ":"}, a...)...) }
	w("brand", "%s", cli.OrUnknown(c.BrandName))
	w("vendor", "%s", cli.OrUnknown(c.VendorString))
	w("family/model", "%d / %d (stepping %d)", c.Family, c.Model, c.Stepping)
	w("architecture", "%s/%s", runtime.GOOS, runtime.GOARCH)
	w("cores", "%d physical, %d logical, %d threads per core (GOMAXPROCS %d)",
		c.PhysicalCores, c.LogicalCores, c.ThreadsPerCore, runtime.GOMAXPROCS(0))
	if hz := c.Hz; hz > 0 {
		w("frequency", "%.2f GHz (base; boost %.2f GHz)", float64(hz)/1e9, float64(c.BoostFreq)/1e9)
	} else {
		w("frequency", "unknown (the CPU does not report it)")
	}
	w("L1 cache", "%s data, %s instruction (per core)", cli.CacheSize(c.Cache.L1D), cli.CacheSize(c.Cache.L1I))
	w("L2 cache", "%s", cli.CacheSize(c.Cache.L2))
	w("L3 cache", "%s", cli.CacheSize(c.Cache.L3))
	w("features", "%s", wrap(strings.Join(c.FeatureSet(), " "), 60, 19))
	fmt.Fprintln(stdout)
	for _, im := range kernel.Impls() {
		state := "not supported by this CPU"
		if im.Available() {
			state = "available"
		}
		if im == kernel.ActiveImpl() {
			state = "ACTIVE (used for Dot, SqDist, Axpy, Scale, MatVec, Dots)"
		}
		w("kernel "+im.Name(), "%s", state)
	}
	for _, im := range kernel.Impls() {
		for _, v := range im.Int8Impls() {
			state := "not supported by this CPU"
			if v.Available() {
				state = "available"
			}
			if v == kernel.ActiveImpl().Int8() {
				state = "in use (DotU8I8, DotI8, DotsU8I8, DotsI8 within " + kernel.ActiveImpl().Name() + ")"
			}
			w("int8 "+v.Name(), "%s", state)
		}
	}
	if err := cli.KernelSelection(); err != nil {
		w("warning", "%v", err)
	}
	return nil
}

// wrap breaks s into lines of at most width characters, indenting the
// continuation lines by indent spaces.
func wrap(s string, width, indent int) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(s) {
		if i > 0 {
			if line+1+len(word) > width {
				b.WriteString("\n" + strings.Repeat(" ", indent))
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(word)
		line += len(word)
	}
	return b.String()
}
