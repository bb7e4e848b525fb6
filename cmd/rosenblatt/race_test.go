//go:build race

package main

// raceEnabled reports a -race build: TestCLIBinary then leaves its cases to
// TestCLIInProcess (the same cases in this process, where the detector
// sees them), since each re-executed binary pays the race runtime's start.
const raceEnabled = true
