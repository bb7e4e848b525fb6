package cli

import "testing"

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"epoch", "epochs", 1}, {"epochs", "epoch", 1}, {"kitten", "sitting", 3},
		{"json", "jsno", 1}, {"lsos", "loss", 1}, {"ca", "abc", 3}, {"abc", "", 3}, {"", "xy", 2}, {"plot", "plot", 0},
	} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
