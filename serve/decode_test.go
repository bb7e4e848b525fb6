package serve_test

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/serve"
)

// TestDefaultDecoder: with a nil Decoder the server reads every fixture of
// package model (binary and JSON files, every kind, quantised ones) and
// /healthz tells the truth about it: its element type, its kind as
// model.KindOf names it, whether it is quantised, and its description;
// the model answers /predict.
func TestDefaultDecoder(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	dir := filepath.Join("..", "model", "testdata", "fixtures")
	files, err := filepath.Glob(filepath.Join(dir, "*.model"))
	require.NoError(t, err)
	jsonFiles, _ := filepath.Glob(filepath.Join(dir, "*-f64.json"))
	files = append(files, jsonFiles...)
	require.GreaterOrEqual(t, len(files), 20)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want, err := model.LoadFile(path)
			require.NoError(t, err)
			s, err := serve.New(path, nil, serve.Options{Poll: -1, Logger: quiet})
			require.NoError(t, err)
			w := httptest.NewRecorder()
			s.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
			require.Equal(t, 200, w.Code)
			var h struct {
				Type, Kind, Description string
				Quantised               bool
				Dims                    int
			}
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &h), w.Body.String())
			require.Equal(t, model.Elem(want), h.Type)
			require.Equal(t, model.KindOf(want).String(), h.Kind)
			require.Equal(t, want.String(), h.Description)
			isQuant := strings.HasPrefix(filepath.Base(path), "quant-")
			require.Equal(t, isQuant, h.Quantised)
			if isQuant {
				require.Contains(t, h.Kind, "int8 quantised")
			}
			if strings.HasSuffix(path, "-f64.json") {
				require.Equal(t, "float64", h.Type)
			}
			require.Equal(t, want.Dims(), h.Dims)

			if tm, ok := want.(*model.Text); ok {
				// A text model answers text with the label's name.
				const doc = "a document the fixture has never seen"
				r := httptest.NewRequest("POST", "/predict", strings.NewReader(`{"text": "`+doc+`"}`))
				w = httptest.NewRecorder()
				s.ServeHTTP(w, r)
				require.Equal(t, 200, w.Code, w.Body.String())
				var resp struct{ Label string }
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &resp))
				name, err := tm.PredictText(doc)
				require.NoError(t, err)
				require.Equal(t, name, resp.Label)
				return
			}
			// The model answers: the label of a zero sample is the model's.
			x := make([]float64, want.Dims())
			body, _ := json.Marshal(map[string]any{"x": x})
			r := httptest.NewRequest("POST", "/predict", strings.NewReader(string(body)))
			w = httptest.NewRecorder()
			s.ServeHTTP(w, r)
			require.Equal(t, 200, w.Code, w.Body.String())
			var resp struct{ Label int }
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &resp))
			var wantLabel int
			if c, err := model.As[float64](want); err == nil {
				wantLabel, err = c.Predict(x)
				require.NoError(t, err)
			} else {
				c, err := model.As[float32](want)
				require.NoError(t, err)
				wantLabel, err = c.Predict(make([]float32, want.Dims()))
				require.NoError(t, err)
			}
			require.Equal(t, wantLabel, resp.Label)
		})
	}
	// A file that is not a model: the error names it and wraps both
	// ErrModel and model's error.
	bad := filepath.Join(t.TempDir(), "bad.model")
	require.NoError(t, os.WriteFile(bad, []byte("RBLTPCPT garbage"), 0o644))
	_, err = serve.New(bad, nil, serve.Options{Poll: -1, Logger: quiet})
	require.ErrorIs(t, err, serve.ErrModel)
	require.Contains(t, err.Error(), "bad.model")
	require.True(t, errors.Is(err, model.ErrFormat) || errors.Is(err, model.ErrCorrupt), err)
}
