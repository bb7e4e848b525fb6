//go:build purego || !(amd64 || arm64)

package gram

import "github.com/rosenblatt-go/rosenblatt/kernel"

// archRegistry: this build has no assembly; the generic entry is all.
var archRegistry [kernel.NumIDs]*impl
