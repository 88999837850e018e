package pgbinary

import (
	"encoding/binary"
	"math"
)

// AppendNumeric appends numeric_send's form of text: a plain decimal with
// an optional sign and exactly its display scale of fraction digits
// ("-12.3400", "+7", ".5"), "NaN", "Infinity" or "-Infinity". That form is
// the digit count, weight, sign and display scale, then base-10000 digits,
// the first worth 10000^weight, without leading or trailing zero digits.
// Anything else is an *Error of kind Invalid, and dst comes back as it
// was. It allocates nothing beyond dst's growth.
func AppendNumeric(dst, text []byte) ([]byte, error) {
	head := func(dst []byte, ndigits, weight int, sign uint16, dscale int) []byte {
		dst = binary.BigEndian.AppendUint16(dst, uint16(ndigits))
		dst = binary.BigEndian.AppendUint16(dst, uint16(int16(weight)))
		dst = binary.BigEndian.AppendUint16(dst, sign)
		return binary.BigEndian.AppendUint16(dst, uint16(dscale))
	}
	switch string(text) {
	case "NaN":
		return head(dst, 0, 0, numericNaN, 0), nil
	case "Infinity":
		return head(dst, 0, 0, numericPInf, 0), nil
	case "-Infinity":
		return head(dst, 0, 0, numericNInf, 0), nil
	}
	bad := func() error { return fail(Invalid, "invalid numeric %q", text) }
	s := text
	sign := uint16(numericPos)
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = numericNeg
		}
		s = s[1:]
	}
	ip, fp := s, s[:0]
	for k, c := range s {
		if c == '.' {
			ip, fp = s[:k], s[k+1:]
			break
		}
	}
	if len(ip) == 0 && len(fp) == 0 {
		return dst, bad()
	}
	for _, part := range [2][]byte{ip, fp} {
		for _, c := range part {
			if c < '0' || c > '9' {
				return dst, bad()
			}
		}
	}
	dscale := len(fp)
	if dscale > 0x3FFF {
		return dst, bad()
	}
	for len(ip) > 0 && ip[0] == '0' {
		ip = ip[1:]
	}
	// Base-10000 digit j covers decimal digits [4j-lead, 4j-lead+4) of
	// ip+fp, where lead pads ip on the left to whole groups.
	lead := (4 - len(ip)%4) % 4
	ngroups := (lead + len(ip) + len(fp) + 3) / 4
	weight := (lead+len(ip))/4 - 1
	at := func(k int) int { // decimal digit k of the padded ip+fp
		k -= lead
		switch {
		case k < 0:
			return 0
		case k < len(ip):
			return int(ip[k] - '0')
		case k-len(ip) < len(fp):
			return int(fp[k-len(ip)] - '0')
		}
		return 0
	}
	group := func(j int) uint16 {
		return uint16(at(4*j)*1000 + at(4*j+1)*100 + at(4*j+2)*10 + at(4*j+3))
	}
	first, last := 0, ngroups-1
	for first <= last && group(first) == 0 {
		first++
	}
	for last >= first && group(last) == 0 {
		last--
	}
	if first > last {
		return head(dst, 0, 0, numericPos, dscale), nil
	}
	if last-first+1 > math.MaxInt16 || weight-first > math.MaxInt16 || weight-first < math.MinInt16 {
		return dst, bad()
	}
	dst = head(dst, last-first+1, weight-first, sign, dscale)
	for j := first; j <= last; j++ {
		dst = binary.BigEndian.AppendUint16(dst, group(j))
	}
	return dst, nil
}
