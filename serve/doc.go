// Package serve is an HTTP handler that serves a classifier's predictions
// from a model file (New), or from every model file of a directory
// (NewRepository), and swaps a model when its file changes.
//
// A Server reads the model file once at start (New) and again on Reload
// (the command calls it on SIGHUP) or when Watch sees the file's size,
// modification time or identity change. The bytes read are decoded by the
// Decoder (nil: DecodeModel, which is model.Unmarshal: every model file
// of this module, binary or JSON, quantised ones included) and named by their SHA-256 (Version: the first 16 hex
// digits); the model in use is held in an atomic.Pointer, so a request
// loads it once and uses that model, whole, to the end: every response
// names the version it used (the X-Model-Version header, and "model" in a
// JSON body). A new file that cannot be read or decoded, or whose model is
// unusable, keeps the current model and is logged.
//
// The model file must be a regular file of at most Options.MaxModelBytes
// (-max-model-bytes): it is stat'ed before it is opened, and a FIFO, a
// device or a directory is refused without being opened; it is then
// opened without blocking, checked again through the open descriptor, and
// read through a reader that stops one byte past the limit. No lock is
// held while a file is read or decoded, and a read that fails for a
// reason that may pass (EMFILE, ENFILE, permission denied, EAGAIN, EINTR)
// is retried, then tried again at Watch's next look.
//
// # A model repository
//
// NewRepository serves every model file of a directory (rosenblatt serve
// -models DIR), each under its file's name without the extension
// (ModelName: "iris.model" is "iris"), each read, guarded and reloaded on
// its own exactly as New's one file is. Watch (and Reload) read the
// directory at each look: a file that appears adds its model, a file that
// goes removes it (requests that already hold it finish with it). A file
// that does not load is logged and its model listed UNAVAILABLE (503 to
// its requests) until it changes into one that does; it never affects
// another model. Files whose name begins with a dot (an atomic writer's
// temporary file) or ends with "~", and directories, are not model
// files; of two files of one name, the one served already stays (else the
// first by name) and the other is logged; at most Options.MaxModels
// (-max-models) are served.
//
// Every request looks its model up by name once (the one lookup every
// protocol shares) and uses that model, whole, to its end. /predict names
// it by path, /predict/{name}, or query, /predict?model={name}; unnamed,
// it is the only model of a server that has one, and a 400 naming the
// ways to name one otherwise.
//
// # Endpoints
//
//	POST /predict[/{name}]   one sample or a batch, JSON or binary (below): the fastest path
//	GET  /healthz            200 and {"status":"ok","model":VERSION,...}: the model in use, and whether
//	                         the last reload failed; for a repository {"status":"ok","models":[...]},
//	                         each with its "name", "state" (READY or UNAVAILABLE) and the same fields
//
// and the Open Inference Protocol's REST API (KServe's V2 inference
// protocol, which Triton, Seldon MLServer and OpenVINO Model Server also
// speak), a model named by its file's name without the extension
// (ModelName) and versioned by Info.Version:
//
//	GET  /v2/health/live                            200, empty body
//	GET  /v2/health/ready                           200, empty body, if every model is loaded (Ready);
//	                                                503 and {"error": ...} naming those that are not
//	GET  /v2                                        {"name":"rosenblatt","version":...,"extensions":[],"models":[names]}
//	POST /v2/repository/index                       [{"name":...,"version":...,"state":"READY"|"UNAVAILABLE","reason":...}]:
//	                                                every model (body empty or {}), or the ready ones ({"ready":true}),
//	                                                as Triton Inference Server's repository index
//	GET  /v2/models/{name}[/versions/{v}]           metadata: input "input" FP32 or FP64 [-1, d] (a
//	                                                quantised model takes FP32); outputs "label"
//	                                                INT64 [-1] and "scores" [-1, k]
//	GET  /v2/models/{name}[/versions/{v}]/ready     200, empty body; 404 for another name or
//	                                                version, 503 for a model whose file has not loaded
//	POST /v2/models/{name}[/versions/{v}]/infer     {"id":...,"inputs":[{"name":"input","shape":[n,d],
//	                                                "datatype":"FP32","data":[...]}],"outputs":[...]}
//
// The server is ready (Ready) when it serves at least one model and every
// model it serves is loaded: the protocol's "server ready" is "all the
// models are ready for inferencing", as Triton Inference Server's strict
// readiness reads it. A server of one file is ready from the start (New
// fails unless the model loads); a repository is not ready while it is
// empty or while one of its files has not loaded (a file just added and
// still being read, or one that does not load), and the models that are
// loaded answer inference meanwhile: a model's own readiness is its ready
// endpoint. The gRPC service's ServerReady and ModelReady answer the same.
//
// An inference request has one input, "input", of shape [n, d], its data
// row-major, flat or one array per row, parsed as JSON requests to
// /predict are (the same scanner and refusals), of datatype FP32, FP64,
// INT8 or UINT8 whatever the model's metadata names: integers are taken
// exactly (a float model gets them as floats; a quantised model takes
// them as its int8 or uint8 bytes, x = v with scale 1, through
// quant.Model's PredictI8 and PredictU8, not quantised again over the
// sample's range), and a value that is not an integer of the datatype's
// range is refused (400), named by row and feature; "parameters" are read and
// ignored; "outputs", if given, picks "label" and/or "scores". The
// response holds model_name, model_version, the request's id and the
// outputs as tensors (label INT64 [n], scores FP32 or FP64 [n, k], data
// row-major). Errors are {"error": "..."} with the statuses of /predict,
// 404 for another model name or version, and 503 for a repository's model
// whose file has not loaded.
//
// # Metrics
//
// Options.Observer, if set, is told of every inference request (its
// model, protocol, status and time, refusals included), of the requests
// in flight, and of every reload that changed or failed and every model
// that left a repository: the hook a metrics exporter (Prometheus's, in
// the command rosenblatt-server of the nested module server/) plugs into
// without this package depending on a metrics library. Server.Handle adds
// a route (GET /metrics, say) beside the server's.
//
// /healthz describes the model in use as Info does: its version, dims,
// classes, numScores, "type" (the samples' element type, float32 or
// float64), "kind" (model.KindOf's name, e.g. "binary int8 quantised
// linear model"), "quantised" (int8 weights: such a model takes float32
// samples) and "description" (the model's String).
//
// Query parameter scores=1 (or "scores": true in a JSON request, or flag
// bit 0 of a binary one) adds the model's decision values to the labels.
// Malformed requests get a 4xx status and a one-line text/plain message:
// 400 for bad or truncated JSON ("truncated JSON at byte N"), a null, a
// wrong feature count, a NaN or ±Inf value, an empty batch or a truncated
// binary body; 413 for a body over Options.MaxBodyBytes, rows × scores over
// Options.MaxScores, or a request that alone needs more than
// Options.MaxInflightBytes; 415 for another Content-Type; 422 when the
// model cannot score a valid sample (a score that overflows); 405 for
// another method; and 503 (with Retry-After) when the requests in flight
// hold so much of Options.MaxInflightBytes that this one does not fit. A
// refusal for a limit names it and the flag of "rosenblatt serve" that
// sets it (-max-body, -max-scores, -max-inflight-bytes).
//
// A reload to a model of another input width, other labels (or their
// order) or another kind is refused unless Options.AllowModelChange
// (-allow-model-change) is set: the model in use stays, the refusal is
// logged, and /healthz says what would have changed ("lastReloadRefused").
//
// /healthz tells anyone who asks that the last reload failed, and when
// ("lastReloadError": "reload failed; see the server log",
// "lastReloadFailedAt"), never why: the reason, which may hold the file's
// path and pieces of what it held, goes to the log only.
//
// # Memory
//
// What a request holds is counted against a budget shared by the requests
// in flight, Options.MaxInflightBytes: a binary body as it arrives (in
// memory that grows from 64 KiB by doubling, so that a header declaring
// more than is sent costs what was sent), a JSON body's 16 KiB read
// buffer (never more of its text), the samples in the model's type, the
// labels and the scores. A body whose Content-Length is over
// Options.MaxBodyBytes is refused (413) before any of it is read. The
// response is written through a 16 KiB buffer as it is made, never whole.
// Run serves at most Options.MaxConns connections at once. So the server
// holds at most about MaxInflightBytes, plus per connection net/http's
// buffers and a response buffer.
//
// # JSON
//
//	request  {"x": [0.1, 0.2, ...]}                    one sample
//	         {"rows": [[0.1, ...], [0.3, ...]]}          a batch
//	response {"model": "9f86d081884c7d65", "label": 1, "scores": [0.25]}
//	         {"model": "9f86d081884c7d65", "labels": [1, -1], "scores": [[0.25], [-3.5]]}
//
// Content-Type application/json (or none). Field names are exact (case
// matters); unknown or repeated fields, null for x, rows, scores or any of
// the values (JavaScript's JSON.stringify writes NaN and ±Infinity as
// null; the refusal names the row and feature), a value that is not a
// number, trailing data and a request with both or neither of x and rows
// are refused; so are NaN, Infinity and -Infinity (not JSON; named by row
// and feature), a number beyond the model's type (named with the type's
// range) and anything that is not a JSON number by RFC 8259 ("01", "1.",
// "0x10"). The body is read by a strict scanner of these shapes, not by
// encoding/json, through a fixed 16 KiB buffer: each value is parsed as it
// arrives (exactly as strconv.ParseFloat parses it, by Clinger's fast path
// where it is exact, its digits read 8 bytes at a time), each row checked as it ends, so that a request takes
// the memory of its values in the model's type and of one row, whatever
// the shape of its body, and allocates nothing once its buffers are
// pooled. The binary body remains the fastest path.
//
// # Text
//
// A text model (model.Text: a featurizer, label names and an inner model
// of the featurized rows) is served from raw text, and answers the
// labels' names:
//
//	request  {"text": "a new document"}                  one document
//	         {"texts": ["one document", "another"]}      a batch
//	response {"model": "9f86d081884c7d65", "label": "sports", "scores": [0.25, -1.5]}
//	         {"model": "9f86d081884c7d65", "labels": ["sports", "politics"]}
//
// and through the Open Inference Protocol an input "input" of datatype
// BYTES and shape [n] (or [n, 1]) whose data are n strings, answered with
// "label" BYTES [n] (the names) and "scores" [n, k]; the model's metadata
// says so, and /healthz lists the names ("names", in the order of
// "classes"). The strings are read by the same strict scanner, decoded as
// they arrive: the body must be UTF-8 (an invalid sequence is refused with
// its byte offset), a raw control character or an escape RFC 8259 does
// not define is refused, and a \u escape of a lone UTF-16 surrogate is
// U+FFFD, as encoding/json reads it. What a text request holds is its
// decoded text, the featurizing of its longest document (bounded before it
// is done by the featurizer's MaxFeatures) and its labels and scores, all
// taken from Options.MaxInflightBytes. A JSON request of numbers ("x",
// "rows", FP32 or FP64 data) to a text model is refused (400), and so is
// text to another model, each saying what the model takes; a text model's
// featurized rows (2^bits columns) may be sent in the binary format, and
// are answered with the inner model's integer labels.
//
// # Binary
//
// Content-Type application/octet-stream; integers little-endian, values
// IEEE 754 little-endian, rows row-major.
//
//	request                                    response (200)
//	off size                                   off size
//	0   4    magic "RBRQ"                      0   4    magic "RBRS"
//	4   1    value size: 4 float32, 8 float64  4   1    score size (the model's: 4 or 8), 0 without scores
//	5   1    flags: bit 0 = return scores      5   3    reserved, 0
//	6   2    reserved, 0                       8   4    N rows
//	8   4    N rows, ≥ 1                       12  4    K scores per row (NumScores; 0 without scores)
//	12  4    D features per row (the model's)  16  8·N  labels, int64
//	16  N·D·size  the values                   then N·K scores of the score size
//
// The body must be exactly 16 + N·D·size bytes. AppendRequest and
// ParseResponse implement the format for Go clients. Values are converted
// to the model's element type (float32 → float64 exactly; float64 →
// float32 rounded, as JSON numbers are).
//
// # Models
//
// A Model is served if it is a Classifier[float32] or a
// Classifier[float64]: Dims, Classes, NumScores, Predict and Scores, which
// linear.Model (every linear trainer's, the linear SVM's included) and
// expansion.Model (the kernel perceptron and SMO) have, and quant.Model is (a Classifier[float32]). A model of
// another package plugs in by having those methods and being returned by
// a Decoder.
//
// # Other protocols
//
// Models, Metadata and Infer are the server's inference in process, for a
// front end of another protocol (the Open Inference Protocol's gRPC
// service of package server, in the nested module server/): the same
// lookup (one per request, pinning the model version), conversions,
// checks and limits as the HTTP endpoints, each refusal an error wrapping
// ErrNotFound, ErrInput, ErrLimit, ErrBusy or ErrScore (the HTTP statuses
// 404, 400, 413, 503 and 422).
//
// # Learning
//
// NewLearning (rosenblatt serve -learn-dir) serves a linear perceptron
// model through an online.Learner that learns from labelled samples while
// predictions go on reading it (see package online: the rule, the log,
// the checkpoints, exactly-once keys):
//
//	POST /learn          {"key": "k", "x": [...], "y": 1}, {"key": "k", "idx": [...], "x": [...], "y": 1}
//	                     or {"key": "k", "samples": [{"x": [...], "y": 1}, ...]} (or the key in an
//	                     Idempotency-Key header) → {"version": N, "model": BASE, "duplicate": false,
//	                     "mistakes": M, "predicted": [labels before each update]}
//	GET  /learn/status   the learner's online.Status
//	POST /admin/checkpoint   a checkpoint now
//	POST /admin/model    adopt the model file now on disk (it was replaced), discarding what was learnt
//
// read by the same strict scanner as /predict. They need the bearer token
// of LearnOptions.Token (403 without one configured, 401 without it or
// with another; compared as SHA-256 digests in constant time);
// LearnOptions.ProtectPredict asks it of every other request but the
// health checks. A client over LearnOptions.Rate gets 429. A model that
// cannot learn online is served, and /learn answers 422 with the reason.
// A reload of a model file that is not the learner's base is refused
// (online.ErrBaseChanged): the learnt model stays until /admin/model.
package serve
