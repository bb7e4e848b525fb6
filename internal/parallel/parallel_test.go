package parallel

import (
	"errors"
	"sync/atomic"
	"testing"
)

func TestFirstErrorLowestPart(t *testing.T) {
	errA, errB := errors.New("a"), errors.New("b")
	for _, tc := range []struct {
		name string
		errs []error
		want error
	}{
		{"none", []error{nil, nil, nil, nil}, nil},
		{"one", []error{nil, nil, errB, nil}, errB},
		{"lowest wins", []error{nil, errA, errB, nil}, errA},
		{"single part", []error{errA}, errA},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ran atomic.Int32
			err := FirstError(len(tc.errs), func(p int) error { ran.Add(1); return tc.errs[p] })
			if err != tc.want {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if int(ran.Load()) != len(tc.errs) {
				t.Errorf("%d parts ran, want %d", ran.Load(), len(tc.errs))
			}
		})
	}
}

// TestRunPanicOnCaller: a panic in a worker goroutine is re-raised on the
// caller after every part has ended, so the caller can recover it and no
// part is left running.
func TestRunPanicOnCaller(t *testing.T) {
	for _, bad := range []int{0, 1, 3} {
		var ended atomic.Int32
		got := func() (p any) {
			defer func() { p = recover() }()
			Run(4, func(part int) {
				defer ended.Add(1)
				if part == bad {
					panic(part)
				}
			})
			return nil
		}()
		if got != bad {
			t.Errorf("part %d panicked: recovered %v", bad, got)
		}
		if ended.Load() != 4 {
			t.Errorf("part %d panicked: %d parts ended before Run returned, want 4", bad, ended.Load())
		}
	}
}

func TestEach(t *testing.T) {
	boom := errors.New("boom")
	var seen []int
	err := Each(3, 8, func(i int) error {
		seen = append(seen, i)
		if i == 5 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || err.Error() != "row 5: boom" || len(seen) != 3 {
		t.Errorf("err = %v, rows %v", err, seen)
	}
	if err := Each(0, 0, func(int) error { return boom }); err != nil {
		t.Errorf("empty range: %v", err)
	}
}
