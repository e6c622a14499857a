package swarm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// stack is the deployed stack and what the test needs to reach it.
type stack struct {
	root     string   // the repository
	name     string   // the stack's name, one of the test's own
	env      []string // the environment of docker compose and docker stack: images and ports
	images   []string
	lb, prom string // base URLs of HAProxy and Prometheus on the host
}

// TestStack deploys deploy/swarm/stack.yaml and drives it through HAProxy:
// a clean run whose requests Prometheus must count exactly, summed over
// the replicas; a run with a replica killed, which may cost sessions a
// re-initialisation but no request; a run across a rolling update, which
// fails no request; a working client's calls while 8 loops open sessions
// from its address, none of which fails (the replicas see each client's
// address through HAProxy's X-Forwarded-For).
func TestStack(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	testenv.RequireDocker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()

	tag := fmt.Sprintf("e2e-%d", os.Getpid())
	s := &stack{root: root, name: "docsmcp-e2e-" + strconv.Itoa(os.Getpid())}
	lbPort, promPort := testenv.FreePort(t), testenv.FreePort(t)
	s.lb, s.prom = fmt.Sprintf("http://127.0.0.1:%d", lbPort), fmt.Sprintf("http://127.0.0.1:%d", promPort)
	s.images = imagesOf(tag)
	s.env = append(os.Environ(),
		"DOCS_STACK_IMAGE="+s.images[0], "DOCS_STACK_HAPROXY_IMAGE="+s.images[1], "DOCS_STACK_PROMETHEUS_IMAGE="+s.images[2],
		"DOCS_STACK_PORT="+strconv.Itoa(lbPort), "DOCS_STACK_PROMETHEUS_PORT="+strconv.Itoa(promPort),
		// A small session cap, for the churn to reach it; the access log,
		// for the client addresses the replicas see.
		"DOCS_MCP_MAX_SESSIONS=60", "DOCS_MCP_LOG_LEVEL=info")
	loadtest := buildLoadtest(t)

	// Cleanups run last first: the stack goes, then the images, then the
	// swarm if this test made it.
	joinSwarm(ctx, t)
	start := time.Now()
	t.Cleanup(func() { s.removeImages(t) })
	if out, err := s.docker(ctx, "compose", "-f", "deploy/swarm/stack.yaml", "build"); err != nil {
		t.Fatalf("docker compose build: %v\n%s", err, out)
	}
	built := time.Now()
	t.Logf("images built in %s: %s", built.Sub(start).Round(100*time.Millisecond), s.imageSizes(t))

	t.Run("kubernetes haproxy.cfg", func(t *testing.T) { checkKubernetesHAProxy(ctx, t, s) })

	s.removeStale(ctx, t)
	t.Cleanup(func() { s.remove(t) })
	if out, err := s.docker(ctx, "stack", "deploy", "-c", "deploy/swarm/stack.yaml", s.name); err != nil {
		t.Fatalf("docker stack deploy: %v\n%s", err, out)
	}
	s.waitServing(ctx, t)
	first := time.Since(built)
	s.waitReplicas(ctx, t)
	s.waitTargets(ctx, t, 3)
	t.Logf("from deploy: HAProxy's first 200 on /health %s; 3 replicas running and healthy, all scraped by Prometheus %s",
		first.Round(10*time.Millisecond), time.Since(built).Round(10*time.Millisecond))

	s.checkRules(ctx, t)

	if res, err := http.Get(s.lb + "/metrics"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics through HAProxy: %v %v, want 404 (Prometheus reads each replica inside)", err, res)
	} else {
		res.Body.Close()
	}

	t.Run("clean", func(t *testing.T) {
		legacy := s.load(ctx, t, loadtest, "-sessions", "8", "-total", "40", "-calls", "5")
		modern := s.load(ctx, t, loadtest, "-sessions", "8", "-total", "40", "-calls", "5", "-protocol", "2026-07-28")
		for _, r := range []summary{legacy, modern} {
			if r.Errors != 0 || r.Reinits != 0 || r.CutOff != 0 {
				t.Errorf("errors=%d reinitialized=%d interrupted=%d, want none (first error: %s)", r.Errors, r.Reinits, r.CutOff, r.FirstError)
			}
		}
		if n := legacy.Statuses["404"]; n != 0 {
			t.Errorf("%d responses 404: sessions did not stick to their replica", n)
		}
		sent := legacy.mcpRequests() + modern.mcpRequests()
		const query = `sum(docs_mcp_requests_total{job="docs-mcp"})`
		got := s.waitQuery(ctx, t, query, float64(sent))
		t.Logf("Prometheus: %s = %g; the load tool sent %d MCP requests (initialize or server/discover, tools/call)", query, got, sent)
		if got != float64(sent) {
			t.Errorf("%s = %g, want %d", query, got, sent)
		}
		const spread = `count(sum by (instance) (docs_mcp_requests_total{job="docs-mcp",method="tools/call"}) > 0)`
		if n := s.query(ctx, t, spread); n != 3 {
			t.Errorf("%s = %g, want 3: the load was not spread over every replica", spread, n)
		}
	})

	t.Run("kill", func(t *testing.T) {
		// 16 sessions of 50 rounds: the chance that none is on the replica
		// killed (and so that nothing is re-initialised) is (2/3)^16, 0.15%.
		run := s.startLoad(ctx, t, loadtest, "-sessions", "16", "-duration", "20s", "-calls", "50")
		time.Sleep(5 * time.Second)
		out, err := s.docker(ctx, "ps", "-q", "--filter", "label=com.docker.swarm.service.name="+s.name+"_docs-mcp")
		ids := strings.Fields(out)
		if err != nil || len(ids) == 0 {
			t.Fatalf("docker ps: %v\n%s", err, out)
		}
		if out, err := s.docker(ctx, "kill", ids[0]); err != nil {
			t.Fatalf("docker kill: %v\n%s", err, out)
		}
		r := run.wait(t)
		// A call whose answer the killed replica was writing is cut off
		// past HAProxy's reach (it retries only before an answer begins);
		// the load tool makes it again, and it is counted, not hidden.
		t.Logf("replica %.12s killed: %d requests, %d errors, %d sessions re-initialised, %d calls cut off mid-answer and made again", ids[0], r.Requests, r.Errors, r.Reinits, r.CutOff)
		if r.Errors != 0 {
			t.Errorf("errors=%d, want none (first: %s)", r.Errors, r.FirstError)
		}
		// 16 sessions from one address, those of the killed replica
		// starting again at once on the other two: within the default
		// --session-burst, none is refused.
		if n := r.Statuses["429"]; n != 0 {
			t.Errorf("%d answers 429: the failover's new sessions were refused past --session-rate (--session-burst)", n)
		}
		// Each of the killed replica's sessions gets one 404: on its next
		// call (and starts again), or on its DELETE when it was ending.
		if r.Reinits < 1 || r.Statuses["404"] != r.Reinits+r.Gone {
			t.Errorf("reinitialized=%d, DELETEs answered 404 %d, responses 404 %d: want a re-initialisation at least, and one 404 for each of the two (the killed replica's sessions)", r.Reinits, r.Gone, r.Statuses["404"])
		}
		s.waitReplicas(ctx, t)
	})

	t.Run("update", func(t *testing.T) {
		run := s.startLoad(ctx, t, loadtest, "-sessions", "8", "-duration", "10m", "-calls", "20")
		time.Sleep(3 * time.Second)
		began := time.Now()
		if out, err := s.docker(ctx, "service", "update", "--force", "--detach=false", "--quiet", s.name+"_docs-mcp"); err != nil {
			t.Fatalf("docker service update: %v\n%s", err, out)
		}
		took := time.Since(began)
		time.Sleep(3 * time.Second)
		r := run.stop(t)
		t.Logf("rolling update of 3 replicas in %s: %d requests, %d errors, %d sessions re-initialised, %d calls cut off", took.Round(100*time.Millisecond), r.Requests, r.Errors, r.Reinits, r.CutOff)
		if r.Errors != 0 || r.CutOff != 0 {
			t.Errorf("errors=%d interrupted=%d, want none: a replica drains before it stops (first error: %s)", r.Errors, r.CutOff, r.FirstError)
		}
		if r.Statuses["404"] != r.Reinits+r.Gone {
			t.Errorf("%d responses 404 but %d re-initialisations and %d DELETEs of sessions gone already", r.Statuses["404"], r.Reinits, r.Gone)
		}
		// Each replica stopped was taken out by HAProxy before it stopped
		// listening: for a 503 on /health (its drain) or as Docker's DNS
		// dropped it, never for a refused or timed-out connection.
		logs, err := s.docker(ctx, "service", "logs", "--raw", "--since", began.UTC().Format(time.RFC3339), s.name+"_haproxy")
		if err != nil {
			t.Fatalf("docker service logs: %v\n%s", err, logs)
		}
		var all, out []string
		for line := range strings.Lines(logs) {
			if strings.HasPrefix(line, "[WARNING]") {
				all = append(all, strings.TrimSpace(line))
			}
			// Each state change is logged twice, once without the prefix.
			if strings.HasPrefix(line, "[WARNING]") && strings.Contains(line, "DOWN") {
				out = append(out, strings.TrimSpace(line))
			}
		}
		t.Logf("HAProxy during the update:\n%s", strings.Join(all, "\n"))
		slots := map[string]bool{}
		for _, line := range out {
			if m := regexp.MustCompile(`Server docs-mcp/(replica\d+)`).FindStringSubmatch(line); m != nil {
				slots[m[1]] = true
			}
		}
		if len(slots) < 3 {
			t.Errorf("HAProxy took out %d replicas during the update (%v), want the 3 replaced", len(slots), slots)
		}
		for _, line := range out {
			if strings.Contains(line, "Layer4") {
				t.Errorf("a replica was taken out only once it stopped listening: %s", line)
			}
		}
	})

	t.Run("churn", func(t *testing.T) {
		// Issue 35: 8 loops open sessions through HAProxy as fast as they
		// can, from the working client's own address. Last: they leave that
		// address no new session on any replica for a while (a step run
		// right after began with its budget spent: issue 54's seven 429s
		// in the kill step), which no other step is about. The replicas trust
		// HAProxy's X-Forwarded-For (DOCS_MCP_TRUSTED_PROXIES), so they
		// see the client's address, not HAProxy's; the loops get 429 past
		// --session-rate, their sessions make room for each other at the
		// cap (60 here), and the working client's one session, in use,
		// is never the one ended: none of its calls fails.
		since := time.Now()
		r := s.load(ctx, t, loadtest, "-sessions", "1", "-total", "1", "-calls", "1000", "-churn", "8")
		t.Logf("the working client: %d requests, %d errors, %d re-initialisations; the loops' initializes: %v", r.Requests, r.Errors, r.Reinits, r.Churn)
		if r.Errors != 0 || r.Reinits != 0 {
			t.Errorf("errors=%d reinitialized=%d, want none (first error: %s)", r.Errors, r.Reinits, r.FirstError)
		}
		if r.Churn["429"] == 0 {
			t.Errorf("no initialize of the loops was refused 429: %v", r.Churn)
		}
		logs, err := s.replicaLogs(ctx, since)
		if err != nil {
			t.Fatal(err)
		}
		clients := map[string]int{}
		for _, m := range regexp.MustCompile(`"client":"([^"]+)"`).FindAllStringSubmatch(logs, -1) {
			clients[m[1]]++
		}
		ended := strings.Count(logs, "session ended to make room")
		t.Logf("client addresses in the replicas' access logs (from X-Forwarded-For): %v; %d sessions ended to make room", clients, ended)
		if len(clients) == 0 {
			t.Error("the replicas' access logs name no client behind HAProxy: X-Forwarded-For is not trusted")
		}
		for c := range clients {
			if strings.HasPrefix(c, "10.213.35.") {
				t.Errorf("client %s is on the stack's own network: HAProxy's address, not the client's", c)
			}
		}
		if ended == 0 {
			t.Error("no session was ended to make room: the churn did not reach the cap")
		}
	})
}

// checkKubernetesHAProxy has the HAProxy image built for the stack check
// deploy/kubernetes's configuration of the same HAProxy (haproxy -c),
// which no test runs otherwise: a cluster is not at hand here.
func checkKubernetesHAProxy(ctx context.Context, t *testing.T, s *stack) {
	raw, err := os.ReadFile(filepath.Join(s.root, "deploy", "kubernetes", "haproxy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg string
	for _, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(raw), -1) {
		var cm struct {
			Kind string            `json:"kind"`
			Data map[string]string `json:"data"`
		}
		if err := yaml.Unmarshal([]byte(doc), &cm); err == nil && cm.Kind == "ConfigMap" {
			cfg = cm.Data["haproxy.cfg"]
		}
	}
	if cfg == "" {
		t.Fatal("deploy/kubernetes/haproxy.yaml holds no ConfigMap with haproxy.cfg")
	}
	file := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(file, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := s.docker(ctx, "run", "--rm", "-e", "POD_NAMESPACE=default", "-v", file+":/etc/haproxy/haproxy.cfg:ro", s.images[1], "-c")
	if err != nil || !strings.Contains(out, "Configuration file is valid") {
		t.Errorf("haproxy -c of deploy/kubernetes's haproxy.cfg: %v\n%s", err, out)
	}
}

// joinSwarm makes this engine a single-node swarm if it is in none, and
// leaves it again when the test ends. An active swarm is used as it is,
// if this node is a manager.
func joinSwarm(ctx context.Context, t *testing.T) {
	t.Helper()
	out, err := exec.CommandContext(ctx, "docker", "info", "--format", "{{.Swarm.LocalNodeState}} {{.Swarm.ControlAvailable}}").CombinedOutput()
	if err != nil {
		t.Fatalf("docker info: %v\n%s", err, out)
	}
	switch state := strings.TrimSpace(string(out)); state {
	case "active true":
		t.Log("using the active swarm")
		return
	case "inactive false":
	default:
		// Joined to a swarm as a worker, or a swarm in trouble: not this
		// test's to change.
		testenv.Missing(t, "swarm state %q: this test needs no swarm (it makes one) or a manager of one", state)
	}
	// swarm init makes the bridge docker_gwbridge, which leaving keeps.
	_, gwErr := exec.CommandContext(ctx, "docker", "network", "inspect", "docker_gwbridge").CombinedOutput()
	hadBridge := gwErr == nil
	if out, err := exec.CommandContext(ctx, "docker", "swarm", "init", "--advertise-addr", "127.0.0.1").CombinedOutput(); err != nil {
		t.Fatalf("docker swarm init: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		// Only this test's services ran on the swarm it made; if anything
		// else runs there now, leaving would stop it.
		out, err := exec.Command("docker", "service", "ls", "-q").CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("not leaving the swarm this test made: services still run on it (%v: %s)", err, out)
			return
		}
		if out, err := exec.Command("docker", "swarm", "leave", "--force").CombinedOutput(); err != nil {
			t.Errorf("docker swarm leave: %v\n%s", err, out)
			return
		}
		if !hadBridge {
			if out, err := exec.Command("docker", "network", "rm", "docker_gwbridge").CombinedOutput(); err != nil {
				t.Errorf("docker network rm docker_gwbridge: %v\n%s", err, out)
			}
		}
	})
}

func (s *stack) docker(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "docker", args...)
	cmd.Dir, cmd.Env = s.root, s.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// replicaLogs is what the docs-mcp replicas logged since a time, read
// container by container: `docker service logs` gathers them through the
// swarm's log broker, which here never returned on the churn's tens of
// thousands of lines.
func (s *stack) replicaLogs(ctx context.Context, since time.Time) (string, error) {
	out, err := s.docker(ctx, "ps", "-q", "--filter", "label=com.docker.swarm.service.name="+s.name+"_docs-mcp")
	if err != nil {
		return "", fmt.Errorf("docker ps: %w\n%s", err, out)
	}
	var all strings.Builder
	for _, id := range strings.Fields(out) {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		logs, err := s.docker(ctx, "logs", "--since", since.UTC().Format(time.RFC3339Nano), id)
		cancel()
		if err != nil {
			return "", fmt.Errorf("docker logs %.12s: %w\n%.2000s", id, err, logs)
		}
		all.WriteString(logs)
	}
	return all.String(), nil
}

// imagesOf names the stack's images built with tag: docs-mcp's, HAProxy's
// and Prometheus's.
func imagesOf(tag string) []string {
	return []string{"docs-mcp-e2e-swarm:" + tag, "docs-mcp-e2e-swarm-haproxy:" + tag, "docs-mcp-e2e-swarm-prometheus:" + tag}
}

// removeStale removes the stacks and images of this test's earlier runs
// whose process is gone (a run killed before its cleanups): the stack's
// network has a subnet of its own (the trusted proxies name it), which a
// stack left deployed holds, so that no new one could start.
func (s *stack) removeStale(ctx context.Context, t *testing.T) {
	out, err := s.docker(ctx, "stack", "ls", "--format", "{{.Name}}")
	if err != nil {
		t.Fatalf("docker stack ls: %v\n%s", err, out)
	}
	for _, name := range strings.Fields(out) {
		pid, err := strconv.Atoi(strings.TrimPrefix(name, "docsmcp-e2e-"))
		if err != nil || !strings.HasPrefix(name, "docsmcp-e2e-") || !gone(pid) {
			continue
		}
		t.Logf("removing stack %s, left by a run that is gone", name)
		stale := &stack{root: s.root, name: name, env: s.env, images: imagesOf(fmt.Sprintf("e2e-%d", pid))}
		stale.remove(t)
		stale.removeImages(t)
	}
}

// gone reports whether no process has the id pid.
func gone(pid int) bool {
	p, err := os.FindProcess(pid)
	return err != nil || errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

// remove takes the stack down and waits until its containers are gone,
// then removes its network and Prometheus's volume.
func (s *stack) remove(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := s.docker(ctx, "stack", "rm", s.name); err != nil {
		t.Errorf("docker stack rm: %v\n%s", err, out)
	}
	label := "label=com.docker.stack.namespace=" + s.name
	for {
		out, err := s.docker(ctx, "ps", "-aq", "--filter", label)
		if err == nil && strings.TrimSpace(out) == "" {
			break
		}
		if ctx.Err() != nil {
			t.Errorf("the stack's containers are still there: %s", out)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
	// docker stack rm removes the network, unless a container still held
	// it at that moment.
	if out, _ := s.docker(ctx, "network", "ls", "-q", "--filter", label); strings.TrimSpace(out) != "" {
		if out, err := s.docker(ctx, append([]string{"network", "rm"}, strings.Fields(out)...)...); err != nil {
			t.Errorf("docker network rm: %v\n%s", err, out)
		}
	}
	if out, err := s.docker(ctx, "volume", "rm", s.name+"_prometheus-data"); err != nil && !strings.Contains(strings.ToLower(out), "no such volume") {
		t.Errorf("docker volume rm: %v\n%s", err, out)
	}
}

func (s *stack) removeImages(t *testing.T) {
	out, err := s.docker(context.Background(), append([]string{"image", "rm"}, s.images...)...)
	if err != nil && !strings.Contains(strings.ToLower(out), "no such image") {
		t.Errorf("docker image rm: %v\n%s", err, out)
	}
}

func (s *stack) imageSizes(t *testing.T) string {
	var sizes []string
	for _, img := range s.images {
		out, err := s.docker(context.Background(), "image", "inspect", "--format", "{{.Size}}", img)
		n, perr := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
		if err != nil || perr != nil {
			t.Fatalf("docker image inspect %s: %v %v\n%s", img, err, perr, out)
		}
		sizes = append(sizes, fmt.Sprintf("%s %.1f MB", img, float64(n)/1e6))
	}
	return strings.Join(sizes, ", ")
}

// waitServing polls /health through HAProxy until it answers 200.
func (s *stack) waitServing(ctx context.Context, t *testing.T) {
	t.Helper()
	until(ctx, t, 3*time.Minute, "HAProxy answering 200 on /health", func() bool {
		res, err := http.Get(s.lb + "/health")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
}

// waitReplicas waits until the docs-mcp service runs its 3 replicas (a
// replica with a HEALTHCHECK counts once healthy) and no other task.
func (s *stack) waitReplicas(ctx context.Context, t *testing.T) {
	t.Helper()
	until(ctx, t, 3*time.Minute, "3/3 docs-mcp replicas", func() bool {
		out, err := s.docker(ctx, "service", "ls", "--filter", "name="+s.name+"_docs-mcp", "--format", "{{.Replicas}}")
		return err == nil && strings.TrimSpace(out) == "3/3"
	})
}

// waitTargets waits until Prometheus scrapes n docs-mcp replicas.
func (s *stack) waitTargets(ctx context.Context, t *testing.T, n float64) {
	t.Helper()
	until(ctx, t, 2*time.Minute, "Prometheus scraping the replicas", func() bool {
		v, err := s.tryQuery(ctx, `count(up{job="docs-mcp"} == 1)`)
		return err == nil && v == n
	})
}

// waitQuery polls a Prometheus query until it gives want or a minute has
// passed (a scrape every 5 s), and returns the last value.
func (s *stack) waitQuery(ctx context.Context, t *testing.T, query string, want float64) float64 {
	t.Helper()
	var last float64
	end := time.Now().Add(time.Minute)
	for time.Now().Before(end) && ctx.Err() == nil {
		v, err := s.tryQuery(ctx, query)
		if err == nil {
			last = v
			if v == want {
				return v
			}
		}
		time.Sleep(time.Second)
	}
	return last
}

func (s *stack) query(ctx context.Context, t *testing.T, query string) float64 {
	t.Helper()
	v, err := s.tryQuery(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// tryQuery asks Prometheus's HTTP API for an instant query's single value.
func (s *stack) tryQuery(ctx context.Context, query string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.prom+"/api/v1/query?query="+url.QueryEscape(query), nil)
	if err != nil {
		return 0, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	var body struct {
		Status string
		Error  string
		Data   struct {
			Result []struct {
				Value [2]any
			}
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return 0, fmt.Errorf("query %s: %w", query, err)
	}
	if body.Status != "success" || len(body.Data.Result) != 1 {
		return 0, fmt.Errorf("query %s: status %q, %d results, error %q", query, body.Status, len(body.Data.Result), body.Error)
	}
	v, _ := body.Data.Result[0].Value[1].(string)
	return strconv.ParseFloat(v, 64)
}

// checkRules waits until Prometheus has evaluated every alerting rule of
// deploy/swarm/prometheus-rules.yml and found each sound (health ok).
func (s *stack) checkRules(ctx context.Context, t *testing.T) {
	t.Helper()
	file, err := os.ReadFile(filepath.Join(s.root, "deploy", "swarm", "prometheus-rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Count(string(file), "- alert: ")
	var last string
	until(ctx, t, 2*time.Minute, "Prometheus evaluating the alerting rules", func() bool {
		res, err := http.Get(s.prom + "/api/v1/rules?type=alert")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		var body struct {
			Data struct {
				Groups []struct {
					Rules []struct {
						Name, Health, LastError string
					}
				}
			}
		}
		if json.NewDecoder(res.Body).Decode(&body) != nil {
			return false
		}
		var rules []string
		ok := 0
		for _, g := range body.Data.Groups {
			for _, r := range g.Rules {
				rules = append(rules, fmt.Sprintf("%s: %s %s", r.Name, r.Health, r.LastError))
				if r.Health == "ok" {
					ok++
				}
			}
		}
		last = strings.Join(rules, "; ")
		if len(rules) == want && ok < want && strings.Contains(last, " err ") {
			t.Fatalf("alerting rules in error: %s", last)
		}
		return len(rules) == want && ok == want
	})
	t.Logf("Prometheus evaluates %d alerting rules: %s", want, last)
}

// until polls ok every half second until it holds, failing the test after
// limit.
func until(ctx context.Context, t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(end) || ctx.Err() != nil {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// summary is what the test reads of tools/cmd/loadtest's -json report.
type summary struct {
	Churn      map[string]int `json:"churn_statuses"` // -churn: its initializes' statuses
	Reinits    int            `json:"reinitialized"`
	Gone       int            `json:"deleted_gone"` // DELETEs answered 404: the session's replica was gone
	CutOff     int            `json:"interrupted"`  // calls made again after their answer was cut off
	Requests   int            `json:"requests"`
	Errors     int            `json:"errors"`
	FirstError string         `json:"first_error"`
	Ops        map[string]struct {
		N int `json:"n"`
	} `json:"ops"`
	Statuses map[string]int `json:"http_statuses"`
}

// mcpRequests counts the MCP requests answered: initialize (or
// server/discover on 2026-07-28) and the tool calls. DELETE is HTTP only.
func (r summary) mcpRequests() int {
	return r.Ops["initialize"].N + r.Ops["search"].N + r.Ops["read"].N
}

func buildLoadtest(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "loadtest")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/docs-mcp/docs-mcp/tools/cmd/loadtest").CombinedOutput(); err != nil {
		t.Fatalf("go build loadtest: %v\n%s", err, out)
	}
	return bin
}

// load runs the load tool through HAProxy to its end.
func (s *stack) load(ctx context.Context, t *testing.T, bin string, args ...string) summary {
	t.Helper()
	return s.startLoad(ctx, t, bin, args...).wait(t)
}

// run is a load tool running in the background.
type run struct {
	cmd         *exec.Cmd
	out, stderr bytes.Buffer
}

func (s *stack) startLoad(ctx context.Context, t *testing.T, bin string, args ...string) *run {
	t.Helper()
	r := &run{cmd: exec.CommandContext(ctx, bin, append([]string{"-url", s.lb + "/mcp", "-json"}, args...)...)}
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Kill()
			r.cmd.Wait()
		}
	})
	return r
}

// stop interrupts the run (it finishes the sessions it began and reports).
func (r *run) stop(t *testing.T) summary {
	t.Helper()
	if err := r.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	return r.wait(t)
}

func (r *run) wait(t *testing.T) summary {
	t.Helper()
	if err := r.cmd.Wait(); err != nil {
		t.Fatalf("loadtest: %v\n%s", err, r.stderr.String())
	}
	var sum summary
	if err := json.Unmarshal(r.out.Bytes(), &sum); err != nil {
		t.Fatalf("loadtest report: %v\n%s", err, r.out.String())
	}
	t.Logf("loadtest %s: %s", strings.Join(r.cmd.Args[1:], " "), bytes.TrimSpace(r.out.Bytes()))
	return sum
}
