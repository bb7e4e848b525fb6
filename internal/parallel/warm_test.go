package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// claimWarm claims a team of two parts, kicking the helpers awake first,
// or skips the test if none gets warm within a second (GOMAXPROCS 1, or a
// machine too busy to run the helper).
func claimWarm(t *testing.T) Team {
	t.Helper()
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("GOMAXPROCS < 2: no warm helpers")
	}
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if tm := Claim(2); tm.Parts() == 2 {
			return tm
		}
		runtime.Gosched()
	}
	t.Skip("no helper got warm within a second")
	return Team{}
}

// TestWarmPanicOnCaller: a panic in a warm helper's part, or in the
// caller's, is re-raised on the caller after both parts ended, and the
// helper is warm again afterwards.
func TestWarmPanicOnCaller(t *testing.T) {
	for _, bad := range []int{0, 1} {
		for range 3 {
			tm := claimWarm(t)
			var ended atomic.Int32
			got := func() (p any) {
				defer func() { p = recover() }()
				tm.Run(func(part int) {
					defer ended.Add(1)
					if part == bad {
						panic(part)
					}
				})
				return nil
			}()
			if got != bad || ended.Load() != 2 {
				t.Fatalf("part %d panicked: recovered %v, %d parts ended", bad, got, ended.Load())
			}
		}
	}
}

// TestWarmGoexit: a helper part calling runtime.Goexit panics on the
// caller, and the helper is replaced (a team can be claimed again).
func TestWarmGoexit(t *testing.T) {
	for range 2 {
		tm := claimWarm(t)
		got := func() (p any) {
			defer func() { p = recover() }()
			tm.Run(func(part int) {
				if part == 1 {
					runtime.Goexit()
				}
			})
			return nil
		}()
		if got == nil {
			t.Fatal("Goexit in a helper's part: no panic on the caller")
		}
	}
}

// TestWarmDisable: with the helpers disabled Claim claims none.
func TestWarmDisable(t *testing.T) {
	defer Disable(Disable(true))
	for range 100 {
		if tm := Claim(2); tm.Parts() != 1 {
			t.Fatal("claimed a helper while disabled")
		}
	}
}
