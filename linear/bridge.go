package linear

import (
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
)

// The trainers' bridge (package internal/linmodel): they build a model
// from its parts, and continue from a model's parts, without copying the
// arrays and without this package exporting its snapshot.
func init() {
	linmodel.Register(
		func(p *linmodel.Parts[float32]) unsafe.Pointer { return unsafe.Pointer(fromParts(p)) },
		func(p *linmodel.Parts[float64]) unsafe.Pointer { return unsafe.Pointer(fromParts(p)) },
		func(m unsafe.Pointer) (*linmodel.Parts[float32], error) { return partsOf((*Model[float32])(m)) },
		func(m unsafe.Pointer) (*linmodel.Parts[float64], error) { return partsOf((*Model[float64])(m)) })
}

// fromParts returns the model holding p's arrays.
func fromParts[T Float](p *linmodel.Parts[T]) *Model[T] {
	return newModelOn(p.Impl, &state[T]{scheme: p.Scheme, algo: Algorithm(p.Algorithm), scaling: Scaling(p.Scaling),
		d: p.Dims, labels: p.Labels, bias: p.Bias, bfeat: p.BiasFeature, eta: p.Eta,
		steps: p.Steps, lambda: p.Lambda, resumable: p.Resumable,
		W: p.W, B: p.B, V: p.V, VB: p.VB, VC: p.VC, VOff: p.VOff,
		CW: p.CW, CB: p.CB, U: p.U, UB: p.UB, avg: p.Avg, cs: p.Served})
}

// partsOf returns the parts of m's snapshot as it is (its served weights
// possibly compact: Served).
func partsOf[T Float](m *Model[T]) (*linmodel.Parts[T], error) {
	s, err := m.loadSparse()
	if err != nil {
		return nil, err
	}
	return &linmodel.Parts[T]{Scheme: s.scheme, Algorithm: uint8(s.algo), Scaling: uint8(s.scaling),
		Dims: s.d, Labels: s.labels, Bias: s.bias, BiasFeature: s.bfeat, Eta: s.eta,
		Steps: s.steps, Lambda: s.lambda, Resumable: s.resumable,
		W: s.W, B: s.B, V: s.V, VB: s.VB, VC: s.VC, VOff: s.VOff,
		CW: s.CW, CB: s.CB, U: s.U, UB: s.UB, Avg: s.avg, Served: s.cs}, nil
}

// Package internal/modelreg's test and constructor, so that the module's
// other packages need not name Model[float32] or Model[float64] (which
// would compile their methods in each of them again).
func init() {
	modelreg.Register(modelreg.Linear, func(m any) int {
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
