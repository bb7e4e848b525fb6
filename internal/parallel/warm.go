package parallel

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Warm helpers: up to GOMAXPROCS−1 (at most MaxHelpers) persistent
// goroutines that take parts of a batch only while they are warm, i.e.
// spinning on an atomic right after a job or a kick, so that handing them
// a part costs no futex wake-up. A caller that finds none warm runs its
// batch alone and kicks the parked ones, so that its next batch, if it
// comes within SpinWindow, is split. While warm and idle, a helper burns
// at most SpinWindow of CPU time after each batch or kick (yielding with
// runtime.Gosched at every check, so it never keeps another goroutine
// from running on its P), then parks on a channel. The helpers live as
// long as the process; with GOMAXPROCS 1 or Disable(true) none is used.

// MaxHelpers bounds the number of warm helpers.
const MaxHelpers = 7

// SpinWindow is how long an idle helper spins, waiting for a part, before
// it parks.
const SpinWindow = 50 * time.Microsecond

// spinCheck is the number of loads of its state between a spinning
// helper's clock checks and yields (runtime.Gosched): about a microsecond.
const spinCheck = 1024

// helper states.
const (
	parked   int32 = iota // blocked on wake
	kicked                // sent a wake-up, not yet spinning
	idle                  // spinning: warm, may be claimed
	claimed               // claimed by a caller that is writing its job
	running               // job published
	finished              // job ended, results not yet read by the caller
)

type helper struct {
	state atomic.Int32
	wake  chan struct{}
	// the job, written by the caller before state becomes running
	f    func(part int)
	part int
	// its outcome, written by the helper before state becomes finished
	ok   bool
	pval any
	_    [64]byte // keep helpers on their own cache lines
}

var (
	poolOnce sync.Once
	helpers  []*helper
	disabled atomic.Bool
	// lastClaim is the time of the last Claim that claimed none, in
	// nanoseconds since epoch.
	lastClaim atomic.Int64
	epoch     = time.Now()
)

// Disable turns the warm helpers off (true) or back on (false) and
// returns the previous setting; with them off, Claim claims and kicks
// none (the ones already warm park at the end of their window).
func Disable(off bool) (was bool) { return disabled.Swap(off) }

func startPool() {
	k := min(MaxHelpers, runtime.GOMAXPROCS(0)-1)
	helpers = make([]*helper, max(k, 0))
	for i := range helpers {
		h := &helper{wake: make(chan struct{}, 1)}
		helpers[i] = h
		go h.loop(false)
	}
}

// loop parks until kicked, then spins (spin returns when the window
// passes without a job), and again. spinFirst starts with a spin (a
// replacement for a helper whose job called runtime.Goexit).
func (h *helper) loop(spinFirst bool) {
	if spinFirst && !h.spin() {
		return
	}
	for range h.wake {
		if !h.spin() {
			return
		}
	}
}

// spin keeps the helper warm: it runs the jobs it is given and parks
// (returns true) once SpinWindow has passed since the last job or kick
// without one. It returns false if a job called runtime.Goexit (then a
// replacement goroutine has taken over).
func (h *helper) spin() bool {
	h.state.CompareAndSwap(kicked, idle)
	deadline := time.Now().Add(SpinWindow)
	for i := 1; ; i++ {
		switch h.state.Load() {
		case running:
			if !h.run() {
				return false
			}
			deadline = time.Now().Add(SpinWindow)
		case idle:
			if i%spinCheck == 0 {
				if time.Now().After(deadline) && h.state.CompareAndSwap(idle, parked) {
					return true
				}
				runtime.Gosched()
			}
		}
	}
}

// run runs the job and marks it finished; false if it called
// runtime.Goexit.
func (h *helper) run() (alive bool) {
	h.ok, h.pval = false, nil
	defer func() {
		if !h.ok {
			h.pval = recover()
			if h.pval == nil { // runtime.Goexit: this goroutine ends
				go h.loop(true)
			} else {
				alive = true // a recovered panic: spin on
			}
		}
		h.state.Store(finished)
	}()
	h.f(h.part)
	h.ok = true
	return true
}

// Team is the helpers a caller claimed; its zero value has none.
type Team struct {
	hs []*helper
}

// Claim claims up to maxParts−1 warm helpers and returns them as a
// Team, whose Parts (one more than the helpers) the caller then splits its
// batch into and runs with Team.Run. If it claims none, it kicks up to
// maxParts−1 parked helpers awake (a channel send each, so that the
// caller's next batch finds them warm) and returns an empty Team: the
// caller runs its batch alone, and Team.Run need not be called.
func Claim(maxParts int) Team {
	if maxParts < 2 || disabled.Load() {
		return Team{}
	}
	poolOnce.Do(startPool)
	k := min(len(helpers), maxParts-1, runtime.GOMAXPROCS(0)-1)
	var t Team
	for _, h := range helpers[:max(k, 0)] {
		if h.state.CompareAndSwap(idle, claimed) {
			t.hs = append(t.hs, h)
		}
	}
	if len(t.hs) > 0 {
		return t
	}
	// Kick only when calls come back to back: a wake-up costs the caller
	// some 10 µs on a VM, more than an isolated small batch.
	now := int64(time.Since(epoch))
	if prev := lastClaim.Swap(now); now-prev > int64(SpinWindow) {
		return Team{}
	}
	for _, h := range helpers[:max(k, 0)] {
		if h.state.CompareAndSwap(parked, kicked) {
			h.wake <- struct{}{} // buffered: the helper has taken the last one
		}
	}
	return Team{}
}

// Parts returns the number of parts of the team's batch: one more than its
// helpers.
func (t *Team) Parts() int { return len(t.hs) + 1 }

// Run runs f(0) on the caller and f(1), …, f(Parts()−1) on the helpers, and
// returns when all have ended, the helpers warm again; as Run (the
// package function), it re-raises on the caller the panic of the lowest
// panicking part, after all parts have ended. A Team runs once.
func (t *Team) Run(f func(part int)) {
	hs := t.hs
	t.hs = nil
	for i, h := range hs {
		h.f, h.part = f, i+1
		h.state.Store(running)
	}
	ok0 := false
	defer func() {
		// Join every helper, even when part 0 panics or calls
		// runtime.Goexit (which then go on unwinding the caller).
		var bad any
		badPart := -1
		for i, h := range hs {
			for i := 1; h.state.Load() != finished; i++ {
				if i%spinCheck == 0 {
					runtime.Gosched()
				}
			}
			ok, pval := h.ok, h.pval
			h.f, h.pval = nil, nil
			h.state.Store(idle)
			if !ok && badPart < 0 {
				badPart, bad = i+1, pval
			}
		}
		if ok0 && badPart >= 0 {
			if bad == nil {
				panic(fmt.Sprintf("parallel: part %d of %d called runtime.Goexit", badPart, len(hs)+1))
			}
			panic(bad)
		}
	}()
	f(0)
	ok0 = true
}
