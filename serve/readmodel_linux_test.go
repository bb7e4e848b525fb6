package serve

import (
	"strings"
	"testing"
)

// TestReadModelGrows: a file with more bytes than its stat said (a file
// growing while it is read; /proc's files stat as empty) is read only to
// one byte past the limit, and refused.
func TestReadModelGrows(t *testing.T) {
	const path = "/proc/self/status" // about 1 KB, of size 0 to stat
	const limit = 100
	data, err := readModel(path, limit)
	if err == nil || !strings.Contains(err.Error(), "grew while it was read: more than 100 bytes, the limit (-max-model-bytes)") {
		t.Fatalf("read %d bytes, err %v", len(data), err)
	}
	if data, err := readModel(path, 1<<20); err != nil || len(data) <= limit {
		t.Fatalf("under a 1 MiB limit: %d bytes, %v", len(data), err)
	}
}
