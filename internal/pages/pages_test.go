package pages

import (
	"slices"
	"testing"
)

// TestMake: zero values of the length asked, small and large.
func TestMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, minBytes/8 - 1, minBytes / 8, 1 << 20} {
		x := Make[float64](n)
		if len(x) != n || cap(x) != n {
			t.Fatalf("Make(%d): len %d cap %d", n, len(x), cap(x))
		}
		for i, v := range x {
			if v != 0 {
				t.Fatalf("Make(%d)[%d] = %v", n, i, v)
			}
		}
	}
}

// TestPopulateKeepsValues: populating memory already written changes
// none of it, whatever the slice's alignment.
func TestPopulateKeepsValues(t *testing.T) {
	x := make([]int32, 3<<20)
	for i := range x {
		x[i] = int32(i*7 + 1)
	}
	for _, off := range []int{0, 1, 1023, 5000} {
		Populate(x[off:])
		Populate(x[off : off+minBytes/4+3])
	}
	for i, v := range x {
		if v != int32(i*7+1) {
			t.Fatalf("x[%d] = %d after Populate, want %d", i, v, i*7+1)
		}
	}
}

// TestAppend: the values of append, in arrays that grow as append's do
// for large slices (capacity at most twice the length, plus a few).
func TestAppend(t *testing.T) {
	var got, want []int32
	for i := range 300_000 {
		got = Append(got, int32(i))
		want = append(want, int32(i))
		if cap(got) > 2*len(got)+8 {
			t.Fatalf("len %d: capacity %d", len(got), cap(got))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatal("Append's values differ from append's")
	}
	s := make([]int32, 2, 10)
	if u := Append(s, 5); &u[0] != &s[0] || len(u) != 3 || u[2] != 5 {
		t.Fatal("Append with room left did not append in place")
	}
}
