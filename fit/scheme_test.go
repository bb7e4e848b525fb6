package fit

import (
	"errors"
	"strings"
	"testing"
)

func TestParseScheme(t *testing.T) {
	for s := Auto; s < numSchemes; s++ {
		for _, name := range []string{s.String(), strings.ToUpper(s.String())} {
			if got, err := ParseScheme(name); err != nil || got != s {
				t.Errorf("ParseScheme(%q) = %v, %v; want %v", name, got, err, s)
			}
		}
	}
	for name, want := range map[string]Scheme{"one-vs-rest": OneVsRest, "One-Vs-One": OneVsOne} {
		if got, err := ParseScheme(name); err != nil || got != want {
			t.Errorf("ParseScheme(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, name := range []string{"", "multi", "ovo ", "all", "Scheme(5)", numSchemes.String()} {
		if got, err := ParseScheme(name); !errors.Is(err, ErrScheme) || got != Auto {
			t.Errorf("ParseScheme(%q) = %v, %v; want an ErrScheme error", name, got, err)
		}
	}
	if got := Scheme(200).String(); got != "Scheme(200)" {
		t.Errorf("Scheme(200).String() = %q", got)
	}
}
