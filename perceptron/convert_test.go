package perceptron

import (
	"errors"
	"reflect"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// The trainers fill perceptrontrain's Diagnostics and Epoch; toDiagnostics
// must carry every field of Diagnostics over, the classes' and epochs'
// too, and the samplings must be perceptrontrain's value for value.
func TestToDiagnosticsCopiesEveryField(t *testing.T) {
	fill := func(v reflect.Value, seed float64) {
		for i := range v.NumField() {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.Bool:
				f.SetBool(true)
			case reflect.Int:
				f.SetInt(int64(seed) + int64(i) + 1)
			case reflect.Float64:
				f.SetFloat(seed + float64(i) + 0.5)
			default:
				// Set by hand below; a field of any other kind would stay
				// zero on both sides, so the test would miss it uncopied.
				switch v.Type().Field(i).Name {
				case "DataMargin", "DataMarginErr", "Epochs", "Classes":
				default:
					t.Fatalf("%s.%s is a %v: fill it", v.Type(), v.Type().Field(i).Name, f.Kind())
				}
			}
		}
	}
	d := &runDiag{DataMargin: &svm.Margin{Gamma: 0.25}, DataMarginErr: errors.New("x")}
	fill(reflect.ValueOf(d).Elem(), 10)
	d.Epochs = []epochStats{{}, {}}
	for i := range d.Epochs {
		fill(reflect.ValueOf(&d.Epochs[i]).Elem(), float64(20+i))
	}
	d.Classes = []runDiag{{}, {}}
	for c := range d.Classes {
		fill(reflect.ValueOf(&d.Classes[c]).Elem(), float64(30+c))
		d.Classes[c].Epochs = []epochStats{{Epoch: c + 1, Loss: 0.5}}
	}
	got := toDiagnostics(d)
	var check func(path string, got *Diagnostics, want *runDiag)
	check = func(path string, got *Diagnostics, want *runDiag) {
		gv, wv := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
		if gv.NumField() != wv.NumField() {
			t.Fatalf("Diagnostics has %d fields, perceptrontrain.Diagnostics %d", gv.NumField(), wv.NumField())
		}
		for i := range gv.NumField() {
			name := gv.Type().Field(i).Name
			w := wv.FieldByName(name)
			if !w.IsValid() {
				t.Fatalf("perceptrontrain.Diagnostics has no field %s", name)
			}
			switch name {
			case "Epochs":
				if len(got.Epochs) != len(want.Epochs) {
					t.Fatalf("%s.Epochs: %d, want %d", path, len(got.Epochs), len(want.Epochs))
				}
				for e := range got.Epochs {
					if got.Epochs[e] != Epoch(want.Epochs[e]) {
						t.Fatalf("%s.Epochs[%d] = %+v, want %+v", path, e, got.Epochs[e], want.Epochs[e])
					}
				}
			case "Classes":
				if len(got.Classes) != len(want.Classes) {
					t.Fatalf("%s.Classes: %d, want %d", path, len(got.Classes), len(want.Classes))
				}
				for c := range got.Classes {
					check(path+".Classes["+string(rune('0'+c))+"]", &got.Classes[c], &want.Classes[c])
				}
			default:
				if !reflect.DeepEqual(gv.Field(i).Interface(), w.Interface()) {
					t.Fatalf("%s.%s = %v, want %v", path, name, gv.Field(i), w)
				}
			}
		}
	}
	check("d", got, d)
	if toDiagnostics(nil) != nil {
		t.Fatal("toDiagnostics(nil) is not nil")
	}
	for s := SampleDefault; s < numSamplings; s++ {
		want := [...]perceptrontrain.Sampling{perceptrontrain.SampleDefault, perceptrontrain.SampleSweep, perceptrontrain.SampleSubsets, perceptrontrain.SampleReplace}[s]
		if perceptrontrain.Sampling(s) != want {
			t.Fatalf("Sampling %v is perceptrontrain's %d, want %d", s, perceptrontrain.Sampling(s), want)
		}
	}
}
