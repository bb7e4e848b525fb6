package text

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/rosenblatt-go/rosenblatt/internal/modelfile"
)

// The stored form of a Featurizer (MarshalBinary), little-endian:
//
//	offset size  field
//	0      8     magic "RBLTTEXT"
//	8      2     version, 1
//	10     1     Bits
//	11     1     WordNGrams
//	12     1     CharMin
//	13     1     CharMax
//	14     1     TF
//	15     1     flags: 1 KeepCase, 2 Signed, 4 IDF, 8 NoNormalize
//	16     2     E, the bytes of Extra
//	18     2     reserved, 0
//	20     4     K, the columns of nonzero document frequency (with IDF)
//	24     8     n, documents the idf was learned from
//	32     E     Extra, UTF-8
//	32+E   4·K   the K columns, increasing
//	       4·K   their document frequencies, 1 ≤ df ≤ n
//
// The idf is computed from n and the document frequencies as Fit computes
// it, so that it is the same bits.
//
//	end-4  4     CRC-32C (Castagnoli) of every byte before it
const (
	fileMagic   = "RBLTTEXT"
	fileVersion = 1
	fileHeader  = 32
)

const (
	flagKeepCase = 1 << iota
	flagSigned
	flagIDF
	flagNoNormalize
)

var le = binary.LittleEndian

// MarshalBinary returns the featurizer's stored form: its options and its
// learned idf, checksummed.
func (f *Featurizer) MarshalBinary() ([]byte, error) {
	o := f.opt
	b := make([]byte, fileHeader, f.encodedSize())
	copy(b, fileMagic)
	le.PutUint16(b[8:], fileVersion)
	b[10], b[11], b[12], b[13], b[14] = byte(o.Bits), byte(o.WordNGrams), byte(o.CharMin), byte(o.CharMax), byte(o.TF)
	var fl byte
	if o.KeepCase {
		fl |= flagKeepCase
	}
	if o.Signed {
		fl |= flagSigned
	}
	if o.IDF {
		fl |= flagIDF
	}
	if o.NoNormalize {
		fl |= flagNoNormalize
	}
	b[15] = fl
	le.PutUint16(b[16:], uint16(len(o.Extra)))
	le.PutUint32(b[20:], uint32(len(f.dfCols)))
	le.PutUint64(b[24:], uint64(f.docs))
	b = append(b, o.Extra...)
	for _, c := range f.dfCols {
		b = le.AppendUint32(b, c)
	}
	for _, d := range f.dfs {
		b = le.AppendUint32(b, d)
	}
	return le.AppendUint32(b, modelfile.Checksum(b)), nil
}

func (f *Featurizer) encodedSize() int {
	return fileHeader + len(f.opt.Extra) + 8*len(f.dfCols) + 4
}

// EncodedSize returns the length of the stored featurizer that data starts
// with, from its header: the bytes Unmarshal must be given. Errors wrap
// ErrCorrupt.
func EncodedSize(data []byte) (int, error) {
	if len(data) < fileHeader {
		return 0, fmt.Errorf("%w: %d bytes, shorter than a header", ErrCorrupt, len(data))
	}
	if string(data[:8]) != fileMagic {
		return 0, fmt.Errorf("%w: bad magic %q", ErrCorrupt, data[:8])
	}
	if v := le.Uint16(data[8:]); v != fileVersion {
		return 0, fmt.Errorf("%w: version %d, this package reads %d", ErrCorrupt, v, fileVersion)
	}
	bits := int(data[10])
	if bits < 1 || bits > MaxBits {
		return 0, fmt.Errorf("%w: %d bits", ErrCorrupt, bits)
	}
	k := int64(le.Uint32(data[20:]))
	if k > 1<<bits {
		return 0, fmt.Errorf("%w: %d columns of 2^%d", ErrCorrupt, k, bits)
	}
	return fileHeader + int(le.Uint16(data[16:])) + int(8*k) + 4, nil
}

// UnmarshalBinary decodes a stored featurizer: exactly the bytes
// MarshalBinary wrote. It checks the checksum and every field before it
// allocates anything, and allocates no more than the input's size.
func (f *Featurizer) UnmarshalBinary(data []byte) error {
	n, err := EncodedSize(data)
	if err != nil {
		return err
	}
	if len(data) != n {
		return fmt.Errorf("%w: %d bytes, the header implies %d", ErrCorrupt, len(data), n)
	}
	body := len(data) - 4
	if want, got := le.Uint32(data[body:]), modelfile.Checksum(data[:body]); want != got {
		return fmt.Errorf("%w: checksum %08x, the data gives %08x (truncated or modified)", ErrCorrupt, want, got)
	}
	fl := data[15]
	if fl&^(flagKeepCase|flagSigned|flagIDF|flagNoNormalize) != 0 || le.Uint16(data[18:]) != 0 || fl&flagIDF == 0 && le.Uint32(data[20:]) != 0 {
		return fmt.Errorf("%w: reserved bits are not zero", ErrCorrupt)
	}
	ne := int(le.Uint16(data[16:]))
	extra := data[fileHeader : fileHeader+ne]
	if !utf8.Valid(extra) {
		return fmt.Errorf("%w: Extra is not UTF-8", ErrCorrupt)
	}
	// Files written before Options.Check refused U+0000 and U+FFFD in Extra
	// may hold them; the featurizer always treated both as separators, so
	// dropping them keeps the rows those files gave.
	o := Options{
		Bits: int(data[10]), WordNGrams: int(data[11]), CharMin: int(data[12]), CharMax: int(data[13]),
		TF: Weighting(data[14]), Extra: strings.NewReplacer("\x00", "", "\uFFFD", "").Replace(string(extra)),
		KeepCase: fl&flagKeepCase != 0, Signed: fl&flagSigned != 0, IDF: fl&flagIDF != 0, NoNormalize: fl&flagNoNormalize != 0,
	}
	if err := o.Check(); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	docs := le.Uint64(data[24:])
	if docs > math.MaxInt64 || !o.IDF && docs != 0 {
		return fmt.Errorf("%w: %d documents", ErrCorrupt, docs)
	}
	g := newFeaturizer(o)
	g.docs = int64(docs)
	if o.IDF {
		k := int(le.Uint32(data[20:]))
		p := data[fileHeader+ne : body]
		g.dfCols, g.dfs = make([]uint32, k), make([]uint32, k)
		for j := range k {
			c, d := le.Uint32(p[4*j:]), le.Uint32(p[4*(k+j):])
			switch {
			case c >= 1<<o.Bits || j > 0 && c <= g.dfCols[j-1]:
				return fmt.Errorf("%w: column %d of the idf after %d or past 2^%d", ErrCorrupt, c, g.dfCols[max(j-1, 0)], o.Bits)
			case d < 1 || uint64(d) > docs:
				return fmt.Errorf("%w: column %d in %d of %d documents", ErrCorrupt, c, d, docs)
			}
			g.dfCols[j], g.dfs[j] = c, d
		}
		g.setIDF()
	}
	*f = *g
	return nil
}
