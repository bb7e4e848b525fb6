package serve

import (
	"net/http"
	"strconv"
)

// Ready reports whether the server is ready, as the Open Inference
// Protocol's "server ready" (REST GET /v2/health/ready, gRPC ServerReady)
// answers it: every model the server serves is ready for inference — has
// a model in use — and it serves at least one. So a server of one model
// file (New) is ready from the start (New fails unless its model loads);
// a repository (NewRepository) is not ready while it is empty or while a
// model file listed has not loaded (a file just added that is still being
// read, or one that does not load), the protocol's "all the models are
// ready" and Triton Inference Server's strict readiness. The models that
// are ready answer inference whatever the server's readiness; a model's
// own readiness is the protocol's "model ready" (GET
// /v2/models/{name}/ready, gRPC ModelReady). If not ready, why says why,
// naming the models that are not.
func (s *Server) Ready() (ready bool, why string) {
	slots := s.set.Load().slots()
	if len(slots) == 0 {
		return false, "the server serves no model yet"
	}
	var names []string
	for _, sl := range slots {
		if sl.cur.Load() == nil {
			names = append(names, strconv.Quote(sl.name))
		}
	}
	switch len(names) {
	case 0:
		return true, ""
	case 1:
		return false, "model " + names[0] + " has not loaded (the reason is in the server log)"
	}
	why = "models "
	for i, n := range names {
		if i > 0 {
			why += ", "
		}
		why += n
	}
	return false, why + " have not loaded (the reasons are in the server log)"
}

// serverReady is GET /v2/health/ready: 200 and an empty body if the
// server is Ready, else 503 and {"error": why}.
func (s *Server) serverReady(w http.ResponseWriter, r *http.Request) {
	if ok, why := s.Ready(); !ok {
		failJSON(w, bad(http.StatusServiceUnavailable, "not ready: %s", why))
		return
	}
	w.WriteHeader(http.StatusOK)
}
