package httpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
)

// HealthURL is the /health address of a server listening on listen
// (host:port). An unspecified host (0.0.0.0, ::, or none) is reached on
// loopback.
func HealthURL(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("listen address %q: want host:port", listen)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/health", nil
}

// Check asks the server at url (its /health) whether it is serving: nil
// when it answers 200 with status "ok".
func Check(ctx context.Context, url string) (Health, error) {
	var h Health
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return h, fmt.Errorf("health check: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return h, fmt.Errorf("health check: %w", err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&h); err != nil {
		return h, fmt.Errorf("health check: %s answered %s without a health report: %w", url, resp.Status, err)
	}
	if resp.StatusCode != http.StatusOK || h.Status != "ok" {
		return h, fmt.Errorf("health check: %s answered %s, status %q", url, resp.Status, h.Status)
	}
	return h, nil
}
