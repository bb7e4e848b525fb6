package model

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/quant"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// Info describes a model file, from its header.
type Info struct {
	Format  Format
	Kind    Kind
	Elem    string // "float32" or "float64": the Classifier type (a quantised model's is float32)
	Dims    int    // features per sample
	Classes []int  // labels
	Size    int64  // the file's size in bytes, as its header implies it (binary)
}

// headerSize is the fixed part of the binary header.
const headerSize = 40

// maxInspectLabels bounds the labels Inspect reads (the format's bound).
const maxInspectLabels = 1 << 24

// Inspect describes the model file that r begins with. A binary file's
// header and labels are read (not the rest, and not its checksum: Load
// checks that); a JSON file is read and decoded whole, as Load does.
func Inspect(r io.Reader) (Info, error) { return Options{}.Inspect(r) }

// InspectFile describes the model file at path, as Inspect does.
func InspectFile(path string) (Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	info, err := Options{}.Inspect(f)
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, withoutPath(err))
	}
	return info, nil
}

// Inspect describes the model file that r begins with; see the function
// Inspect.
func (o Options) Inspect(r io.Reader) (Info, error) {
	var head [headerSize]byte
	n, err := io.ReadFull(r, head[:len(modelfile.Magic)])
	if err != nil && n == 0 {
		return Info{}, fmt.Errorf("%w: empty", ErrFormat)
	}
	if string(head[:n]) != modelfile.Magic {
		br := bufio.NewReader(io.MultiReader(bytes.NewReader(head[:n]), r))
		format := JSON
		if p, _ := br.Peek(len(interop.LIBLINEARPrefix)); len(p) > 0 {
			if f, ok := textFormat(p); ok {
				format = f
			}
		}
		m, err := o.Load(br)
		if err != nil {
			return Info{}, err
		}
		return infoOf(m, format), nil
	}
	if _, err := io.ReadFull(r, head[n:]); err != nil {
		return Info{}, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrCorrupt, n, headerSize)
	}
	size, _, err := encodedSize(head[:])
	if err != nil {
		return Info{}, err
	}
	info := Info{Format: Binary, Kind: Kind(head[11]), Elem: "float32", Size: size}
	if !info.Kind.Known() {
		return Info{}, fmt.Errorf("%w: unknown kind %d", ErrCorrupt, head[11])
	}
	if info.Kind <= PerceptronArgmax { // a linear SVM's files are linear's, algorithm DualCD
		info.Kind = linearKind(linear.Kind(head[11]), linear.Algorithm(head[12]))
	}
	if head[10] == 8 {
		info.Elem = "float64"
	}
	info.Dims = int(binary.LittleEndian.Uint32(head[16:]))
	L := int(binary.LittleEndian.Uint32(head[20:]))
	if L < 2 || L > maxInspectLabels {
		return Info{}, fmt.Errorf("%w: %d labels", ErrCorrupt, L)
	}
	labels := make([]byte, 8*L) // bounded by the format, and read below
	if _, err := io.ReadFull(r, labels); err != nil {
		return Info{}, fmt.Errorf("%w: the file ends in its labels (truncated)", ErrCorrupt)
	}
	info.Classes = make([]int, L)
	for i := range info.Classes {
		v := int64(binary.LittleEndian.Uint64(labels[8*i:]))
		if v < math.MinInt || v > math.MaxInt {
			return Info{}, fmt.Errorf("%w: label %d does not fit an int", ErrCorrupt, v)
		}
		info.Classes[i] = int(v)
	}
	return info, nil
}

// infoOf describes a decoded model of a file in format f.
func infoOf(m Model, f Format) Info {
	return Info{Format: f, Kind: KindOf(m), Elem: Elem(m), Dims: m.Dims(), Classes: m.Classes()}
}

// KindOf returns the kind of file m is saved as, or 0 for a Model of
// another package.
func KindOf(m Model) Kind {
	type scheme interface{ Scheme() svm.Scheme }
	switch v := m.(type) {
	case *Text:
		return TextModel
	case *quant.Model:
		return QuantBinary - 1 + Kind(v.Kind())
	}
	if inner, ok := modelreg.Inner(m); ok { // an interop.Voting or Pipeline
		return KindOf(inner.(Model))
	}
	// The models of packages linear and expansion, recognised through
	// internal/modelreg and read through interfaces: naming them here
	// would compile their methods in this package again.
	if modelreg.ElemOf(modelreg.Linear, m) != 0 {
		v := m.(interface {
			Kind() linear.Kind
			Algorithm() linear.Algorithm
		})
		return linearKind(v.Kind(), v.Algorithm())
	}
	if modelreg.ElemOf(modelreg.Expansion, m) != 0 {
		v := m.(interface {
			IsPerceptron() bool
			Scheme() expansion.Scheme
		})
		return expansionKind(v.IsPerceptron(), v.Scheme())
	}
	return 0
}

// expansionKind is the kind of a kernel expansion: a kernel perceptron's
// or a kernel SVM's, by its scheme.
func expansionKind(perceptron bool, s expansion.Scheme) Kind {
	base := KernelSVMBinary
	if perceptron {
		base = KernelPerceptronBinary
	}
	switch s {
	case expansion.OneVsRest:
		return base + 1
	case expansion.OneVsOne, expansion.Argmax:
		return base + 2
	}
	return base
}

// linearKind is the file kind of a linear model of shape k trained by
// algo: a linear SVM's (dual coordinate descent) or a perceptron's.
func linearKind(k linear.Kind, algo linear.Algorithm) Kind {
	if algo == linear.DualCD {
		if k == linear.KindBinary {
			return LinearSVMBinary
		}
		return LinearSVMOneVsRest
	}
	return Kind(k)
}

// svmScheme is the offset of an SVM's scheme in its kinds.
func svmScheme(s svm.Scheme) Kind {
	switch s {
	case svm.OneVsRest:
		return 1
	case svm.OneVsOne:
		return 2
	}
	return 0
}
