//go:build amd64.v3

package fuzz

// fusingAMD64: built with GOAMD64=v3 or above, the Go compiler may fuse
// x*y + z on amd64, so the generic Go loops round differently from the
// assembly (which multiplies, then adds, as Go does at the default level).
const fusingAMD64 = true
