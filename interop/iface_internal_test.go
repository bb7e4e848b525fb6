package interop

import (
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// The writers read models through these interfaces after modelreg
// recognised them: a method that drifts from an interface fails to compile
// here, not at run time.
var (
	_ kernelModel[float32]  = (*expansion.Model[float32])(nil)
	_ kernelModel[float64]  = (*expansion.Model[float64])(nil)
	_ linearSource[float32] = (*linear.Model[float32])(nil)
	_ linearSource[float64] = (*linear.Model[float64])(nil)
)
