package smalltest

import "testing"

func TestN(t *testing.T) {
	for _, c := range []struct {
		v    string
		want int
	}{{"", 100}, {"0", 100}, {"false", 100}, {"yes", 100}, {"1", 10}, {"true", 10}} {
		t.Setenv(Env, c.v)
		if got := N(100, 10); got != c.want {
			t.Errorf("%s=%q: N(100, 10) = %d, want %d", Env, c.v, got, c.want)
		}
		if got := Small(); got != (c.want == 10) {
			t.Errorf("%s=%q: Small() = %v", Env, c.v, got)
		}
	}
}
