package cli

import (
	"fmt"
	"strings"
)

// OrUnknown returns s, or "unknown" if it is blank (a CPU that does not
// name itself).
func OrUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "unknown"
	}
	return s
}

// CacheSize formats a cache size of b bytes ("32 KiB", "1 MiB"), or
// "unknown" for b ≤ 0.
func CacheSize(b int) string {
	switch {
	case b <= 0:
		return "unknown"
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
