package cli

import (
	"fmt"
	"regexp"

	"github.com/urfave/cli/v2"
)

// urfave/cli reports a value it cannot parse in words of Go's flag and
// strconv packages ("parse error", "strconv.ParseBool: parsing ...:
// invalid syntax"), which say what failed but not what to write instead.
// These patterns are its messages for a value on the command line
// (--stdio=yes is Go's flag package's own wording) and in the environment (flag_*.go in urfave/cli v2.27); a test runs both
// through the real app, so a library update that rewords them shows.
var (
	badFlagValue = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([a-z0-9-]+): `)
	badEnvValue  = regexp.MustCompile(`^could not parse "(.*)" as [a-z0-9 ]+ value from environment variable "([A-Z0-9_]+)" for flag ([a-z0-9-]+): `)
)

// explainUsage rewrites a value urfave/cli could not parse into what the
// flag takes, with an example, and points to help, the command whose
// --help lists flags (docs-mcp, or a subcommand's). Other errors pass as
// they are.
func explainUsage(flags []cli.Flag, help string, err error) error {
	var value, source, name string
	if m := badFlagValue.FindStringSubmatch(err.Error()); m != nil {
		value, source, name = m[1], "--"+m[2], m[2]
	} else if m := badEnvValue.FindStringSubmatch(err.Error()); m != nil {
		value, source, name = m[1], m[2], m[3]
	} else {
		return usagef("%v (see %s --help)", err, help)
	}
	for _, f := range flags {
		if f.Names()[0] != name {
			continue
		}
		if want := wantedValue(f); want != "" {
			return usagef("%s %q: want %s (see %s --help)", source, value, want, help)
		}
	}
	return usagef("%v (see %s --help)", err, help)
}

// wantedValue says what a flag of f's kind takes; empty for string flags,
// whose values are checked where they are used.
func wantedValue(f cli.Flag) string {
	switch f.(type) {
	case *cli.DurationFlag:
		return "a duration with its unit, e.g. 5s, 500ms or 2m"
	case *cli.IntFlag, *cli.Int64Flag:
		return "a whole number, e.g. 10"
	case *cli.BoolFlag:
		return "true or false"
	}
	return ""
}

// listenHint follows a listen error: the usual cause is another server on
// the port, often an earlier docs-mcp or the container.
func listenHint(err error) error {
	return fmt.Errorf("%w (set --listen or DOCS_MCP_LISTEN to a free host:port, e.g. 127.0.0.1:3001)", err)
}
