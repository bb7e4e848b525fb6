package dataset

import (
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/memtest"
)

// TestCSVWideLineMemory holds ReadCSV's stated bound: at most
// CSVInputGrowth bytes allocated per byte of input plus CSVLineGrowth per
// byte of the longest record, with lines of one-character fields (the most
// fields per byte), one wide line, several, and many short ones.
func TestCSVWideLineMemory(t *testing.T) {
	for _, tc := range []struct {
		fields, rows int
	}{{500000, 1}, {500000, 4}, {10, 50000}, {-1, 1}} {
		line := "1,0." + strings.Repeat("0", 1<<20) + "1\n" // one value of a million digits: the line alone
		if tc.fields > 0 {
			line = strings.Repeat("0,", tc.fields) + "1\n"
		}
		in := strings.Repeat(line, tc.rows)
		for _, f64 := range []bool{false, true} {
			var err error
			alloc := memtest.Allocated(func() {
				if f64 {
					_, err = ReadCSV[float64](strings.NewReader(in), CSVOptions{})
				} else {
					_, err = ReadCSV[float32](strings.NewReader(in), CSVOptions{})
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			bound := uint64(CSVInputGrowth*len(in) + CSVLineGrowth*len(line))
			t.Logf("%d fields × %d rows, float64 %v: %d bytes, %d allocated (%.1f×), bound %d", tc.fields, tc.rows, f64, len(in), alloc,
				float64(alloc)/float64(len(in)), bound)
			if alloc > bound {
				t.Errorf("%d fields × %d rows: allocated %d bytes, more than %d", tc.fields, tc.rows, alloc, bound)
			}
		}
	}
}
