package serve

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The protocols an Observer is told about: Observer.Request's and
// Observer.InFlight's protocol argument is one of them.
const (
	ProtoPredictBinary = "predict-binary" // POST /predict, Content-Type application/octet-stream
	ProtoPredictJSON   = "predict-json"   // POST /predict, any other Content-Type (refused with 415 unless JSON)
	ProtoOIPREST       = "oip-rest"       // POST /v2/models/{name}[/versions/{v}]/infer
	ProtoOIPGRPC       = "oip-grpc"       // the Open Inference Protocol over gRPC (served outside this package)
)

// An Observer is told what the server does, for metrics (a Prometheus
// exporter, say) without this package depending on a metrics library.
// Its methods are called on the request's or the reload's goroutine,
// concurrently, and must be safe for concurrent use and quick: a request
// waits for them.
//
// model is the name a model is served under (ModelName of its file, or
// its name in a repository); it is "" for a request that names no model
// the server has, so that a client cannot make an Observer count names
// without bound. protocol is one of ProtoPredictBinary, ProtoPredictJSON,
// ProtoOIPREST and ProtoOIPGRPC.
type Observer interface {
	// Request is called once for each inference request (POST /predict,
	// POST .../infer), when it has been answered, whatever its outcome:
	// code is the HTTP status it got (200, or a refusal's 4xx or 503) and
	// elapsed the time from its start to the end of its response.
	Request(model, protocol string, code int, elapsed time.Duration)
	// InFlight is called with delta +1 when an inference request starts
	// and -1 when it ends (just before Request): the sum over a model and
	// protocol is the number of its requests in flight.
	InFlight(model, protocol string, delta int)
	// Reload is called when a model is put in use (err nil, version the
	// new model's: the first load and every reload that changed the
	// model), when a reload fails or is refused (err wraps ErrModel,
	// version is that of the model kept in use, "" if there is none), and
	// when a model leaves a repository (version "" and err nil). A reload
	// that finds the file unchanged is not reported.
	Reload(model, version string, err error)
}

// predictProtocol is the protocol of a /predict request of Content-Type
// header value ct.
func predictProtocol(ct string) string {
	ct, _, _ = strings.Cut(ct, ";")
	if strings.EqualFold(strings.TrimSpace(ct), "application/octet-stream") {
		return ProtoPredictBinary
	}
	return ProtoPredictJSON
}

// observed is one inference request as an Observer sees it: started by
// observe, ended by end. Its zero value (no Observer) does nothing.
type observed struct {
	o        Observer
	model    string
	protocol string
	start    time.Time
}

// observe starts the observation of a request to model over protocol; it
// reads the clock only if the server has an Observer.
func (s *Server) observe(model, protocol string) observed {
	o := s.opt.Observer
	if o == nil {
		return observed{}
	}
	o.InFlight(model, protocol, 1)
	return observed{o, model, protocol, time.Now()}
}

// end reports the request's end with status code.
func (ob observed) end(code int) {
	if ob.o == nil {
		return
	}
	ob.o.InFlight(ob.model, ob.protocol, -1)
	ob.o.Request(ob.model, ob.protocol, code, time.Since(ob.start))
}

// status is the HTTP status of a request that ended with e (nil: 200).
func status(e *httpError) int {
	if e == nil {
		return http.StatusOK
	}
	return e.code
}

// observeReload tells the Observer, if any, of a reload's outcome.
func (s *Server) observeReload(model, version string, err error) {
	if o := s.opt.Observer; o != nil {
		o.Reload(model, version, err)
	}
}

// Handle adds h to the server's routes for pattern (an http.ServeMux
// pattern), beside /predict, /healthz and the Open Inference Protocol's
// endpoints: a /metrics endpoint, say. A pattern that conflicts with one
// the server has, or is invalid, is refused with an error wrapping
// ErrOption. It is safe to call while the server serves.
func (s *Server) Handle(pattern string, h http.Handler) (err error) {
	path := pattern
	if _, p, ok := strings.Cut(pattern, " "); ok {
		path = strings.TrimLeft(p, " \t")
	}
	if path == "/predict" || strings.HasPrefix(path, "/predict/") {
		return fmt.Errorf("%w: handler pattern %q: /predict and /predict/ are the server's", ErrOption, pattern)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: handler pattern %q: %v", ErrOption, pattern, p)
		}
	}()
	s.mux.Handle(pattern, h)
	return nil
}
