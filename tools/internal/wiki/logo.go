package wiki

import (
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // DecodeConfig of a GIF logo
	_ "image/jpeg" // and of a JPEG one
	_ "image/png"  // and of a PNG one
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// logo is a team's logo for the top bar (wiki build -logo FILE).
type logo struct {
	File   string // the image on disk, published as Name
	Name   string // its name in the site: wiki-logo and the file's extension
	Width  int    // its intrinsic size, written into the <img> so that the
	Height int    // top bar keeps the logo's room before it loads (no layout shift)
}

// readLogo checks the logo file and reads its size: SVG, PNG, JPEG or GIF,
// the formats every browser shows and the standard library can measure.
func readLogo(file string) (logo, error) {
	ext := strings.ToLower(filepath.Ext(file))
	abs, err := filepath.Abs(file) // Hugo reads mounts relative to the site's folder
	if err != nil {
		return logo{}, fmt.Errorf("logo: %w", err)
	}
	l := logo{File: abs, Name: "wiki-logo" + ext}
	f, err := os.Open(file)
	if err != nil {
		return logo{}, fmt.Errorf("logo: %w", err)
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return logo{}, fmt.Errorf("logo %s: not a regular file", file)
	}
	switch ext {
	case ".svg":
		l.Width, l.Height, err = svgSize(f)
	case ".png", ".jpg", ".jpeg", ".gif":
		var c image.Config
		c, _, err = image.DecodeConfig(f)
		l.Width, l.Height = c.Width, c.Height
	default:
		return logo{}, fmt.Errorf("logo %s: want an .svg, .png, .jpg or .gif file", file)
	}
	if err != nil {
		return logo{}, fmt.Errorf("logo %s: %w", file, err)
	}
	if l.Width <= 0 || l.Height <= 0 {
		return logo{}, fmt.Errorf("logo %s: no size (%dx%d)", file, l.Width, l.Height)
	}
	return l, nil
}

// svgSize reads an SVG's size from its root element: width and height in
// user units (px), else its viewBox's. Lengths in other units (em, %) say
// nothing about the shape, so the viewBox is used for them.
func svgSize(f *os.File) (int, int, error) {
	d := xml.NewDecoder(f)
	for {
		tok, err := d.Token()
		if err != nil {
			return 0, 0, fmt.Errorf("not an SVG image: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local != "svg" {
			return 0, 0, fmt.Errorf("not an SVG image: the root element is <%s>", se.Name.Local)
		}
		var w, h, box string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "width":
				w = a.Value
			case "height":
				h = a.Value
			case "viewBox":
				box = a.Value
			}
		}
		if wf, hf, ok := pixels(w, h); ok {
			return round(wf), round(hf), nil
		}
		if f := strings.FieldsFunc(box, func(r rune) bool { return r == ' ' || r == ',' }); len(f) == 4 {
			if wf, hf, ok := pixels(f[2], f[3]); ok {
				return round(wf), round(hf), nil
			}
		}
		return 0, 0, errors.New("the <svg> element has neither width and height in px nor a viewBox")
	}
}

// pixels parses two lengths in user units or px.
func pixels(w, h string) (float64, float64, bool) {
	wf, err1 := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(w), "px"), 64)
	hf, err2 := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(h), "px"), 64)
	return wf, hf, err1 == nil && err2 == nil && wf > 0 && hf > 0
}

func round(f float64) int { return max(1, int(f+0.5)) }
