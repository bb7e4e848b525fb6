package dataset

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestDataMethods(t *testing.T) {
	d := &Data[float32]{X: []float32{1, 2, 3, 4, 5, 6}, Y: []int{2, -1, 2}, Rows: 3, Cols: 2}
	if got := d.Row(1); !slices.Equal(got, []float32{3, 4}) || cap(got) != 2 {
		t.Fatalf("Row(1) = %v cap %d", got, cap(got))
	}
	if got := d.Classes(); !slices.Equal(got, []int{-1, 2}) {
		t.Fatalf("Classes = %v", got)
	}
	if got := d.ClassCounts(); !mapsEqual(got, map[int]int{-1: 1, 2: 2}) {
		t.Fatalf("ClassCounts = %v", got)
	}
	if !slices.Equal(d.Y, []int{2, -1, 2}) {
		t.Fatal("Classes modified Y")
	}
	s := d.Slice(1, 3)
	if s.Rows != 2 || !slices.Equal(s.X, []float32{3, 4, 5, 6}) || !slices.Equal(s.Y, []int{-1, 2}) {
		t.Fatalf("Slice(1, 3) = %+v", *s)
	}
	sub := d.Subset(2)
	if sub.Rows != 2 || !slices.Equal(sub.X, []float32{1, 2, 3, 4}) {
		t.Fatalf("Subset(2) = %+v", *sub)
	}
	// Appending to a subset must not overwrite the parent's next row.
	sub.X = append(sub.X, 99)
	sub.Y = append(sub.Y, 99)
	if d.X[4] != 5 || d.Y[2] != 2 {
		t.Fatal("append to a subset wrote into the parent")
	}
	if got := d.Subset(10); got.Rows != 3 {
		t.Fatalf("Subset(10).Rows = %d", got.Rows)
	}
	c := d.Clone()
	c.X[0], c.Y[0] = 42, 42
	if d.X[0] != 1 || d.Y[0] != 2 {
		t.Fatal("Clone shares memory")
	}
	c64 := Convert[float64](d)
	if c64.Rows != 3 || c64.Cols != 2 || c64.X[5] != 6 || !slices.Equal(c64.Y, d.Y) {
		t.Fatalf("Convert = %+v", *c64)
	}
}

func TestDataPanicsOnBadRange(t *testing.T) {
	d := &Data[float64]{X: []float64{1, 2}, Y: []int{1, 1}, Rows: 2, Cols: 1}
	for name, f := range map[string]func(){
		"Row(-1)":     func() { d.Row(-1) },
		"Row(2)":      func() { d.Row(2) },
		"Slice(1,0)":  func() { d.Slice(1, 0) },
		"Slice(0,3)":  func() { d.Slice(0, 3) },
		"Subset(-1)":  func() { d.Subset(-1) },
		"Slice(-1,1)": func() { d.Slice(-1, 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		d    Data[float32]
		kind error // nil: valid
	}{
		{"ok", Data[float32]{X: []float32{1, 2}, Y: []int{0}, Rows: 1, Cols: 2}, nil},
		{"empty is consistent", Data[float32]{}, nil},
		{"negative", Data[float32]{Rows: -1}, ErrMismatch},
		{"X too long", Data[float32]{X: []float32{1, 2, 3}, Y: []int{0}, Rows: 1, Cols: 2}, ErrMismatch},
		{"Y too short", Data[float32]{X: []float32{1, 2}, Rows: 1, Cols: 2}, ErrMismatch},
		{"overflowing shape", Data[float32]{Rows: math.MaxInt, Cols: 3}, ErrMismatch},
		{"NaN", Data[float32]{X: []float32{1, float32(math.NaN())}, Y: []int{0}, Rows: 1, Cols: 2}, ErrNonFinite},
		{"Inf", Data[float32]{X: []float32{float32(math.Inf(-1)), 1}, Y: []int{0}, Rows: 1, Cols: 2}, ErrNonFinite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.d.Validate()
			if tt.kind == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, tt.kind) {
				t.Fatalf("got %v, want %v", err, tt.kind)
			}
		})
	}
}

func TestParseErrorFormat(t *testing.T) {
	tests := []struct {
		e    ParseError
		want string
	}{
		{ParseError{File: "a.txt", Line: 3, Col: 7, Err: errorf(ErrSyntax, "bad")}, "a.txt:3:7: bad"},
		{ParseError{Line: 3, Col: 7, Err: errorf(ErrSyntax, "bad")}, "3:7: bad"},
		{ParseError{File: "a.txt", Line: 3, Err: errorf(ErrSyntax, "bad")}, "a.txt:3: bad"},
		{ParseError{File: "a.txt", Err: errorf(ErrEmpty, "no data rows")}, "a.txt: no data rows"},
		{ParseError{Err: ErrEmpty}, "dataset: no rows"},
		{ParseError{}, "unknown error"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
