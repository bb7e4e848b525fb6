package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/smalltest"
)

// scanAll reads in with csvScanner: each record's fields and positions,
// and the error that ends it.
func scanAll(in string, comma, comment rune) ([][]string, [][][2]int, error) {
	s := newCSVScanner(strings.NewReader(in), comma, comment)
	var recs [][]string
	var pos [][][2]int
	for {
		var rec []string
		var p [][2]int
		_, err := s.record(func(b []byte, line, col int) {
			rec = append(rec, string(b))
			p = append(p, [2]int{line, col})
		})
		if err == io.EOF {
			return recs, pos, nil
		}
		if err != nil {
			var se *csvSyntaxError
			if errors.As(err, &se) {
				return recs, pos, &csv.ParseError{Line: se.line, Column: se.col, Err: se.err}
			}
			return recs, pos, err
		}
		recs, pos = append(recs, rec), append(pos, p)
	}
}

// csvAll reads in with encoding/csv as ReadCSV used it.
func csvAll(in string, comma, comment rune) ([][]string, [][][2]int, error) {
	r := csv.NewReader(strings.NewReader(in))
	r.Comma, r.Comment, r.FieldsPerRecord = comma, comment, -1
	var recs [][]string
	var pos [][][2]int
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return recs, pos, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return recs, pos, &csv.ParseError{Line: pe.Line, Column: pe.Column, Err: pe.Err}
			}
			return recs, pos, err
		}
		var p [][2]int
		for i := range rec {
			l, c := r.FieldPos(i)
			p = append(p, [2]int{l, c})
		}
		recs, pos = append(recs, rec), append(pos, p)
	}
}

// TestCSVScannerIsEncodingCSV: on random text of the characters that
// matter (separators, quotes, line ends, comments, multi-byte runes),
// csvScanner reads the records, fields, positions and errors that
// encoding/csv reads.
func TestCSVScannerIsEncodingCSV(t *testing.T) {
	alphabet := []string{"1", "a", ",", ";", "\"", "\"\"", "\n", "\r\n", "\r", " ", "#", "é", "\t"}
	rng := rand.New(rand.NewPCG(9, 10))
	cases := []string{"", "\n", "1,2\n3,4", "1,\"2\n", "1,2\n3,4\"5\n", "\"a\"\"\",b\n1,2\n", "# \"\n1,2\n", "1,\"\r\n2\"\r\n3,4\r\n", "x\r", "\"\"\n", "a,\"b\"c\n"}
	for range smalltest.N(5000, 1000) { // fewer in a small run: package smalltest
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, in := range cases {
		for _, o := range []struct{ comma, comment rune }{{',', 0}, {';', '#'}, {'\t', 'é'}, {'é', 0}} {
			got, gp, gerr := scanAll(in, o.comma, o.comment)
			want, wp, werr := csvAll(in, o.comma, o.comment)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || !slices.EqualFunc(got, want, slices.Equal) || !slices.EqualFunc(gp, wp, slices.Equal) {
				t.Fatalf("%q, comma %q comment %q:\ngot  %q %v %v\nwant %q %v %v", in, o.comma, o.comment, got, gp, gerr, want, wp, werr)
			}
		}
	}
}
