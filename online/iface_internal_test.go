package online

import "github.com/rosenblatt-go/rosenblatt/linear"

// Supported reads a linear model through stater after modelreg recognised
// it: a method that drifts from the interface fails to compile here, not
// at run time.
var (
	_ stater[float32] = (*linear.Model[float32])(nil)
	_ stater[float64] = (*linear.Model[float64])(nil)
)
