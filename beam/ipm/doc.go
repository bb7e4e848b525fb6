// Package ipm trains the rosenblatt perceptrons past one machine by
// iterative parameter mixing (McDonald, Hall and Mann, "Distributed
// Training Strategies for the Structured Perceptron", NAACL 2010) on Apache
// Beam: the rows of LIBSVM or CSV files, matched by file patterns on any
// Beam filesystem, are dealt round-robin into shards; every epoch each shard
// runs one epoch of the library's trainer (perceptron.Fit continuing the model) from
// the current mixed weights, and the shard weights are mixed, uniformly or
// weighted by the shards' mistakes, into the next epoch's start. The
// linear SVM of package svm trains by CoCoA or CoCoA+ (Jaggi et al. 2014,
// Ma et al. 2015): each shard makes a pass of dual coordinate ascent on its
// own dual variables, which stay with it from epoch to epoch, and the
// updates of w are averaged or added (see svm.go). A shard's rows are a
// CSR matrix (dense when that is no more than twice as large).
//
// Build adds the whole training, unrolled into one stage per epoch with the
// mixed state as a singleton side input, to a pipeline; the runner (prism
// in-process, Flink, Spark, Dataflow) is the caller's choice. The pipeline
// ends by writing an ordinary perceptron model file (and a JSON report of
// the epochs next to it), atomically, after every shard of every epoch has
// succeeded: a malformed row fails the job with its file:line, and no model
// is written.
//
// Mixing is exact where it must be: with one shard, the mixed state is the
// shard's state, and the model is bit for bit the single-process trainer's
// (same rows, same order, Stop: StopNever).
package ipm
