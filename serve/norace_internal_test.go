//go:build !race

package serve

// raceOn is whether the race detector, which allocates, is on.
const raceOn = false
