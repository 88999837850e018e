package query

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/gpusql/gpusql/engine"
)

var (
	k0       = []argKind{}
	kInt     = []argKind{argInt}
	kText    = []argKind{argText}
	kObjText = []argKind{argObj, argText}
)

// pgFuncs are the catalog functions by name. Results follow PostgreSQL
// 15 (see docs/compatibility.md for where gpusql's objects differ).
var pgFuncs = map[string]pgFunc{
	"version": {args: k0, ret: engine.Text, fn: func(s *Session, _ []fval) (fval, error) {
		return ftext(s.srv.version()), nil
	}},
	"current_database": {args: k0, ret: engine.Text, fn: func(s *Session, _ []fval) (fval, error) {
		return ftext(s.params.Database), nil
	}},
	"current_catalog": {args: k0, ret: engine.Text, fn: func(s *Session, _ []fval) (fval, error) {
		return ftext(s.params.Database), nil
	}},
	"pg_backend_pid": {args: k0, ret: engine.Int32, fn: func(s *Session, _ []fval) (fval, error) {
		return fval{i: int64(s.params.BackendPID)}, nil
	}},
	"current_user": {args: k0, ret: engine.Text, fn: sessionUser},
	"session_user": {args: k0, ret: engine.Text, fn: sessionUser},
	"user":         {args: k0, ret: engine.Text, fn: sessionUser},
	"current_role": {args: k0, ret: engine.Text, fn: sessionUser},
	"current_schema": {args: k0, ret: engine.Text, fn: func(*Session, []fval) (fval, error) {
		return ftext("public"), nil
	}},
	// current_schemas(include_implicit): gpusql has no arrays, so the
	// array is returned in its text form.
	"current_schemas": {args: []argKind{argBool}, min: 1, ret: engine.Text, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		if a[0].i != 0 {
			return ftext("{pg_catalog,public}"), nil
		}
		return ftext("{public}"), nil
	}},
	"current_setting": {args: []argKind{argText, argBool}, min: 1, ret: engine.Text, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		name := strings.ToLower(a[0].s)
		if v, ok := extraSettings[name]; ok {
			return ftext(v), nil
		}
		if !s.known(name) {
			if _, ok := s.settings[name]; !ok {
				if len(a) > 1 && a[1].i != 0 {
					return fnull(), nil
				}
				return fval{}, engine.Errorf(engine.CodeUndefinedObject, "unrecognized configuration parameter %q", a[0].s)
			}
		}
		return ftext(s.setting(name)), nil
	}},
	// set_config(name, value, is_local) sets a setting as SET (or SET
	// LOCAL) does; outside a block a local setting ends with the
	// statement, so it has no effect beyond the value returned.
	"set_config": {args: []argKind{argText, argText, argBool}, min: 3, ret: engine.Text, fn: func(s *Session, a []fval) (fval, error) {
		if a[0].null {
			return fval{}, engine.Errorf(engine.CodeNullValueNotAllowed, "SET requires parameter name")
		}
		name := strings.ToLower(a[0].s)
		if err := s.checkSettable(name); err != nil {
			return fval{}, err
		}
		v := a[1].s
		if a[1].null {
			v = defaultSettings[name]
		}
		local := !a[2].null && a[2].i != 0
		if local && !s.inBlock() {
			return ftext(v), nil
		}
		s.setValue(name, v, false, local)
		return ftext(s.setting(name)), nil
	}},
	"pg_table_is_visible": {args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		schema, _, ok := s.relationName(a[0].i)
		if !ok {
			return fnull(), nil
		}
		if r, ok := s.userRelByOID(a[0].i); ok {
			return fbool(s.visible(r)), nil
		}
		return fbool(schema != "information_schema"), nil
	}},
	"pg_type_is_visible": {args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		t, ok := pgData().types[a[0].i]
		if !ok {
			return fnull(), nil
		}
		return fbool(t.nsp == oidPgCatalog), nil
	}},
	"pg_function_is_visible": {args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		if _, ok := pgData().procs[a[0].i]; !ok {
			return fnull(), nil
		}
		return fbool(true), nil
	}},
	// format_type is not strict: a NULL typmod means "no modifier".
	"format_type": {args: []argKind{argInt, argInt}, min: 2, ret: engine.Text, fn: func(_ *Session, a []fval) (fval, error) {
		if a[0].null {
			return fnull(), nil
		}
		return ftext(formatType(a[0].i, int32(a[1].i), !a[1].null)), nil
	}},
	"pg_get_userbyid": {args: kInt, min: 1, ret: engine.Text, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		for _, r := range s.roles() {
			if r.oid == a[0].i {
				return ftext(r.name), nil
			}
		}
		return ftext("unknown (OID=" + strconv.FormatInt(a[0].i, 10) + ")"), nil
	}},
	"has_table_privilege":      privFunc(privTable),
	"has_column_privilege":     privFunc(privColumn),
	"has_any_column_privilege": privFunc(privAnyColumn),
	"has_schema_privilege":     privFunc(privSchema),
	"has_database_privilege":   privFunc(privDatabase),
	// gpusql has no defaults, indexes, constraints, triggers,
	// partitions, statistics objects, sequences or comments of its own: the functions that describe them have nothing
	// to describe.
	"pg_get_expr":                     nothing([]argKind{argText, argInt, argBool}, 2),
	"pg_get_indexdef":                 nothing([]argKind{argInt, argInt, argBool}, 1),
	"pg_get_constraintdef":            nothing([]argKind{argInt, argBool}, 1),
	"pg_get_triggerdef":               nothing([]argKind{argInt, argBool}, 1),
	"pg_get_partkeydef":               nothing(kInt, 1),
	"pg_get_statisticsobjdef_columns": nothing(kInt, 1),
	"pg_get_serial_sequence":          nothing([]argKind{argText, argText}, 2),
	"pg_get_function_sqlbody": {args: kInt, min: 1, ret: engine.Text, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		if p := pgData().procs[a[0].i]; p != nil && p.sqlbody != nil {
			return ftext(*p.sqlbody), nil
		}
		return fnull(), nil
	}},
	// Built-in functions and schemas keep PostgreSQL's comments
	// (pg_description).
	// The object is an OID, or a regproc column's text (pg_operator's
	// oprcode).
	"obj_description": {args: []argKind{argObj, argText}, min: 1, ret: engine.Text, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		oid := a[0].i
		if a[0].isText {
			o, err := s.regOID("regproc", a[0].s)
			if err != nil {
				// An operator's function that pg_proc does not list
				// (int4pl): the comment psql's \do+ falls back on.
				if d := pgData().opCodeDescr[a[0].s]; d != "" && (len(a) == 1 || a[1].s == "pg_proc") {
					return ftext(d), nil
				}
				return fnull(), nil
			}
			oid = o
		}
		d := ""
		switch {
		case len(a) == 1:
			d = procDescription(oid)
			if d == "" {
				d = namespaceDescriptions[oid]
			}
		case a[1].s == "pg_proc":
			d = procDescription(oid)
		case a[1].s == "pg_namespace":
			d = namespaceDescriptions[oid]
		case a[1].s == "pg_operator":
			if o := pgData().ops[oid]; o != nil {
				d = o.descr
			}
		case a[1].s == "pg_type":
			if t := pgData().types[oid]; t != nil {
				d = t.descr
			}
		case a[1].s == "pg_am":
			d = amDescription(oid)
		}
		if d != "" {
			return ftext(d), nil
		}
		return fnull(), nil
	}},
	"col_description": nothing([]argKind{argInt, argInt}, 2),
	"shobj_description": {args: []argKind{argInt, argText}, min: 2, ret: engine.Text, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		if a[1].s == "pg_database" {
			if d := s.databaseDescription(a[0].i); d != "" {
				return ftext(d), nil
			}
		}
		return fnull(), nil
	}},
	"pg_database_size": {args: []argKind{argObj}, min: 1, ret: engine.Int64, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		return s.databaseSize(a[0])
	}},
	"pg_tablespace_size": {args: []argKind{argObj}, min: 1, ret: engine.Int64, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		return s.tablespaceSize(a[0])
	}},
	"pg_get_functiondef": {args: kInt, min: 1, ret: engine.Text, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		p, ok := pgData().procs[a[0].i]
		if !ok {
			return fnull(), nil
		}
		d, err := functionDef(p)
		if err != nil {
			return fval{}, err
		}
		return ftext(d), nil
	}},
	"pg_operator_is_visible": {args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		if _, ok := pgData().ops[a[0].i]; !ok {
			return fnull(), nil
		}
		return fbool(true), nil
	}},
	"pg_opclass_is_visible":        inPgCatalog(func(oid int64) bool { return pgData().opclasses[oid] }),
	"pg_opfamily_is_visible":       inPgCatalog(func(oid int64) bool { return pgData().opfamilies[oid] }),
	"pg_conversion_is_visible":     notInCatalog(),
	"pg_statistics_obj_is_visible": notInCatalog(),
	"pg_ts_parser_is_visible":      notInCatalog(),
	"pg_ts_dict_is_visible":        notInCatalog(),
	"pg_ts_template_is_visible":    notInCatalog(),
	"pg_ts_config_is_visible":      notInCatalog(),
	// pg_collation's rows are all in pg_catalog (pgCollationRows).
	"pg_collation_is_visible": {args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		for _, r := range pgCollationRows() {
			if oid, ok := r["oid"].(int); ok && int64(oid) == a[0].i {
				return fbool(true), nil
			}
		}
		return fnull(), nil
	}},
	"getdatabaseencoding": {args: k0, ret: engine.Text, fn: func(*Session, []fval) (fval, error) {
		return ftext("UTF8"), nil
	}},
	// A view's definition is its query as written (pgcatalog_user.go).
	"pg_get_viewdef": {args: []argKind{argObj, argAny}, min: 1, ret: engine.Text, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		oid, ok, err := s.objOID(a[0])
		if err != nil || !ok {
			return fnull(), err
		}
		if r, ok := s.userRelByOID(oid); ok && r.view != nil {
			return ftext(viewDefinition(r.view)), nil
		}
		return fnull(), nil
	}},
	// A view's _RETURN rule (pg_rewrite's OID of it is the view's):
	// PostgreSQL's CREATE RULE text around the view's definition; the
	// view's name qualified unless pretty and visible. Any other OID
	// gives NULL.
	"pg_get_ruledef": {args: []argKind{argInt, argBool}, min: 1, ret: engine.Text, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		r, ok := s.userRelByOID(a[0].i)
		if !ok || r.view == nil {
			return fnull(), nil
		}
		pretty := len(a) > 1 && a[1].i != 0
		name := pgQuoteIdent(r.name)
		if !pretty || !s.visible(r) {
			name = pgQuoteIdent(r.schema) + "." + name
		}
		sep := " "
		if pretty {
			sep = "\n    "
		}
		return ftext(`CREATE RULE "_RETURN" AS` + sep + "ON SELECT TO " + name + " DO INSTEAD " + viewDefinition(r.view)), nil
	}},
	"pg_encoding_to_char": {args: kInt, min: 1, ret: engine.Text, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		switch a[0].i {
		case 0:
			return ftext("SQL_ASCII"), nil
		case oidEncodingUTF8:
			return ftext("UTF8"), nil
		}
		return ftext(""), nil
	}},
	// The b-tree "equal image" support functions (pg_amproc number 4):
	// whether equal values of the operator class's type are equal
	// bytes, so that an index may deduplicate. btequalimage says yes
	// for any type; btvarstrequalimage asks the call's collation, and a
	// call from SQL has none (its argument is an OID), so it fails as
	// in PostgreSQL.
	"btequalimage": {args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(*Session, []fval) (fval, error) {
		return fbool(true), nil
	}},
	"btvarstrequalimage": {args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(*Session, []fval) (fval, error) {
		return fval{}, engine.Errorf(engine.CodeIndeterminateCollation, "could not determine which collation to use for string comparison").
			WithHint("Use the COLLATE clause to set the collation explicitly.")
	}},
	"pg_char_to_encoding": {args: kText, min: 1, ret: engine.Int32, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		switch strings.ToUpper(strings.ReplaceAll(a[0].s, "-", "")) {
		case "SQL_ASCII":
			return fint(0), nil
		case "UTF8", "UNICODE":
			return fint(oidEncodingUTF8), nil
		}
		return fint(-1), nil
	}},
	// The table counters pg_stat_user_tables shows, by the table's OID
	// (DBeaver reads pg_stat_get_numscans per table and index); 0 for
	// any other OID, as in PostgreSQL.
	"pg_stat_get_numscans":        tableCounter(func(c *engine.TableCounters) int64 { return c.SeqScan.Load() }),
	"pg_stat_get_tuples_returned": tableCounter(func(c *engine.TableCounters) int64 { return c.SeqTupRead.Load() }),
	"pg_stat_get_tuples_inserted": tableCounter(func(c *engine.TableCounters) int64 { return c.TupIns.Load() }),
	// The database counters pg_stat_database shows, by the database's
	// OID (xactstats.go).
	"pg_stat_get_db_xact_commit":        dbCounter(func(_ *Session, d *engine.DatabaseCounters) int64 { return d.XactCommit.Load() }),
	"pg_stat_get_db_xact_rollback":      dbCounter(func(_ *Session, d *engine.DatabaseCounters) int64 { return d.XactRollback.Load() }),
	"pg_stat_get_db_tuples_returned":    dbCounter(func(_ *Session, d *engine.DatabaseCounters) int64 { return d.TupReturned.Load() }),
	"pg_stat_get_db_tuples_inserted":    dbCounter(func(_ *Session, d *engine.DatabaseCounters) int64 { return d.TupInserted.Load() }),
	"pg_stat_get_db_sessions":           dbCounter(func(_ *Session, d *engine.DatabaseCounters) int64 { return d.Sessions.Load() }),
	"pg_stat_get_db_sessions_abandoned": dbCounter(func(_ *Session, d *engine.DatabaseCounters) int64 { return d.SessionsAbandoned.Load() }),
	"pg_stat_get_db_sessions_fatal":     dbCounter(func(_ *Session, d *engine.DatabaseCounters) int64 { return d.SessionsFatal.Load() }),
	"pg_stat_get_db_sessions_killed":    dbCounter(func(_ *Session, d *engine.DatabaseCounters) int64 { return d.SessionsKilled.Load() }),
	"pg_stat_get_db_tuples_fetched":     dbZero(),
	"pg_stat_get_db_tuples_updated":     dbZero(),
	"pg_stat_get_db_tuples_deleted":     dbZero(),
	"pg_stat_get_db_blocks_fetched":     dbZero(),
	"pg_stat_get_db_blocks_hit":         dbZero(),
	"pg_stat_get_db_conflict_all":       dbZero(),
	"pg_stat_get_db_deadlocks":          dbZero(),
	"pg_stat_get_db_temp_files":         dbZero(),
	"pg_stat_get_db_temp_bytes":         dbZero(),
	"pg_stat_get_db_numbackends": {args: kInt, min: 1, ret: engine.Int32, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		if a[0].i != oidDatabase {
			return fint(0), nil
		}
		return fint(int64(s.srv.sessions.count())), nil
	}},
	// pg_stat_force_next_flush: gpusql's sessions count into the shared
	// counters at once, so there is nothing to flush. PostgreSQL's
	// returns void, which reads as an empty value.
	"pg_stat_force_next_flush": {args: k0, ret: engine.Text, fn: func(*Session, []fval) (fval, error) {
		return ftext(""), nil
	}},
	"pg_relation_size":       relSize(),
	"pg_table_size":          relSize(),
	"pg_total_relation_size": relSize(),
	// pg_size_pretty(bigint) and pg_size_pretty(numeric) (a sum of
	// sizes): a whole number in bigint's range reads as the bigint; a
	// fraction under 10240 is that many bytes.
	"pg_size_pretty": {args: []argKind{argAny}, min: 1, ret: engine.Text, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		switch k := a[0].kind; {
		case k == engine.KindInt16 || k == engine.KindInt32 || k == engine.KindInt64:
			n, err := strconv.ParseInt(a[0].s, 10, 64)
			if err != nil {
				return fval{}, engine.Errorf(engine.CodeInternalError, "pg_size_pretty: %v", err)
			}
			return ftext(sizePretty(n)), nil
		case k == engine.KindNumeric:
			whole, frac, _ := strings.Cut(a[0].s, ".")
			if strings.Trim(frac, "0") == "" {
				if n, err := strconv.ParseInt(whole, 10, 64); err == nil {
					return ftext(sizePretty(n)), nil
				}
			} else if f, err := strconv.ParseFloat(a[0].s, 64); err == nil && math.Abs(f) < 10240 {
				return ftext(a[0].s + " bytes"), nil
			}
			return fval{}, engine.Errorf(engine.CodeFeatureNotSupported, "pg_size_pretty(numeric) of %s is not supported by gpusql (whole numbers in bigint's range and fractions under 10240 only)", a[0].s)
		}
		t := "text"
		if a[0].kind != 0 {
			t = engine.Type{Kind: a[0].kind}.String()
		}
		return fval{}, engine.Errorf(engine.CodeUndefinedFunction, "function pg_size_pretty(%s) does not exist", t)
	}},
	"quote_ident": {args: kText, min: 1, ret: engine.Text, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		return ftext(pgQuoteIdent(a[0].s)), nil
	}},
	"quote_literal": {args: []argKind{argAny}, min: 1, ret: engine.Text, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		return ftext(quoteLiteral(castText(a[0]))), nil
	}},
	"quote_nullable": {args: []argKind{argAny}, min: 1, ret: engine.Text, fn: func(_ *Session, a []fval) (fval, error) {
		if a[0].null {
			return ftext("NULL"), nil
		}
		return ftext(quoteLiteral(castText(a[0]))), nil
	}},
	"pg_is_other_temp_schema": {args: kInt, min: 1, ret: engine.Bool, strict: true, fn: func(*Session, []fval) (fval, error) {
		return fbool(false), nil
	}},
	"pg_my_temp_schema": {args: k0, ret: engine.Int64, fn: func(*Session, []fval) (fval, error) {
		return fint(0), nil
	}},
	"pg_relation_is_publishable": {args: []argKind{argObj}, min: 1, ret: engine.Bool, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		oid, ok, err := s.objOID(a[0])
		if err != nil || !ok {
			return fnull(), err
		}
		schema, _, ok := s.relationName(oid)
		if !ok {
			return fnull(), nil
		}
		return fbool(schema == "public"), nil
	}},
	// array_to_string over an array's text form ('{a,b}'): gpusql's
	// catalog array columns are text.
	"array_to_string": {args: []argKind{argText, argText, argText}, min: 2, ret: engine.Text, fn: func(_ *Session, a []fval) (fval, error) {
		if a[0].null || a[1].null {
			return fnull(), nil
		}
		elems, err := parseTextArray(a[0].s)
		if err != nil {
			return fval{}, err
		}
		var out []string
		for _, e := range elems {
			switch {
			case e != nil:
				out = append(out, *e)
			case len(a) > 2 && !a[2].null:
				out = append(out, a[2].s)
			}
		}
		return ftext(strings.Join(out, a[1].s)), nil
	}},
	"json_build_object": {args: []argKind{argAny}, variadic: true, ret: engine.Text, fn: func(_ *Session, a []fval) (fval, error) {
		if len(a)%2 != 0 {
			return fval{}, engine.Errorf(engine.CodeInvalidParameterValue, "argument list must have even number of elements")
		}
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < len(a); i += 2 {
			if a[i].null {
				return fval{}, engine.Errorf(engine.CodeNullValueNotAllowed, "null value not allowed for object key")
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(a[i].s))
			b.WriteString(" : ")
			b.WriteString(jsonValue(a[i+1]))
		}
		b.WriteByte('}')
		return ftext(b.String()), nil
	}},
	"to_regclass":     toReg("regclass"),
	"to_regtype":      toReg("regtype"),
	"to_regnamespace": toReg("regnamespace"),
	"to_regrole":      toReg("regrole"),
	"to_regproc":      toReg("regproc"),
	// acldefault(objtype, owner): the privileges an object of the kind
	// has before any GRANT (pg_dump compares ACLs with it).
	"acldefault": {args: []argKind{argText, argInt}, min: 2, ret: engine.Text, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		owner := ""
		for _, r := range s.roles() {
			if r.oid == a[1].i {
				owner = pgQuoteIdent(r.name)
			}
		}
		if owner == "" {
			owner = strconv.FormatInt(a[1].i, 10)
		}
		priv, public := map[string]string{"c": "", "r": "arwdDxt", "s": "rwU", "d": "CTc", "f": "X", "l": "U", "L": "rw",
			"n": "UC", "p": "sA", "t": "C", "F": "U", "S": "U", "T": "U"}, map[string]string{"d": "Tc", "f": "X", "l": "U", "T": "U"}
		p, ok := priv[a[0].s]
		if !ok {
			return fval{}, engine.Errorf(engine.CodeInvalidParameterValue, "unrecognized objtype abbreviation: %s", a[0].s)
		}
		var items []string
		if pub, ok := public[a[0].s]; ok {
			items = append(items, "="+pub+"/"+owner)
		}
		if p != "" {
			items = append(items, owner+"="+p+"/"+owner)
		}
		return ftext("{" + strings.Join(items, ",") + "}"), nil
	}},
	// The built-in functions' texts are PostgreSQL's own (gen.py).
	"pg_get_function_result":             procText(func(p *pgProcRow) string { return p.result }),
	"pg_get_function_arguments":          procText(func(p *pgProcRow) string { return p.args }),
	"pg_get_function_identity_arguments": procText(func(p *pgProcRow) string { return p.identArgs }),
	"pg_is_in_recovery": {args: k0, ret: engine.Bool, fn: func(*Session, []fval) (fval, error) {
		return fbool(false), nil
	}},
	"pg_tablespace_location": {args: kInt, min: 1, ret: engine.Text, strict: true, fn: func(*Session, []fval) (fval, error) {
		return ftext(""), nil
	}},
	"format": {args: []argKind{argText, argOut}, min: 1, variadic: true, ret: engine.Text, fn: func(_ *Session, a []fval) (fval, error) {
		if a[0].null {
			return fnull(), nil
		}
		s, err := formatText(a[0].s, a[1:])
		if err != nil {
			return fval{}, err
		}
		return ftext(s), nil
	}},
}

// procText is a pg_get_function_* function: a text of the built-in
// function with the given OID, NULL for other OIDs.
func procText(text func(*pgProcRow) string) pgFunc {
	return pgFunc{args: kInt, min: 1, ret: engine.Text, strict: true, fn: func(_ *Session, a []fval) (fval, error) {
		p, ok := pgData().procs[a[0].i]
		if !ok {
			return fnull(), nil
		}
		return ftext(text(p)), nil
	}}
}

// toReg is to_regclass and friends: the OID of a name, or NULL where the
// reg* cast would fail.
func toReg(kind string) pgFunc {
	return pgFunc{args: kText, min: 1, ret: engine.Int64, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		oid, err := s.regOID(kind, a[0].s)
		if err != nil {
			return fnull(), nil
		}
		return fint(oid), nil
	}}
}

func sessionUser(s *Session, _ []fval) (fval, error) { return ftext(s.params.User), nil }

// nothing is a function that always returns NULL text.
func nothing(args []argKind, min int) pgFunc {
	return pgFunc{args: args, min: min, ret: engine.Text, fn: func(*Session, []fval) (fval, error) {
		return fnull(), nil
	}}
}

// objOID resolves an argument naming a relation by name or OID. ok is
// false for an OID that names nothing (the functions then return NULL);
// an unknown name is an error (42P01), as a regclass cast is.
func (s *Session) objOID(v fval) (int64, bool, error) {
	if !v.isText {
		_, _, ok := s.relationName(v.i)
		return v.i, ok, nil
	}
	oid, err := s.regOID("regclass", v.s)
	return oid, err == nil, err
}

// relSize is pg_relation_size and friends: the table's device bytes.
// tableCounter is pg_stat_get_*(oid) of one of a table's counters.
func tableCounter(get func(*engine.TableCounters) int64) pgFunc {
	return pgFunc{args: kInt, min: 1, ret: engine.Int64, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		if r, ok := s.userRelByOID(a[0].i); ok && r.table != nil {
			return fint(get(r.table.Counters())), nil
		}
		return fint(0), nil
	}}
}

func relSize() pgFunc {
	return pgFunc{args: kObjText, min: 1, ret: engine.Int64, strict: true, fn: func(s *Session, a []fval) (fval, error) {
		oid, ok, err := s.objOID(a[0])
		if err != nil || !ok {
			return fnull(), err
		}
		if r, ok := s.userRelByOID(oid); ok && r.table != nil {
			return fint(tableBytes(r.table)), nil
		}
		return fint(0), nil
	}}
}

// sizePretty is pg_size_pretty(bigint): bytes below 10 kB, then each unit
// while the value stays below 20480 of it, halves rounded away from zero.
func sizePretty(size int64) string {
	abs := func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	}
	if abs(size) < 10*1024 {
		return strconv.FormatInt(size, 10) + " bytes"
	}
	half := func(x int64) int64 {
		if x < 0 {
			return (x - 1) / 2
		}
		return (x + 1) / 2
	}
	// dividing (not shifting) truncates toward zero, as PostgreSQL, so
	// negative sizes mirror positive ones
	size /= 1 << 9 // one extra bit for rounding
	for _, unit := range []string{"kB", "MB", "GB", "TB"} {
		if abs(size) < 20*1024-1 {
			return strconv.FormatInt(half(size), 10) + " " + unit
		}
		size /= 1 << 10
	}
	return strconv.FormatInt(half(size), 10) + " PB"
}

// castText is an argAny value as a cast to text gives it, which is what
// PostgreSQL's quote_literal(anyelement) quotes: the output form but for
// booleans, true and false where the output says t and f (char(n) has
// already lost its padding in coerceArg's cast).
func castText(v fval) string {
	if v.kind == engine.KindBool {
		if v.s == "t" {
			return "true"
		}
		return "false"
	}
	return v.s
}

func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		return "E" + strings.ReplaceAll(q, `\`, `\\`)
	}
	return q
}

// formatText is format(fmt, args...) for %s, %I, %L and %% with optional
// argument positions (%1$s).
func formatText(f string, args []fval) (string, error) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(f) {
			return "", engine.Errorf(engine.CodeInvalidParameterValue, "unterminated format() type specifier")
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		// %n$ picks argument n.
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j > i && j < len(f) && f[j] == '$' {
			n, _ := strconv.Atoi(f[i:j])
			next = n - 1
			i = j + 1
		}
		if i >= len(f) {
			return "", engine.Errorf(engine.CodeInvalidParameterValue, "unterminated format() type specifier")
		}
		if next < 0 || next >= len(args) {
			return "", engine.Errorf(engine.CodeInvalidParameterValue, "too few arguments for format()")
		}
		a := args[next]
		next++
		switch f[i] {
		case 's':
			if !a.null {
				b.WriteString(a.s)
			}
		case 'I':
			if a.null {
				return "", engine.Errorf(engine.CodeNullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
			}
			b.WriteString(pgQuoteIdent(a.s))
		case 'L':
			if a.null {
				b.WriteString("NULL")
			} else {
				b.WriteString(quoteLiteral(a.s))
			}
		default:
			return "", engine.Errorf(engine.CodeInvalidParameterValue, "unrecognized format() type specifier %q", string(f[i]))
		}
	}
	return b.String(), nil
}

// checkSettable reports whether set_config may change a setting.
func (s *Session) checkSettable(name string) error {
	if readOnlySettings[name] {
		return engine.Errorf(engine.CodeCantChangeRuntimeParam, "parameter %q cannot be changed", name)
	}
	if !s.known(name) && !strings.Contains(name, ".") {
		return engine.Errorf(engine.CodeUndefinedObject, "unrecognized configuration parameter %q", name)
	}
	return nil
}

// extraSettings are read-only parameters current_setting knows beyond
// SHOW's.
var extraSettings = map[string]string{
	"server_version_num": "150000",
}

// jsonValue renders an argument as json_build_object does.
func jsonValue(v fval) string {
	switch {
	case v.null:
		return "null"
	case v.kind == engine.KindBool:
		if v.s == "t" {
			return "true"
		}
		return "false"
	case v.kind == engine.KindInt16 || v.kind == engine.KindInt32 || v.kind == engine.KindInt64 ||
		v.kind == engine.KindNumeric || v.kind == engine.KindFloat32 || v.kind == engine.KindFloat64:
		return v.s
	}
	b, _ := json.Marshal(v.s)
	return string(b)
}

// parseTextArray splits a one-dimensional array's text form into its
// elements (nil for NULL).
func parseTextArray(s string) ([]*string, error) {
	bad := engine.Errorf(engine.CodeInvalidTextRepresent, "malformed array literal: %q", s)
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return nil, bad
	}
	body := s[1 : len(s)-1]
	var out []*string
	if strings.TrimSpace(body) == "" {
		return out, nil
	}
	for i := 0; i <= len(body); {
		var b strings.Builder
		quoted := false
		for i < len(body) && body[i] == ' ' {
			i++
		}
		if i < len(body) && body[i] == '"' {
			quoted = true
			i++
			for i < len(body) && body[i] != '"' {
				if body[i] == '\\' && i+1 < len(body) {
					i++
				}
				b.WriteByte(body[i])
				i++
			}
			if i >= len(body) {
				return nil, bad
			}
			i++
		}
		for i < len(body) && body[i] != ',' {
			if !quoted && body[i] == '\\' && i+1 < len(body) {
				i++
			}
			b.WriteByte(body[i])
			i++
		}
		e := b.String()
		if !quoted {
			e = strings.TrimSpace(e)
		}
		if !quoted && strings.EqualFold(e, "NULL") {
			out = append(out, nil)
		} else {
			out = append(out, &e)
		}
		i++ // the comma
		if i == len(body)+1 {
			break
		}
	}
	return out, nil
}
