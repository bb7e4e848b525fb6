package dataset

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadCSVValid(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opts CSVOptions
		want Data[float64]
	}{
		{"label first", "1,0.5,2\n-1,3,4\n", CSVOptions{},
			Data[float64]{X: []float64{0.5, 2, 3, 4}, Y: []int{1, -1}, Rows: 2, Cols: 2}},
		{"label last with header", "a,b,label\n0.5,2,+1\n3,4,0\n", CSVOptions{LabelColumn: -1, Header: true},
			Data[float64]{X: []float64{0.5, 2, 3, 4}, Y: []int{1, 0}, Rows: 2, Cols: 2}},
		{"label in the middle", "0.5,7,2\n3,8,4\n", CSVOptions{LabelColumn: 1},
			Data[float64]{X: []float64{0.5, 2, 3, 4}, Y: []int{7, 8}, Rows: 2, Cols: 2}},
		{"CRLF, blank lines, no final newline", "1,2\r\n\r\n3,4", CSVOptions{},
			Data[float64]{X: []float64{2, 4}, Y: []int{1, 3}, Rows: 2, Cols: 1}},
		{"semicolons, spaces, quotes", "1; 2.5 ;\"3\"\n0;-1e-3; 4 \n", CSVOptions{Comma: ';'},
			Data[float64]{X: []float64{2.5, 3, -1e-3, 4}, Y: []int{1, 0}, Rows: 2, Cols: 2}},
		{"tabs and comments", "# comment\n1\t2\n#x\n2\t3\n", CSVOptions{Comma: '\t', Comment: '#'},
			Data[float64]{X: []float64{2, 3}, Y: []int{1, 2}, Rows: 2, Cols: 1}},
		{"labels only", "1\n2\n", CSVOptions{},
			Data[float64]{Y: []int{1, 2}, Rows: 2, Cols: 0}},
		{"float label", "1.0,2\n", CSVOptions{},
			Data[float64]{X: []float64{2}, Y: []int{1}, Rows: 1, Cols: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadCSV[float64](strings.NewReader(tt.in), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Rows != tt.want.Rows || got.Cols != tt.want.Cols ||
				!slices.Equal(got.X, tt.want.X) || !slices.Equal(got.Y, tt.want.Y) {
				t.Fatalf("got %+v, want %+v", *got, tt.want)
			}
			if err := got.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		opts      CSVOptions
		kind      error
		line, col int
		msg       string
	}{
		{"too few fields", "1,2,3\n4,5\n", CSVOptions{}, ErrRagged, 2, 1, "row has 2 fields, want 3 as on line 1"},
		{"too many fields", "1,2\n3,4\n5,6,7\n", CSVOptions{}, ErrRagged, 3, 5, "row has 3 fields, want 2"},
		{"ragged against header", "a,b,c\n1,2\n", CSVOptions{Header: true}, ErrRagged, 2, 1, ""},
		{"bad value", "1,2\n3,x4\n", CSVOptions{}, ErrSyntax, 2, 3, `value "x4" is not a number`},
		{"empty field", "1,2,3\n4,,6\n", CSVOptions{}, ErrSyntax, 2, 3, "empty field 2"},
		{"bad label", "1,2\nx,4\n", CSVOptions{}, ErrLabel, 2, 1, `label "x" is not an integer`},
		{"fractional label last", "1,2.5\n", CSVOptions{LabelColumn: -1}, ErrLabel, 1, 3, ""},
		{"NaN", "1,2,NaN\n", CSVOptions{}, ErrNonFinite, 1, 5, "not finite"},
		{"Inf", "1,-inf\n", CSVOptions{}, ErrNonFinite, 1, 3, ""},
		{"overflow", "1,1e400\n", CSVOptions{}, ErrNonFinite, 1, 3, "overflows"},
		{"bare quote", "1,2\n3,4\"5\n", CSVOptions{}, ErrSyntax, 2, 4, ""},
		{"unterminated quote", "1,\"2\n", CSVOptions{}, ErrSyntax, 1, 5, "quote"}, // end of the line
		{"CRLF positions", "1,2\r\n3,4\r\n5,y\r\n", CSVOptions{}, ErrSyntax, 3, 3, ""},
		{"label column beyond fields", "1,2\n", CSVOptions{LabelColumn: 2}, ErrInvalid, 1, 1, "label column 2 out of range"},
		{"bad label column", "1,2\n", CSVOptions{LabelColumn: -2}, ErrInvalid, 0, 0, ""},
		{"bad separator", "1,2\n", CSVOptions{Comma: '"'}, ErrInvalid, 0, 0, ""},
		{"comment equals separator", "1,2\n", CSVOptions{Comment: ','}, ErrInvalid, 0, 0, ""},
		{"empty", "", CSVOptions{}, ErrEmpty, 0, 0, "no data rows"},
		{"header only", "a,b\n", CSVOptions{Header: true, File: "h.csv"}, ErrEmpty, 0, 0, "h.csv: no data rows"},
		{"file name", "1,2\n3,x\n", CSVOptions{File: "d.csv"}, ErrSyntax, 2, 3, `d.csv:2:3: value "x" is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadCSV[float32](strings.NewReader(tt.in), tt.opts)
			wantParseError(t, err, tt.kind, tt.line, tt.col)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
		})
	}
}

func TestReadCSVReaderError(t *testing.T) {
	boom := errors.New("boom")
	if _, err := ReadCSV[float64](iotestDataThenErr("1,2\n3,", boom), CSVOptions{}); !errors.Is(err, boom) {
		t.Fatalf("got %v, want it to wrap %v", err, boom)
	}
}

func TestCSVRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	layouts := []CSVOptions{
		{},
		{LabelColumn: -1, Header: true},
		{LabelColumn: 3, Comma: ';'},
		{LabelColumn: 6, Comma: '\t', Header: true},
	}
	for _, opts := range layouts {
		d32 := randomData[float32](rng, 20, 6)
		d64 := randomData[float64](rng, 20, 6)
		roundTripCSV(t, d32, opts)
		roundTripCSV(t, d64, opts)
	}
	// The real files too, through LoadCSV of a gzip-compressed copy.
	d, err := LoadLIBSVM[float64]("testdata/breast_cancer_std.train.libsvm", LIBSVMOptions{Cols: 30})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d, CSVOptions{Header: true, LabelColumn: -1}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bc.csv.gz")
	writeGzip(t, path, buf.Bytes())
	got, err := LoadCSV[float64](path, CSVOptions{Header: true, LabelColumn: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !dataEqual(got, d) {
		t.Fatal("LoadCSV of the written file differs")
	}
}

func roundTripCSV[T float32 | float64](t *testing.T, d *Data[T], opts CSVOptions) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d, opts); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSV[T](&buf, opts)
	if err != nil {
		t.Fatalf("%+v: %v", opts, err)
	}
	if !dataEqual(got, d) {
		t.Fatalf("%+v: round trip changed the data", opts)
	}
}

func TestWriteCSVErrors(t *testing.T) {
	d := &Data[float64]{X: []float64{1, 2}, Y: []int{1}, Rows: 1, Cols: 2}
	tests := []struct {
		name string
		d    *Data[float64]
		opts CSVOptions
		kind error
	}{
		{"label column too big", d, CSVOptions{LabelColumn: 3}, ErrInvalid},
		{"separator in numbers", d, CSVOptions{Comma: '.'}, ErrInvalid},
		{"bad separator", d, CSVOptions{Comma: '\n'}, ErrInvalid},
		{"invalid data", &Data[float64]{X: []float64{1}, Y: []int{1}, Rows: 1, Cols: 2}, CSVOptions{}, ErrMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := WriteCSV(&bytes.Buffer{}, tt.d, tt.opts); !errors.Is(err, tt.kind) {
				t.Fatalf("got %v, want %v", err, tt.kind)
			}
		})
	}
}

func TestLoadCSVMissing(t *testing.T) {
	if _, err := LoadCSV[float64]("testdata/none.csv", CSVOptions{}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want fs.ErrNotExist", err)
	}
}
