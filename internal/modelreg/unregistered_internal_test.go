package modelreg

import (
	"strings"
	"testing"
)

// TestUnregistered: with nothing registered (a program that links neither
// linear nor interop), the tests answer "not a model of the family" and
// the constructors panic naming the package to link, not with a nil call.
func TestUnregistered(t *testing.T) {
	e, n, ls, ll, r, i := elemOf, newModel, marshalLIBSVM, marshalLIBLINEAR, readInterop, innerInterop
	defer func() {
		elemOf, newModel, marshalLIBSVM, marshalLIBLINEAR, readInterop, innerInterop = e, n, ls, ll, r, i
	}()
	elemOf, newModel = [families]func(any) int{}, [families]func(int) any{}
	marshalLIBSVM, marshalLIBLINEAR, readInterop, innerInterop = nil, nil, nil, nil
	for _, f := range []Family{Linear, Expansion, -1, families} {
		if got := ElemOf(f, 1.5); got != 0 {
			t.Errorf("ElemOf(%d) = %d, want 0", f, got)
		}
	}
	if _, ok := Inner(1.5); ok {
		t.Error("Inner: ok with nothing registered")
	}
	if b, ok, err := MarshalLIBSVM(1.5); b != nil || ok || err != nil {
		t.Errorf("MarshalLIBSVM = %v, %v, %v", b, ok, err)
	}
	if b, ok, err := MarshalLIBLINEAR(1.5); b != nil || ok || err != nil {
		t.Errorf("MarshalLIBLINEAR = %v, %v, %v", b, ok, err)
	}
	for name, call := range map[string]func(){
		"New(Linear)":    func() { New(Linear, 4) },
		"New(Expansion)": func() { New(Expansion, 8) },
		"ReadInterop":    func() { _, _ = ReadInterop(nil, "libsvm") },
	} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, "is not linked") {
					t.Errorf("%s: panic %q, want one naming the package to link", name, msg)
				}
			}()
			call()
		}()
	}
}
