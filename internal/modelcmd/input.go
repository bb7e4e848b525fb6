package modelcmd

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Input data of train, predict and eval: LIBSVM/SVMlight text, CSV, or an
// IDX image file with its IDX label file, any of them gzip-compressed.

// errMismatch reports data that does not fit the model or the training
// set: another number of features.
var errMismatch = errors.New("data does not match")

// The input formats.
const (
	fmtAuto   = "auto"
	fmtLIBSVM = "libsvm"
	fmtCSV    = "csv"
	fmtIDX    = "idx"
)

// dataFlags are the flags that say how to read a data file.
type dataFlags struct {
	format   string
	cols     int
	labelCol int
	header   bool
	sep      string
	comment  string
	labels   string
	scale    float64
	scaleSet bool // -scale was given
	gzRatio  int  // -gzip-ratio
}

// register adds the data flags to fs. withCols adds -cols, the feature
// count of a LIBSVM training file (predict and eval take it from the
// model).
func (d *dataFlags) register(fs *flag.FlagSet, withCols bool) {
	fs.StringVar(&d.format, "format", fmtAuto, "input `format`: libsvm, csv, idx, or auto (by file name: *.csv and *.tsv are CSV,\n"+
		"names with \"idx\" and \"ubyte\" or ending in .idx are IDX, anything else LIBSVM; a .gz suffix is ignored);\n"+
		"text: fasttext (auto when a file's first line starts with __label__), text-tsv, text-csv, text-lines (auto with -labels; see text.go)")
	if withCols {
		fs.IntVar(&d.cols, "cols", 0, "LIBSVM: number of features `N` (default: the largest index in the file, if the\n"+
			"dense matrix then takes at most 64 bytes per byte of the file, plus 1 MiB)")
	}
	fs.IntVar(&d.labelCol, "label-col", -1, "CSV: 0-based `column` of the label; -1 is the last column")
	fs.BoolVar(&d.header, "header", false, "CSV: the first line is a header and is skipped")
	fs.StringVar(&d.sep, "sep", "", "CSV: field `separator`, one character or \"tab\" (default ',', tab for *.tsv)")
	fs.StringVar(&d.comment, "comment", "", "CSV: lines starting with this `character` are comments")
	fs.StringVar(&d.labels, "labels", "", "IDX: the label `file` (default: the image file's name with\n"+
		"\"images-idx3\" replaced by \"labels-idx1\", with or without .gz); text: the labels of one document per line, one per line")
	fs.Float64Var(&d.scale, "scale", 1.0/255, "IDX: pixel values are multiplied by `s`")
	fs.IntVar(&d.gzRatio, "gzip-ratio", dataset.DefaultGzipRatio, "LIBSVM, CSV: a gzip-compressed file may decompress to at most `R` bytes per\n"+
		"compressed byte, plus 1 MiB (the readers' memory bounds are per byte of text); 0: no bound")
}

// finish records which flags were set; call it after parsing.
func (d *dataFlags) finish(fs *flag.FlagSet) {
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "scale" {
			d.scaleSet = true
		}
	})
}

// inputFiles returns the files a data argument reads: the file, and the
// label file of an IDX image file.
func (d *dataFlags) inputFiles(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		out = append(out, p)
		if f, err := d.formatOf(p); err == nil && f == fmtIDX {
			if l, err := d.labelsPath(p); err == nil {
				out = append(out, l)
			}
		}
	}
	return out
}

// formatOf returns the format of path: d.format unless it is auto, else
// what the file name says. An unknown -format is a usage error.
func (d *dataFlags) formatOf(path string) (string, error) {
	switch d.format {
	case fmtLIBSVM, fmtCSV, fmtIDX:
		return d.format, nil
	case fmtAuto, "":
	default:
		return "", fmt.Errorf("%w: -format %q: want libsvm, csv, idx, fasttext, text-tsv, text-csv, text-lines or auto", cli.ErrUsage, d.format)
	}
	name := strings.ToLower(filepath.Base(path))
	name = strings.TrimSuffix(name, ".gz")
	switch {
	case strings.HasSuffix(name, ".csv"), strings.HasSuffix(name, ".tsv"):
		return fmtCSV, nil
	case strings.HasSuffix(name, ".idx"), strings.Contains(name, "idx") && strings.Contains(name, "ubyte"):
		return fmtIDX, nil
	}
	return fmtLIBSVM, nil
}

// oneRune parses a -sep or -comment value: one character, or "tab".
func oneRune(flagName, s string) (rune, error) {
	switch s {
	case "":
		return 0, nil
	case "tab", `\t`:
		return '\t', nil
	}
	r, n := utf8.DecodeRuneInString(s)
	if n != len(s) || r == utf8.RuneError {
		return 0, fmt.Errorf("%w: -%s %q: want one character (or \"tab\")", cli.ErrUsage, flagName, s)
	}
	return r, nil
}

// labelsPath returns the IDX label file that goes with images.
func (d *dataFlags) labelsPath(images string) (string, error) {
	if d.labels != "" {
		return d.labels, nil
	}
	dir, base := filepath.Split(images)
	if i := strings.Index(base, "images-idx3"); i >= 0 {
		p := dir + base[:i] + "labels-idx1" + base[i+len("images-idx3"):]
		// The labels may be compressed when the images are not, or the
		// reverse: take the variant that exists.
		alt := p + ".gz"
		if strings.HasSuffix(p, ".gz") {
			alt = strings.TrimSuffix(p, ".gz")
		}
		if _, err := os.Stat(p); err != nil {
			if _, err := os.Stat(alt); err == nil {
				return alt, nil
			}
		}
		return p, nil
	}
	return "", fmt.Errorf("%w: %s: IDX input needs -labels FILE (the name has no \"images-idx3\" to derive it from)", cli.ErrUsage, images)
}

// gzipRatio is -gzip-ratio as the dataset options take it: 0 (no bound)
// is negative there, where 0 is the default.
func (d *dataFlags) gzipRatio() int {
	if d.gzRatio == 0 {
		return -1
	}
	return d.gzRatio
}

// check validates the flag values that do not depend on a file, so that
// a bad flag is a usage error before any work.
func (d *dataFlags) check() error {
	if _, err := d.formatOf(""); err != nil {
		return err
	}
	if d.cols < 0 {
		return fmt.Errorf("%w: -cols %d: want a count ≥ 0", cli.ErrUsage, d.cols)
	}
	if d.labelCol < -1 {
		return fmt.Errorf("%w: -label-col %d: want a 0-based column or -1 for the last", cli.ErrUsage, d.labelCol)
	}
	if _, err := oneRune("sep", d.sep); err != nil {
		return err
	}
	if _, err := oneRune("comment", d.comment); err != nil {
		return err
	}
	if d.gzRatio < 0 {
		return fmt.Errorf("%w: -gzip-ratio %d: want a ratio ≥ 0 (0: no bound)", cli.ErrUsage, d.gzRatio)
	}
	if !(d.scale > 0) || d.scale*255 > 1e30 {
		return fmt.Errorf("%w: -scale %v: want a positive finite value", cli.ErrUsage, d.scale)
	}
	return nil
}

// loadData reads the data file path in the format d selects and returns it
// with a description of the format. cols > 0 is the feature count the data
// must have, that of against ("the model", "the training data"): LIBSVM
// files are read with it, so a larger index is an error at its line and
// column, and other formats must have exactly that many.
func loadData[T kernel.Float](path string, d *dataFlags, cols int, against string) (*dataset.Data[T], string, error) {
	format, err := d.formatOf(path)
	if err != nil {
		return nil, "", err
	}
	if cols == 0 {
		cols, against = d.cols, "-cols"
	}
	var data *dataset.Data[T]
	switch format {
	case fmtLIBSVM:
		data, err = dataset.LoadLIBSVM[T](path, dataset.LIBSVMOptions{Cols: cols, MaxGzipRatio: d.gzipRatio()})
	case fmtCSV:
		opts := dataset.CSVOptions{LabelColumn: d.labelCol, Header: d.header, MaxGzipRatio: d.gzipRatio()}
		if opts.Comma, err = oneRune("sep", d.sep); err != nil {
			return nil, "", err
		}
		if opts.Comma == 0 && strings.HasSuffix(strings.TrimSuffix(strings.ToLower(path), ".gz"), ".tsv") {
			opts.Comma = '\t'
		}
		if opts.Comment, err = oneRune("comment", d.comment); err != nil {
			return nil, "", err
		}
		data, err = dataset.LoadCSV[T](path, opts)
	case fmtIDX:
		var labels string
		if labels, err = d.labelsPath(path); err != nil {
			return nil, "", err
		}
		scale := T(1) / T(255) // exactly pixel/255, see LoadIDXPair
		if d.scaleSet {
			scale = T(d.scale)
		}
		data, err = dataset.LoadIDXPair(path, labels, scale)
		format = "idx, labels " + labels
	}
	if err != nil {
		return nil, "", err
	}
	if cols > 0 && data.Cols != cols {
		return nil, "", fmt.Errorf("%s: %w: %d features, %s has %d", path, errMismatch, data.Cols, against, cols)
	}
	return data, format, nil
}

// loadSparse reads the LIBSVM file path as a CSR matrix, never dense:
// with cols > 0 (-cols, or the training data's feature count for a test
// file), an index above it is an error at its line and column, and the
// matrix has exactly cols columns. Without cols the width is the largest
// index, and the weights a model trained on it holds, one vector of that
// width per class, must be justified by the input as a dense matrix is
// (see dataset.DenseRatio): at most DenseRatio bytes per byte of the
// sparse rows, plus DenseSlack; else the error asks for -cols.
func loadSparse[T kernel.Float](path string, cols int, d *dataFlags) (*dataset.CSR[T], error) {
	c, err := dataset.LoadLIBSVMSparse[T](path, dataset.LIBSVMOptions{Cols: cols, MaxGzipRatio: d.gzipRatio()})
	if err != nil || cols > 0 {
		return c, err
	}
	var z T
	K := int64(len(slices.Compact(slices.Sorted(slices.Values(c.Y)))))
	weights := K * int64(c.Cols) * int64(unsafe.Sizeof(z))
	if limit := dataset.DenseRatio*c.Bytes() + dataset.DenseSlack; weights > limit {
		return nil, fmt.Errorf("%s: %w: the largest index, %d, makes weights of %d classes × %d features (%d bytes), more than the %d bytes "+
			"these %d stored values justify; give the feature count with -cols to ask for that width", path, dataset.ErrTooLarge, c.Cols, K, c.Cols, weights, limit, c.NNZ())
	}
	return c, nil
}
