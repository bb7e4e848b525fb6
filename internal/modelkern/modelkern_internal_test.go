package modelkern

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestInt8IDs: every int8 implementation of package kernel in this build
// has its ID here, each a different one, and the package-level functions
// run kernel's active choice.
func TestInt8IDs(t *testing.T) {
	seen := map[int8ID]string{}
	for _, v := range kerneltest.Int8Impls() {
		id, ok := int8IDs[v.Name()]
		if !ok {
			t.Fatalf("int8 implementation %s has no ID here", v.Name())
		}
		if prev, dup := seen[id]; dup {
			t.Fatalf("%s and %s share ID %d", prev, v.Name(), id)
		}
		seen[id] = v.Name()
	}
	if activeInt8 != int8IDs[kernel.ActiveImpl().Int8().Name()] {
		t.Fatalf("active int8 ID %d, kernel's active %s", activeInt8, kernel.ActiveImpl().Int8().Name())
	}
	if activeID != kernel.ActiveImpl().ID() {
		t.Fatalf("active ID %d, kernel's active %s", activeID, kernel.ActiveImpl().Name())
	}
}

// TestOnPanicsUnavailable: On and OnInt8 refuse an implementation this CPU
// cannot run, as kernel's do.
func TestOnPanicsUnavailable(t *testing.T) {
	for _, im := range kernel.Impls() {
		if !im.Available() {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("On(%s) did not panic", im.Name())
					}
				}()
				On[float32](im)
			}()
		}
	}
	for _, v := range kerneltest.Int8Impls() {
		if !v.Available() {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("OnInt8(%s) did not panic", v.Name())
					}
				}()
				OnInt8(v)
			}()
		}
	}
}
