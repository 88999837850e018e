package parse

import (
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// maxCharLen is PostgreSQL's limit on char(n) and varchar(n).
const maxCharLen = 10485760

// ParseType parses a PostgreSQL type name such as "integer", "int8",
// "double precision", "numeric(10,2)", "character varying(10)" or
// "timestamp without time zone". engine.Type.String() of the result parses
// back to the same type.
func ParseType(name string) (engine.Type, error) {
	toks, err := lex(name)
	if err != nil {
		return engine.Type{}, stripPos(err)
	}
	items, err := tree(name, toks[:len(toks)-1], toks[len(toks)-1])
	if err != nil {
		return engine.Type{}, stripPos(err)
	}
	end, ok := typeSpan(items, 0, false)
	if !ok || end != len(items) {
		return engine.Type{}, engine.Errorf(engine.CodeUndefinedObject, "type %q does not exist", strings.TrimSpace(name))
	}
	t, err := typeOf(name, items)
	return t, stripPos(err)
}

// stripPos drops the position of an error about a standalone type name.
func stripPos(err error) error {
	if e, ok := err.(*engine.Error); ok && e != nil {
		e.Position = 0
		return e
	}
	return err
}

// typeSpan finds the end of the type name that starts at items[i]. With
// known, only names that start like a built-in type are taken (used to
// spot typed literals such as DATE '...'); otherwise any name is, so that
// an unknown one gets "type does not exist".
func typeSpan(items []*node, i int, known bool) (int, bool) {
	at := func(j int, w string) bool { return j < len(items) && items[j].word(w) }
	group := func(j int) int {
		if j < len(items) && items[j].group {
			return j + 1
		}
		return j
	}
	if at(i, "pg_catalog") && i+2 < len(items) && items[i+1].op(".") {
		i += 2
	}
	if i >= len(items) || items[i].group {
		return i, false
	}
	t := items[i].tok
	if t.kind == kQIdent && !known {
		return arraySuffix(items, group(i+1)), true
	}
	if t.kind != kIdent {
		return i, false
	}
	j := i + 1
	switch t.text {
	case "double":
		if !at(j, "precision") {
			return i, false
		}
		j++
	case "character", "char", "national":
		if t.text == "national" {
			if !at(j, "character") && !at(j, "char") {
				return i, false
			}
			j++
		}
		if at(j, "varying") {
			j++
		}
		j = group(j)
	case "timestamp", "time":
		j = group(j)
		if (at(j, "with") || at(j, "without")) && at(j+1, "time") && at(j+2, "zone") {
			j += 3
		}
	case "interval":
		j = group(j)
		j = intervalFields(items, j)
	case "bit":
		if at(j, "varying") {
			j++
		}
		j = group(j)
	default:
		if known && !typeWord(t.text) {
			return i, false
		}
		j = group(j)
	}
	return arraySuffix(items, j), true
}

// intervalFields takes an interval type's field restriction at
// items[j:]: a field, or "field TO field", the last one second with an
// optional precision.
func intervalFields(items []*node, j int) int {
	field := func(k int) bool {
		return k < len(items) && !items[k].group && items[k].tok.kind == kIdent && intervalUnit(items[k])
	}
	if !field(j) {
		return j
	}
	last := j
	j++
	if j+1 < len(items) && items[j].word("to") && field(j+1) {
		last = j + 1
		j += 2
	}
	if items[last].word("second") && j < len(items) && items[j].group {
		j++
	}
	return j
}

// arraySuffix takes "[]" or "[n]" after a type name.
func arraySuffix(items []*node, j int) int {
	for j+1 < len(items) && items[j].op("[") {
		k := j + 1
		if k < len(items) && items[k].tok.kind == kNumber {
			k++
		}
		if k >= len(items) || !items[k].op("]") {
			break
		}
		j = k + 1
	}
	return j
}

// typeWord reports whether w starts a one-word type name that may begin a
// typed literal (INTEGER '1', DATE '2024-01-01').
func typeWord(w string) bool {
	switch w {
	case "int", "integer", "int2", "int4", "int8", "smallint", "bigint", "real", "float", "float4",
		"float8", "numeric", "decimal", "boolean", "bool", "date", "timestamp", "timestamptz", "time",
		"timetz", "interval", "varchar", "text", "bpchar":
		return true
	}
	return false
}

// typeOf resolves a type name's items (exactly one name, as typeSpan
// found it) to a gpusql type.
func typeOf(src string, items []*node) (engine.Type, error) {
	var words []string
	var mods *node
	for _, n := range items {
		switch {
		case n.group:
			mods = n
		case n.op("["):
			return engine.Type{}, notSupported(src, n.tok, "array types are not supported by gpusql")
		case n.tok.kind == kIdent || n.tok.kind == kQIdent:
			words = append(words, n.tok.text)
		}
	}
	if len(words) > 1 && words[0] == "pg_catalog" {
		words = words[1:]
	}
	name := strings.Join(words, " ")
	if last := items[len(items)-1]; len(words) == 1 && !last.group && last.tok.kind == kQIdent && last.tok.text == "char" {
		// "char", PostgreSQL's one-byte internal type (pg_class.relkind):
		// gpusql keeps it as text.
		return engine.Text, nil
	}
	var args []int
	if mods != nil {
		var err error
		if args, err = typmods(src, mods); err != nil {
			return engine.Type{}, err
		}
	}
	t, err := resolveType(name, args, mods != nil)
	if err != nil {
		err.Position = position(src, items[0].tok.pos)
		return engine.Type{}, err
	}
	return t, nil
}

// typmods reads a type modifier list such as (10,2) or (10,-2).
func typmods(src string, g *node) ([]int, error) {
	var out []int
	kids := g.kids
	for i := 0; ; {
		neg := false
		if i < len(kids) && kids[i].op("-") {
			neg = true
			i++
		}
		if i >= len(kids) {
			return nil, syntaxErr(src, g.close)
		}
		n := kids[i]
		if n.group || n.tok.kind != kNumber {
			return nil, syntaxErr(src, n.tok)
		}
		v, err := strconv.Atoi(n.tok.text)
		if err != nil {
			return nil, &engine.Error{Code: engine.CodeInvalidParameterValue,
				Message: "invalid type modifier", Position: position(src, n.tok.pos)}
		}
		if neg {
			v = -v
		}
		out = append(out, v)
		i++
		if i == len(kids) {
			return out, nil
		}
		if !kids[i].op(",") {
			return nil, syntaxErr(src, kids[i].tok)
		}
		i++
	}
}

// resolveType maps a folded type name and its modifiers to a gpusql type.
func resolveType(name string, args []int, hasMods bool) (engine.Type, *engine.Error) {
	noMods := func(t engine.Type) (engine.Type, *engine.Error) {
		if hasMods {
			return engine.Type{}, engine.Errorf(engine.CodeSyntaxError, "type modifier is not allowed for type %q", t.String())
		}
		return t, nil
	}
	switch name {
	case "int", "integer", "int4":
		return noMods(engine.Int32)
	case "smallint", "int2":
		return noMods(engine.Int16)
	case "bigint", "int8":
		return noMods(engine.Int64)
	case "real", "float4":
		return noMods(engine.Float32)
	case "double precision", "float8":
		return noMods(engine.Float64)
	case "float":
		return floatType(args)
	case "numeric", "decimal":
		return numericType(args)
	case "boolean", "bool":
		return noMods(engine.Bool)
	case "date":
		return noMods(engine.Date)
	case "text", "name":
		// name (63-byte identifiers in PostgreSQL) is text in gpusql.
		return noMods(engine.Text)
	case "oid":
		// OIDs are bigint in gpusql (the catalogs' OID columns are bigint).
		return noMods(engine.Int64)
	case "timestamp", "timestamp without time zone":
		return timePrecType(engine.Timestamp, "TIMESTAMP", args)
	case "timestamptz", "timestamp with time zone":
		return timePrecType(engine.TimestampTZ, "TIMESTAMP", args)
	case "time", "time without time zone":
		return timePrecType(engine.Time, "TIME", args)
	case "interval":
		return timePrecType(engine.Interval, "INTERVAL", args)
	case "interval year", "interval month", "interval day", "interval hour", "interval minute", "interval second",
		"interval year to month", "interval day to hour", "interval day to minute", "interval day to second",
		"interval hour to minute", "interval hour to second", "interval minute to second":
		t, err := timePrecType(engine.Interval, "INTERVAL", args)
		if err != nil {
			return t, err
		}
		if len(args) > 0 && !strings.HasSuffix(name, "second") {
			return engine.Type{}, engine.Errorf(engine.CodeSyntaxError, "syntax error at or near \"(\"")
		}
		t.Len, _ = engine.IntervalRange(strings.TrimPrefix(name, "interval "))
		return t, nil
	case "char", "character", "national character", "national char", "bpchar":
		if !hasMods {
			if name == "bpchar" {
				return engine.Type{}, engine.Errorf(engine.CodeFeatureNotSupported, "type bpchar without a length is not supported by gpusql")
			}
			return engine.Type{Kind: engine.KindChar, Len: 1}, nil
		}
		return charType(engine.KindChar, "char", args)
	case "varchar", "character varying", "char varying", "national character varying", "national char varying":
		if !hasMods {
			return engine.Type{Kind: engine.KindVarchar}, nil
		}
		return charType(engine.KindVarchar, "varchar", args)
	case "timetz", "time with time zone", "json", "jsonb", "uuid", "bytea", "money", "bit",
		"bit varying", "varbit", "inet", "cidr", "macaddr", "xml", "point", "serial", "serial4",
		"serial8", "smallserial", "serial2", "bigserial", "tsvector":
		return engine.Type{}, engine.Errorf(engine.CodeFeatureNotSupported, "type %s is not supported by gpusql", name)
	}
	return engine.Type{}, engine.Errorf(engine.CodeUndefinedObject, "type %q does not exist", name)
}

func floatType(args []int) (engine.Type, *engine.Error) {
	if len(args) == 0 {
		return engine.Float64, nil
	}
	if len(args) > 1 {
		return engine.Type{}, engine.Errorf(engine.CodeSyntaxError, "invalid type modifier")
	}
	switch p := args[0]; {
	case p < 1:
		return engine.Type{}, engine.Errorf(engine.CodeInvalidParameterValue, "precision for type float must be at least 1 bit")
	case p > 53:
		return engine.Type{}, engine.Errorf(engine.CodeInvalidParameterValue, "precision for type float must be less than 54 bits")
	case p <= 24:
		return engine.Float32, nil
	}
	return engine.Float64, nil
}

func numericType(args []int) (engine.Type, *engine.Error) {
	if len(args) == 0 {
		return engine.Numeric, nil
	}
	if len(args) > 2 {
		return engine.Type{}, engine.Errorf(engine.CodeInvalidParameterValue, "invalid NUMERIC type modifier")
	}
	p, s := args[0], 0
	if len(args) == 2 {
		s = args[1]
	}
	if p < 1 || p > 1000 {
		return engine.Type{}, engine.Errorf(engine.CodeInvalidParameterValue, "NUMERIC precision %d must be between 1 and 1000", p)
	}
	if p > engine.MaxNumericPrec {
		return engine.Type{}, engine.Errorf(engine.CodeFeatureNotSupported,
			"numeric precision %d exceeds gpusql's maximum of %d", p, engine.MaxNumericPrec)
	}
	if s < 0 || s > p {
		return engine.Type{}, engine.Errorf(engine.CodeInvalidParameterValue, "NUMERIC scale %d must be between 0 and precision %d", s, p)
	}
	return engine.NumericType(p, s), nil
}

// timePrecType is a timestamp, timestamptz, time or interval type with
// an optional seconds precision. PostgreSQL reduces a precision above 6
// to 6, with a warning.
func timePrecType(t engine.Type, what string, args []int) (engine.Type, *engine.Error) {
	if len(args) > 1 {
		return engine.Type{}, engine.Errorf(engine.CodeSyntaxError, "invalid type modifier")
	}
	if len(args) == 1 {
		p := args[0]
		if p < 0 {
			return engine.Type{}, engine.Errorf(engine.CodeInvalidParameterValue, "%s(%d) precision must not be negative", what, p)
		}
		if p < 6 {
			return t.WithTimePrec(p), nil
		}
	}
	return t, nil
}

func charType(k engine.Kind, what string, args []int) (engine.Type, *engine.Error) {
	if len(args) != 1 {
		return engine.Type{}, engine.Errorf(engine.CodeSyntaxError, "invalid type modifier")
	}
	n := args[0]
	if n < 1 {
		return engine.Type{}, engine.Errorf(engine.CodeInvalidParameterValue, "length for type %s must be at least 1", what)
	}
	if n > maxCharLen {
		return engine.Type{}, engine.Errorf(engine.CodeInvalidParameterValue, "length for type %s cannot exceed %d", what, maxCharLen)
	}
	return engine.Type{Kind: k, Len: n}, nil
}

// typeText is the canonical spelling of a type, which ParseType reads back.
func typeText(t engine.Type) string { return t.String() }

// regKinds are the reg* OID alias types gpusql understands in casts:
// text → reg* looks the name up, reg* → text renders the name (see
// docs/sql.md).
var regKinds = map[string]bool{"regclass": true, "regtype": true, "regnamespace": true,
	"regproc": true, "regprocedure": true, "regrole": true, "regoper": true, "regoperator": true}

// regKind reports the reg* type that a cast's type items name
// ("pg_catalog.regclass", "regtype"), or "".
func regKind(items []*node) string {
	if len(items) == 3 && items[0].word("pg_catalog") && items[1].op(".") {
		items = items[2:]
	}
	if len(items) != 1 || items[0].group || items[0].tok.kind != kIdent || !regKinds[items[0].tok.text] {
		return ""
	}
	return items[0].tok.text
}

// intArrayElem are the element types of integer arrays that casts keep
// apart (aliasType).
var intArrayElem = map[string]bool{"oid": true, "int2": true, "int4": true, "int8": true,
	"smallint": true, "integer": true, "int": true, "bigint": true}

// aliasType reports the name of a type gpusql stores as another one
// (oid as bigint, name and "char" as text), spelled so that ParseType
// reads it back and the binder can name a cast's column after it; "" for
// other types.
func aliasType(items []*node) string {
	if len(items) >= 3 && items[0].word("pg_catalog") && items[1].op(".") {
		items = items[2:]
	}
	if last := items[len(items)-1]; len(items) > 1 && last.op("]") {
		// x::int2[] in a query: gpusql has no array types and keeps
		// arrays in their text form ('{1,2}'), as the catalogs' array
		// columns are. An array of integers or OIDs says so ("oid[]"):
		// unnest gives its elements as bigint (query/srf.go).
		if e := items[0]; e.tok.kind == kIdent && intArrayElem[e.tok.text] {
			return e.tok.text + "[]"
		}
		return "text"
	}
	if len(items) != 1 || items[0].group {
		return ""
	}
	switch t := items[0].tok; {
	case t.kind == kIdent && (t.text == "oid" || t.text == "name"):
		return t.text
	case t.kind == kQIdent && t.text == "char":
		return `"char"`
	}
	return ""
}
