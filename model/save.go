package model

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/rosenblatt-go/rosenblatt/internal/atomicfile"
	"github.com/rosenblatt-go/rosenblatt/interop"
)

// Format is a model file's encoding.
type Format uint8

const (
	// Binary is the module's checksummed binary format: exact, compact,
	// and fast to read.
	Binary Format = iota
	// JSON is the JSON form: every value printed so that it reads back
	// to the same bits.
	JSON
)

// String returns "binary", "json", "libsvm", "liblinear" or "onnx".
func (f Format) String() string {
	switch f {
	case Binary:
		return "binary"
	case JSON:
		return "json"
	case LIBSVM:
		return "libsvm"
	case LIBLINEAR:
		return "liblinear"
	case ONNX:
		return "onnx"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Marshal returns the model file of m in format f. A model without that
// form (a quantised model has no JSON form; LIBSVM's holds a binary or
// one-vs-one expansion.Model, LIBLINEAR's a linear.Model, not voted or sample-scaling) is refused with
// ErrUnsupported.
func Marshal(m Model, f Format) ([]byte, error) {
	switch f {
	case LIBSVM, LIBLINEAR, ONNX:
		return marshalText(m, f)
	case Binary:
		if b, ok := m.(encoding.BinaryMarshaler); ok {
			data, err := b.MarshalBinary()
			if errors.Is(err, interop.ErrUnsupported) {
				err = fmt.Errorf("%w: %w", ErrUnsupported, err)
			}
			return data, err
		}
	case JSON:
		if j, ok := m.(json.Marshaler); ok {
			data, err := j.MarshalJSON()
			if errors.Is(err, interop.ErrUnsupported) {
				err = fmt.Errorf("%w: %w", ErrUnsupported, err)
			}
			return data, err
		}
	default:
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, f)
	}
	return nil, fmt.Errorf("%w: a %s has no %s form", ErrUnsupported, m, f)
}

// Save writes the model file of m in format f to w.
func Save(w io.Writer, m Model, f Format) error {
	data, err := Marshal(m, f)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// SaveFile writes the model file of m in format f to path, atomically: to
// a temporary file in the same directory (".NAME.rosenblatt-tmp-PID-RANDOM"),
// synced to disk, then renamed over path, so that path holds the old file
// or the whole new one, never part of it. The temporary file is removed if
// anything fails (and, if the process was killed meanwhile, by the next
// save to the same path). A new file gets mode 0644 minus the umask; an
// existing one keeps its mode. A symbolic link is followed: the file it
// points to is replaced. A path that exists and is not a regular file is
// refused with ErrUnsupported.
func SaveFile(path string, m Model, f Format) error {
	data, err := Marshal(m, f)
	if err != nil {
		return err
	}
	err = atomicfile.Replace(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if errors.Is(err, atomicfile.ErrNotRegular) {
		err = fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return err
}
