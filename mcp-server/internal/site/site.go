// Package site serves the built static wiki, the folder the wiki build
// writes, under /wiki/ (with / and /wiki sent there, and the origin's
// /favicon.ico and /robots.txt answered from it). It is HTTP file serving
// and nothing else: the transport that mounts it (httpserver) does the
// Host check, the access log and the limits before a request gets here.
package site

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
)

// Prefix is the path the wiki is served under.
const Prefix = "/wiki/"

// Site is a built wiki in a folder, served over HTTP.
type Site struct {
	dir string
	log *slog.Logger
}

// New returns the site in dir; log gets what the operator should know of
// it (a folder that cannot be opened, a file that is no regular file).
// The folder need not exist yet: until it holds an index.html, every page
// says how to build it.
func New(dir string, log *slog.Logger) *Site { return &Site{dir: dir, log: log} }

// Register serves the site on mux: every path under Prefix, /wiki and /
// redirected there, and the origin's /favicon.ico and /robots.txt, which
// browsers and crawlers ask for (robots.txt exists when the wiki was built
// with an absolute -base-url).
func (s *Site) Register(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix, s)
	mux.Handle("GET /wiki", http.RedirectHandler(Prefix, http.StatusMovedPermanently))
	mux.Handle("GET /{$}", http.RedirectHandler(Prefix, http.StatusFound))
	mux.Handle("GET /favicon.ico", rewritePath(Prefix+"favicon.ico", s))
	mux.Handle("GET /robots.txt", rewritePath(Prefix+"robots.txt", s))
}

// ServeHTTP serves a file of the site, by its path under Prefix. Files are
// opened through an os.Root on the site folder, so neither ".." nor a
// symlink leads out of it. A folder is served by its index.html and never
// listed; names starting with a dot are not served; a missing file gets
// the nearest 404.html on its way up (a release version's own, see
// notFound) when the site has one. The folder is opened per
// request, so a rebuild shows without a restart. Without a built site,
// every page says how to build it.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	root, err := os.OpenRoot(s.dir)
	if err == nil {
		defer root.Close()
	}
	if err != nil || !hasIndex(root) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("open wiki", "dir", s.dir, "err", err)
		}
		notBuilt(w, r)
		return
	}

	rel := strings.TrimPrefix(r.URL.Path, Prefix)
	name := strings.TrimPrefix(path.Clean("/"+rel), "/")
	if name == "" {
		name = "."
	}
	for seg := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(seg, ".") && seg != "." {
			s.notFound(w, r, root, name)
			return
		}
	}
	f, info, err := openFile(root, name)
	if err == nil && info.IsDir() {
		f.Close()
		if !strings.HasSuffix(r.URL.Path, "/") {
			target := r.URL.Path + "/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
		f, info, err = openFile(root, name)
	}
	if err != nil || info.IsDir() {
		if err == nil {
			f.Close()
		}
		if errors.Is(err, errNotRegular) {
			s.log.Warn("wiki file skipped", "path", name, "err", err)
		}
		s.notFound(w, r, root, name)
		return
	}
	defer f.Close()
	if isVariant(root, name) {
		s.notFound(w, r, root, name)
		return
	}
	setFileHeaders(w.Header(), name, info)
	if enc, ef, einfo := precompressed(root, name, r.Header.Get("Accept-Encoding")); ef != nil {
		defer ef.Close()
		w.Header().Set("Content-Encoding", enc)
		w.Header().Add("Vary", "Accept-Encoding")
		setFileHeaders(w.Header(), name, einfo) // the validator of what is sent
		http.ServeContent(w, r, name, einfo.ModTime(), ef)
		return
	} else if enc != "" {
		w.Header().Add("Vary", "Accept-Encoding") // a variant exists, this request refused it
	}
	http.ServeContent(w, r, name, info.ModTime(), f)
}

// encodings are the precompressed variants the wiki build writes beside a
// text file (FILE.br, FILE.gz), best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// isVariant reports whether name is a precompressed variant of a file
// beside it (FILE.br, FILE.gz). Such a variant is served only as FILE's
// Content-Encoding: asked for by its own name it is not found, rather than
// served as a file of its own type, so that nothing but the variant's own
// URL (FILE's) ever carries its bytes. A .gz or .br without a plain twin
// is an ordinary file.
func isVariant(root *os.Root, name string) bool {
	for _, e := range encodings {
		if plain, ok := strings.CutSuffix(name, e.ext); ok && plain != "" {
			f, info, err := openFile(root, plain)
			if err != nil {
				return false
			}
			f.Close()
			return info.Mode().IsRegular()
		}
	}
	return false
}

// precompressed opens the best variant of name that accept (a request's
// Accept-Encoding) allows. With a variant found, it returns its encoding
// and the open file; with variants present but none accepted, the encoding
// of the first and no file (the response still varies by Accept-Encoding);
// with none present, "" and no file.
func precompressed(root *os.Root, name, accept string) (string, *os.File, fs.FileInfo) {
	present := ""
	for _, e := range encodings {
		f, info, err := openFile(root, name+e.ext)
		if err != nil {
			continue
		}
		if !info.Mode().IsRegular() {
			f.Close()
			continue
		}
		if accepts(accept, e.name) {
			return e.name, f, info
		}
		f.Close()
		if present == "" {
			present = e.name
		}
	}
	return present, nil, nil
}

// accepts reports whether an Accept-Encoding header value allows coding:
// named, or covered by "*", with a q-value above zero.
func accepts(header, coding string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		token, params, _ := strings.Cut(part, ";")
		token = strings.ToLower(strings.TrimSpace(token))
		if token != coding && token != "*" {
			continue
		}
		ok := true
		for p := range strings.SplitSeq(params, ";") {
			if k, v, found := strings.Cut(strings.TrimSpace(p), "="); found && strings.EqualFold(k, "q") {
				q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				ok = err == nil && q > 0
			}
		}
		if token == coding {
			return ok
		}
		star = ok
	}
	return star
}

// rewritePath serves every request as if it asked for path.
func rewritePath(path string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path, r2.URL.RawPath = path, ""
		h.ServeHTTP(w, r2)
	})
}

// Present reports whether the folder holds a built site.
func (s *Site) Present() bool {
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		return false
	}
	defer root.Close()
	return hasIndex(root)
}

func hasIndex(root *os.Root) bool {
	info, err := root.Stat("index.html")
	return err == nil && info.Mode().IsRegular()
}

// errNotRegular refuses to open what is neither a folder nor a regular
// file: opening a named pipe waits for a writer, so 32 requests for one
// would hold every connection, and a device may never end.
var errNotRegular = errors.New("not a regular file or folder")

// openFile opens name in root, but only a regular file or a folder: the
// type is checked before the open. A pipe swapped in between the check and
// the open would still be opened; the site folder is the operator's.
func openFile(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	if info, err := root.Stat(name); err != nil {
		return nil, nil, err
	} else if !info.Mode().IsRegular() && !info.IsDir() {
		return nil, nil, fmt.Errorf("open %s: %w (%s)", name, errNotRegular, info.Mode().Type())
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// notFound answers 404 for the path name with the nearest 404.html on the
// way up from it, or a plain message. A wiki built with release versions
// (wiki build -versions) holds each version's site in a folder of its own,
// with its own 404.html: a missing page under /wiki/v1.2.0/ gets that
// version's page, whose links stay in v1.2.0.
func (s *Site) notFound(w http.ResponseWriter, r *http.Request, root *os.Root, name string) {
	var f *os.File
	var info fs.FileInfo
	err := fs.ErrNotExist
	for dir := path.Dir(name); err != nil; dir = path.Dir(dir) {
		f, info, err = openFile(root, path.Join(dir, "404.html"))
		if err == nil && !info.Mode().IsRegular() {
			f.Close()
			err = errNotRegular
		}
		if dir == "." {
			break
		}
	}
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.FormatInt(info.Size(), 10))
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		if _, err := io.Copy(w, f); err != nil {
			s.log.Debug("write 404 page", "err", err)
		}
	}
}

// setFileHeaders sets the content type, a validator and the caching policy
// of a static file. The ETag is derived from size and modification time:
// a rebuilt file gets a new one, and ServeContent answers If-None-Match
// with 304. no-cache makes browsers revalidate, so a rebuild shows at once;
// a fingerprinted stylesheet or script is kept a year without asking
// (Immutable), since a change to it is a new name in the pages.
func setFileHeaders(h http.Header, name string, info fs.FileInfo) {
	if ct := contentType(name); ct != "" {
		h.Set("Content-Type", ct)
	}
	h.Set("ETag", fmt.Sprintf(`"%x-%x"`, info.Size(), info.ModTime().UnixNano()))
	if fingerprinted(name) {
		h.Set("Cache-Control", Immutable)
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("X-Content-Type-Options", "nosniff")
}

// Immutable is the caching policy of a fingerprinted asset.
const Immutable = "public, max-age=31536000, immutable"

// fingerprinted reports whether name is a stylesheet or script whose name
// carries a hash of its content, as Hugo's fingerprint writes them
// (css/wiki.min.<64 hex digits>.css): a part between dots of at least 32
// hex digits (MD5's length; Hugo's default, SHA-256, has 64). Only CSS and
// JavaScript: other files of the site come from docs/ as they are, where a
// name that merely looks hashed says nothing about its content.
func fingerprinted(name string) bool {
	base := path.Base(name)
	ext := path.Ext(base)
	if ext != ".css" && ext != ".js" {
		return false
	}
	parts := strings.Split(strings.TrimSuffix(base, ext), ".")
	for _, p := range parts[1:] { // the first part is the name itself
		if len(p) >= 32 && strings.Trim(p, "0123456789abcdef") == "" {
			return true
		}
	}
	return false
}

// contentType names the types a static site uses, independent of the
// host's mime.types (a minimal container has none); other extensions fall
// back to the standard library, then to sniffing.
func contentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".htm":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".json", ".map":
		return "application/json"
	case ".xml":
		return "application/xml"
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".ico":
		return "image/x-icon"
	case ".woff2":
		return "font/woff2"
	case ".woff":
		return "font/woff"
	case ".ttf":
		return "font/ttf"
	case ".webmanifest":
		return "application/manifest+json"
	case ".gz":
		return "application/gzip"
	case ".br": // no registered type; never sniffed as a page
		return "application/octet-stream"
	}
	return mime.TypeByExtension(path.Ext(name))
}

// notBuilt answers every wiki path while the site is not built.
func notBuilt(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	if r.Method != http.MethodHead {
		io.WriteString(w, notBuiltPage)
	}
}

const notBuiltPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Wiki not built</title></head>
<body>
<h1>The wiki is not built yet</h1>
<p>This server serves the static wiki from its site folder (<code>--site-dir</code>,
by default <code>build/wiki</code> under the data root), and nothing is there yet.
Build it from the repository root with:</p>
<pre>go run ./tools/cmd/wiki build</pre>
<p>then reload this page; no restart is needed. The MCP endpoint at <a href="/mcp"><code>/mcp</code></a>
and <a href="/health"><code>/health</code></a> work meanwhile.</p>
</body>
</html>
`
