package ipm

import (
	"errors"
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/linear"
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
	// Adding is the linear SVM's CoCoA+ (Ma et al. 2015): the shards'
	// updates are added (γ = 1), each shard's local problem scaled by
	// σ′ = S. For the SVM, Uniform is CoCoA's averaging (γ = 1/S, σ′ = 1).
	Adding
)

// String returns "uniform", "mistakes" or "adding".
func (m Mixing) String() string {
	switch m {
	case Uniform:
		return "uniform"
	case Mistakes:
		return "mistakes"
	case Adding:
		return "adding"
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
	case "adding":
		return Adding, nil
	}
	return 0, fmt.Errorf("%w: unknown mixing %q (want uniform, mistakes or adding)", ErrConfig, name)
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
	// Algorithm is linear.Online or linear.Averaged, or
	// linear.DualCD (or linear.SVM, the same here) for the linear SVM of
	// package svm (L1 loss, bias feature 1) trained by CoCoA, not
	// Pegasos: see C. Its model's Algorithm is linear.DualCD.
	Algorithm linear.Algorithm
	// Mixing is Uniform or Mistakes for the perceptrons, Uniform
	// (CoCoA's averaging) or Adding (CoCoA+) for the SVM.
	Mixing Mixing
	// C is the SVM's constant in ½‖w‖² + C·Σ max(0, 1 − yᵢw·x̃ᵢ)
	// (LIBLINEAR's convention, svm.LinearOptions.C); 0 means 1.
	C float64
	// Seed seeds the SVM shards' visiting orders (one permutation per
	// shard and epoch).
	Seed uint64
	// Shards is the number of shards S ≥ 1. Each shard's rows are held in
	// one worker's memory: as a CSR matrix (about 4 + size of Type bytes a
	// stored value), or dense (rows·D·size of Type) when that takes at
	// most twice the CSR's memory.
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
	// MaxModelBytes is the most memory the model's state may take in one
	// worker, as ModelBytes estimates it; 0 means DefaultMaxModelBytes. A
	// Dims (and, once the labels are known, a number of classes) over it
	// is refused before anything of that size is allocated, with an error
	// wrapping ErrConfig (the command's -max-model-mb raises it).
	MaxModelBytes int64
}

// DefaultMaxModelBytes is the default Config.MaxModelBytes: 4 GiB, a model
// of 2²⁷ values (one row of 134 million features, or 100 classes of 1.3
// million).
const DefaultMaxModelBytes = 4 << 30

// BytesPerValue is what ModelBytes counts for each value of the model's
// state in a worker: the float64 running weights and, for the averaged
// perceptron, the averaging sums (16), the state's JSON text between the
// pipeline's stages (at least 2 bytes a value, "0,", and 8 for the
// decoded model of the element type).
const BytesPerValue = 32

// ModelBytes estimates the memory one worker holds for a model of rows
// score rows (1 for two labels, else one per label) of dims features and
// a bias: BytesPerValue per value. It saturates at math.MaxInt64.
func ModelBytes(rows, dims int) int64 {
	v := float64(rows) * float64(dims+1) * BytesPerValue
	if v >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// checkModelBytes refuses a model of rows×dims over the budget max (0:
// DefaultMaxModelBytes).
func checkModelBytes(rows, dims int, max int64) error {
	if max == 0 {
		max = DefaultMaxModelBytes
	}
	if b := ModelBytes(rows, dims); b > max {
		what := "a model"
		if rows > 1 {
			what = fmt.Sprintf("a model of %d score rows", rows)
		}
		return fmt.Errorf("%w: %s of %d features takes about %d MiB in each worker (%d bytes a value), more than the %d MiB "+
			"allowed (Config.MaxModelBytes, the command's -max-model-mb, raises it)", ErrConfig, what, dims, b>>20, BytesPerValue, max>>20)
	}
	return nil
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
	if c.MaxModelBytes < 0 {
		return fmt.Errorf("%w: MaxModelBytes = %d", ErrConfig, c.MaxModelBytes)
	}
	// The smallest model, one row: the classes are known only once the
	// input is read, and checked then again.
	if err := checkModelBytes(1, c.Dims, c.MaxModelBytes); err != nil {
		return err
	}
	switch {
	case c.Algorithm == linear.SVM || c.Algorithm == linear.DualCD:
		c.Algorithm = linear.SVM // the one linear SVM here
		if c.Mixing != Uniform && c.Mixing != Adding {
			return fmt.Errorf("%w: mixing %v: the SVM mixes uniformly (CoCoA) or by adding (CoCoA+)", ErrConfig, c.Mixing)
		}
		if c.C == 0 {
			c.C = 1
		}
		if !(c.C > 0) || math.IsInf(c.C, 0) {
			return fmt.Errorf("%w: C = %v (want finite > 0)", ErrConfig, c.C)
		}
	case c.Algorithm != linear.Online && c.Algorithm != linear.Averaged:
		return fmt.Errorf("%w: algorithm %v: parameter mixing supports online, averaged and svm", ErrConfig, c.Algorithm)
	case c.Mixing != Uniform && c.Mixing != Mistakes:
		return fmt.Errorf("%w: mixing %v: the perceptrons mix uniformly or by mistakes", ErrConfig, c.Mixing)
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
