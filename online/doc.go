// Package online learns a linear perceptron model while it serves, and
// keeps what it learnt across crashes: a Learner wraps a
// linear.Model (binary, one-vs-rest or argmax; online or averaged;
// float32 or float64) with an append-only log and checkpoints, and
// answers predictions from the model as it is now. It is what
// "rosenblatt serve -learn-dir DIR" runs behind POST /learn, and is
// usable without HTTP.
//
// # The rule
//
// Learn takes one or more labelled samples (dense, or sparse: values in
// increasing columns) and applies the model's own online rule to each in
// turn, exactly as linear.Model.Update does: Rosenblatt's step
// w += η·y·x, b += η·y·B² on a mistake (y·(w·x + b) ≤ 0; for one-vs-rest,
// each class's binary problem; for the argmax scheme, the multiclass
// perceptron's step towards the true class and away from the highest
// other); an averaged model's running perceptron takes that step and its
// averaging sums u += c·η·y·x (c the samples visited before), so that the
// served model is the average w − u/c over one more sample (Freund and
// Schapire's averaged perceptron with Daumé's cached-weights trick). It
// answers the label the model predicted for each sample before learning
// it, and the model's version after the request.
//
// The model after a stream of dense samples is bit for bit the one
// linear.Model.Update gives; sparse samples sum their products in
// column order, which may round differently from a dense sample's sum.
// An averaged model's prediction is computed as w·x − (u·x)/c, the
// average's score up to rounding, so that an update costs O(stored
// values) and not O(model). Voted and SVM (Pegasos) models, models that
// normalise their samples, averaged models saved without their training
// state, kernel and quantised models are refused (ErrUnsupported).
//
// # Readers never wait
//
// The weights are kept twice (the left-right technique of Ramalhete and
// Correia): predictions read the published copy, counted while they
// read; the writer applies a batch of requests to the other copy, logs
// it, publishes it with one atomic store, waits for the readers of the
// old copy to finish (a few dot products) and applies the same steps to
// it. A prediction therefore reads one consistent model, never a
// half-applied update, never waits for the log, and an update costs what
// its samples touch (for a sparse sample, its stored values), twice.
//
// # Durability
//
// Every request is a record of an append-only log (length, CRC-32C,
// sequence number, idempotency key, samples), and is answered only after
// its record is written, by the sync policy: SyncGroup (group commit:
// the requests of a window, Options.SyncInterval, share one write and one
// fsync, and are answered after it), SyncEveryRequest (a write and an
// fsync each) or SyncNone (written before the answer, fsynced at
// checkpoints: survives the process's death, not the machine's).
//
// A checkpoint (every Options.CheckpointEvery samples or
// CheckpointInterval, on Checkpoint and on Close) is the model file
// (perceptron's format, with its training state) with the sequence
// number and the remembered idempotency keys, CRC-32C-checked, written to
// a temporary file, fsynced, renamed into place and the directory
// fsynced. The log then starts a new segment; the segments and
// checkpoints that the last two checkpoints do not need are removed.
//
// Open loads the newest checkpoint that reads (a damaged one is renamed
// *.corrupt, reported, and the one before used), replays the log after it
// and so rebuilds, bit for bit, the model that answered the last request
// the log holds. A torn or corrupt record at the end of the log (a crash
// in the middle of a write) is reported (Status().Recovery, and the
// Logger) and the log cut before it: its request was never answered, and
// nothing of it is applied. What is cut is never deleted: the bytes after
// the last good record are kept as wal-N.log.cut-OFFSET, and a last
// segment whose header does not read as wal-N.log.corrupt (the segment is
// then started again), so that records damaged by the disk rather than by
// a crash can still be looked at. Damage before the last segment, or a
// log that does not reach back to the checkpoint, is ErrCorrupt.
//
// A request with an idempotency key seen among the last Options.KeyWindow
// keys (remembered through checkpoints and the log) is not applied again:
// it is answered with the original version and Duplicate. A client that
// got no answer (a timeout, a crash) resends its request with the same
// key and gets exactly-once learning.
//
// # The directory and its base model
//
// A directory belongs to one process at a time (flock(2) on DIR/LOCK:
// ErrLocked) and to one base model, named by its file's SHA-256: opened
// with another base (the model file was replaced), it is refused with
// ErrBaseChanged, never silently mixed, until the operator adopts the new
// file (Options.Adopt, or Learner.Adopt at run time), which discards what
// was learnt and starts again from it. Checkpoints are written in the
// directory only; the base model file is never written.
package online
