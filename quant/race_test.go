//go:build race

package quant

// raceEnabled reports a -race build, in which sync.Pool drops a random
// share of the objects put back.
const raceEnabled = true
