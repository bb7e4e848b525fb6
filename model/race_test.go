//go:build race

package model_test

// raceEnabled reports a -race build, in which sync.Pool drops a random
// share of the objects put back (so a pooled path allocates now and then).
const raceEnabled = true
