//go:build !race

package perceptron

// raceEnabled reports a -race build (see kernel_race_test.go).
const raceEnabled = false
