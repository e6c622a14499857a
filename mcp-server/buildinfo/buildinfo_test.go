package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	revision := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	for _, c := range []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"installed", debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{revision}}, "v1.2.3"},
		{"a checkout", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{revision}}, "dev-0123456789ab"},
		{"a short revision", debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123"}}}, "dev"},
		{"go run", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	} {
		if got := version(&c.info); got != c.want {
			t.Errorf("%s: version = %q, want %q", c.name, got, c.want)
		}
	}
}
