package roofline

import (
	"runtime"
	"sync"
	"time"
)

// Trials says how Best and BestParallel time a loop: Count trials of at
// least Min each. On a machine shared with other work a trial can only be
// slowed down (by interruptions, another process on the core, a lower
// clock), never sped up, so the fastest trial is the best estimate of what
// the hardware does, and many short trials are likelier to catch an
// undisturbed stretch than a few long ones.
type Trials struct {
	Count int
	Min   time.Duration
}

// maxCalibrate bounds the n calibrate tries: 2³⁰ iterations of any loop
// here take far longer than a trial, and it fits a 32-bit int.
const maxCalibrate = 1 << 30

// calibrate returns the n for which run(n) takes about t.Min (at least
// 1), timing run(n) for growing n.
func calibrate(run func(n int), t Trials) int {
	n := 1
	for {
		start := time.Now()
		run(n)
		d := time.Since(start)
		if d >= t.Min/4 || n >= maxCalibrate {
			if d <= 0 {
				return n
			}
			return max(int(float64(n)*float64(t.Min)/float64(d)+0.5), 1)
		}
		if d <= 0 {
			n = min(16*n, maxCalibrate)
			continue
		}
		// Aim a little past a quarter of t.Min, growing at most 16-fold.
		n = min(max(int(float64(n)*float64(t.Min)/(3*float64(d))), n+1), 16*n, maxCalibrate)
	}
}

// Best measures the rate of run: it calibrates n so that run(n) takes
// about t.Min, then times t.Count (at least 1) runs of run(n) and returns
// the largest work·n / seconds, where work is the amount of work (flops,
// bytes, cycles) of one unit of n.
func Best(run func(n int), work float64, t Trials) float64 {
	n := calibrate(run, t)
	best := 0.0
	for range max(t.Count, 1) {
		start := time.Now()
		run(n)
		if d := time.Since(start).Seconds(); d > 0 {
			best = max(best, work*float64(n)/d)
		}
	}
	return best
}

// BestParallel is Best on threads goroutines at once, each locked to an OS
// thread of its own: every trial releases them together and lasts until
// the last one finishes; it returns the largest threads·work·n / seconds of
// a trial. n is calibrated on one thread.
func BestParallel(threads int, run func(n int), work float64, t Trials) float64 {
	threads = max(threads, 1)
	if threads == 1 {
		return Best(run, work, t)
	}
	n := calibrate(run, t)
	best := 0.0
	for range max(t.Count, 1) {
		var ready, done sync.WaitGroup
		start := make(chan struct{})
		ready.Add(threads)
		done.Add(threads)
		for range threads {
			go func() {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				defer done.Done()
				ready.Done()
				<-start
				run(n)
			}()
		}
		ready.Wait()
		t0 := time.Now()
		close(start)
		done.Wait()
		if d := time.Since(t0).Seconds(); d > 0 {
			best = max(best, float64(threads)*work*float64(n)/d)
		}
	}
	return best
}
