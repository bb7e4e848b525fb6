package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/rosenblatt-go/rosenblatt/serve"
)

// Metrics is a serve.Observer that keeps the server's Prometheus metrics:
//
//	rosenblatt_requests_total{model,protocol,code}             counter: inference requests answered, by HTTP status
//	rosenblatt_request_duration_seconds{model,protocol}        histogram: their time, from start to the end of the response
//	rosenblatt_requests_in_flight{model,protocol}              gauge: inference requests being served
//	rosenblatt_model_info{model,version}                       gauge: 1 for each model's version in use
//	rosenblatt_model_reloads_total{model,result}               counter: models put in use (result "loaded", the first
//	                                                           load included) and reloads failed or refused ("failed")
//	rosenblatt_model_last_reload_timestamp_seconds{model,result}  gauge: when the last of each happened
//
// plus the Go runtime's and the process's collectors (go_*, process_*).
// protocol is one of serve's Proto constants (predict-binary,
// predict-json, oip-rest, oip-grpc); code is the HTTP status (a gRPC
// request's is the status the REST endpoints answer the same outcome
// with: 400 for InvalidArgument, 404 NotFound, 413 ResourceExhausted, 422
// OutOfRange, 503 Unavailable); model is "" for requests naming no model
// the server has, so that clients cannot create series.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inflight *prometheus.GaugeVec
	info     *prometheus.GaugeVec
	reloads  *prometheus.CounterVec
	lastTime *prometheus.GaugeVec

	mu      sync.Mutex
	version map[string]string // each model's version in use, for info
}

// durationBuckets are the request time histogram's upper bounds, in
// seconds: 50 µs to 10 s, about 2.5 per decade.
var durationBuckets = []float64{50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3, 100e-3, 250e-3, 500e-3, 1, 2.5, 10}

// NewMetrics returns the metrics, in a registry of their own (Handler
// serves it).
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rosenblatt_requests_total",
			Help: "Inference requests answered, by model, protocol and HTTP status (a gRPC request's: the REST endpoints' status for the same outcome).",
		}, []string{"model", "protocol", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "rosenblatt_request_duration_seconds",
			Help:    "Time of an inference request, from its start to the end of its response, by model and protocol.",
			Buckets: durationBuckets,
		}, []string{"model", "protocol"}),
		inflight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "rosenblatt_requests_in_flight",
			Help: "Inference requests being served, by model and protocol.",
		}, []string{"model", "protocol"}),
		info: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "rosenblatt_model_info",
			Help: "1 for the version of each model in use (the first 16 hex digits of its file's SHA-256).",
		}, []string{"model", "version"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rosenblatt_model_reloads_total",
			Help: `Models put in use (result "loaded", the first load included) and reloads that failed or were refused ("failed"), by model.`,
		}, []string{"model", "result"}),
		lastTime: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "rosenblatt_model_last_reload_timestamp_seconds",
			Help: `Unix time of the last model put in use ("loaded") and of the last failed or refused reload ("failed"), by model.`,
		}, []string{"model", "result"}),
		version: map[string]string{},
	}
	m.reg.MustRegister(m.requests, m.duration, m.inflight, m.info, m.reloads, m.lastTime,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry returns the registry the metrics are in, to add others to.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in Prometheus's exposition formats (GET
// /metrics).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// statusLabels holds the labels of the HTTP statuses, made once.
var statusLabels = func() map[int]string {
	c := map[int]string{}
	for _, s := range []int{200, 400, 404, 405, 413, 415, 422, 499, 500, 503, 504} {
		c[s] = strconv.Itoa(s)
	}
	return c
}()

// Request counts one answered inference request (serve.Observer).
func (m *Metrics) Request(model, protocol string, code int, elapsed time.Duration) {
	c, ok := statusLabels[code]
	if !ok {
		c = strconv.Itoa(code)
	}
	m.requests.WithLabelValues(model, protocol, c).Inc()
	m.duration.WithLabelValues(model, protocol).Observe(elapsed.Seconds())
}

// InFlight moves the in-flight gauge of model and protocol by delta
// (serve.Observer).
func (m *Metrics) InFlight(model, protocol string, delta int) {
	m.inflight.WithLabelValues(model, protocol).Add(float64(delta))
}

// Reload records a model put in use, a failed reload or a model removed
// (serve.Observer).
func (m *Metrics) Reload(model, version string, err error) {
	now := float64(time.Now().UnixNano()) / 1e9
	if err != nil {
		m.reloads.WithLabelValues(model, "failed").Inc()
		m.lastTime.WithLabelValues(model, "failed").Set(now)
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.version[model]; ok {
		m.info.DeleteLabelValues(model, old)
		delete(m.version, model)
	}
	if version == "" { // the model left the repository
		for _, r := range []string{"loaded", "failed"} {
			m.reloads.DeleteLabelValues(model, r)
			m.lastTime.DeleteLabelValues(model, r)
		}
		return
	}
	m.version[model] = version
	m.info.WithLabelValues(model, version).Set(1)
	m.reloads.WithLabelValues(model, "loaded").Inc()
	m.lastTime.WithLabelValues(model, "loaded").Set(now)
}

var _ serve.Observer = (*Metrics)(nil)
