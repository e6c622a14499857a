// Package wikipage names a doc's page in the wiki: where the wiki's build
// puts a doc in Hugo's content tree and the path Hugo gives its page, so
// that the server's links (search hits' URLs) and the wiki's pages agree.
//
// Hugo makes a page's path from its content file's path: lower case, spaces
// as hyphens, and only the characters its URLs allow (logical). Some names a
// real tree holds do not survive that, and Hugo drops a page without an
// error: a name of punctuation alone ("%.md", "[[.md") becomes its folder's
// path and one of the two pages is lost, a "#" loses the page (and, in a
// folder's name, every page under it), a "%" followed by two hex digits is
// kept and then read by browsers as an escape, a doc named "x.en.md" is
// read as the English version of "x.md" ("index.en.md" as its folder's
// page), and a folder whose name ends in "~" (an editor's backup) is
// skipped with every page under it. Such a file or folder goes into the
// site's content under a name Hugo keeps (Name); its Markdown twin, the
// server's docs:// resource and the links written in the docs keep the name
// the file has.
package wikipage

import (
	"encoding/hex"
	"path"
	"strings"
	"unicode"
)

// Of is the path of doc's page (a path under docs/, "guide/intro.md"), as
// Hugo writes it: "/guide/intro"; a folder's index.md or _index.md is its
// folder's page ("/guide"), docs/index.md the home page ("/").
func Of(doc string) string {
	if IsIndex(doc) {
		return OfDir(path.Dir(doc))
	}
	return logical("/" + strings.TrimSuffix(File(doc), ".md"))
}

// OfDir is the path of the page of folder dir (a path under docs/; "" or
// "." for docs/ itself, the home page "/").
func OfDir(dir string) string {
	return logical("/" + Dir(dir))
}

// IsIndex reports whether doc is its folder's index.md or _index.md.
func IsIndex(doc string) bool {
	b := path.Base(doc)
	return b == "index.md" || b == "_index.md"
}

// Name is the name a doc (its file name without .md) or a folder named name
// has in the site's content: name itself, unless Hugo would lose its page
// (see the package doc); then name without "#", "%", "\" and a final "~",
// with a final ".en" made "-en", as logical would make it, or, when nothing
// of it is left, its bytes in hexadecimal ("%" is "25", "[[" is "5b5b").
func Name(name string) string {
	english := len(name) > 3 && strings.EqualFold(name[len(name)-3:], ".en")
	if !english && !strings.ContainsAny(name, `#%\`) && !strings.HasSuffix(name, "~") && sanitize(name) != "" {
		return name
	}
	n := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`#%\`, r) {
			return -1
		}
		return r
	}, strings.TrimRight(name, "~"))
	if english {
		n = n[:len(n)-3] + "-en"
	}
	if n = sanitize(n); n == "" {
		n = hex.EncodeToString([]byte(name))
	}
	return n
}

// Dir is folder dir (a path under docs/; "" or "." for docs/ itself) as the
// site's content holds it: each of its folders by Name.
func Dir(dir string) string {
	if dir == "" || dir == "." {
		return ""
	}
	segs := strings.Split(dir, "/")
	for i, s := range segs {
		segs[i] = Name(s)
	}
	return strings.Join(segs, "/")
}

// File is doc's path in the site's content when it is not a folder's page:
// its folder by Dir, its name by Name.
func File(doc string) string {
	return path.Join(Dir(path.Dir(doc)), Name(strings.TrimSuffix(path.Base(doc), ".md"))+".md")
}

// logical is a content path (without its extension, "/Guide/A b") as Hugo
// normalises it for a page's path and URL: lower case, spaces as hyphens,
// sanitised ("/guide/a-b"). Two content files with one logical path are one
// page to Hugo, the other lost.
func logical(p string) string {
	return sanitize(strings.ReplaceAll(strings.ToLower(p), " ", "-"))
}

// sanitize is Hugo's paths.Sanitize (common/paths/path.go, v0.165): the
// characters it does not allow in a path are dropped, a run of spaces
// becomes one hyphen; a path it keeps whole is returned as it is.
func sanitize(s string) string {
	kept := true
	for i, r := range s {
		if !allowed(s, i, r) {
			kept = false
			break
		}
	}
	if kept {
		return s
	}
	var b strings.Builder
	hyphen, wasHyphen := false, false
	for i, r := range s {
		if !allowed(s, i, r) {
			if b.Len() > 0 && !wasHyphen && unicode.IsSpace(r) {
				hyphen = true
			}
			continue
		}
		wasHyphen = r == '-'
		if hyphen && !wasHyphen {
			b.WriteByte('-')
		}
		hyphen = false
		b.WriteRune(r)
	}
	return b.String()
}

// allowed is Hugo's isAllowedPathCharacter: letters, digits, marks,
// ./\_#+~-@ and a "%" that starts an escape.
func allowed(s string, i int, r rune) bool {
	switch {
	case r == ' ':
		return false
	case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsMark(r), strings.ContainsRune(`./\_#+~-@`, r):
		return true
	case r == '%':
		return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
