//go:build !linux

package main

// platformCases are the Linux-only output cases (devices); none here.
var platformCases []cliCase
