package model

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/interop"
)

// The text formats of other tools (package interop): Load, LoadFile and
// Unmarshal read them by content; Marshal and Save write them.
const (
	// LIBSVM is the model file of LIBSVM's svm-train: a binary or
	// one-vs-one kernel SVM (expansion.Model, or interop.Voting when the file's
	// labels are not in increasing order).
	LIBSVM Format = JSON + 1 + iota
	// LIBLINEAR is the model file of LIBLINEAR's liblinear-train: a
	// linear SVM (linear.Model); any linear.Model but a voted or
	// sample-scaling one is written to it.
	LIBLINEAR
	// ONNX is an ONNX-ML model file (a ModelProto, recognised by its
	// first field, ir_version): a LinearClassifier or MatMul graph
	// (linear.Model), an SVMClassifier (expansion.Model or interop.Voting),
	// or either behind Scaler, Normalizer or Cast steps
	// (interop.Pipeline); see package interop.
	ONNX
)

// textFormat returns the format of a text model file of another tool.
func textFormat(data []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(data, []byte(interop.LIBSVMPrefix)):
		return LIBSVM, true
	case bytes.HasPrefix(data, []byte(interop.LIBLINEARPrefix)):
		return LIBLINEAR, true
	case interop.IsONNX(data):
		return ONNX, true
	}
	return 0, false
}

// unmarshalText decodes a LIBSVM, LIBLINEAR or ONNX file.
func unmarshalText(data []byte, f Format) (Model, error) {
	if f == ONNX {
		o, err := interop.ReadONNX(data, nil)
		if err != nil {
			return nil, interopErr(f, err)
		}
		return o.Model, nil
	}
	if f == LIBLINEAR {
		l, err := interop.ReadLIBLINEAR(data)
		if err != nil {
			return nil, interopErr(f, err)
		}
		return l.Model, nil
	}
	s, err := interop.ReadLIBSVM(data, nil)
	if err != nil {
		return nil, interopErr(f, err)
	}
	if s.Voting != nil {
		return s.Voting, nil
	}
	return s.Model, nil
}

// marshalText encodes m as a LIBSVM, LIBLINEAR or ONNX file.
func marshalText(m Model, f Format) ([]byte, error) {
	if f == ONNX {
		data, err := interop.MarshalONNX(m, nil)
		if err != nil {
			if errors.Is(err, interop.ErrUnsupported) {
				return nil, fmt.Errorf("%w: onnx: %w", ErrUnsupported, err)
			}
			return nil, err
		}
		return data, nil
	}
	var data []byte
	var err error
	switch v := m.(type) {
	case *expansion.Model[float64]:
		if f == LIBSVM {
			data, err = interop.MarshalLIBSVM(v)
		}
	case *expansion.Model[float32]:
		if f == LIBSVM {
			data, err = interop.MarshalLIBSVM(v)
		}
	case *interop.Voting:
		if f == LIBSVM {
			var buf bytes.Buffer
			err = v.WriteLIBSVM(&buf)
			data = buf.Bytes()
		}
	case *linear.Model[float64]:
		if f == LIBLINEAR {
			data, err = interop.MarshalLIBLINEAR(v)
		}
	case *linear.Model[float32]:
		if f == LIBLINEAR {
			data, err = interop.MarshalLIBLINEAR(v)
		}
	}
	if err != nil {
		return nil, interopErr(f, err)
	}
	if data == nil {
		return nil, fmt.Errorf("%w: a %s has no %s form", ErrUnsupported, m, f)
	}
	return data, nil
}

// interopErr wraps an error of package interop in this package's
// sentinels too (ErrUnsupported, ErrTooLarge or ErrCorrupt).
func interopErr(f Format, err error) error {
	switch {
	case errors.Is(err, interop.ErrUnsupported):
		return fmt.Errorf("%w: %s file: %w", ErrUnsupported, f, err)
	case errors.Is(err, interop.ErrTooLarge):
		return fmt.Errorf("%w: %s file: %w", ErrTooLarge, f, err)
	}
	return fmt.Errorf("%w: %s file: %w", ErrCorrupt, f, err)
}
