package online

import (
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// A checkpoint file, ckpt-<sequence number>.ckpt, is written whole to a
// temporary file, fsynced, renamed into place and its directory fsynced:
//
//	0  8  magic "RBCKPT\x00\x01"
//	8  8  sequence number: the last record the model holds
//	16 32 SHA-256 of the base model file
//	48 4  n, the idempotency keys remembered
//	52    n × (key length u16, key, sequence number u64), oldest first
//	      model length u64, the model file (linear.Model's
//	      MarshalBinary, with its training state)
//	      CRC-32C (Castagnoli) of everything before it
//
// The model part is a model file like any other: it can be served or
// inspected on its own.

const ckptMagic = "RBCKPT\x00\x01"

func ckptName(seq uint64) string { return fmt.Sprintf("ckpt-%020d.ckpt", seq) }

// checkpoint is a decoded checkpoint.
type checkpoint[T kernel.Float] struct {
	seq   uint64
	base  [32]byte
	keys  []keyEntry
	model *linear.Model[T]
}

type keyEntry struct {
	key string
	seq uint64
}

func encodeCheckpoint(seq uint64, base [32]byte, keys []keyEntry, model []byte) []byte {
	n := 52 + 8 + len(model) + 4
	for _, k := range keys {
		n += 10 + len(k.key)
	}
	b := make([]byte, 0, n)
	b = append(b, ckptMagic...)
	b = binary.LittleEndian.AppendUint64(b, seq)
	b = append(b, base[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	for _, k := range keys {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(k.key)))
		b = append(b, k.key...)
		b = binary.LittleEndian.AppendUint64(b, k.seq)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(len(model)))
	b = append(b, model...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// readCheckpoint reads and checks dir/ckpt-seq.ckpt; maxBytes bounds it.
func readCheckpoint[T kernel.Float](dir string, seq uint64, maxBytes int64) (*checkpoint[T], error) {
	path := filepath.Join(dir, ckptName(seq))
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than %d", path, fi.Size(), maxBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := decodeCheckpoint[T](b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if c.seq != seq {
		return nil, fmt.Errorf("%s: holds sequence number %d", path, c.seq)
	}
	return c, nil
}

func decodeCheckpoint[T kernel.Float](b []byte) (*checkpoint[T], error) {
	if len(b) < 52+8+4 || string(b[:8]) != ckptMagic {
		return nil, errors.New("not a checkpoint (magic or length)")
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("checksum mismatch")
	}
	c := &checkpoint[T]{seq: binary.LittleEndian.Uint64(b[8:])}
	copy(c.base[:], b[16:48])
	n := int(binary.LittleEndian.Uint32(b[48:]))
	p := body[52:]
	if n > len(p)/10 {
		return nil, fmt.Errorf("%d keys in %d bytes", n, len(p))
	}
	c.keys = make([]keyEntry, n)
	for i := range c.keys {
		if len(p) < 2 {
			return nil, errors.New("keys truncated")
		}
		kl := int(binary.LittleEndian.Uint16(p))
		if len(p) < 2+kl+8 {
			return nil, errors.New("keys truncated")
		}
		c.keys[i] = keyEntry{string(p[2 : 2+kl]), binary.LittleEndian.Uint64(p[2+kl:])}
		p = p[2+kl+8:]
	}
	if len(p) < 8 || binary.LittleEndian.Uint64(p) != uint64(len(p)-8) {
		return nil, errors.New("model length does not match the file")
	}
	c.model = new(linear.Model[T])
	if err := c.model.UnmarshalBinary(p[8:]); err != nil {
		return nil, fmt.Errorf("its model: %w", err)
	}
	return c, nil
}
