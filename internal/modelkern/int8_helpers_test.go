package modelkern_test

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// int8Under returns the int8 implementations this CPU can run.
func int8Under(t *testing.T) []*kernel.Int8Impl {
	t.Helper()
	list := kerneltest.AvailableInt8()
	if len(list) == 0 {
		t.Fatal("no int8 implementation available")
	}
	return list
}
