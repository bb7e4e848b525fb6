package modelcmd

import (
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/internal/describe"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
)

// Model files are read by package model: the module's checksummed binary
// format (magic "RBLTPCPT") or the JSON forms, float32 or float64, told
// apart by their content, not their name.

// binaryMagic opens every binary model file.
const binaryMagic = "RBLTPCPT"

// classifier is what predict, eval and train need of a model: a
// model.Classifier of its element type.
type classifier[T kernel.Float] = model.Classifier[T]

// storedModel is a perceptron model that train writes: *linear.Model
// or *expansion.Model.
type storedModel[T kernel.Float] interface {
	classifier[T]
	MarshalBinary() ([]byte, error)
	MarshalJSON() ([]byte, error)
}

// loadedModel is a model file read into the classifier of its element
// type: exactly one of m32 and m64 is set.
type loadedModel struct {
	path string
	desc string // the model's String, e.g. "ovr averaged perceptron, float32, 4 features, classes 0 1 2"
	m    model.Model
	m32  classifier[float32]
	m64  classifier[float64]
}

// classes returns the model's labels.
func (lm *loadedModel) classes() []int { return lm.m.Classes() }

// loadModel reads the model file at path with package model, under
// cli.MaxModel for a JSON model and a binary one from a pipe or device (a
// binary model in a regular file is bounded by its size, which its header
// must give). Errors name the file; a file that is no model at all wraps
// cli.ErrMalformed, one over the limit cli.ErrTooLarge, a model file with bad
// content its package's ErrCorrupt (model.ErrCorrupt too).
func loadModel(path string) (*loadedModel, error) {
	m, err := model.Options{MaxBytes: cli.MaxModel}.LoadFile(path)
	if err != nil {
		return nil, modelError(path, err)
	}
	return loaded(path, m), nil
}

// parseModel decodes the bytes of the model file at path (serve reads a
// file once, names the model by a hash of those bytes, and decodes them).
func parseModel(path string, data []byte) (*loadedModel, error) {
	m, err := model.Unmarshal(data)
	if err != nil {
		return nil, modelError(path, fmt.Errorf("%s: %w", path, err))
	}
	return loaded(path, m), nil
}

// loaded is the loadedModel of m, read from path: its classifier is m's
// own, or a text model's inner one (model.As), which takes featurized rows.
func loaded(path string, m model.Model) *loadedModel {
	lm := &loadedModel{path: path, desc: m.String(), m: m}
	lm.m32, _ = model.As[float32](m)
	lm.m64, _ = model.As[float64](m)
	return lm
}

// modelError is err (which names path) as the command reports it: input
// that is no model file wraps cli.ErrMalformed.
func modelError(path string, err error) error {
	if errors.Is(err, model.ErrFormat) {
		return fmt.Errorf("%s: %w: not a model file (neither rosenblatt's binary or JSON form nor LIBSVM's or LIBLINEAR's)", path, cli.ErrMalformed)
	}
	return err
}

// algoName names an algorithm for people ("averaged perceptron").
func algoName(a linear.Algorithm) string { return describe.Algorithm(a.String()) }

// joinInts formats labels as "-1 1"; more than 20 as their first 16, "…",
// the last 3 and their count.
func joinInts(v []int) string { return describe.Labels(v) }
