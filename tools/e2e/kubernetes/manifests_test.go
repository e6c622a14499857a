package kubernetes

import (
	"bufio"
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
)

// manifests is every object in deploy/kubernetes, decoded strictly.
type manifests struct {
	deployments map[string]*appsv1.Deployment
	services    map[string]*corev1.Service
	pdbs        []*policyv1.PodDisruptionBudget
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	configMaps  map[string]*corev1.ConfigMap
}

// load decodes every YAML document under dir into its k8s.io/api type. A
// field the type does not have (a typo, a field at the wrong level) or a
// kind this test does not know fails.
func load(t *testing.T, dir string) *manifests {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", dir, err)
	}
	m := &manifests{deployments: map[string]*appsv1.Deployment{}, services: map[string]*corev1.Service{}, configMaps: map[string]*corev1.ConfigMap{}}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
			if strings.TrimSpace(stripComments(doc)) == "" {
				continue
			}
			where := fmt.Sprintf("%s document %d", filepath.Base(file), i+1)
			var meta metav1.TypeMeta
			if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			strict := func(v any) {
				if err := yaml.UnmarshalStrict([]byte(doc), v); err != nil {
					t.Errorf("%s (%s): %v", where, meta.Kind, err)
				}
			}
			switch meta.APIVersion + " " + meta.Kind {
			case "apps/v1 Deployment":
				var d appsv1.Deployment
				strict(&d)
				m.deployments[d.Name] = &d
			case "v1 Service":
				var s corev1.Service
				strict(&s)
				m.services[s.Name] = &s
			case "policy/v1 PodDisruptionBudget":
				var p policyv1.PodDisruptionBudget
				strict(&p)
				m.pdbs = append(m.pdbs, &p)
			case "autoscaling/v2 HorizontalPodAutoscaler":
				var h autoscalingv2.HorizontalPodAutoscaler
				strict(&h)
				m.hpas = append(m.hpas, &h)
			case "v1 ConfigMap":
				var c corev1.ConfigMap
				strict(&c)
				m.configMaps[c.Name] = &c
			default:
				t.Errorf("%s: unexpected kind %q %q", where, meta.APIVersion, meta.Kind)
			}
		}
	}
	return m
}

func stripComments(doc string) string {
	var b strings.Builder
	for line := range strings.Lines(doc) {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// dockerfile is what the manifests must agree with in Dockerfile.docs-mcp.
type dockerfile struct {
	port     int32 // EXPOSE
	uid, gid int64 // USER
	listen   string
}

func readDockerfile(t *testing.T, path string) dockerfile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d dockerfile
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "EXPOSE":
			p, err := strconv.ParseInt(f[1], 10, 32)
			if err != nil {
				t.Fatalf("EXPOSE %s: %v", f[1], err)
			}
			d.port = int32(p)
		case len(f) == 2 && f[0] == "USER":
			if _, err := fmt.Sscanf(f[1], "%d:%d", &d.uid, &d.gid); err != nil {
				t.Fatalf("USER %s: want numeric uid:gid: %v", f[1], err)
			}
		}
		if m := regexp.MustCompile(`DOCS_MCP_LISTEN=(\S+)`).FindStringSubmatch(sc.Text()); m != nil {
			d.listen = m[1]
		}
	}
	if d.port == 0 || d.uid == 0 || d.listen == "" {
		t.Fatalf("%s: EXPOSE, USER or DOCS_MCP_LISTEN not found: %+v", path, d)
	}
	return d
}

// composeImage is the image compose.yaml's docs-mcp service builds from
// Dockerfile.docs-mcp (its final stage: no target).
func composeImage(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type service struct {
		Image string `json:"image"`
		Build struct {
			Dockerfile string `json:"dockerfile"`
			Target     string `json:"target"`
		} `json:"build"`
	}
	var c struct {
		Services map[string]service `json:"services"`
	}
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	s, ok := c.Services["docs-mcp"]
	if !ok || s.Build.Dockerfile != "Dockerfile.docs-mcp" || s.Build.Target != "" || s.Image == "" {
		t.Fatalf("compose.yaml: service docs-mcp does not build Dockerfile.docs-mcp's final stage into a named image: %+v", s)
	}
	return s.Image
}

// TestManifests checks deploy/kubernetes without a cluster: every object
// decodes strictly into its k8s.io/api type, and the objects agree with
// each other and with Dockerfile.docs-mcp.
func TestManifests(t *testing.T) {
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	m := load(t, filepath.Join(root, "deploy", "kubernetes"))
	df := readDockerfile(t, filepath.Join(root, "Dockerfile.docs-mcp"))

	server := m.deployments["docs-mcp"]
	if server == nil {
		t.Fatalf("no Deployment docs-mcp (have %v)", keys(m.deployments))
	}
	t.Run("deployments", func(t *testing.T) {
		for name, d := range m.deployments {
			checkDeployment(t, name, d)
		}
	})
	t.Run("server", func(t *testing.T) {
		if r := server.Spec.Replicas; r == nil || *r != 3 {
			t.Errorf("replicas %v, want 3", r)
		}
		c := server.Spec.Template.Spec.Containers[0]
		if want := composeImage(t, root); c.Image != want {
			t.Errorf("image %q, want %q (compose.yaml's build of Dockerfile.docs-mcp)", c.Image, want)
		}
		if len(c.Command) > 0 || len(c.Args) > 0 {
			t.Errorf("command %q args %q: the image's ENTRYPOINT and environment configure it", c.Command, c.Args)
		}
		port := containerPort(c, intstr.FromString("http"))
		if port != df.port || !strings.HasSuffix(df.listen, fmt.Sprintf(":%d", port)) {
			t.Errorf("container port %d; the Dockerfile EXPOSEs %d and listens on %s", port, df.port, df.listen)
		}
		sc := server.Spec.Template.Spec.SecurityContext
		if sc.RunAsUser == nil || *sc.RunAsUser != df.uid || sc.RunAsGroup == nil || *sc.RunAsGroup != df.gid {
			t.Errorf("runAsUser/runAsGroup %v/%v, want the Dockerfile's USER %d:%d", sc.RunAsUser, sc.RunAsGroup, df.uid, df.gid)
		}
		for name, p := range map[string]*corev1.Probe{"startup": c.StartupProbe, "readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
			if p == nil || p.HTTPGet == nil {
				t.Errorf("%s probe: want an HTTP GET of /health", name)
				continue
			}
			if p.HTTPGet.Path != "/health" || containerPort(c, p.HTTPGet.Port) != df.port {
				t.Errorf("%s probe: GET %s on %s, want /health on port %d", name, p.HTTPGet.Path, p.HTTPGet.Port.String(), df.port)
			}
		}
		ann := server.Spec.Template.Annotations
		if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/path"] != "/metrics" || ann["prometheus.io/port"] != strconv.Itoa(int(df.port)) {
			t.Errorf("Prometheus annotations %v: want scrape true, path /metrics, port %d", ann, df.port)
		}
		if drain, grace := envDuration(t, c, "DOCS_MCP_DRAIN_DELAY")+envDuration(t, c, "DOCS_MCP_SHUTDOWN_TIMEOUT"), server.Spec.Template.Spec.TerminationGracePeriodSeconds; grace == nil || *grace <= drain {
			t.Errorf("terminationGracePeriodSeconds %v: want more than the drain delay and shutdown timeout (%ds)", grace, drain)
		}
	})
	t.Run("services", func(t *testing.T) {
		for name, s := range m.services {
			d := selected(m, s.Spec.Selector)
			if d == nil {
				t.Errorf("Service %s: selector %v matches no Deployment's pods", name, s.Spec.Selector)
				continue
			}
			for _, p := range s.Spec.Ports {
				if containerPort(d.Spec.Template.Spec.Containers[0], p.TargetPort) == 0 {
					t.Errorf("Service %s port %s: targetPort %s is no port of Deployment %s", name, p.Name, p.TargetPort.String(), d.Name)
				}
			}
		}
	})
	t.Run("disruption budget", func(t *testing.T) {
		if len(m.pdbs) == 0 {
			t.Fatal("no PodDisruptionBudget")
		}
		for _, p := range m.pdbs {
			sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
			if err != nil || !sel.Matches(labels.Set(server.Spec.Template.Labels)) {
				t.Errorf("PodDisruptionBudget %s: selector %v does not select docs-mcp's pods (%v)", p.Name, p.Spec.Selector, err)
			}
			if p.Spec.MinAvailable == nil || p.Spec.MinAvailable.IntValue() < 1 || int32(p.Spec.MinAvailable.IntValue()) >= *server.Spec.Replicas {
				t.Errorf("PodDisruptionBudget %s: minAvailable %v, want at least 1 and fewer than the %d replicas (or no node could ever drain)", p.Name, p.Spec.MinAvailable, *server.Spec.Replicas)
			}
		}
	})
	t.Run("autoscaler", func(t *testing.T) {
		if len(m.hpas) == 0 {
			t.Fatal("no HorizontalPodAutoscaler")
		}
		for _, h := range m.hpas {
			ref := h.Spec.ScaleTargetRef
			d := m.deployments[ref.Name]
			if ref.Kind != "Deployment" || ref.APIVersion != "apps/v1" || d == nil {
				t.Errorf("HorizontalPodAutoscaler %s scales %s %s %s, which is not here", h.Name, ref.APIVersion, ref.Kind, ref.Name)
				continue
			}
			if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas != *d.Spec.Replicas || h.Spec.MaxReplicas < *h.Spec.MinReplicas {
				t.Errorf("HorizontalPodAutoscaler %s: min %v max %d, want min = the Deployment's %d replicas <= max", h.Name, h.Spec.MinReplicas, h.Spec.MaxReplicas, *d.Spec.Replicas)
			}
			for _, metric := range h.Spec.Metrics {
				if metric.Resource == nil {
					continue
				}
				for _, c := range d.Spec.Template.Spec.Containers {
					if _, ok := c.Resources.Requests[metric.Resource.Name]; !ok {
						t.Errorf("HorizontalPodAutoscaler %s scales on %s utilisation, but container %s requests none", h.Name, metric.Resource.Name, c.Name)
					}
				}
			}
		}
	})
	t.Run("haproxy", func(t *testing.T) { checkHAProxy(t, m, server) })
	t.Run("client address", func(t *testing.T) { checkClientAddress(t, m, server) })
	t.Run("oauth", func(t *testing.T) {
		checkOAuth(t, load(t, filepath.Join(root, "deploy", "kubernetes", "oauth")), server)
	})
}

// checkOAuth checks the OAuth overlay: a ConfigMap that the docs-mcp
// container reads through an optional envFrom (so that without it nothing
// changes), holding an issuer and an audience and only OAuth variables.
func checkOAuth(t *testing.T, overlay *manifests, server *appsv1.Deployment) {
	if len(overlay.configMaps) != 1 || len(overlay.deployments)+len(overlay.services) != 0 {
		t.Fatalf("deploy/kubernetes/oauth: want one ConfigMap and nothing else")
	}
	for name, cm := range overlay.configMaps {
		read := false
		for _, from := range server.Spec.Template.Spec.Containers[0].EnvFrom {
			if ref := from.ConfigMapRef; ref != nil && ref.Name == name && ref.Optional != nil && *ref.Optional {
				read = true
			}
		}
		if !read {
			t.Errorf("the docs-mcp container does not read ConfigMap %s through an optional envFrom", name)
		}
		allowed := []string{"DOCS_MCP_OAUTH_ISSUER", "DOCS_MCP_OAUTH_AUDIENCE", "DOCS_MCP_OAUTH_SCOPES", "DOCS_MCP_MAX_SESSIONS_PER_SUBJECT"}
		for key := range cm.Data {
			if !slices.Contains(allowed, key) {
				t.Errorf("ConfigMap %s: %s is not an OAuth setting (%v)", name, key, allowed)
			}
		}
		if !strings.HasPrefix(cm.Data["DOCS_MCP_OAUTH_ISSUER"], "https://") || !strings.HasPrefix(cm.Data["DOCS_MCP_OAUTH_AUDIENCE"], "https://") {
			t.Errorf("ConfigMap %s: want an https issuer and audience, got %q and %q", name, cm.Data["DOCS_MCP_OAUTH_ISSUER"], cm.Data["DOCS_MCP_OAUTH_AUDIENCE"])
		}
	}
}

// checkDeployment checks what every Deployment here must have: a selector
// that selects its own pods, and pods that run as non-root on a read-only
// root with no privileges.
func checkDeployment(t *testing.T, name string, d *appsv1.Deployment) {
	t.Helper()
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil || sel.Empty() || !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
		t.Errorf("Deployment %s: selector %v does not select its pod labels %v (%v)", name, d.Spec.Selector, d.Spec.Template.Labels, err)
	}
	pod := d.Spec.Template.Spec
	if sc := pod.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
		t.Errorf("Deployment %s: want runAsNonRoot and a non-zero runAsUser", name)
	}
	if len(pod.Containers) == 0 {
		t.Fatalf("Deployment %s: no containers", name)
	}
	for _, c := range pod.Containers {
		sc := c.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
			sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
			sc.Capabilities == nil || len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" {
			t.Errorf("Deployment %s container %s: want a read-only root, no privilege escalation, all capabilities dropped", name, c.Name)
		}
		if c.Resources.Limits.Memory().IsZero() {
			t.Errorf("Deployment %s container %s: no memory limit", name, c.Name)
		}
	}
}

// checkHAProxy checks the entry point: its configuration (from the
// ConfigMap, mounted where the image reads it) finds the replicas through
// the headless Service on the replicas' port, checks /health, and sticks
// sessions; its container port is the one it binds.
func checkHAProxy(t *testing.T, m *manifests, server *appsv1.Deployment) {
	var lb *appsv1.Deployment
	for _, d := range m.deployments {
		if d.Spec.Template.Spec.Containers[0].Name == "haproxy" {
			lb = d
		}
	}
	if lb == nil {
		t.Fatal("no HAProxy Deployment")
	}
	pod := lb.Spec.Template.Spec
	var cfg string
	for _, v := range pod.Volumes {
		if v.ConfigMap == nil {
			continue
		}
		for _, mount := range pod.Containers[0].VolumeMounts {
			if mount.Name == v.Name && mount.MountPath == "/etc/haproxy" {
				cm := m.configMaps[v.ConfigMap.Name]
				if cm == nil {
					t.Fatalf("HAProxy mounts ConfigMap %s, which is not here", v.ConfigMap.Name)
				}
				cfg = cm.Data["haproxy.cfg"]
			}
		}
	}
	if cfg == "" {
		t.Fatal("HAProxy: no haproxy.cfg mounted at /etc/haproxy (where the image's ENTRYPOINT reads it)")
	}
	var headless *corev1.Service
	for _, s := range m.services {
		if s.Spec.ClusterIP == corev1.ClusterIPNone && selected(m, s.Spec.Selector) == server {
			headless = s
		}
	}
	if headless == nil {
		t.Fatal("no headless Service selecting docs-mcp's pods, for HAProxy to resolve")
	}
	serverPort := containerPort(server.Spec.Template.Spec.Containers[0], intstr.FromString("http"))
	template := regexp.MustCompile(`(?m)^\s*server-template \S+ \d+ "?` + regexp.QuoteMeta(headless.Name) + `\.\$\{POD_NAMESPACE\}\.svc\.cluster\.local:(\d+)"?`).FindStringSubmatch(cfg)
	if template == nil || template[1] != strconv.Itoa(int(serverPort)) {
		t.Errorf("haproxy.cfg: no server-template resolving %s.${POD_NAMESPACE}.svc.cluster.local on port %d", headless.Name, serverPort)
	}
	for _, want := range []string{
		`option httpchk GET /health`,
		`stick on req.hdr(mcp-session-id)`,
		`stick store-response res.hdr(mcp-session-id)`,
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf("haproxy.cfg lacks %q", want)
		}
	}
	bind := regexp.MustCompile(`(?m)^\s*bind :(\d+)`).FindStringSubmatch(cfg)
	if bind == nil || bind[1] != strconv.Itoa(int(containerPort(pod.Containers[0], intstr.FromString("http")))) {
		t.Errorf("haproxy.cfg binds %v; the container's http port is %d", bind, containerPort(pod.Containers[0], intstr.FromString("http")))
	}
	var ns bool
	for _, e := range pod.Containers[0].Env {
		ns = ns || e.Name == "POD_NAMESPACE" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.namespace"
	}
	if !ns {
		t.Error("HAProxy container: POD_NAMESPACE must come from metadata.namespace, for the server-template's name")
	}
}

// podNetworks are the pod networks of common clusters: kubeadm with
// Flannel and kind (10.244.0.0/16), k3s (10.42.0.0/16), Calico's default
// (192.168.0.0/16), GKE (10.4.0.0/14 and the like), EKS with custom
// networking (100.64.0.0/10), and an IPv6 pod network (fd00::/8). HAProxy
// connects to the replicas from an address in one of them.
var podNetworks = []string{"10.244.0.0/16", "10.42.0.0/16", "192.168.0.0/16", "10.4.0.0/14", "100.64.0.0/10", "fd00:10:244::/56"}

// privateNetworks are the ranges a trusted proxy may be in: a prefix
// outside them would let clients on the internet name any address.
var privateNetworks = []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"}

// checkClientAddress checks that each client is its own address at the
// replicas, not HAProxy's (issue 54: behind the proxy, a whole site was
// one client for --session-rate): HAProxy passes the client's address to
// every replica (a PROXY protocol header on every server, or
// X-Forwarded-For), and the replicas trust HAProxy's network for it, and
// nothing on the internet.
func checkClientAddress(t *testing.T, m *manifests, server *appsv1.Deployment) {
	cfg := m.configMaps["docs-mcp-haproxy"].Data["haproxy.cfg"]
	var servers []string
	for line := range strings.Lines(cfg) {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "server" || f[0] == "server-template") {
			servers = append(servers, strings.TrimSpace(line))
		}
	}
	proxyProtocol := len(servers) > 0
	for _, s := range servers {
		f := strings.Fields(s)
		proxyProtocol = proxyProtocol && (slices.Contains(f, "send-proxy") || slices.Contains(f, "send-proxy-v2"))
	}
	forwardFor := regexp.MustCompile(`(?m)^\s*option forwardfor\b`).MatchString(cfg)
	switch {
	case !proxyProtocol && !forwardFor:
		t.Errorf("haproxy.cfg passes no client address to the replicas: neither send-proxy(-v2) on every server line (%q) nor option forwardfor", servers)
	case proxyProtocol && !regexp.MustCompile(`(?m)^\s*http-request del-header X-Forwarded-For\s*$`).MatchString(cfg):
		// The replicas trust the pod networks, and take X-Forwarded-For
		// from a trusted address: a client in them could write its own.
		t.Error("haproxy.cfg sends the PROXY protocol but passes on the client's own X-Forwarded-For: delete it (http-request del-header X-Forwarded-For)")
	}

	var trusted []netip.Prefix
	for _, e := range server.Spec.Template.Spec.Containers[0].Env {
		if e.Name != "DOCS_MCP_TRUSTED_PROXIES" {
			continue
		}
		for item := range strings.SplitSeq(e.Value, ",") {
			p, err := netip.ParsePrefix(strings.TrimSpace(item))
			if err != nil {
				t.Errorf("DOCS_MCP_TRUSTED_PROXIES=%q: %v", e.Value, err)
				continue
			}
			trusted = append(trusted, p)
		}
	}
	if len(trusted) == 0 {
		t.Fatal("the docs-mcp container sets no DOCS_MCP_TRUSTED_PROXIES: the replicas take every client for HAProxy")
	}
	within := func(p netip.Prefix, list []string) bool {
		for _, item := range list {
			if q := netip.MustParsePrefix(item); q.Bits() <= p.Bits() && q.Contains(p.Addr()) {
				return true
			}
		}
		return false
	}
	for _, p := range trusted {
		if !within(p, privateNetworks) {
			t.Errorf("DOCS_MCP_TRUSTED_PROXIES trusts %s, outside the private ranges %v: a client there could name any address", p, privateNetworks)
		}
	}
	for _, pod := range podNetworks {
		ok := false
		for _, p := range trusted {
			q := netip.MustParsePrefix(pod)
			ok = ok || p.Bits() <= q.Bits() && p.Contains(q.Addr())
		}
		if !ok {
			t.Errorf("DOCS_MCP_TRUSTED_PROXIES (%v) does not cover the pod network %s, where HAProxy may be", trusted, pod)
		}
	}
}

// containerPort resolves a port by name or number among c's ports; 0 if
// it is none of them.
func containerPort(c corev1.Container, port intstr.IntOrString) int32 {
	for _, p := range c.Ports {
		if port.Type == intstr.String && p.Name == port.StrVal || port.Type == intstr.Int && p.ContainerPort == port.IntVal {
			return p.ContainerPort
		}
	}
	return 0
}

// selected is the Deployment whose pods a Service selector selects.
func selected(m *manifests, selector map[string]string) *appsv1.Deployment {
	if len(selector) == 0 {
		return nil
	}
	for _, d := range m.deployments {
		if labels.SelectorFromSet(selector).Matches(labels.Set(d.Spec.Template.Labels)) {
			return d
		}
	}
	return nil
}

// envDuration is a container's environment variable read as whole seconds
// ("5s").
func envDuration(t *testing.T, c corev1.Container, name string) int64 {
	t.Helper()
	for _, e := range c.Env {
		if e.Name == name {
			n, err := strconv.ParseInt(strings.TrimSuffix(e.Value, "s"), 10, 64)
			if err != nil {
				t.Fatalf("%s=%q: want whole seconds such as 5s", name, e.Value)
			}
			return n
		}
	}
	return 0
}

func keys[V any](m map[string]V) []string {
	var k []string
	for name := range m {
		k = append(k, name)
	}
	return k
}
