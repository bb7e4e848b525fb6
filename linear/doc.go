// Package linear is the linear classifier that every linear trainer of
// the module returns: one weight vector w and bias b per score, binary
// (sign(w·x + b): labels −1, +1 for a perceptron's, the data's two labels
// for a linear SVM's), one-vs-rest (one binary machine per class, the
// highest score wins) or the multiclass perceptron (argmax of the class
// scores). Package perceptron's Fit makes it by every perceptron rule
// (Rosenblatt's online perceptron, batch, mini-batch, averaged, voted) and
// by Pegasos; package svm's FitLinear by dual coordinate descent (Hsieh et
// al. 2008, Algorithm DualCD); package model loads it from any of its
// files by content, the linear SVM files of kinds 40 and 41 included.
//
//	m, _, err := perceptron.Fit(ctx, X, y, perceptron.Options{Algorithm: linear.Averaged})
//	label, err := m.Predict(x)            // or Scores, the batch and sparse forms
//	err = model.SaveFile("m.model", m, model.Binary)
//
// A voted perceptron (Freund and Schapire 1999) is a variant of the same
// type: it keeps every vector of its run with its survival count and
// predicts by their vote, sign(Σₖ cₖ·sign(wₖ·x + bₖ)), rather than by one
// w; Scores gives the vote.
//
// # Ties
//
// A score of exactly 0 is a mistake for either label (Rosenblatt's rule,
// what lets a perceptron start from w = 0): Predict answers −1 for it (a
// binary linear SVM: the smaller of its two labels), and Update with
// y = −1 on such a sample still moves w. Among multiclass scores a tie goes
// to the smaller label. A linear SVM's model is not updated: Update
// returns ErrUnsupported.
//
// # Training state
//
// Beside the weights it serves, a model holds what only continuing its
// training needs: the number of samples its rule has visited, an averaged
// perceptron's running weights and averaging sums (the served weights are
// their average), a voted perceptron's running vector, Pegasos's λ. Update
// and perceptron.Fit (Options.Init set to the model) use it; prediction
// never reads it. Its files hold it only when it was trained with
// perceptron.Options.Resumable (or read from a file that held it): a
// served copy carries the weights alone, and a model read from such a file
// predicts the same but cannot continue an averaged or Pegasos run
// (ErrUnsupported).
//
// # Files
//
// MarshalBinary writes the module's checksummed binary format (the
// columns some class uses, version 4), MarshalJSON a JSON document; both
// round-trip bit for bit, and files of earlier versions are read. Package
// model reads any model file of the module without knowing its type.
package linear
