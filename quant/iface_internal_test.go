package quant

import "github.com/rosenblatt-go/rosenblatt/linear"

// New reads a linear model through source after modelreg recognised it: a
// method that drifts from the interface fails to compile here, not at run
// time.
var (
	_ source[float32] = (*linear.Model[float32])(nil)
	_ source[float64] = (*linear.Model[float64])(nil)
)
