package model

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
// one-vs-one svm.Model, LIBLINEAR's an svm.LinearModel) is refused with
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
// a temporary file in the same directory (named ".NAME.tmp-*"), synced to
// disk, then renamed over path, so that path holds the old file or the
// whole new one, never part of it. The temporary file is removed if
// anything fails. A new file gets mode 0644; an existing one keeps its
// mode.
func SaveFile(path string, m Model, f Format) error {
	data, err := Marshal(m, f)
	if err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// writeAtomic writes data to path as SaveFile describes.
func writeAtomic(path string, data []byte) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: %w: not a regular file", path, ErrUnsupported)
		}
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil { // the rename itself, on disk
		d.Sync()
		d.Close()
	}
	return nil
}
