package expansion

import (
	"encoding/json"
)

// MarshalBinary encodes the model in the module's checksummed
// little-endian model-file format: a kernel SVM with kinds 32 (binary), 33
// (one-vs-rest) and 34 (one-vs-one), a kernel perceptron with kinds 16
// (binary), 17 (one-vs-rest) and 18 (argmax); see model.Kind. It
// implements encoding.BinaryMarshaler. The layouts are those of the
// files written before the two trainers shared this type, bit for bit.
func (m *Model[T]) MarshalBinary() ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	if m.pc != nil {
		return m.marshalPerceptron()
	}
	return m.marshalSVM()
}

// UnmarshalBinary decodes a model written by MarshalBinary into m. It
// implements encoding.BinaryUnmarshaler. The checksum, then the file's
// size against its header, are checked before anything is allocated, then
// every field as New checks its Parts; a truncated, modified or
// inconsistent file is an error wrapping ErrCorrupt (and ErrModel for what
// New rejects; ErrVersion for an unknown format version), never a panic.
// A float32 file cannot be read into a Model[float64] or the reverse, nor
// a linear model's file into a Model (ErrMismatch). On error m is left as
// it was. data is not retained.
//
// UnmarshalBinary replaces m's content: unlike the other methods it must
// not run while other goroutines use m (decode into a new Model).
func (m *Model[T]) UnmarshalBinary(data []byte) error {
	if len(data) > 11 && data[11] < kindSVMBinary {
		return m.unmarshalPerceptron(data)
	}
	return m.unmarshalSVM(data)
}

// MarshalJSON encodes the model as a JSON document for people and other
// tools, the values round-tripping exactly. A kernel SVM's document has
// format "rosenblatt-svm", version 2, type ("float32", "float64"), kind
// ("kernel-binary", "kernel-ovr", "kernel-ovo"), algorithm ("svm"), dims,
// labels, kernel {type, gamma, coef0, degree}, support_indices (if
// known), support_vectors (or sparse_support_vectors), and machines: per
// decision function its classes (negative and positive; for one-vs-rest
// positive and rest: true), its coefficients αᵢyᵢ and its bias. A kernel
// perceptron's has format "rosenblatt-perceptron", kind ("kernel-binary",
// "kernel-ovr", "kernel-argmax"), algorithm, dims, bias, bias_feature (if
// not 1; version 3), normalize, normalize_features, eta, labels, kernel,
// support_indices, support_vectors (or sparse_support_vectors), and
// either coefficients (one array per score row) and biases, or voted (per
// score row: mistakes, steps, prefixes, biases, counts).
func (m *Model[T]) MarshalJSON() ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	if m.pc != nil {
		return m.marshalPerceptronJSON()
	}
	return m.marshalSVMJSON()
}

// UnmarshalJSON decodes a document written by MarshalJSON into m, with the
// checks of UnmarshalBinary (ErrCorrupt, ErrVersion, ErrMismatch). On
// error m is left as it was; like UnmarshalBinary it must not run while
// other goroutines use m.
func (m *Model[T]) UnmarshalJSON(data []byte) error {
	var head struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(data, &head) == nil && head.Format == perceptronFormat {
		return m.unmarshalPerceptronJSON(data)
	}
	return m.unmarshalSVMJSON(data)
}
