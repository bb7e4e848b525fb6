//go:build !amd64.v3

package modelkern

// fusingAMD64: the Go compiler does not fuse x*y + z on this build's
// amd64 level (or the build is not amd64; arm64 fuses, as its kernels do).
const fusingAMD64 = false
