// Package cputime reads the CPU time of the calling thread, for the
// measurements that must hold on a machine shared with other processes:
// time spent descheduled does not count. It exists on Linux only
// (cputime_linux.go); its users are Linux-only test files.
package cputime
