package ipm

import (
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// ErrConfig is wrapped by every error about a Config that Build rejects.
var ErrConfig = errors.New("ipm: invalid configuration")

// ErrInput is wrapped by errors about the input as a whole: a pattern that
// matches no file, or files that hold no row at all.
var ErrInput = errors.New("ipm: bad input")

// Mixing is how the shard weights of an epoch are combined.
type Mixing uint8

const (
	// Uniform mixing: every shard weighs 1/S (McDonald et al.'s μ = 1/S).
	Uniform Mixing = iota
	// Mistakes weighs each shard by its share of the epoch's mistakes,
	// μᵢ = kᵢ/Σk (uniform when no shard made a mistake).
	Mistakes
)

// String returns "uniform" or "mistakes".
func (m Mixing) String() string {
	switch m {
	case Uniform:
		return "uniform"
	case Mistakes:
		return "mistakes"
	}
	return fmt.Sprintf("Mixing(%d)", uint8(m))
}

// ParseMixing returns the Mixing whose String is name; others wrap ErrConfig.
func ParseMixing(name string) (Mixing, error) {
	switch name {
	case "uniform":
		return Uniform, nil
	case "mistakes":
		return Mistakes, nil
	}
	return 0, fmt.Errorf("%w: unknown mixing %q (want uniform or mistakes)", ErrConfig, name)
}

// Config describes one training job.
type Config struct {
	// Inputs are file patterns on any registered Beam filesystem
	// ("/data/part-*.svm", "gs://bucket/train/*"). Each must match a file.
	// Files ending in .gz are gunzipped.
	Inputs []string
	// Format is "libsvm" (the default) or "csv" (label in the first field,
	// no header).
	Format string
	// Dims is the number of features D. Required: every shard must build
	// rows of the same width, and a shard sees only its own rows.
	Dims int
	// Type is the element type, "float32" (the default) or "float64".
	Type string
	// Algorithm is perceptron.Online or perceptron.Averaged.
	Algorithm perceptron.Algorithm
	// Mixing is Uniform or Mistakes.
	Mixing Mixing
	// Shards is the number of shards S ≥ 1. Each shard's rows are held in
	// one worker's memory, densely (S·memory ≥ rows·D·size of Type).
	Shards int
	// Epochs is the number of epochs E ≥ 1; all of them run.
	Epochs int
	// Eta is the step size η; 0 means 1.
	Eta float64
	// Output is the model file to write (on any Beam filesystem), in the
	// library's binary model format; a report of the epochs is written
	// next to it as Output+".ipm.json" before the model.
	Output string
	// Overwrite lets the job replace an existing Output (and its report);
	// without it an existing file is an error wrapping ErrExists.
	Overwrite bool
}

// ErrExists is wrapped by the error about an output file that exists
// (Config.Overwrite not set) or that is one of the inputs.
var ErrExists = errors.New("ipm: output file exists")

// check resolves the defaults and validates c.
func (c *Config) check() error {
	if len(c.Inputs) == 0 {
		return fmt.Errorf("%w: no input pattern", ErrConfig)
	}
	switch c.Format {
	case "":
		c.Format = "libsvm"
	case "libsvm", "csv":
	default:
		return fmt.Errorf("%w: format %q (want libsvm or csv)", ErrConfig, c.Format)
	}
	switch c.Type {
	case "":
		c.Type = "float32"
	case "float32", "float64":
	default:
		return fmt.Errorf("%w: type %q (want float32 or float64)", ErrConfig, c.Type)
	}
	if c.Dims < 1 {
		return fmt.Errorf("%w: Dims = %d: give the number of features", ErrConfig, c.Dims)
	}
	if c.Algorithm != perceptron.Online && c.Algorithm != perceptron.Averaged {
		return fmt.Errorf("%w: algorithm %v: parameter mixing supports online and averaged", ErrConfig, c.Algorithm)
	}
	if c.Mixing != Uniform && c.Mixing != Mistakes {
		return fmt.Errorf("%w: mixing %v", ErrConfig, c.Mixing)
	}
	if c.Shards < 1 || c.Shards > 1<<20 {
		return fmt.Errorf("%w: Shards = %d (want 1 to 2²⁰)", ErrConfig, c.Shards)
	}
	if c.Epochs < 1 || c.Epochs > 10000 {
		return fmt.Errorf("%w: Epochs = %d (want 1 to 10000)", ErrConfig, c.Epochs)
	}
	if c.Eta == 0 {
		c.Eta = 1
	}
	if !(c.Eta > 0) || c.Eta > 1e30 {
		return fmt.Errorf("%w: Eta = %v", ErrConfig, c.Eta)
	}
	if c.Output == "" {
		return fmt.Errorf("%w: no output file", ErrConfig)
	}
	return nil
}
