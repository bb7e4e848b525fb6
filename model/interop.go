package model

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"

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
	// Through internal/modelreg, which interop fills: its readers' results
	// name the models of packages linear and expansion, whose methods
	// would be compiled in this package again.
	format := map[Format]string{ONNX: "onnx", LIBLINEAR: "liblinear", LIBSVM: "libsvm"}[f]
	m, err := modelreg.ReadInterop(data, format)
	if err != nil {
		return nil, interopErr(f, err)
	}
	return m.(Model), nil
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
	// The models of packages expansion and linear go through
	// internal/modelreg, which interop fills: naming them here would
	// compile their methods in this package again.
	switch f {
	case LIBSVM:
		data, _, err = modelreg.MarshalLIBSVM(m)
	case LIBLINEAR:
		data, _, err = modelreg.MarshalLIBLINEAR(m)
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
