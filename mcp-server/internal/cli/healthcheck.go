package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/httpserver"
)

// healthcheckCommand asks a running docs-mcp whether it is healthy. It is
// the container's HEALTHCHECK: the runtime image has no shell or curl.
func healthcheckCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "healthcheck",
		Usage:     "ask the docs-mcp serving HTTP on --listen whether it is healthy: exit 0 if so, 1 if not",
		UsageText: "docs-mcp healthcheck [--listen HOST:PORT] [--timeout DURATION]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", EnvVars: []string{envName("listen")}, Value: httpserver.DefaultConfig().Listen,
				Usage: "the address the server listens on; 0.0.0.0 is reached on 127.0.0.1"},
			&cli.DurationFlag{Name: "timeout", Value: defaultHealthTimeout,
				Usage: "how long to wait for the answer"},
		},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return explainUsage(c.Command.Flags, "docs-mcp healthcheck", err)
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("healthcheck: unexpected argument %q", c.Args().First())
			}
			if err := checkListen(c.String("listen")); err != nil {
				return usagef("healthcheck: %v", err)
			}
			url, err := httpserver.HealthURL(c.String("listen"))
			if err != nil {
				return usagef("healthcheck: %v", err)
			}
			ctx, cancel := context.WithTimeout(c.Context, c.Duration("timeout"))
			defer cancel()
			h, err := httpserver.Check(ctx, url)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "ok: %s serves %d docs and %d hooks (generation %d)\n", h.Version, h.Docs, h.Hooks, h.Generation)
			return nil
		},
	}
}

const defaultHealthTimeout = 3 * time.Second
