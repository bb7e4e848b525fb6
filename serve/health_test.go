package serve

import (
	"encoding/json"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"net/http/httptest"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/quant"
)

// TestTextQuantisedHealth: a text model whose model of the featurized rows
// is quantised says so in /healthz ("quantised": true, its kind the text
// model's), and answers text as the library does; one whose inner model
// is not says "quantised": false.
func TestTextQuantisedHealth(t *testing.T) {
	tm := trainTextModel[float32](t)
	q, err := quant.New(tm.Inner().(*linear.Model[float32]))
	if err != nil {
		t.Fatal(err)
	}
	tq, err := model.NewText(tm.Featurizer(), q, tm.Names())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m     *model.Text
		quant bool
	}{{tm, false}, {tq, true}} {
		s := textServer(t, c.m, Options{})
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
		var h struct {
			Quantised *bool
			Kind      string
		}
		if err := json.Unmarshal(w.Body.Bytes(), &h); err != nil || h.Quantised == nil {
			t.Fatalf("/healthz %s: %v", w.Body, err)
		}
		if *h.Quantised != c.quant || h.Kind != model.KindOf(c.m).String() || s.Current().Quantised != c.quant {
			t.Errorf("/healthz of %s: quantised %v kind %q, want %v %q", c.m, *h.Quantised, h.Kind, c.quant, model.KindOf(c.m))
		}
		doc := "a document to classify"
		name, _ := wantText(t, c.m, doc)
		w = do(s, "/predict", `{"text": "`+doc+`"}`)
		var r struct{ Label string }
		if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil || r.Label != name {
			t.Errorf("%s: %d %s, want label %q", c.m, w.Code, w.Body, name)
		}
	}
}
