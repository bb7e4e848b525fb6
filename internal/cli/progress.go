package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress reports the advance of long work (bench cases, training epochs,
// Gram blocks) to the user. Its methods are safe for concurrent use and do
// nothing on a silent progress, so callers never need to check whether a
// bar is shown.
type Progress interface {
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

// NewProgress returns a progress bar of total steps labelled desc, drawn on
// w when w is a terminal and quiet is false, and a silent Progress
// otherwise (a pipe, a file, a test's buffer, or -q). A total ≤ 0 means the
// number of steps is unknown: a spinner is shown instead of a bar.
//
// The bar is one line redrawn in place with a carriage return, at most
// every ProgressThrottle so that fast loops do not spend their time
// drawing. It is drawn here rather than by a progress-bar module: such
// modules bring a terminal and Unicode-width stack into the command's first
// build for one line of output.
func NewProgress(total int, desc string, quiet bool, w io.Writer) Progress {
	if quiet || w == nil || !IsTerminal(w) {
		return silentProgress{}
	}
	return NewProgressBar(total, desc, w)
}

// ProgressThrottle is the shortest interval between two redraws (a
// variable so that tests can draw every step).
var ProgressThrottle = 80 * time.Millisecond

// barWidth is the number of cells of a bar of known length.
const barWidth = 30

// NewProgressBar returns a visible bar on w, whatever w is.
func NewProgressBar(total int, desc string, w io.Writer) Progress {
	b := &barProgress{w: w, total: max(total, 0), desc: desc, start: time.Now()}
	// Draw the empty bar at once, so that slow first steps show something.
	b.mu.Lock()
	b.draw(b.start)
	b.mu.Unlock()
	return b
}

// IsTerminal reports whether w is a terminal. It is a variable so that tests
// can make a buffer pass for one.
var IsTerminal = func(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && fdIsTerminal(f.Fd())
}

// barProgress is a visible bar. Drawing errors (a closed terminal) are
// ignored: they must not fail the work the bar reports on.
type barProgress struct {
	mu       sync.Mutex
	w        io.Writer
	total    int // 0: unknown, a spinner
	n        int
	desc     string
	start    time.Time
	last     time.Time // the last redraw
	drawn    int       // the width of the line last drawn, to erase it
	spin     int
	finished bool
}

func (b *barProgress) Add(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.n += n
	now := time.Now()
	if now.Sub(b.last) >= ProgressThrottle || (b.total > 0 && b.n >= b.total) {
		b.draw(now)
	}
}

func (b *barProgress) Describe(desc string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.desc = desc
	b.draw(time.Now())
}

func (b *barProgress) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.finished = true
	// Erase the line: blanks over what was drawn, then back to its start.
	io.WriteString(b.w, "\r"+strings.Repeat(" ", b.drawn)+"\r")
}

// draw writes the bar's line; the caller holds b.mu.
func (b *barProgress) draw(now time.Time) {
	b.last = now
	var line string
	if b.total <= 0 {
		const frames = `|/-\`
		b.spin = (b.spin + 1) % len(frames)
		line = fmt.Sprintf("%s %c %d", b.desc, frames[b.spin], b.n)
	} else {
		n := min(b.n, b.total)
		full := n * barWidth / b.total
		line = fmt.Sprintf("%s [%s%s] (%d/%d)", b.desc,
			strings.Repeat("=", full), strings.Repeat(" ", barWidth-full), n, b.total)
		if el := now.Sub(b.start); n > 0 && n < b.total && el > time.Second {
			left := time.Duration(float64(el) * float64(b.total-n) / float64(n))
			line += fmt.Sprintf(" %s left", left.Round(time.Second))
		}
	}
	pad := ""
	if w := len([]rune(line)); w < b.drawn {
		pad = strings.Repeat(" ", b.drawn-w)
	} else {
		b.drawn = w
	}
	io.WriteString(b.w, "\r"+line+pad)
}

// silentProgress shows nothing.
type silentProgress struct{}

func (silentProgress) Add(int)         {}
func (silentProgress) Describe(string) {}
func (silentProgress) Finish()         {}
