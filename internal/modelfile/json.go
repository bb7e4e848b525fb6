package modelfile

import (
	"encoding/json"
	"errors"
	"fmt"
)

// JSONHeader is the beginning of every JSON model document: the format
// name, its version (as the binary header's), the element type ("float32",
// "float64"), the model kind and algorithm by name, and D.
type JSONHeader struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	Type      string `json:"type"`
	Kind      string `json:"kind"`
	Algorithm string `json:"algorithm"`
	Dims      int    `json:"dims"`
}

// NewJSONHeader returns the header of a document of format for a model of
// element type T.
func NewJSONHeader[T Float](format, kind, algorithm string, dims int) JSONHeader {
	return JSONHeader{Format: format, Version: Version, Type: ElemName(ElemSize[T]()), Kind: kind, Algorithm: algorithm, Dims: dims}
}

// Decode is Unmarshal without the checks of the header, for a decoder
// that reads more than one format.
func (e Errors) Decode(data []byte, v any, absent ...string) error {
	if err := e.NoNull(data, absent...); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		if errors.Is(err, ErrNull) {
			return fmt.Errorf("%w: %w", e.Corrupt, err)
		}
		return e.Corruptf("%v", err)
	}
	return nil
}

// Unmarshal decodes a JSON document into v (a struct that embeds a
// JSONHeader) and checks the header's format and version: a syntax error,
// a null where a number or array element goes (see NoNull; absent names the
// members that may be null, meaning absent or empty) or another format wraps
// e.Corrupt, an unknown version e.Version.
func (e Errors) Unmarshal(data []byte, v any, h *JSONHeader, format string, absent ...string) error {
	if err := e.Decode(data, v, absent...); err != nil {
		return err
	}
	if h.Format != format {
		return e.Corruptf("format %q, want %q", h.Format, format)
	}
	return e.CheckVersion(h.Version)
}

// CheckType checks that the document's element type is T's: the other
// type wraps e.Mismatch, anything else e.Corrupt.
func CheckType[T Float](e Errors, h *JSONHeader) error {
	if want := ElemName(ElemSize[T]()); h.Type != want {
		if h.Type == "float32" || h.Type == "float64" {
			return e.Mismatchf("the document holds %s values, the model is %s", h.Type, want)
		}
		return e.Corruptf("type %q", h.Type)
	}
	return nil
}
