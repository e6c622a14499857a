package swarm

import (
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// TestStackPassesClientAddress reads deploy/swarm, without Docker: HAProxy
// passes each client's address to the replicas (X-Forwarded-For, or a
// PROXY protocol header on every server line), and the replicas trust
// exactly the overlay network HAProxy reaches them on, a private one, for
// it. TestStack checks the same on a running stack (its churn step's
// access logs name the client, not HAProxy).
func TestStackPassesClientAddress(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "deploy", "swarm", "stack.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var stack struct {
		Services map[string]struct {
			Environment map[string]string `json:"environment"`
			Networks    []string          `json:"networks"`
		} `json:"services"`
		Networks map[string]struct {
			IPAM struct {
				Config []struct {
					Subnet string `json:"subnet"`
				} `json:"config"`
			} `json:"ipam"`
		} `json:"networks"`
	}
	if err := yaml.Unmarshal(raw, &stack); err != nil {
		t.Fatalf("stack.yaml: %v", err)
	}
	cfg, err := os.ReadFile(filepath.Join(root, "deploy", "swarm", "haproxy.cfg"))
	if err != nil {
		t.Fatal(err)
	}

	var servers []string
	for line := range strings.Lines(string(cfg)) {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "server" || f[0] == "server-template") {
			servers = append(servers, line)
		}
	}
	proxyProtocol := len(servers) > 0
	for _, s := range servers {
		proxyProtocol = proxyProtocol && regexp.MustCompile(`\ssend-proxy(-v2)?\s`).MatchString(s+" ")
	}
	if !proxyProtocol && !regexp.MustCompile(`(?m)^\s*option forwardfor\b`).MatchString(string(cfg)) {
		t.Error("haproxy.cfg passes no client address: neither option forwardfor nor send-proxy(-v2) on every server line")
	}

	lb, server := stack.Services["haproxy"], stack.Services["docs-mcp"]
	shared := ""
	for _, n := range server.Networks {
		if slices.Contains(lb.Networks, n) {
			shared = n
		}
	}
	subnets := stack.Networks[shared].IPAM.Config
	if shared == "" || len(subnets) != 1 {
		t.Fatalf("haproxy and docs-mcp share no network with one subnet of its own (networks %v and %v)", lb.Networks, server.Networks)
	}
	subnet, err := netip.ParsePrefix(subnets[0].Subnet)
	if err != nil || !subnet.Addr().IsPrivate() {
		t.Fatalf("the network %s's subnet %q: want a private prefix (%v)", shared, subnets[0].Subnet, err)
	}
	value := server.Environment["DOCS_MCP_TRUSTED_PROXIES"]
	var trusted []netip.Prefix
	for item := range strings.SplitSeq(value, ",") {
		p, err := netip.ParsePrefix(strings.TrimSpace(item))
		if err != nil {
			t.Fatalf("DOCS_MCP_TRUSTED_PROXIES=%q: %v", value, err)
		}
		trusted = append(trusted, p)
	}
	if len(trusted) != 1 || trusted[0] != subnet {
		t.Errorf("DOCS_MCP_TRUSTED_PROXIES=%q; want the network HAProxy reaches the replicas on, %s, and nothing else", value, subnet)
	}
}
