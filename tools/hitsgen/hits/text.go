package hits

import (
	"strconv"
	"unicode/utf8"
)

// The text values. Each is a function of its entity (a page, a phrase),
// so the same page always has the same URL, Title and URLHash.

// digitWords appends n written in base 128 with the words of list, each
// position with its own permutation of the list, separated by sep: a
// different n gives a different sequence. n = 0 is one word.
func digitWords(dst []byte, list *[128]string, n uint64, salt uint64, sep string) []byte {
	for pos := uint64(0); ; pos++ {
		if pos > 0 {
			dst = append(dst, sep...)
		}
		// An odd multiplier and an offset per position permute 0..127.
		h := mix64(salt + pos)
		d := (n%128*(h|1) + h>>32) % 128
		dst = append(dst, list[d]...)
		n /= 128
		if n == 0 {
			return dst
		}
	}
}

// appendPhrase appends search phrase number id: id+128 in words, so the
// popular phrases (low ids) have two words and the long tail three or
// four.
func (g *Generator) appendPhrase(dst []byte, id int64) []byte {
	return digitWords(dst, &cyrWords, uint64(id)+128, g.seed^0x9e37, " ")
}

// googleBits are the "google" parts of the few URLs that have one (q20
// to q23 look for them): one page in 1,000 (but home pages) has one,
// about 0.07% of rows at 1 M rows.
var googleBits = []string{"googleTBR", "google", "url.google.ru/search", "googleads", "page.google"}

// appendURL appends the URL of page p of site si.
func (g *Generator) appendURL(dst []byte, si int, p int64) []byte {
	s := &g.sites[si]
	start := len(dst)
	dst = append(dst, s.host...)
	dst = append(dst, '/')
	if p == 0 {
		return dst
	}
	r := newRNG(g.seed, kindPage, uint64(si), uint64(p))
	// The page's number in words makes the URL the page's own.
	dst = digitWords(dst, &latWords, uint64(p-1), uint64(si), "/")
	target := s.pathLen/2 + r.intn(s.pathLen+1) // mean pathLen
	google := r.intn(1000) == 0
	for n := 0; len(dst)-start < target; n++ {
		switch k := r.intn(10); {
		case google && n == 0:
			dst = append(dst, '/')
			dst = append(dst, googleBits[r.intn(len(googleBits))]...)
		case k < 4:
			dst = append(dst, '/')
			dst = append(dst, latWords[r.intn(128)]...)
		case k < 6:
			if n == 0 {
				dst = append(dst, '?')
			} else {
				dst = append(dst, '&')
			}
			dst = append(dst, latWords[r.intn(128)]...)
			dst = append(dst, '=')
			dst = strconv.AppendInt(dst, int64(r.intn(100000)), 10)
		case k < 7:
			dst = append(dst, '/')
			dst = strconv.AppendInt(dst, int64(r.intn(10000000)), 10)
			dst = append(dst, ".html"...)
		case k < 8:
			dst = append(dst, "%2F"...)
			dst = append(dst, latWords[r.intn(128)]...)
		case k < 9:
			dst = append(dst, '/')
			dst = append(dst, cyrWords[r.intn(128)]...)
		default:
			dst = append(dst, "#page-"...)
			dst = strconv.AppendInt(dst, int64(r.intn(100)), 10)
		}
	}
	return truncate(dst, start, urlCap)
}

// appendTitle appends the title of page p of site si: Cyrillic words,
// sometimes with commas, quotes and the site's name; 5% are empty, and
// one in 2,000 mentions Google (q22).
func (g *Generator) appendTitle(dst []byte, si int, p int64) []byte {
	r := newRNG(g.seed, kindPage, uint64(si), uint64(p)^1<<62)
	if r.chance(0.05) {
		return dst
	}
	start := len(dst)
	words := r.between(3, 12)
	if p == 0 {
		words = r.between(2, 6)
	}
	google := r.intn(2000) == 0
	for w := 0; w < words; w++ {
		if w > 0 {
			switch k := r.intn(20); {
			case k == 0:
				dst = append(dst, ", "...)
			case k == 1:
				dst = append(dst, ": "...)
			default:
				dst = append(dst, ' ')
			}
		}
		switch k := r.intn(40); {
		case k == 0:
			dst = append(dst, '"')
			dst = append(dst, cyrWords[r.intn(128)]...)
			dst = append(dst, '"')
		case k == 1:
			dst = append(dst, "«"...)
			dst = append(dst, cyrWords[r.intn(128)]...)
			dst = append(dst, "»"...)
		case k < 4:
			dst = append(dst, latWords[r.intn(128)]...)
		default:
			dst = append(dst, cyrWords[r.intn(128)]...)
		}
		if google && w == words/2 {
			dst = append(dst, " Google"...)
		}
	}
	if r.chance(0.4) {
		dst = append(dst, titleTails[r.intn(len(titleTails))]...)
	}
	return truncate(dst, start, titleCap)
}

// appendSearchReferer appends the referer of a search for phrase id on
// engine e: the engine's result page, with the phrase percent-encoded.
func (g *Generator) appendSearchReferer(dst []byte, e int16, id int64, scratch []byte) []byte {
	start := len(dst)
	host, ok := searchEngineHosts[int(e)]
	if !ok {
		host = "search.engine" + strconv.Itoa(int(e)) + ".ru/?q="
	}
	dst = append(dst, "http://"...)
	dst = append(dst, host...)
	const hexDigits = "0123456789ABCDEF"
	for _, c := range g.appendPhrase(scratch[:0], id) {
		switch {
		case c == ' ':
			dst = append(dst, '+')
		case c >= 0x80:
			dst = append(dst, '%', hexDigits[c>>4], hexDigits[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return truncate(dst, start, refererCap)
}

// truncate cuts dst[start:] to at most limit bytes, at a character
// boundary.
func truncate(dst []byte, start, limit int) []byte {
	if len(dst)-start <= limit {
		return dst
	}
	end := start + limit
	for end > start && !utf8.RuneStart(dst[end]) {
		end--
	}
	return dst[:end]
}
