package modelfile

import "github.com/rosenblatt-go/rosenblatt/fit"

// The model files' kinds come in families of three from a base kind: base
// for a binary model, base+1 for one-vs-rest, base+2 for the family's third
// scheme (argmax for the linear and kernel perceptrons and the quantised
// models, one-vs-one for the kernel SVM). SchemeKind and KindScheme are
// that map, the files' side of fit.Scheme: the bytes are the files',
// whatever fit.Scheme's values are.

// SchemeKind returns the kind of scheme s in the family from base whose
// third scheme is third, or 0 for a scheme outside the family (fit.Auto:
// an untrained model has no kind).
func SchemeKind(base byte, s, third fit.Scheme) byte {
	switch s {
	case fit.Binary:
		return base
	case fit.OneVsRest:
		return base + 1
	case third:
		return base + 2
	}
	return 0
}

// KindScheme returns the scheme of kind k in the family from base whose
// third scheme is third, or fit.Auto for a kind outside the family.
func KindScheme(base, k byte, third fit.Scheme) fit.Scheme {
	switch k {
	case base:
		return fit.Binary
	case base + 1:
		return fit.OneVsRest
	case base + 2:
		return third
	}
	return fit.Auto
}

// SchemeName returns the name of scheme s in the JSON documents' "kind"
// ("binary", "ovr", "argmax", "ovo"; the kernel models prefix "kernel-").
func SchemeName(s fit.Scheme) string {
	switch s {
	case fit.OneVsRest:
		return "ovr"
	case fit.Argmax:
		return "argmax"
	case fit.OneVsOne:
		return "ovo"
	}
	return "binary"
}
