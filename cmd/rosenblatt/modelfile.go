package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// Model files: the perceptron package's checksummed binary format (magic
// "RBLTPCPT") or its JSON form, float32 or float64, told apart by their
// content, not their name.

// binaryMagic opens every binary model file.
const binaryMagic = "RBLTPCPT"

// classifier is what predict and eval need of a model. *perceptron.Model
// implements it; kernel (dual) models will too.
type classifier[T kernel.Float] interface {
	Dims() int
	Classes() []int
	NumScores() int
	PredictBatch(dst []int, X []T) error
	ScoresBatch(dst, X []T) error
}

// loadedModel is a model file read into the classifier of its element
// type: exactly one of m32 and m64 is set.
type loadedModel struct {
	path string
	desc string // e.g. "ovr averaged perceptron, float32, 4 features, classes 0 1 2"
	m32  classifier[float32]
	m64  classifier[float64]
}

// dims returns the model's feature count.
func (lm *loadedModel) dims() int {
	if lm.m32 != nil {
		return lm.m32.Dims()
	}
	return lm.m64.Dims()
}

// classes returns the model's labels.
func (lm *loadedModel) classes() []int {
	if lm.m32 != nil {
		return lm.m32.Classes()
	}
	return lm.m64.Classes()
}

// loadModel reads the model file at path. Errors name the file; a file of
// the right kind with bad content wraps perceptron.ErrCorrupt (or
// ErrVersion), a JSON syntax error carries its line and column, and a file
// that is no model at all wraps errMalformed.
func loadModel(path string) (*loadedModel, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lm := &loadedModel{path: path}
	switch {
	case bytes.HasPrefix(data, []byte(binaryMagic)):
		info, err := perceptron.Inspect(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if info.ElemBits == 64 {
			m := new(perceptron.Model[float64])
			err = m.UnmarshalBinary(data)
			lm.m64, lm.desc = m, describeModel(m, "float64")
		} else {
			m := new(perceptron.Model[float32])
			err = m.UnmarshalBinary(data)
			lm.m32, lm.desc = m, describeModel(m, "float32")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	case len(bytes.TrimSpace(data)) > 0 && bytes.TrimSpace(data)[0] == '{':
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return nil, jsonError(path, data, err)
		}
		if head.Type == "float64" {
			m := new(perceptron.Model[float64])
			err = json.Unmarshal(data, m)
			lm.m64, lm.desc = m, describeModel(m, "float64")
		} else { // float32, or a bad type that UnmarshalJSON reports
			m := new(perceptron.Model[float32])
			err = json.Unmarshal(data, m)
			lm.m32, lm.desc = m, describeModel(m, "float32")
		}
		if err != nil {
			return nil, jsonError(path, data, err)
		}
	default:
		return nil, fmt.Errorf("%s: %w: not a rosenblatt model file (neither the binary format nor JSON)", path, errMalformed)
	}
	return lm, nil
}

// jsonError names the file of a JSON decoding error, with the line and
// column of a syntax error.
func jsonError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := lineCol(data, max(syn.Offset-1, 0))
		return fmt.Errorf("%s:%d:%d: %w: %v", path, line, col, errMalformed, syn)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		line, col := lineCol(data, max(typ.Offset-1, 0))
		return fmt.Errorf("%s:%d:%d: %w: %v", path, line, col, perceptron.ErrCorrupt, typ)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// describeModel is a one-line description of a trained model.
func describeModel[T kernel.Float](m *perceptron.Model[T], typ string) string {
	if m.Kind() == 0 {
		return ""
	}
	s := fmt.Sprintf("%s %s, %s, %d features, classes %s", m.Kind(), algoName(m.Algorithm()), typ, m.Dims(), joinInts(m.Classes()))
	if !m.HasBias() {
		s += ", no bias"
	}
	if m.Normalized() {
		s += ", normalised samples"
	}
	return s
}

// algoName names an algorithm for people.
func algoName(a perceptron.Algorithm) string {
	switch a {
	case perceptron.Online:
		return "online perceptron"
	case perceptron.Batch:
		return "batch perceptron"
	case perceptron.MiniBatch:
		return "mini-batch perceptron"
	case perceptron.Averaged:
		return "averaged perceptron"
	case perceptron.Voted:
		return "voted perceptron"
	case perceptron.SVM:
		return "linear SVM (Pegasos)"
	}
	return a.String()
}

// joinInts formats labels as "-1 1".
func joinInts(v []int) string {
	var b []byte
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%d", x)
	}
	return string(b)
}
