package expansion

import "github.com/rosenblatt-go/rosenblatt/internal/modelreg"

// Package internal/modelreg's test and constructor, so that the module's
// other packages need not name Model[float32] or Model[float64] (which
// would compile their methods, and the Gram kernels they reach, in each
// of them again).
func init() {
	modelreg.Register(modelreg.Expansion, func(m any) int {
		switch m.(type) {
		case *Model[float32]:
			return 4
		case *Model[float64]:
			return 8
		}
		return 0
	}, func(size int) any {
		if size == 4 {
			return new(Model[float32])
		}
		return new(Model[float64])
	})
}
