package proxy

// The parts the test runs: the page's configuration, filled in for a
// temporary directory; a built docs-mcp; nginx; a certificate.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docs-mcp/docs-mcp/mcp-server/mcptest"
	"github.com/docs-mcp/docs-mcp/tools/internal/repo"
	"github.com/docs-mcp/docs-mcp/tools/internal/testenv"
)

// patience bounds every wait for something that should happen at once; it
// is generous so that a loaded machine never fails the test.
const patience = 60 * time.Second

// page is what the test takes from docs/server/reverse-proxy.md.
type page struct {
	server  string   // the one ```nginx block
	command []string // the line starting "docs-mcp " in a ```sh block
}

// readPage extracts the nginx block and the docs-mcp command.
func readPage(t *testing.T, path string) page {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p page
	nginx := fenced(string(data), "nginx")
	if len(nginx) != 1 {
		t.Fatalf("%s has %d ```nginx blocks; want exactly one, the server block", path, len(nginx))
	}
	p.server = nginx[0]
	for _, block := range fenced(string(data), "sh") {
		for line := range strings.Lines(block) {
			if strings.HasPrefix(line, "docs-mcp ") {
				if p.command != nil {
					t.Fatalf("%s has two docs-mcp command lines; want one", path)
				}
				p.command = strings.Fields(line)[1:]
			}
		}
	}
	if p.command == nil {
		t.Fatalf("%s has no ```sh line starting with \"docs-mcp \"", path)
	}
	return p
}

// fenced returns the bodies of the fenced code blocks whose info string is
// lang.
func fenced(text, lang string) []string {
	var blocks []string
	var body strings.Builder
	in := false
	for line := range strings.Lines(text) {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && trimmed == "```"+lang:
			in = true
			body.Reset()
		case in && trimmed == "```":
			in = false
			blocks = append(blocks, body.String())
		case in:
			body.WriteString(line)
		}
	}
	return blocks
}

// replacement swaps a value the page tells the reader to replace; n is how
// often the page has it, so a changed page fails here rather than running
// half-filled.
type replacement struct {
	old, new string
	n        int
}

func fill(t *testing.T, what, text string, rs []replacement) string {
	t.Helper()
	for _, r := range rs {
		if got := strings.Count(text, r.old); got != r.n {
			t.Fatalf("the page's %s has %q %d times, the test expects %d: update the test with the page\n%s", what, r.old, got, r.n, text)
		}
		text = strings.ReplaceAll(text, r.old, r.new)
	}
	return text
}

// need finds a program: a skip when it is missing, a failure in CI.
func need(t *testing.T, name string, alternatives ...string) string {
	t.Helper()
	if path, err := exec.LookPath(name); err == nil {
		return path
	}
	for _, alt := range alternatives {
		if info, err := os.Stat(alt); err == nil && !info.IsDir() {
			return alt
		}
	}
	testenv.Missing(t, "no %s here: the reverse-proxy example needs it (Debian: apt-get install %s)", name, name)
	return ""
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := repo.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.work")); err != nil {
		t.Fatalf("no go.work at the repository root %s: %v", root, err)
	}
	return root
}

// writeCert makes a self-signed certificate for host, as the proxy's TLS
// certificate, and a pool that trusts it.
func writeCert(t *testing.T, dir, host string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: host},
		DNSNames:              []string{host},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "fullchain.pem"), filepath.Join(dir, "privkey.pem")
	writeFile(t, certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	writeFile(t, keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// htpasswd writes a password file line the way the page says: a SHA-512
// crypt hash from openssl passwd -6.
func htpasswd(t *testing.T, openssl, path, user, password string) {
	t.Helper()
	cmd := exec.Command(openssl, "passwd", "-6", "-stdin")
	cmd.Stdin = strings.NewReader(password + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("openssl passwd -6: %v", err)
	}
	writeFile(t, path, fmt.Appendf(nil, "%s:%s\n", user, bytes.TrimSpace(out)))
}

// proc is a running program whose stderr is kept for failure messages.
type proc struct {
	name   string
	cmd    *exec.Cmd
	stderr mcptest.Buffer
	exited chan struct{}
	err    error // of Wait, once exited is closed
}

// start runs a program until the test ends, then stops it with SIGTERM
// (both programs shut down gracefully on it; nginx's master takes its
// workers along). lines sees each stderr line as it comes.
func start(t *testing.T, name string, args []string, lines func(string)) *proc {
	t.Helper()
	p := &proc{name: filepath.Base(name), cmd: exec.Command(name, args...), exited: make(chan struct{})}
	dieWithTest(p.cmd)
	pipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", p.name, err)
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			p.stderr.Write(append(sc.Bytes(), '\n'))
			if lines != nil {
				lines(sc.Text())
			}
		}
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(patience):
			p.cmd.Process.Kill()
			<-p.exited
			t.Errorf("%s did not stop on SIGTERM", p.name)
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", p.name, p.stderr.String())
		}
	})
	return p
}

// buildDocsMCP builds the server from the repository, as the page's
// readers do.
func buildDocsMCP(t *testing.T, root, dir string) string {
	t.Helper()
	bin, err := mcptest.BuildDocsMCP(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// startDocsMCP runs docs-mcp and returns the address it serves on, from
// its "serving http" log line.
func startDocsMCP(t *testing.T, bin string, args []string) string {
	t.Helper()
	addr := make(chan string, 1)
	p := start(t, bin, args, func(line string) {
		var rec struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "serving http" {
			addr <- rec.Addr
		}
	})
	select {
	case a := <-addr:
		return a
	case <-p.exited:
		t.Fatalf("docs-mcp exited before serving: %v\n%s", p.err, p.stderr.String())
	case <-time.After(patience):
		t.Fatalf("docs-mcp not serving after %s:\n%s", patience, p.stderr.String())
	}
	return ""
}

// nginxConf wraps the page's server block in the smallest main
// configuration that keeps nginx's pid, logs and temporary files in dir.
// Running as root, workers would drop to "nobody", who cannot read the
// test's private temporary directory; they stay the current user instead.
func nginxConf(dir, server string) string {
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	return fmt.Sprintf(`%[2]s
worker_processes 1;
pid %[1]s/nginx.pid;
error_log stderr notice;
events { worker_connections 64; }
http {
    access_log %[1]s/access.log;
    client_body_temp_path %[1]s/tmp/body;
    proxy_temp_path %[1]s/tmp/proxy;
    fastcgi_temp_path %[1]s/tmp/fastcgi;
    uwsgi_temp_path %[1]s/tmp/uwsgi;
    scgi_temp_path %[1]s/tmp/scgi;

%[3]s}
`, dir, user, server)
}

// startNginx runs nginx in the foreground on conf and waits until ready
// answers true.
func startNginx(t *testing.T, bin, dir, conf string, ready func() bool) {
	t.Helper()
	path := filepath.Join(dir, "nginx.conf")
	writeFile(t, path, []byte(conf))
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o700); err != nil {
		t.Fatal(err)
	}
	p := start(t, bin, []string{"-p", dir, "-e", "stderr", "-c", path, "-g", "daemon off;"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	for !ready() {
		select {
		case <-p.exited:
			t.Fatalf("nginx exited: %v\n%s\nconfiguration:\n%s", p.err, p.stderr.String(), conf)
		case <-ctx.Done():
			t.Fatalf("nginx not answering after %s:\n%s", patience, p.stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// proxyClient reaches host:port (the proxy's public name) at
// 127.0.0.1:port over TLS trusting pool, adding auth to every request as
// an MCP client configured with that header does.
func proxyClient(public, local string, pool *x509.CertPool, auth string) *http.Client {
	dialer := &net.Dialer{}
	return &http.Client{
		Transport: &header{
			key: "Authorization", value: auth,
			next: &http.Transport{
				TLSClientConfig: &tls.Config{RootCAs: pool},
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
					if addr == public {
						addr = local
					}
					return dialer.DialContext(ctx, network, addr)
				},
			},
		},
	}
}

// header adds one header to each request that lacks it.
type header struct {
	key, value string
	next       http.RoundTripper
}

func (h *header) RoundTrip(r *http.Request) (*http.Response, error) {
	if h.value != "" && r.Header.Get(h.key) == "" {
		r = r.Clone(r.Context())
		r.Header.Set(h.key, h.value)
	}
	return h.next.RoundTrip(r)
}
