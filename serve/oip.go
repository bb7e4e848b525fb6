package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
)

// The Open Inference Protocol's (KServe's V2 inference protocol's)
// health and metadata endpoints, over HTTP/REST:
//
//	GET /v2/health/live                          200, empty body: the server answers
//	GET /v2/health/ready                         200, empty body: every model is loaded (Ready); 503 if not
//	GET /v2                                      server metadata: name, version, extensions
//	GET /v2/models/{name}[/versions/{v}]         model metadata
//	GET /v2/models/{name}[/versions/{v}]/ready   200, empty body; 404 for another name or version
//
// A model's name is its file's name without the extension; its version is
// the version of the model in use (Info.Version). Errors are
// {"error": "..."} with a 4xx status, as the protocol defines them.

// serverName and serverVersion are the server metadata's name and version.
const (
	serverName    = "rosenblatt"
	serverVersion = "2"
)

// ModelName is the name a model file at path is served under: the file's
// name without its extension ("iris.model" is "iris").
func ModelName(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// oipRoutes adds the protocol's health and metadata endpoints to s.mux.
func (s *Server) oipRoutes() {
	ok := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }
	s.mux.HandleFunc("GET /v2/health/live", ok)
	s.mux.HandleFunc("GET /v2/health/ready", s.serverReady)
	s.mux.HandleFunc("GET /v2", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, serverMetadata{Name: serverName, Version: serverVersion, Extensions: []string{},
			Models: slices.Clone(s.set.Load().names)})
	})
	s.mux.HandleFunc("POST /v2/repository/index", s.repositoryIndex)
	s.mux.HandleFunc("GET /v2/models/{name}", s.modelMetadata)
	s.mux.HandleFunc("GET /v2/models/{name}/versions/{version}", s.modelMetadata)
	s.mux.HandleFunc("GET /v2/models/{name}/ready", s.modelReady)
	s.mux.HandleFunc("GET /v2/models/{name}/versions/{version}/ready", s.modelReady)
	s.mux.HandleFunc("POST /v2/models/{name}/infer", s.infer)
	s.mux.HandleFunc("POST /v2/models/{name}/versions/{version}/infer", s.infer)
}

// serverMetadata is the protocol's server metadata response.
type serverMetadata struct {
	Name       string   `json:"name"`
	Version    string   `json:"version"`
	Extensions []string `json:"extensions"`
	// Models names the models served, in name order: not a field of the
	// protocol's, which clients that do not know it ignore.
	Models []string `json:"models"`
}

// maxIndexRequest bounds the body of a repository index request.
const maxIndexRequest = 4 << 10

// repositoryIndex is POST /v2/repository/index (the model repository
// extension's index, as Triton Inference Server defines it): the
// models, in name order, each with its name, the version in use, its
// state (READY, or UNAVAILABLE when its file has not loaded) and a
// reason when it is unavailable or its last reload failed. The body may be
// empty or {} (every model) or {"ready": true} (the ready ones only).
func (s *Server) repositoryIndex(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Ready bool `json:"ready"`
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxIndexRequest+1))
	switch {
	case err != nil:
		failJSON(w, bad(http.StatusBadRequest, "reading the request: %v", err))
		return
	case len(body) > maxIndexRequest:
		failJSON(w, bad(http.StatusRequestEntityTooLarge, "a repository index request of more than %d bytes", maxIndexRequest))
		return
	case len(trimSpace(body)) > 0:
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil || dec.More() {
			failJSON(w, bad(http.StatusBadRequest, `bad repository index request: want {} or {"ready": true}`))
			return
		}
	}
	out := []ModelStatus{}
	for _, st := range s.Index() {
		if !req.Ready || st.State == stateReady {
			out = append(out, st)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// tensorMetadata is the protocol's $metadata_tensor.
type tensorMetadata struct {
	Name     string `json:"name"`
	Datatype string `json:"datatype"`
	Shape    []int  `json:"shape"`
}

// modelMetadata is the protocol's model metadata response.
type modelMetadataResponse struct {
	Name     string           `json:"name"`
	Versions []string         `json:"versions"`
	Platform string           `json:"platform"`
	Inputs   []tensorMetadata `json:"inputs"`
	Outputs  []tensorMetadata `json:"outputs"`
}

// oipError is the protocol's error response.
type oipError struct {
	Error string `json:"error"`
}

// writeJSON writes v as the JSON body of a response of status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	out, _ := json.Marshal(v)
	w.Header()["Content-Type"] = ctJSON
	w.WriteHeader(code)
	w.Write(append(out, '\n'))
}

// model returns the model in use if the request's {name} and {version}
// (if given) name it (lookup), or a 404 or 503 (and nil).
func (s *Server) model(w http.ResponseWriter, r *http.Request) (*loaded, *httpError) {
	m, e := s.lookup(r.PathValue("name"), r.PathValue("version"))
	if e != nil {
		return nil, e
	}
	w.Header()[hdrVersion] = m.hdr
	return m, nil
}

// modelReady is GET /v2/models/{name}[/versions/{version}]/ready.
func (s *Server) modelReady(w http.ResponseWriter, r *http.Request) {
	if _, e := s.model(w, r); e != nil {
		failJSON(w, e)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// datatype is the protocol's datatype of a float of size bytes.
func datatype(size int) string {
	if size == 8 {
		return "FP64"
	}
	return "FP32"
}

// modelMetadata is GET /v2/models/{name}[/versions/{version}]: the input
// tensor "input" of the model's element type (FP32 for a quantised
// model, which takes float32 samples) and shape [-1, d]; the outputs
// "label" (INT64, [-1]) and "scores" (the model's type, [-1, k]).
func (s *Server) modelMetadata(w http.ResponseWriter, r *http.Request) {
	m, e := s.model(w, r)
	if e != nil {
		failJSON(w, e)
		return
	}
	md := modelMetadataResponse{
		Name:     m.name,
		Versions: []string{m.version},
		Platform: serverName,
		Inputs:   []tensorMetadata{{"input", datatype(m.elem), []int{-1, m.dims}}},
		Outputs: []tensorMetadata{
			{"label", "INT64", []int{-1}},
			{"scores", datatype(m.elem), []int{-1, m.nscores}},
		},
	}
	if m.text != nil { // raw text in, the labels' names out (text.go)
		md.Inputs, md.Outputs[0].Datatype = textMetadata(m), "BYTES"
	}
	writeJSON(w, http.StatusOK, md)
}
