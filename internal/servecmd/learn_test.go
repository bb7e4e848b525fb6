package servecmd_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/servecmd"
)

// TestLearnFlags: the learning flags' misuses are usage errors that say
// what is wrong, before anything is served.
func TestLearnFlags(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o600)
	t.Setenv("ROSENBLATT_TOKEN", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-models", dir, "-learn-dir", dir}, "repository"},
		{[]string{"-model", "m.model", "-token-file", empty}, "go with -learn-dir"},
		{[]string{"-model", "m.model", "-protect-predict"}, "go with -learn-dir"},
		{[]string{"-model", "m.model", "-learn-dir", dir, "-fsync", "sometimes"}, "-fsync"},
		{[]string{"-model", "m.model", "-learn-dir", dir, "-fsync", "-1s"}, "-fsync"},
		{[]string{"-model", "m.model", "-learn-dir", dir, "-checkpoint-every", "0"}, "positive"},
		{[]string{"-model", "m.model", "-learn-dir", dir, "-token-file", empty}, "empty"},
		{[]string{"-model", "m.model", "-learn-dir", dir, "-protect-predict"}, "needs a token"},
	} {
		err := servecmd.Run(context.Background(), nil, c.args, io.Discard, servecmd.Extra{})
		if !errors.Is(err, servecmd.ErrUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
}
