package cli

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is what --version prints: the program's name, the main
// module's version from the build information ("(devel)" for a build from
// a checkout, followed by the commit, its time and "modified" when the
// build recorded them) and the Go version and platform it was built with.
func Version(prog string) string {
	info, ok := debug.ReadBuildInfo()
	return versionLine(prog, info, ok)
}

func versionLine(prog string, info *debug.BuildInfo, ok bool) string {
	parts := []string{prog}
	if !ok || info.Main.Version == "" {
		parts = append(parts, "(unknown)")
	} else {
		parts = append(parts, info.Main.Version)
		settings := map[string]string{}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
		// A tagged or pseudo-versioned build names its commit already.
		if info.Main.Version == "(devel)" {
			if rev := settings["vcs.revision"]; rev != "" {
				parts = append(parts, "commit "+short(rev))
			}
			if t := settings["vcs.time"]; t != "" {
				parts = append(parts, t)
			}
			if settings["vcs.modified"] == "true" {
				parts = append(parts, "modified")
			}
		}
	}
	goVersion := runtime.Version()
	if ok && info.GoVersion != "" {
		goVersion = info.GoVersion
	}
	parts = append(parts, goVersion, runtime.GOOS+"/"+runtime.GOARCH)
	return strings.Join(parts, " ")
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
