package main

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress reports the advance of long work (bench cases, training epochs,
// Gram blocks) to the user. Its methods are safe for concurrent use and do
// nothing on a silent progress, so callers never need to check whether a
// bar is shown.
type progress interface {
	// Add advances the bar by n steps.
	Add(n int)
	// Describe replaces the text shown before the bar, e.g. the case or
	// epoch being run.
	Describe(desc string)
	// Finish completes the bar and erases it, so that what the command
	// prints next starts on a clean line. Call it once, when the work ends
	// (also on error paths; a deferred call is fine).
	Finish()
}

// newProgress returns a progress bar of total steps labelled desc, drawn on
// w when w is a terminal and quiet is false, and a silent progress
// otherwise (a pipe, a file, a test's buffer, or -q). A total ≤ 0 means the
// number of steps is unknown: a spinner is shown instead of a bar.
//
// The bar is github.com/schollz/progressbar/v3, redrawn at most every
// progressThrottle so that fast loops do not spend their time drawing.
func newProgress(total int, desc string, quiet bool, w io.Writer) progress {
	if quiet || w == nil || !isTerminal(w) {
		return silentProgress{}
	}
	return newProgressBar(total, desc, w)
}

// progressThrottle is the shortest interval between two redraws (a
// variable so that tests can draw every step).
var progressThrottle = 80 * time.Millisecond

// newProgressBar returns a visible bar on w, whatever w is.
func newProgressBar(total int, desc string, w io.Writer) progress {
	if total <= 0 {
		total = -1 // progressbar's "length unknown": a spinner
	}
	pb := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(progressThrottle),
		progressbar.OptionClearOnFinish(),
	)
	// Draw the empty bar at once, so that slow first steps show something.
	_ = pb.RenderBlank()
	return &barProgress{pb: pb}
}

// isTerminal reports whether w is a terminal. It is a variable so that tests
// can make a buffer pass for one.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// barProgress is a visible bar. Drawing errors (a closed terminal) are
// ignored: they must not fail the work the bar reports on.
type barProgress struct {
	pb *progressbar.ProgressBar
}

func (b *barProgress) Add(n int) { _ = b.pb.Add(n) }

func (b *barProgress) Describe(desc string) { b.pb.Describe(desc) }

func (b *barProgress) Finish() {
	// Finishing also ends the redraw goroutine of an unknown-length bar.
	if !b.pb.IsFinished() {
		_ = b.pb.Finish()
	}
}

// silentProgress shows nothing.
type silentProgress struct{}

func (silentProgress) Add(int)         {}
func (silentProgress) Describe(string) {}
func (silentProgress) Finish()         {}
