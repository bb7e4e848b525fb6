package modelreg_test

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/internal/modelreg"
	_ "github.com/rosenblatt-go/rosenblatt/interop" // registers the Expansion family and the encoders
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

func TestElemOfAndNew(t *testing.T) {
	for _, c := range []struct {
		f    modelreg.Family
		m    any
		want int
	}{
		{modelreg.Linear, new(linear.Model[float32]), 4},
		{modelreg.Linear, new(linear.Model[float64]), 8},
		{modelreg.Linear, new(expansion.Model[float32]), 0},
		{modelreg.Linear, linear.Model[float32]{}, 0}, // not a pointer
		{modelreg.Linear, new(quant.Model), 0},
		{modelreg.Linear, nil, 0},
		{modelreg.Expansion, new(expansion.Model[float32]), 4},
		{modelreg.Expansion, new(expansion.Model[float64]), 8},
		{modelreg.Expansion, new(linear.Model[float64]), 0},
		{modelreg.Expansion, nil, 0},
	} {
		if got := modelreg.ElemOf(c.f, c.m); got != c.want {
			t.Errorf("ElemOf(%d, %T) = %d, want %d", c.f, c.m, got, c.want)
		}
	}
	if _, ok := modelreg.New(modelreg.Linear, 4).(*linear.Model[float32]); !ok {
		t.Errorf("New(Linear, 4) is not a *linear.Model[float32]")
	}
	if _, ok := modelreg.New(modelreg.Linear, 8).(*linear.Model[float64]); !ok {
		t.Errorf("New(Linear, 8) is not a *linear.Model[float64]")
	}
	if _, ok := modelreg.New(modelreg.Expansion, 4).(*expansion.Model[float32]); !ok {
		t.Errorf("New(Expansion, 4) is not an *expansion.Model[float32]")
	}
	if _, ok := modelreg.New(modelreg.Expansion, 8).(*expansion.Model[float64]); !ok {
		t.Errorf("New(Expansion, 8) is not an *expansion.Model[float64]")
	}
}

func TestEncodersRefuseOtherTypes(t *testing.T) {
	if _, ok, err := modelreg.MarshalLIBSVM(new(linear.Model[float32])); ok || err != nil {
		t.Errorf("MarshalLIBSVM of a linear model: ok %v, err %v; want false, nil", ok, err)
	}
	if _, ok, err := modelreg.MarshalLIBLINEAR(new(expansion.Model[float64])); ok || err != nil {
		t.Errorf("MarshalLIBLINEAR of a kernel model: ok %v, err %v; want false, nil", ok, err)
	}
	// An untrained model of the right family is the encoder's to refuse.
	if _, ok, err := modelreg.MarshalLIBLINEAR(new(linear.Model[float32])); !ok || err == nil {
		t.Errorf("MarshalLIBLINEAR of an untrained float32 linear model: ok %v, err %v; want true and an error", ok, err)
	}
}
