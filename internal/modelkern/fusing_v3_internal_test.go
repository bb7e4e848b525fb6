//go:build amd64.v3

package modelkern

// fusingAMD64: built with GOAMD64=v3 or above, the Go compiler may fuse
// x*y + z on amd64.
const fusingAMD64 = true
