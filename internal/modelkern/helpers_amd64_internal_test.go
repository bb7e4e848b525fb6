//go:build amd64 && linux && !purego

package modelkern

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// fencedPage and atEnd are memtest's: memory fenced by inaccessible
// pages, so that a read past a slice faults.
func fencedPage(t *testing.T) []byte { return memtest.FencedPage(t) }

func atEnd[T float32 | float64](page []byte, n int) []T { return memtest.AtEnd[T](page, n) }

// asmImpls returns the assembly implementations this CPU runs.
func asmImpls(t *testing.T) []*kernel.Impl {
	t.Helper()
	var list []*kernel.Impl
	for _, im := range kernel.Impls() {
		switch {
		case im.ID() == kernel.IDGeneric:
		case im.Available():
			list = append(list, im)
		default:
			t.Logf("%s: not available on this CPU, not tested here", im.Name())
		}
	}
	return list
}
