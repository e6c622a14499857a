package oauth

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// MetadataPath is where Protected Resource Metadata (RFC 9728) is served;
// the resource's path is appended for the path-suffixed form
// (/.well-known/oauth-protected-resource/mcp).
const MetadataPath = "/.well-known/oauth-protected-resource"

// Metadata is this resource's Protected Resource Metadata (RFC 9728): what
// an MCP client reads, after a 401, to learn where to get a token.
type Metadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name"`
}

// Metadata describes this resource: its identifier (the audience), its
// authorization server, the scopes it requires, and that tokens go in the
// Authorization header.
func (v *Verifier) Metadata() Metadata {
	return Metadata{
		Resource:               v.cfg.Audience,
		AuthorizationServers:   []string{v.cfg.Issuer},
		ScopesSupported:        v.cfg.Scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "docs-mcp",
	}
}

// MetadataPaths are the paths the metadata is served at: one, the
// well-known path with the resource's path appended, as RFC 9728 §3.1
// builds it from the resource identifier (the bare path for a resource
// without a path).
//
// The bare path is not served for a resource with a path, such as
// https://docs.example.com/mcp: a client that fetches it has built it from
// the identifier https://docs.example.com, and RFC 9728 §3.3 tells it to
// discard a document whose resource differs from that, as this one's
// would; answering there with another resource's metadata only invites
// clients that skip the check to use it for a resource it does not
// describe. MCP clients find the metadata through the resource_metadata
// of every 401's WWW-Authenticate, or else try the path-suffixed URL
// first (MCP 2025-11-25, Authorization, Protected Resource Metadata
// Discovery), so none of them needs the bare one.
func (v *Verifier) MetadataPaths() []string {
	return []string{MetadataPath + resourcePath(v.cfg.Audience)}
}

// MetadataURL is the metadata's public address, the one 401 answers point
// to: on the resource's origin, suffixed with its path.
func (v *Verifier) MetadataURL() string {
	u, err := url.Parse(v.cfg.Audience)
	if err != nil {
		return MetadataPath
	}
	return u.Scheme + "://" + u.Host + MetadataPath + resourcePath(v.cfg.Audience)
}

func resourcePath(resource string) string {
	u, err := url.Parse(resource)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(u.EscapedPath(), "/")
}

// Challenge is the WWW-Authenticate header (RFC 6750 and RFC 9728) of the
// answer to a request Verify refused: 401 for ErrNoToken and
// ErrInvalidToken, 403 for ErrInsufficientScope. A request without a token
// gets no error code, as RFC 6750 says; every challenge points to the
// metadata and names the scopes required. ErrUnavailable (503) has none.
func (v *Verifier) Challenge(err error) string {
	var params []string
	switch {
	case errors.Is(err, ErrInsufficientScope):
		params = append(params, `error="insufficient_scope"`)
	case errors.Is(err, ErrInvalidToken):
		params = append(params, `error="invalid_token"`, fmt.Sprintf("error_description=%q", description(err)))
	case errors.Is(err, ErrUnavailable):
		return ""
	}
	if len(v.cfg.Scopes) > 0 {
		params = append(params, fmt.Sprintf("scope=%q", strings.Join(v.cfg.Scopes, " ")))
	}
	params = append(params, fmt.Sprintf("resource_metadata=%q", v.MetadataURL()))
	return "Bearer " + strings.Join(params, ", ")
}

// description is the reason of an ErrInvalidToken, fit for a quoted header
// value (RFC 6750 allows printable ASCII but '"' and '\').
func description(err error) string {
	d := strings.TrimPrefix(err.Error(), ErrInvalidToken.Error()+": ")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '\''
		}
		return r
	}, d)
}
