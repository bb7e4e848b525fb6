//go:build race

package perceptron

// raceEnabled reports a -race build, in which sync.Pool drops a random
// share of the objects put back (so pooled scratch buffers are allocated
// again, here and inside gram.Rows).
const raceEnabled = true
