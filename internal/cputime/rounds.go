package cputime

import (
	"os"
	"strconv"
	"testing"
)

// EnvRounds names the environment variable that turns the CPU-time
// measurements on: the number of interleaved rounds to run.
const EnvRounds = "ROSENBLATT_CPUTIME_ROUNDS"

// Rounds returns the number of rounds EnvRounds asks for, or skips t when
// it is unset or not a positive number: the measurements print tables and
// assert nothing, so they run only when asked.
func Rounds(t testing.TB) int {
	t.Helper()
	rounds, _ := strconv.Atoi(os.Getenv(EnvRounds))
	if rounds <= 0 {
		t.Skip("set " + EnvRounds + " to run")
	}
	return rounds
}
