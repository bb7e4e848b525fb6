//go:build !linux

package dataset

import (
	"github.com/rosenblatt-go/rosenblatt/internal/pages"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// adviseHuge does nothing: huge-page advice is Linux-only.
func adviseHuge[T kernel.Float](x []T) error { return nil }

// populateRest has the kernel back all of x's pages (pages.Populate, which
// does nothing outside Linux either).
func populateRest[T kernel.Float](x []T) { pages.Populate(x) }
