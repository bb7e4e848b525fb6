package interop

import (
	"bytes"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Package model's LIBSVM, LIBLINEAR and ONNX readers and LIBSVM and
// LIBLINEAR encoders (internal/modelreg), so that package model, which
// takes models as interface values, need not name the models of linear and
// expansion (and compile their methods again). This package names their
// float64 models, which its readers make; the float32 ones it writes
// through interfaces (kernelModel, linearSource).
func init() {
	// The expansion family is registered here rather than in package
	// expansion: this package compiles *expansion.Model[float64]'s methods
	// (its readers make one) and a float32 model's as well would cost it
	// half of what package expansion would compile for both.
	modelreg.Register(modelreg.Expansion, func(m any) int {
		switch m.(type) {
		case *expansion.Model[float32]:
			return 4
		case *expansion.Model[float64]:
			return 8
		}
		return 0
	}, func(size int) any {
		if size == 4 {
			return new(expansion.Model[float32])
		}
		return new(expansion.Model[float64])
	})
	modelreg.RegisterInterop(func(m any) ([]byte, bool, error) {
		switch v := m.(type) {
		case *Voting:
			var buf bytes.Buffer
			err := v.WriteLIBSVM(&buf)
			return buf.Bytes(), true, err
		case *expansion.Model[float64]:
			data, err := MarshalLIBSVM(v)
			return data, true, err
		}
		if modelreg.ElemOf(modelreg.Expansion, m) == 4 {
			var buf bytes.Buffer
			err := writeLIBSVM(&buf, m.(kernelModel[float32]), nil)
			return buf.Bytes(), true, err
		}
		return nil, false, nil
	}, func(m any) ([]byte, bool, error) {
		if v, ok := m.(*linear.Model[float64]); ok {
			data, err := MarshalLIBLINEAR(v)
			return data, true, err
		}
		if modelreg.ElemOf(modelreg.Linear, m) == 4 {
			var buf bytes.Buffer
			err := writeLIBLINEAR(&buf, m.(linearSource[float32]))
			return buf.Bytes(), true, err
		}
		return nil, false, nil
	})
	modelreg.RegisterInteropReaders(readAny, func(m any) (any, bool) {
		switch v := m.(type) {
		case *Voting:
			return v.Model, true
		case *Pipeline:
			return v.Classifier(), true
		}
		return nil, false
	})
}

// readAny reads a LIBSVM, LIBLINEAR or ONNX file (format "libsvm",
// "liblinear" or "onnx") as package model does.
func readAny(data []byte, format string) (any, error) {
	switch format {
	case "onnx":
		o, err := ReadONNX(data, nil)
		if err != nil {
			return nil, err
		}
		return o.Model, nil
	case "liblinear":
		l, err := ReadLIBLINEAR(data)
		if err != nil {
			return nil, err
		}
		return l.Model, nil
	}
	s, err := ReadLIBSVM(data, nil)
	if err != nil {
		return nil, err
	}
	if s.Voting != nil {
		return s.Voting, nil
	}
	return s.Model, nil
}
