// Package text turns raw text into the hashed sparse rows the module's
// models train on and predict from: the feature hashing of Weinberger et al.
// (2009), "Feature Hashing for Large Scale Multitask Learning", as
// fastText's and scikit-learn's HashingVectorizer use it.
//
// # Tokens
//
// A document is UTF-8. Its tokens are the maximal runs of letters
// (unicode.IsLetter), digits (unicode.IsDigit), combining marks (unicode.M,
// so that "e" + U+0301 stays in its word) and the runes of Options.Extra;
// every other rune separates tokens. Each rune is lower-cased with
// unicode.ToLower unless Options.KeepCase (no Unicode normalisation: NFC
// and NFD spellings of a word are different tokens). Invalid UTF-8 is read
// as strings.ToValidUTF8(doc, "\uFFFD") reads: each invalid byte sequence
// is U+FFFD, which is no letter, so it separates tokens and is never part
// of one. Scripts written without spaces (Chinese, Japanese, Thai) give one
// token per run of letters; character n-grams (Options.CharMin..CharMax)
// give them features of their parts.
//
// # Features
//
// A feature is the 64-bit FNV-1a hash of these bytes (tokens lower-cased,
// UTF-8):
//
//	"u " + t                       a word (unigram)
//	"b " + t1 + " " + t2           a word bigram
//	"N " + t1 + " " + … + " " + tN a word n-gram, N = 3…8 as one digit
//	"c " + g                       a character n-gram g of "<" + t + ">"
//
// which is bench/textset's hashing of unigrams and bigrams too. Its column
// is the hash's low Bits bits (hash mod 2^Bits); with Options.Signed its
// sign is −1 if the hash's top bit is set, else +1. A document's value in
// a column is the signed count of its features there, weighted by
// Options.TF (raw count, 1 + ln count, or 1), times the column's idf with
// Options.IDF, and the row is scaled to Euclidean norm 1 unless
// Options.NoNormalize. A column whose signed count is 0 is left out.
//
// The idf is learned by Fit on the training documents, scikit-learn's
// smooth idf: ln((1 + n) / (1 + df)) + 1, for n documents of which df have
// the column. Fit reads the documents once, before they are featurized
// (two passes over a stream with idf); FitReadAll learns the idf and
// featurizes a Reader's documents in one pass, keeping each row's counts
// until the idf is known, with the same featurizer and rows, bit for bit.
//
// ReadAll (and FitReadAll) featurize on up to GOMAXPROCS goroutines (at
// most 8) while the calling goroutine reads: it copies the documents, in
// order, into batches of about 256 KiB, and appends the batches' rows in
// the file's order. A row depends on its document alone, so the matrix is
// the same, bit for bit, on any number of goroutines; at most two batches
// per goroutine are in flight, so the memory beyond the matrix stays
// bounded.
//
// Nothing is allocated per token, and no token is copied for word n-grams
// up to bigrams without character n-grams (the default): each lower-cased
// byte goes, as it is read, into the three FNV-1a states of the unigram,
// of the bigram the token starts and of the bigram it ends, so a document
// is read once. Longer n-grams and character n-grams lower-case the
// tokens into one buffer and hash over its bytes. ASCII bytes and the
// runes below U+0800 are classified and lower-cased by table. Rows reuses
// its buffers from one document to the next. Featurizer.MaxFeatures
// bounds the features of a document of n bytes, so that a server can
// bound what featurizing a document will hold before it starts.
//
// # Storing
//
// MarshalBinary stores a featurizer's options and idf, checksummed
// (CRC-32C), so that a model file can carry it: package model's text model
// (model.Text) stores the featurizer, the label names and the inner model
// in one file.
//
// # Inputs
//
// Reader reads labelled documents: fastText's format (a line of
// "__label__NAME" words then the text), TSV or CSV with a label column
// and a text column, and one document per line with the labels in a
// second file (Lines, ReaderOptions.Labels: line i of one labels line i of
// the other, and files of different lengths are refused naming the first
// line without a partner), streaming, one line in memory at a time.
package text
