package modelfile

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
)

// TestSchemeKinds pins the files' kind bytes and JSON names of every
// scheme: they must not move with fit.Scheme's values.
func TestSchemeKinds(t *testing.T) {
	for _, tc := range []struct {
		base  byte
		s     fit.Scheme
		third fit.Scheme
		kind  byte
		name  string
	}{
		{1, fit.Binary, fit.Argmax, 1, "binary"}, {1, fit.OneVsRest, fit.Argmax, 2, "ovr"}, {1, fit.Argmax, fit.Argmax, 3, "argmax"},
		{16, fit.Binary, fit.Argmax, 16, "binary"}, {16, fit.OneVsRest, fit.Argmax, 17, "ovr"}, {16, fit.Argmax, fit.Argmax, 18, "argmax"},
		{32, fit.Binary, fit.OneVsOne, 32, "binary"}, {32, fit.OneVsRest, fit.OneVsOne, 33, "ovr"}, {32, fit.OneVsOne, fit.OneVsOne, 34, "ovo"},
		{49, fit.Binary, fit.Argmax, 49, "binary"}, {49, fit.OneVsRest, fit.Argmax, 50, "ovr"}, {49, fit.Argmax, fit.Argmax, 51, "argmax"},
	} {
		if k := SchemeKind(tc.base, tc.s, tc.third); k != tc.kind {
			t.Errorf("SchemeKind(%d, %v) = %d, want %d", tc.base, tc.s, k, tc.kind)
		}
		if s := KindScheme(tc.base, tc.kind, tc.third); s != tc.s {
			t.Errorf("KindScheme(%d, %d, %v) = %v, want %v", tc.base, tc.kind, tc.third, s, tc.s)
		}
		if n := SchemeName(tc.s); n != tc.name {
			t.Errorf("SchemeName(%v) = %q, want %q", tc.s, n, tc.name)
		}
	}
	// No kind for an untrained model's Auto or a scheme outside the family.
	for _, tc := range []struct{ s, third fit.Scheme }{{fit.Auto, fit.Argmax}, {fit.OneVsOne, fit.Argmax}, {fit.Argmax, fit.OneVsOne}, {fit.Scheme(99), fit.Argmax}} {
		if k := SchemeKind(1, tc.s, tc.third); k != 0 {
			t.Errorf("SchemeKind(1, %v, %v) = %d, want 0", tc.s, tc.third, k)
		}
	}
	if s := KindScheme(1, 4, fit.Argmax); s != fit.Auto {
		t.Errorf("KindScheme(1, 4) = %v, want auto", s)
	}
}
