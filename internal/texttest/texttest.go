// Package texttest holds a reference implementation of package text's
// featurizer for the tests and fuzz targets that check it.
package texttest

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/rosenblatt-go/rosenblatt/text"
)

// Reference is a deliberately plain featurizer, package text's contract
// written the obvious way: strings.ToValidUTF8, strings.FieldsFunc, a
// string per feature, hash/fnv, a map. idf is nil without idf.
func Reference(o text.Options, idf func(col int) float64, doc string) (cols []int32, vals []float64) {
	doc = strings.ToValidUTF8(doc, "\uFFFD")
	tokenRune := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r) || strings.ContainsRune(o.Extra, r)
	}
	toks := strings.FieldsFunc(doc, func(r rune) bool { return r == unicode.ReplacementChar || !tokenRune(r) })
	if !o.KeepCase {
		for i, t := range toks {
			toks[i] = strings.Map(unicode.ToLower, t)
		}
	}
	var feats []string
	prefix := map[int]string{1: "u ", 2: "b "}
	for n := 1; n <= o.WordNGrams; n++ {
		p, ok := prefix[n]
		if !ok {
			p = string(rune('0'+n)) + " "
		}
		for i := 0; i+n <= len(toks); i++ {
			feats = append(feats, p+strings.Join(toks[i:i+n], " "))
		}
	}
	if o.CharMax > 0 {
		for _, t := range toks {
			r := []rune("<" + t + ">")
			for n := o.CharMin; n <= o.CharMax; n++ {
				for i := 0; i+n <= len(r); i++ {
					feats = append(feats, "c "+string(r[i:i+n]))
				}
			}
		}
	}
	count := map[int32]float64{}
	for _, s := range feats {
		h := fnv.New64a()
		h.Write([]byte(s))
		x := h.Sum64()
		c := int32(x % (1 << o.Bits))
		if o.Signed && x>>63 == 1 {
			count[c]--
		} else {
			count[c]++
		}
	}
	for c, v := range count {
		if v != 0 {
			cols = append(cols, c)
		}
	}
	slices.Sort(cols)
	var ss float64
	for _, c := range cols {
		v := count[c]
		switch o.TF {
		case text.Log:
			if v > 0 {
				v = 1 + math.Log(v)
			} else {
				v = -(1 + math.Log(-v))
			}
		case text.Binary:
			if v > 0 {
				v = 1
			} else {
				v = -1
			}
		}
		if idf != nil {
			v *= idf(int(c))
		}
		vals = append(vals, v)
		ss += v * v
	}
	if !o.NoNormalize && ss > 0 {
		for i := range vals {
			vals[i] *= 1 / math.Sqrt(ss)
		}
	}
	return cols, vals
}

// Check featurizes doc with f, as a float64 row, and reports where it
// differs from Reference: another column, or a value more than 1e-12 away.
func Check(f *text.Featurizer, doc string) error {
	r := text.NewRows[float64](f)
	r.AppendString(doc, 0)
	var idf func(int) float64
	if f.Options().IDF {
		idf = f.IDF
	}
	wc, wv := Reference(f.Options(), idf, doc)
	row := r.CSR.Row(0)
	if !slices.Equal(row.Idx, wc) {
		return fmt.Errorf("%+v %q: columns %v, the reference %v", f.Options(), doc, row.Idx, wc)
	}
	for k := range wv {
		if d := math.Abs(row.Val[k] - wv[k]); d > 1e-12 {
			return fmt.Errorf("%+v %q: column %d value %v, the reference %v", f.Options(), doc, wc[k], row.Val[k], wv[k])
		}
	}
	return r.CSR.Validate()
}
