package query

import (
	"strconv"
	"strings"
)

// formatType renders a type OID and modifier as PostgreSQL's format_type
// does. hasTypmod false is format_type(oid, NULL): the SQL name with no
// modifier (bpchar then reads "character", not "bpchar").
func formatType(oid int64, typmod int32, hasTypmod bool) string {
	if oid == 0 {
		return "-"
	}
	d := pgData()
	t, ok := d.types[oid]
	if !ok {
		return "???"
	}
	if t.category == 'A' && t.elem != 0 && t.len == -1 {
		return formatType(t.elem, typmod, hasTypmod) + "[]"
	}
	mod := hasTypmod && typmod >= 0
	switch oid {
	case 16:
		return "boolean"
	case 18:
		return `"char"`
	case 21:
		return "smallint"
	case 23:
		return "integer"
	case 20:
		return "bigint"
	case 700:
		return "real"
	case 701:
		return "double precision"
	case 1186:
		return "interval"
	case 1560:
		return "bit"
	case 1562:
		return "bit varying"
	case 1042:
		if !hasTypmod {
			return "character"
		}
		if typmod < 0 {
			return "bpchar"
		}
		return "character" + charMod(typmod)
	case 1043:
		if mod {
			return "character varying" + charMod(typmod)
		}
		return "character varying"
	case 1700:
		if mod {
			return "numeric(" + strconv.Itoa(int((typmod-4)>>16&0xffff)) + "," + strconv.Itoa(int((typmod-4)&0xffff)) + ")"
		}
		return "numeric"
	case 1083, 1114, 1184, 1266:
		p := ""
		if mod {
			p = "(" + strconv.Itoa(int(typmod)) + ")"
		}
		tz := " without time zone"
		if oid == 1184 || oid == 1266 {
			tz = " with time zone"
		}
		base := "timestamp"
		if oid == 1083 || oid == 1266 {
			base = "time"
		}
		return base + p + tz
	}
	name := pgQuoteIdent(t.name)
	if t.nsp != oidPgCatalog {
		name = pgQuoteIdent(nspName(t.nsp)) + "." + name
	}
	return name
}

func charMod(typmod int32) string {
	if typmod > 4 {
		return "(" + strconv.Itoa(int(typmod-4)) + ")"
	}
	return ""
}

// pgQuoteIdent quotes an identifier when PostgreSQL's quote_ident would:
// unless it is all lower-case letters, digits, underscores (not starting
// with a digit) and not a reserved keyword.
func pgQuoteIdent(s string) string {
	safe := s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] == '_')
	for i := 0; safe && i < len(s); i++ {
		c := s[i]
		safe = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	}
	if safe && !reservedKeywords[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// reservedKeywords are PostgreSQL 15's keywords that are not unreserved
// (pg_get_keywords() with catcode <> 'U'): quote_ident quotes them.
var reservedKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric authorization
	between bigint binary bit boolean both case cast char character check coalesce collate collation column
	concurrently constraint create cross current_catalog current_date current_role current_schema
	current_time current_timestamp current_user dec decimal default deferrable desc distinct do else end
	except exists extract false fetch float for foreign freeze from full grant greatest group grouping
	having ilike in initially inner inout int integer intersect interval into is isnull join lateral
	leading least left like limit localtime localtimestamp national natural nchar none normalize not
	notnull null nullif numeric offset on only or order out outer overlaps overlay placing position
	precision primary real references returning right row select session_user setof similar smallint
	some substring symmetric table tablesample then time timestamp to trailing treat trim true union
	unique user using values varchar variadic verbose when where window with xmlattributes xmlconcat
	xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable`) {
		m[w] = true
	}
	return m
}()
