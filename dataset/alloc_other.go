//go:build !linux

package dataset

import "github.com/rosenblatt-go/rosenblatt/kernel"

// adviseHuge does nothing: huge-page advice is Linux-only.
func adviseHuge[T kernel.Float](x []T) error { return nil }
