package eval

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpusql/gpusql/engine"
)

// to_char over dates, timestamps and timestamptz with PostgreSQL's
// template patterns (formatting.c's DCH keywords), and the parsing
// direction for to_date and to_timestamp (totime.go).

// dchKeywords are the template patterns, longest first so that HH24
// wins over HH and DDD over DD. Case matters where PostgreSQL's does:
// MONTH, Month and month spell the name in those cases.
var dchKeywords = func() []string {
	ks := []string{
		"A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "CC", "DAY", "DDD", "DD", "DY", "Day", "Dy", "D",
		"FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FX", "HH24", "HH12", "HH", "IDDD", "ID", "IW", "IYYY",
		"IYY", "IY", "I", "J", "MI", "MM", "MONTH", "MON", "MS", "Month", "Mon", "OF", "P.M.", "PM", "Q",
		"RM", "SSSSS", "SSSS", "SS", "TZH", "TZM", "TZ", "US", "WW", "W", "Y,YYY", "YYYY", "YYY", "YY", "Y",
		"a.d.", "a.m.", "ad", "am", "b.c.", "bc", "cc", "day", "ddd", "dd", "dy", "d", "ff1", "ff2", "ff3",
		"ff4", "ff5", "ff6", "fx", "hh24", "hh12", "hh", "iddd", "id", "iw", "iyyy", "iyy", "iy", "i", "j",
		"mi", "mm", "month", "mon", "ms", "p.m.", "pm", "q", "rm", "sssss", "ssss", "ss", "tz", "us", "ww",
		"w", "y,yyy", "yyyy", "yyy", "yy", "y",
	}
	sort.SliceStable(ks, func(i, j int) bool { return len(ks[i]) > len(ks[j]) })
	return ks
}()

// dchNode is one piece of a parsed template: a keyword with its
// modifiers, or literal text.
type dchNode struct {
	key  string // "" for literal text
	text string
	fm   bool // FM: no padding
	th   int  // 1: TH (upper), 2: th
	sp   bool
}

var dchCache sync.Map // template → []dchNode

// parseDCH splits a template into keywords and literal text.
func parseDCH(f string) []dchNode {
	if v, ok := dchCache.Load(f); ok {
		return v.([]dchNode)
	}
	var out []dchNode
	lit := func(s string) {
		if n := len(out); n > 0 && out[n-1].key == "" {
			out[n-1].text += s
			return
		}
		out = append(out, dchNode{text: s})
	}
	for i := 0; i < len(f); {
		fm := false
		for {
			switch {
			case strings.HasPrefix(f[i:], "FM") || strings.HasPrefix(f[i:], "fm"):
				fm = true
				i += 2
				continue
			case strings.HasPrefix(f[i:], "TM") || strings.HasPrefix(f[i:], "tm"):
				i += 2 // translation mode: the C locale's names anyway
				continue
			}
			break
		}
		if i >= len(f) {
			break
		}
		key := ""
		for _, k := range dchKeywords {
			if strings.HasPrefix(f[i:], k) {
				key = k
				break
			}
		}
		if key != "" {
			i += len(key)
			n := dchNode{key: key, fm: fm}
			for {
				switch {
				case strings.HasPrefix(f[i:], "TH"):
					n.th = 1
					i += 2
					continue
				case strings.HasPrefix(f[i:], "th"):
					n.th = 2
					i += 2
					continue
				case strings.HasPrefix(f[i:], "SP") || strings.HasPrefix(f[i:], "sp"):
					n.sp = true
					i += 2
					continue
				}
				break
			}
			out = append(out, n)
			continue
		}
		switch c := f[i]; {
		case c == '"':
			// quoted literal text; a backslash escapes the next character
			i++
			var b strings.Builder
			for i < len(f) && f[i] != '"' {
				if f[i] == '\\' && i+1 < len(f) {
					i++
				}
				b.WriteByte(f[i])
				i++
			}
			i++
			lit(b.String())
		case c == '\\' && i+1 < len(f) && f[i+1] == '"':
			lit(`"`)
			i += 2
		default:
			_, size := decodeRune(f[i:])
			lit(f[i : i+size])
			i += size
		}
	}
	dchCache.Store(f, out)
	return out
}

func decodeRune(s string) (rune, int) {
	for i, r := range s {
		if i == 0 {
			n := len(string(r))
			if r == '\uFFFD' {
				n = 1
			}
			return r, n
		}
	}
	return 0, 1
}

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August",
		"September", "October", "November", "December"}
	dayNames   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	romanMonth = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}
)

// ordinal is the English suffix of n (1st, 2nd, 11th).
func ordinal(n int, upper bool) string {
	s := "th"
	if n < 0 {
		n = -n
	}
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			s = "st"
		case 2:
			s = "nd"
		case 3:
			s = "rd"
		}
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// caseLike spells name in the case of the keyword: all upper, all
// lower, or capitalized.
func caseLike(key, name string) string {
	switch {
	case key == strings.ToUpper(key):
		return strings.ToUpper(name)
	case key == strings.ToLower(key):
		return strings.ToLower(name)
	}
	return name
}

// dchTime is the broken-down time to_char formats.
type dchTime struct {
	local  int64 // wall-clock µs
	off    int32 // seconds east of UTC (timestamptz)
	abbrev string
	tz     bool
}

// ToChar formats t by template f.
func toCharTime(dst []byte, nodes []dchNode, t dchTime) []byte {
	days := floorDiv(t.local, usPerDay)
	tod := t.local - days*usPerDay
	y, m, d := civil(days)
	hour := int(tod / 3_600_000_000)
	minute := int(tod / 60_000_000 % 60)
	sec := int(tod / 1_000_000 % 60)
	us := int(tod % 1_000_000)
	bc := y <= 0
	ay := y // the year as written, BC years counted down from 1
	if bc {
		ay = 1 - y
	}
	doy := int(days-int64(engine.DaysFromCivil(y, 1, 1))) + 1
	dow := int(((days+4)%7 + 7) % 7)
	num := func(n dchNode, v, width int) {
		s := strconv.Itoa(v)
		if !n.fm && len(s) < width {
			neg := v < 0
			if neg {
				s = s[1:]
			}
			s = strings.Repeat("0", width-len(s)-boolInt(neg)) + s
			if neg {
				s = "-" + s
			}
		}
		dst = append(dst, s...)
		if n.th != 0 {
			dst = append(dst, ordinal(v, n.th == 1)...)
		}
	}
	name := func(n dchNode, s string, width int) {
		s = caseLike(n.key, s)
		if !n.fm && len(s) < width {
			s += strings.Repeat(" ", width-len(s))
		}
		dst = append(dst, s...)
	}
	for _, n := range nodes {
		if n.key == "" {
			dst = append(dst, n.text...)
			continue
		}
		switch k := strings.ToUpper(n.key); k {
		case "HH", "HH12":
			h := hour % 12
			if h == 0 {
				h = 12
			}
			num(n, h, 2)
		case "HH24":
			num(n, hour, 2)
		case "MI":
			num(n, minute, 2)
		case "SS":
			num(n, sec, 2)
		case "MS":
			num(n, us/1000, 3)
		case "US":
			num(n, us, 6)
		case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
			w := int(k[2] - '0')
			num(n, us/int(engine.Pow10(6-w)), w)
		case "SSSS", "SSSSS":
			num(n, int(tod/1_000_000), 0)
		case "AM", "PM", "A.M.", "P.M.":
			s := "AM"
			if hour >= 12 {
				s = "PM"
			}
			if strings.Contains(k, ".") {
				s = s[:1] + "." + s[1:] + "."
			}
			if n.key != k {
				s = strings.ToLower(s)
			}
			dst = append(dst, s...)
		case "AD", "BC", "A.D.", "B.C.":
			s := "AD"
			if bc {
				s = "BC"
			}
			if strings.Contains(k, ".") {
				s = s[:1] + "." + s[1:] + "."
			}
			if n.key != k {
				s = strings.ToLower(s)
			}
			dst = append(dst, s...)
		case "Y,YYY":
			s := strconv.Itoa(ay/1000) + "," + pad3(ay%1000)
			dst = append(dst, s...)
			if n.th != 0 {
				dst = append(dst, ordinal(ay, n.th == 1)...)
			}
		case "YYYY":
			num(n, ay, 4)
		case "YYY":
			num(n, ay%1000, 3)
		case "YY":
			num(n, ay%100, 2)
		case "Y":
			num(n, ay%10, 1)
		case "IYYY", "IYY", "IY", "I":
			iy, _ := isoWeek(days)
			if iy <= 0 {
				iy = 1 - iy
			}
			w := len(k)
			num(n, iy%int(engine.Pow10(w)), w)
		case "MONTH":
			name(n, monthNames[m-1], 9)
		case "MON":
			name(n, monthNames[m-1][:3], 0)
		case "MM":
			num(n, m, 2)
		case "DAY":
			name(n, dayNames[dow], 9)
		case "DY":
			name(n, dayNames[dow][:3], 0)
		case "DDD":
			num(n, doy, 3)
		case "IDDD":
			iy, wk := isoWeek(days)
			_ = iy
			num(n, (wk-1)*7+(dow+6)%7+1, 3)
		case "DD":
			num(n, d, 2)
		case "D":
			num(n, dow+1, 0)
		case "ID":
			num(n, (dow+6)%7+1, 0)
		case "W":
			num(n, (d-1)/7+1, 0)
		case "WW":
			num(n, (doy-1)/7+1, 2)
		case "IW":
			_, wk := isoWeek(days)
			num(n, wk, 2)
		case "CC":
			c := (y + 99) / 100
			if y <= 0 {
				c = -((99 - (y - 1)) / 100)
			}
			num(n, c, 2)
		case "J":
			num(n, int(days+2440588), 0)
		case "Q":
			num(n, (m-1)/3+1, 0)
		case "RM":
			s := romanMonth[m-1]
			if n.key == "rm" {
				s = strings.ToLower(s)
			}
			if !n.fm {
				s += strings.Repeat(" ", 4-len(s))
			}
			dst = append(dst, s...)
		case "TZ":
			if t.tz {
				s := t.abbrev
				if n.key == "tz" {
					s = strings.ToLower(s)
				}
				dst = append(dst, s...)
			}
		case "TZH":
			if t.tz {
				sign := byte('+')
				if t.off < 0 {
					sign = '-'
				}
				dst = append(dst, sign)
				dst = append(dst, pad2(int(abs32(t.off)/3600))...)
			}
		case "TZM":
			if t.tz {
				dst = append(dst, pad2(int(abs32(t.off)/60%60))...)
			}
		case "OF":
			if t.tz {
				sign := byte('+')
				if t.off < 0 {
					sign = '-'
				}
				a := abs32(t.off)
				dst = append(dst, sign)
				dst = append(dst, pad2(int(a/3600))...)
				if a%3600 != 0 {
					dst = append(dst, ':')
					dst = append(dst, pad2(int(a/60%60))...)
				}
			}
		case "FX":
		}
	}
	return dst
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func pad2(v int) string {
	if v < 10 {
		return "0" + strconv.Itoa(v)
	}
	return strconv.Itoa(v)
}

func pad3(v int) string {
	s := strconv.Itoa(v)
	return strings.Repeat("0", max(0, 3-len(s))) + s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
