package cli

import (
	"context"
	"log/slog"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docs-mcp/docs-mcp/mcp-server/internal/httpserver"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/oauth"
)

// oauthFlags turn on resource-server mode: /mcp then takes the access
// tokens an organisation's authorization server issues for it.
func oauthFlags() []cli.Flag {
	const category = "HTTP mode: OAuth resource server"
	return []cli.Flag{
		&cli.StringFlag{Name: "oauth-issuer", EnvVars: []string{envName("oauth-issuer")}, Category: category,
			Usage: "URL of the authorization server whose access tokens /mcp takes, exactly as their iss claim says (its discovery document and keys are fetched from it); with --oauth-audience, turns on OAuth resource-server mode. Off by default"},
		&cli.StringFlag{Name: "oauth-audience", EnvVars: []string{envName("oauth-audience")}, Category: category,
			Usage: "this server's public MCP URL, e.g. https://docs.example.com/mcp: tokens must name it in aud, and the Protected Resource Metadata gives it as the resource"},
		&cli.StringFlag{Name: "oauth-scopes", EnvVars: []string{envName("oauth-scopes")}, Category: category, DefaultText: "none: any valid token",
			Usage: "space- or comma-separated scopes every token must carry; a token without them gets 403 insufficient_scope"},
		&cli.BoolFlag{Name: "oauth-require-at-jwt", EnvVars: []string{envName("oauth-require-at-jwt")}, Category: category,
			Usage: "take only tokens whose JOSE header says typ \"at+jwt\" (RFC 9068 access tokens), so that no other JWT of the issuer, such as an ID token, passes for one; off by default, as many issuers type access tokens \"JWT\""},
		&cli.IntFlag{Name: "max-sessions-per-subject", EnvVars: []string{envName("max-sessions-per-subject")}, Value: httpserver.DefaultConfig().MaxSessionsPerSubject, Category: category,
			Usage: "with OAuth, most live MCP sessions one subject (a token's sub) may hold; at it, the subject's own idle session unused longest makes room, and initialize gets 429 only when all of them are busy"},
	}
}

// oauthConfig checks the OAuth flags. Resource-server mode and the static
// token cannot both be set.
func oauthConfig(c *cli.Context, cfg *config) error {
	issuer, audience := c.String("oauth-issuer"), c.String("oauth-audience")
	cfg.HTTP.MaxSessionsPerSubject = c.Int("max-sessions-per-subject")
	if cfg.HTTP.MaxSessionsPerSubject < 1 {
		return usagef("--max-sessions-per-subject %d: use at least 1", cfg.HTTP.MaxSessionsPerSubject)
	}
	switch {
	case issuer == "" && audience == "":
		if c.String("oauth-scopes") != "" {
			return usagef("--oauth-scopes is set without --oauth-issuer and --oauth-audience")
		}
		if c.Bool("oauth-require-at-jwt") {
			return usagef("--oauth-require-at-jwt is set without --oauth-issuer and --oauth-audience")
		}
		return nil
	case issuer == "" || audience == "":
		return usagef("--oauth-issuer and --oauth-audience go together: set both (or neither)")
	case cfg.HTTP.AuthToken != "":
		return usagef("both a static bearer token (--auth-token-file or %s) and OAuth (--oauth-issuer) are set: use one", authTokenEnv)
	}
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || (u.Scheme != "https" && !(u.Scheme == "http" && loopbackHost(u.Hostname()))) {
		return usagef("--oauth-issuer %q: want an https URL without query, e.g. https://login.example.com/realms/eng (http only on a loopback host)", issuer)
	}
	if a, err := url.Parse(audience); err != nil || (a.Scheme != "https" && a.Scheme != "http") || a.Host == "" || a.Fragment != "" {
		return usagef("--oauth-audience %q: want this server's public MCP URL, e.g. https://docs.example.com/mcp", audience)
	}
	cfg.OAuth = oauth.DefaultConfig()
	cfg.OAuth.Issuer, cfg.OAuth.Audience = issuer, audience
	cfg.OAuth.RequireAccessTokenType = c.Bool("oauth-require-at-jwt")
	cfg.OAuth.Scopes = strings.FieldsFunc(c.String("oauth-scopes"), func(r rune) bool { return r == ' ' || r == ',' })
	return nil
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// tokenVerifier returns the verifier of resource-server mode, nil when it
// is off. It fetches the issuer's discovery document and keys once at
// start, to report a wrong issuer early; if the issuer cannot be reached
// yet, the server starts anyway and /mcp answers 503 until it can.
func tokenVerifier(ctx context.Context, log *slog.Logger, opts oauth.Config) (*oauth.Verifier, error) {
	if opts.Issuer == "" {
		return nil, nil
	}
	if opts.Logger == nil {
		opts.Logger = log
	}
	v, err := oauth.New(opts)
	if err != nil {
		return nil, usagef("%v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	jwks, err := v.Discover(ctx)
	if err != nil {
		log.Warn("oauth: the authorization server cannot be used yet; /mcp answers 503 until it can", "issuer", opts.Issuer, "err", err)
	} else {
		log.Info("oauth: resource-server mode", "issuer", opts.Issuer, "audience", opts.Audience,
			"scopes", strings.Join(opts.Scopes, " "), "require_at_jwt", opts.RequireAccessTokenType, "jwks_uri", jwks)
	}
	return v, nil
}
