package mcptest

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// EveryAdvertisedURI reads every resource c's server lists and one URI of
// each resource template it lists, and subscribes to each of them: with
// resources/subscribe on a revision before 2026-07-28, with a
// subscriptions/listen stream (whose acknowledgement must name them all)
// on 2026-07-28. A template's URI is made the way a client makes one: each
// variable completed with completion/complete, a path descended folder by
// folder. Anything advertised that a client cannot read or subscribe to
// fails the test, and so does a scheme of schemes ("docs://") that none
// of the URIs has. c must have been started (Client.Start), or the
// acknowledgement of a listen reaches no handler.
func EveryAdvertisedURI(t testing.TB, c *client.Client, rev string, schemes ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	resources, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatalf("%s: resources/list: %v", rev, err)
	}
	var uris []string
	for _, r := range resources.Resources {
		uris = append(uris, r.URI)
	}
	templates, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatalf("%s: resources/templates/list: %v", rev, err)
	}
	if len(uris) == 0 || len(templates.ResourceTemplates) == 0 {
		t.Fatalf("%s: %d resources and %d templates advertised", rev, len(uris), len(templates.ResourceTemplates))
	}
	for _, tpl := range templates.ResourceTemplates {
		uris = append(uris, completeTemplate(ctx, t, c, rev, tpl.URITemplate.Raw()))
	}
	for _, scheme := range schemes {
		if !slices.ContainsFunc(uris, func(u string) bool { return strings.HasPrefix(u, scheme) }) {
			t.Errorf("%s: no %s URI among %q", rev, scheme, uris)
		}
	}
	for _, uri := range uris {
		read := mcp.ReadResourceRequest{}
		read.Params.URI = uri
		res, err := c.ReadResource(ctx, read)
		if err != nil {
			t.Errorf("%s: read %s: %v", rev, uri, err)
			continue
		}
		if len(res.Contents) == 0 {
			t.Errorf("%s: read %s: no contents", rev, uri)
		}
	}
	if rev < mcp.ProtocolVersion20260728 {
		for _, uri := range uris {
			sub := mcp.SubscribeRequest{}
			sub.Params.URI = uri
			if err := c.Subscribe(ctx, sub); err != nil {
				t.Errorf("%s: subscribe %s: %v", rev, uri, err)
			}
		}
		return
	}
	listened(ctx, t, c, uris)
}

// listened opens a subscriptions/listen stream for uris and waits for its
// acknowledgement, which must name every one.
func listened(ctx context.Context, t testing.TB, c *client.Client, uris []string) {
	t.Helper()
	var once sync.Once
	acked := make(chan []string, 1)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != string(mcp.MethodNotificationSubscriptionsAcknowledged) {
			return
		}
		var got []string
		if f, ok := n.Params.AdditionalFields["notifications"].(map[string]any); ok {
			list, _ := f["resourceSubscriptions"].([]any)
			for _, u := range list {
				if s, ok := u.(string); ok {
					got = append(got, s)
				}
			}
		}
		once.Do(func() { acked <- got })
	})
	failed := make(chan error, 1)
	stop, err := c.ListenAsync(ctx, mcp.SubscriptionFilter{ResourceSubscriptions: uris}, func(err error) { failed <- err })
	if err != nil {
		t.Fatalf("subscriptions/listen: %v", err)
	}
	defer stop()
	select {
	case got := <-acked:
		for _, uri := range uris {
			if !slices.Contains(got, uri) {
				t.Errorf("subscriptions/listen: the acknowledgement lacks %s: %q", uri, got)
			}
		}
	case err := <-failed:
		t.Errorf("subscriptions/listen %q: %v", uris, err)
	case <-ctx.Done():
		t.Errorf("subscriptions/listen: no acknowledgement within %s", Deadline)
	}
}

// variable is a variable of a URI template: {name} or {+name}.
var variable = regexp.MustCompile(`\{\+?([a-z_]+)\}`)

// completeTemplate fills each variable of tpl with the first value the
// server completes for it, given the values chosen before it.
func completeTemplate(ctx context.Context, t testing.TB, c *client.Client, rev, tpl string) string {
	t.Helper()
	chosen := map[string]string{}
	for _, m := range variable.FindAllStringSubmatch(tpl, -1) {
		name, value := m[1], ""
		for { // a path is completed a folder at a time
			req := mcp.CompleteRequest{}
			req.Params.Ref = mcp.ResourceReference{Type: "ref/resource", URI: tpl}
			req.Params.Argument.Name, req.Params.Argument.Value = name, value
			req.Params.Context.Arguments = chosen
			// Completion answers from what is loaded and waits for
			// nothing: a release still loading completes nothing yet, and
			// a client asks again.
			var res *mcp.CompleteResult
			Eventually(t, fmt.Sprintf("%s: a completion of %s of %s from %q", rev, name, tpl, value), func() bool {
				var err error
				if res, err = c.Complete(ctx, req); err != nil {
					t.Fatalf("%s: complete %s of %s: %v", rev, name, tpl, err)
				}
				return len(res.Completion.Values) > 0
			})
			value = res.Completion.Values[0]
			if !strings.HasSuffix(value, "/") {
				break
			}
		}
		chosen[name] = value
	}
	return variable.ReplaceAllStringFunc(tpl, func(v string) string {
		return chosen[variable.FindStringSubmatch(v)[1]]
	})
}
