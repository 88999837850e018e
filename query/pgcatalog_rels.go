package query

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpusql/gpusql/auth"
	"github.com/gpusql/gpusql/engine"
)

// The pg_catalog and information_schema relations are built, like the
// gpusql_* tables, as small host tables when a query names them: from the
// engine catalog (user tables, their columns and data) and the session
// (user, database, settings). Their columns are PostgreSQL 15's, in
// PostgreSQL's order (pgcatalog_spec.go, generated from a real server);
// the values are gpusql's.

// Well-known OIDs, as PostgreSQL 15 assigns them.
const (
	oidPgCatalog     = 11
	oidPgToast       = 99
	oidPublic        = 2200
	oidInfoSchema    = 13207 // information_schema (created by initdb, not fixed)
	oidSuperuser     = 10    // the bootstrap superuser: the session's user
	oidDatabaseOwner = 6171  // pg_database_owner, owner of schema public
	oidDatabase      = 5     // the session's database (postgres's in initdb)
	oidHeapAM        = 2
	oidDefaultColl   = 100
	oidDefaultTblsp  = 1663
	oidPgClass       = 1259
	oidPgNamespace   = 2615
	oidPgProc        = 1255
	oidPgType        = 1247
	oidPgDatabase    = 1262
	oidEncodingUTF8  = 6
)

// pgRel is one emulated relation as PostgreSQL 15 declares it.
type pgRel struct {
	oid    int64
	schema string
	name   string
	kind   byte   // relkind: 'r' table, 'v' view
	cols   string // "name typeoid[:typmod][!]", comma-separated; ! is NOT NULL
}

// pgTypeRow is a pg_type row (the columns gpusql does not vary).
type pgTypeRow struct {
	oid                                                int64
	name                                               string
	nsp                                                int64
	len                                                int16
	byval                                              bool
	typtype, category                                  byte
	preferred                                          bool
	delim                                              byte
	relid                                              int64
	subscript                                          string
	elem, array                                        int64
	input, output, receive, send, modin, modout, analy string
	align, storage                                     byte
	base                                               int64
	typmod, ndims                                      int32
	collation                                          int64
	def                                                *string
	descr                                              string // PostgreSQL's comment, shown by \dT+
}

// pgProcRow is a pg_proc row of a function gpusql implements.
type pgProcRow struct {
	oid                     int64
	name                    string
	kind                    byte
	strict, retset          bool
	volatile                byte
	variadic                int64
	nargs, ndefaults        int16
	rettype                 int64
	argtypes                string
	allargs, modes, argname *string
	src                     string
	parallel                byte
	descr                   string  // PostgreSQL's comment, shown by \df+
	lang                    int64   // pg_language OID: 12 internal, 14 sql
	sqlbody                 *string // a SQL-standard body, as pg_get_function_sqlbody shows it
	// PostgreSQL's pg_get_function_arguments, _identity_arguments and
	// _result texts (defaults, OUT arguments and ORDER BY included).
	args, identArgs, result string
	// procost, prorows, prosupport, proleakproof and prosecdef
	// (pg_get_functiondef prints them).
	cost, rows        float32
	support           string
	leakproof, secdef bool
}

func sp(s string) *string { return &s }

// pgCol is a parsed column of a pgRel.
type pgCol struct {
	name    string
	typ     int64 // PostgreSQL type OID
	typmod  int32
	notNull bool
	t       engine.Type // how gpusql stores it
}

// pgCatalogData is the parsed, immutable form of the generated tables.
type pgCatalogData struct {
	rels    []pgRel
	cols    map[int64][]pgCol // by relation OID
	byName  map[string]*pgRel // "schema.name"
	byOID   map[int64]*pgRel
	types   map[int64]*pgTypeRow
	typeOrd []*pgTypeRow
	procs   map[int64]*pgProcRow
	ops     map[int64]*pgOperatorRow
	// opclasses and opfamilies are the OIDs of pgOpclasses and
	// pgOpfamilies.
	opclasses, opfamilies map[int64]bool
	// opCodeDescr is the comment of each operator's function by its
	// name (pg_operator.oprcode), for obj_description(oprcode, 'pg_proc').
	opCodeDescr map[string]string
}

// pgOpfamilyRow, pgOpclassRow and pgAmopRow are rows of pg_opfamily,
// pg_opclass and pg_amop (all in pg_catalog, owned by the superuser).
type pgOpfamilyRow struct {
	oid, method int64
	name        string
}

type pgOpclassRow struct {
	oid, method   int64
	name          string
	family, input int64
	isDefault     bool
	keyType       int64
}

type pgAmopRow struct {
	oid, family, left, right int64
	strategy                 int16
	purpose                  byte
	opr, method, sortFamily  int64
}

// pgAmprocRow is a pg_amproc row: a support function (by name, as the
// regproc column shows it) of an operator family, for the given types.
type pgAmprocRow struct {
	oid, family, left, right int64
	num                      int16
	proc                     string
}

// pgOperatorRow is a pg_operator row of an operator gpusql implements.
type pgOperatorRow struct {
	oid                 int64
	name                string
	kind                byte
	canMerge, canHash   bool
	left, right, result int64
	com, negate         int64
	code, rest, join    string
	descr, codeDescr    string
}

var pgData = sync.OnceValue(func() *pgCatalogData {
	d := &pgCatalogData{
		rels: pgRels, cols: map[int64][]pgCol{}, byName: map[string]*pgRel{}, byOID: map[int64]*pgRel{},
		types: map[int64]*pgTypeRow{}, procs: map[int64]*pgProcRow{},
		ops: map[int64]*pgOperatorRow{}, opCodeDescr: map[string]string{},
		opclasses: map[int64]bool{}, opfamilies: map[int64]bool{},
	}
	for _, c := range pgOpclasses {
		d.opclasses[c.oid] = true
	}
	for _, f := range pgOpfamilies {
		d.opfamilies[f.oid] = true
	}
	for i := range pgOperators {
		o := &pgOperators[i]
		d.ops[o.oid] = o
		if o.codeDescr != "" {
			d.opCodeDescr[o.code] = o.codeDescr
		}
	}
	for i := range pgTypes {
		d.types[pgTypes[i].oid] = &pgTypes[i]
		d.typeOrd = append(d.typeOrd, &pgTypes[i])
	}
	for i := range pgProcs {
		d.procs[pgProcs[i].oid] = &pgProcs[i]
	}
	for i := range d.rels {
		r := &d.rels[i]
		d.byName[r.schema+"."+r.name] = r
		d.byOID[r.oid] = r
		var cols []pgCol
		for _, f := range strings.Split(r.cols, ",") {
			name, spec, _ := strings.Cut(f, " ")
			c := pgCol{name: name, typmod: -1}
			if strings.HasSuffix(spec, "!") {
				c.notNull = true
				spec = spec[:len(spec)-1]
			}
			if ts, tm, ok := strings.Cut(spec, ":"); ok {
				spec = ts
				m, _ := strconv.Atoi(tm)
				c.typmod = int32(m)
			}
			c.typ, _ = strconv.ParseInt(spec, 10, 64)
			c.t = d.storageType(c.typ)
			cols = append(cols, c)
		}
		d.cols[r.oid] = cols
	}
	return d
})

// storageType is the gpusql type of a catalog column of PostgreSQL type
// oid: OIDs and xids as bigint; name, "char", reg* names, arrays and
// everything else without a gpusql counterpart as text; a domain as its
// base type.
func (d *pgCatalogData) storageType(oid int64) engine.Type {
	if t, ok := d.types[oid]; ok && t.typtype == 'd' {
		oid = t.base
	}
	switch oid {
	case engine.OIDBool:
		return engine.Bool
	case engine.OIDInt2:
		return engine.Int16
	case engine.OIDInt4:
		return engine.Int32
	case engine.OIDInt8, 26, 28: // int8, oid, xid
		return engine.Int64
	case engine.OIDFloat4:
		return engine.Float32
	case engine.OIDFloat8:
		return engine.Float64
	case engine.OIDTimestamp, 1184: // timestamp, timestamptz
		return engine.Timestamp
	}
	return engine.Text
}

// typeOIDOf is the PostgreSQL type OID of a user column's type.
func typeOIDOf(t engine.Type) int64 { return int64(t.OID()) }

// row is one catalog row by column name; a missing column is NULL.
type row map[string]any

// catalogTable builds the host table of relation rel from rows.
func catalogTable(rel *pgRel, rows []row) (source, error) {
	d := pgData()
	cols := d.cols[rel.oid]
	h := &hostBuilder{}
	for _, c := range cols {
		w := 0 // the longest string, for text columns
		for _, r := range rows {
			if s, ok := r[c.name].(string); ok {
				w = max(w, len(s))
			}
		}
		col := engine.NewColumn(c.t, len(rows), w, true)
		for i, r := range rows {
			v, ok := r[c.name]
			if !ok || v == nil {
				col.SetNull(i)
				continue
			}
			if err := setCell(col, i, v); err != nil {
				return source{}, engine.Errorf(engine.CodeInternalError, "%s.%s: column %s: %v", rel.schema, rel.name, c.name, err)
			}
		}
		h.add(c.name, c.t, col)
	}
	for _, r := range rows {
		for k := range r {
			if !hasCol(cols, k) {
				return source{}, engine.Errorf(engine.CodeInternalError, "%s.%s has no column %s", rel.schema, rel.name, k)
			}
		}
	}
	h.n = len(rows)
	src := h.source(rel.schema + "." + rel.name)
	src.oid = uint32(rel.oid)
	return src, nil
}

func hasCol(cols []pgCol, name string) bool {
	for _, c := range cols {
		if c.name == name {
			return true
		}
	}
	return false
}

// setCell stores a Go value (bool, string, or any integer or float) in
// row i of c.
func setCell(c *engine.Column, i int, v any) error {
	var n int64
	var f float64
	isNum := true
	switch x := v.(type) {
	case int:
		n, f = int64(x), float64(x)
	case int16:
		n, f = int64(x), float64(x)
	case int32:
		n, f = int64(x), float64(x)
	case int64:
		n, f = x, float64(x)
	case uint32:
		n, f = int64(x), float64(x)
	case float32:
		n, f = int64(x), float64(x)
	case float64:
		n, f = int64(x), x
	default:
		isNum = false
	}
	bad := fmt.Errorf("unexpected value %v (%T)", v, v)
	switch k := c.Type.Kind; {
	case k == engine.KindBool:
		b, ok := v.(bool)
		if !ok {
			return bad
		}
		if b {
			c.B[i] = 1
		}
	case k == engine.KindText:
		s, ok := v.(string)
		if !ok {
			return bad
		}
		copy(c.Str[i*c.Width:], s)
	case !isNum:
		return bad
	case k == engine.KindInt16:
		c.I16[i] = int16(n)
	case k == engine.KindInt32:
		c.I32[i] = int32(n)
	case k == engine.KindInt64, k == engine.KindTimestamp, k == engine.KindTimestampTZ, k == engine.KindTime:
		c.I64[i] = n
	case k == engine.KindFloat32:
		c.F32[i] = float32(f)
	case k == engine.KindFloat64:
		c.F64[i] = f
	default:
		return bad
	}
	return nil
}

// catalogRelation returns the relation schema.name ("" searches
// pg_catalog), or nil.
func catalogRelation(schema, name string) *pgRel {
	d := pgData()
	if schema == "" {
		schema = "pg_catalog"
	}
	return d.byName[schema+"."+name]
}

// rowsOf builds the rows of rel for this session.
func (s *Session) rowsOf(rel *pgRel) []row {
	if rel.schema == "information_schema" {
		return s.infoSchemaRows(rel.name)
	}
	switch rel.name {
	case "pg_namespace":
		return s.pgNamespaceRows()
	case "pg_class":
		return s.pgClassRows()
	case "pg_attribute":
		return s.pgAttributeRows()
	case "pg_type":
		return pgTypeRows()
	case "pg_database":
		return s.pgDatabaseRows()
	case "pg_roles", "pg_authid", "pg_user", "pg_shadow":
		return s.pgRoleRows(rel.name)
	case "pg_auth_members":
		return s.pgAuthMembersRows()
	case "pg_settings":
		return s.pgSettingsRows()
	case "pg_stat_activity":
		return s.pgStatActivityRows()
	case "pg_stat_database":
		return s.pgStatDatabaseRows()
	case "pg_am":
		return pgAmRows()
	case "pg_collation":
		return pgCollationRows()
	case "pg_tablespace":
		return []row{
			{"oid": 1663, "spcname": "pg_default", "spcowner": oidSuperuser},
			{"oid": 1664, "spcname": "pg_global", "spcowner": oidSuperuser},
		}
	case "pg_proc":
		return pgProcRows(s.ownerName())
	case "pg_tables":
		return s.pgTablesRows()
	case "pg_language":
		return []row{
			{"oid": 12, "lanname": "internal", "lanowner": oidSuperuser, "lanispl": false, "lanpltrusted": false, "lanplcallfoid": 0, "laninline": 0, "lanvalidator": 2246},
			{"oid": 13, "lanname": "c", "lanowner": oidSuperuser, "lanispl": false, "lanpltrusted": false, "lanplcallfoid": 0, "laninline": 0, "lanvalidator": 2247},
			{"oid": 14, "lanname": "sql", "lanowner": oidSuperuser, "lanispl": false, "lanpltrusted": true, "lanplcallfoid": 0, "laninline": 0, "lanvalidator": 2248},
		}
	case "pg_stat_user_tables", "pg_statio_user_tables":
		return s.pgStatTablesRows(rel.name)
	case "pg_views":
		return s.pgViewsRows()
	case "pg_operator":
		return pgOperatorRows()
	case "pg_opfamily", "pg_opclass", "pg_amop", "pg_amproc":
		return pgOpclassRows(rel.name)
	case "pg_description":
		out := procDescriptionRows()
		for i := range pgOperators {
			if o := &pgOperators[i]; o.descr != "" {
				out = append(out, row{"objoid": o.oid, "classoid": int64(2617), "objsubid": int32(0), "description": o.descr})
			}
		}
		for _, t := range pgData().typeOrd {
			if t.descr != "" {
				out = append(out, row{"objoid": t.oid, "classoid": int64(1247), "objsubid": int32(0), "description": t.descr})
			}
		}
		for _, oid := range []int64{oidPgCatalog, oidPgToast, oidPublic} {
			out = append(out, row{"objoid": oid, "classoid": int64(2615), "objsubid": int32(0), "description": namespaceDescriptions[oid]})
		}
		for _, a := range pgAms {
			out = append(out, row{"objoid": a.oid, "classoid": int64(2601), "objsubid": int32(0), "description": a.descr})
		}
		return out
	case "pg_rewrite":
		return s.pgRewriteRows()
	case "pg_depend":
		return s.pgDependRows()
	case "pg_init_privs":
		// The initial ACLs of the schemas that come with the database,
		// as PostgreSQL lists them: pg_dump compares nspacl with them
		// and dumps GRANTs for any difference.
		var out []row
		for _, n := range s.pgNamespaceRows() {
			if oid := toInt64(n["oid"]); oid == oidPgCatalog || oid == oidPublic {
				out = append(out, row{"objoid": oid, "classoid": int64(2615), "objsubid": int32(0), "privtype": "i", "initprivs": n["nspacl"]})
			}
		}
		return out
	case "pg_shdescription":
		if d := s.databaseDescription(oidDatabase); d != "" {
			return []row{{"objoid": int64(oidDatabase), "classoid": int64(1262), "description": d}}
		}
		return nil
	}
	// Everything else (pg_index, pg_constraint, pg_description, ...):
	// gpusql has no such objects.
	return nil
}

func (s *Session) pgNamespaceRows() []row {
	return append([]row{
		{"oid": oidPgCatalog, "nspname": "pg_catalog", "nspowner": oidSuperuser, "nspacl": "{" + s.params.User + "=UC/" + s.params.User + ",=U/" + s.params.User + "}"},
		{"oid": oidPgToast, "nspname": "pg_toast", "nspowner": oidSuperuser},
		{"oid": oidPublic, "nspname": "public", "nspowner": oidDatabaseOwner, "nspacl": "{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}"},
		{"oid": oidInfoSchema, "nspname": "information_schema", "nspowner": oidSuperuser, "nspacl": "{" + s.params.User + "=UC/" + s.params.User + ",=U/" + s.params.User + "}"},
	}, s.tempNamespaceRows()...)
}

func nspOID(schema string) int64 {
	switch schema {
	case "pg_catalog":
		return oidPgCatalog
	case "information_schema":
		return oidInfoSchema
	}
	return oidPublic
}

// tableBytes is the device bytes a table's data takes.
func tableBytes(t *engine.Table) int64 {
	_, b := t.Stats()
	return b
}

func (s *Session) pgClassRows() []row {
	var out []row
	for _, r := range s.userRels() {
		x := pgClassUserRow(r)
		if acl := s.aclOf(r.name); acl != "" && !r.temp {
			x["relacl"] = acl
		}
		out = append(out, x)
	}
	d := pgData()
	for i := range d.rels {
		r := &d.rels[i]
		am := 0
		if r.kind == 'r' {
			am = oidHeapAM
		}
		out = append(out, row{
			"oid": r.oid, "relname": r.name, "relnamespace": nspOID(r.schema), "reltype": 0, "reloftype": 0,
			"relowner": oidSuperuser, "relam": am, "relfilenode": 0, "reltablespace": 0,
			"relpages": 0, "reltuples": float32(-1), "relallvisible": 0,
			"reltoastrelid": 0, "relhasindex": false, "relisshared": false, "relpersistence": "p",
			"relkind": string(r.kind), "relnatts": len(d.cols[r.oid]), "relchecks": 0, "relhasrules": r.kind == 'v',
			"relhastriggers": false, "relhassubclass": false, "relrowsecurity": false,
			"relforcerowsecurity": false, "relispopulated": true, "relreplident": "n",
			"relispartition": false, "relrewrite": 0, "relfrozenxid": 0, "relminmxid": 0,
		})
	}
	return out
}

// attRow is the pg_attribute row of column num (from 1) of a relation.
func attRow(relid int64, num int, name string, typ int64, typmod int32, notNull bool) row {
	r := row{
		"attrelid": relid, "attname": name, "atttypid": typ, "attstattarget": -1, "attnum": num,
		"attndims": 0, "attcacheoff": -1, "atttypmod": typmod, "attcompression": "",
		"attnotnull": notNull, "atthasdef": false, "atthasmissing": false, "attidentity": "",
		"attgenerated": "", "attisdropped": false, "attislocal": true, "attinhcount": 0, "attcollation": 0,
	}
	if t, ok := pgData().types[typ]; ok {
		r["attlen"], r["attbyval"], r["attalign"], r["attstorage"] = t.len, t.byval, string(t.align), string(t.storage)
		r["attcollation"] = t.collation
		if t.category == 'A' {
			r["attndims"] = 1
		}
	}
	return r
}

func (s *Session) pgAttributeRows() []row {
	var out []row
	for _, r := range s.userRels() {
		if r.kind == 'r' {
			out = systemAttRows(out, int64(r.oid))
		}
		for i, c := range r.cols {
			out = append(out, attRow(int64(r.oid), i+1, c.Name, typeOIDOf(c.Type), c.Type.Typmod(), c.NotNull))
		}
	}
	d := pgData()
	for _, r := range d.rels {
		if r.kind == 'r' {
			out = systemAttRows(out, r.oid)
		}
		for i, c := range d.cols[r.oid] {
			out = append(out, attRow(r.oid, i+1, c.name, c.typ, c.typmod, c.notNull))
		}
	}
	return out
}

// systemAttRows appends the rows of a table's system columns, which
// PostgreSQL lists in pg_attribute with negative numbers (clients that
// list columns skip them by attnum > 0). Of them gpusql reads tableoid
// only.
func systemAttRows(out []row, relid int64) []row {
	for _, c := range []struct {
		name string
		num  int
		typ  int64
	}{{"tableoid", -6, 26}, {"cmax", -5, 29}, {"xmax", -4, 28}, {"cmin", -3, 29}, {"xmin", -2, 28}, {"ctid", -1, 27}} {
		r := attRow(relid, c.num, c.name, c.typ, -1, true)
		r["attstattarget"] = 0
		out = append(out, r)
	}
	return out
}

func pgTypeRows() []row {
	var out []row
	for _, t := range pgData().typeOrd {
		r := row{
			"oid": t.oid, "typname": t.name, "typnamespace": t.nsp, "typowner": oidSuperuser,
			"typlen": t.len, "typbyval": t.byval, "typtype": string(t.typtype), "typcategory": string(t.category),
			"typispreferred": t.preferred, "typisdefined": true, "typdelim": string(t.delim), "typrelid": t.relid,
			"typsubscript": t.subscript, "typelem": t.elem, "typarray": t.array, "typinput": t.input,
			"typoutput": t.output, "typreceive": t.receive, "typsend": t.send, "typmodin": t.modin,
			"typmodout": t.modout, "typanalyze": t.analy, "typalign": string(t.align), "typstorage": string(t.storage),
			"typnotnull": false, "typbasetype": t.base, "typtypmod": t.typmod, "typndims": t.ndims,
			"typcollation": t.collation,
		}
		if t.def != nil {
			r["typdefault"] = *t.def
		}
		out = append(out, r)
	}
	return out
}

func (s *Session) pgDatabaseRows() []row {
	return []row{{
		"oid": oidDatabase, "datname": s.params.Database, "datdba": oidSuperuser, "encoding": oidEncodingUTF8,
		"datlocprovider": "c", "datistemplate": false, "datallowconn": true, "datconnlimit": -1,
		"datfrozenxid": 0, "datminmxid": 1, "dattablespace": oidDefaultTblsp, "datcollate": "C", "datctype": "C",
	}}
}

// catRole is a role as the catalogs show it.
type catRole struct {
	oid          int64
	name         string
	login, super bool
	password     string // the verifier, "" for none
	readFiles    bool   // member of pg_read_server_files
	writeFiles   bool   // member of pg_write_server_files
}

// roles are the roles of the store (auth.Store), the bootstrap
// superuser at OID 10; pg_database_owner, which owns schema public; and
// pg_read_server_files. A session whose user names no role (--auth
// trust) sees OID 10 under its own name, as it acts as that superuser.
func (s *Session) roles() []catRole {
	_, found := s.role()
	var out []catRole
	for _, r := range s.roleState().Roles() {
		c := catRole{oid: int64(r.OID), name: r.Name, login: r.Login, super: r.Superuser, password: r.Password, readFiles: r.ReadFiles, writeFiles: r.WriteFiles}
		if r.OID == auth.BootstrapOID && !found {
			c.name = s.params.User
		}
		out = append(out, c)
	}
	return append(out, catRole{oid: oidDatabaseOwner, name: "pg_database_owner"},
		catRole{oid: auth.ReadFilesOID, name: auth.ReadFilesRole}, catRole{oid: auth.WriteFilesOID, name: auth.WriteFilesRole})
}

func (s *Session) pgRoleRows(rel string) []row {
	var out []row
	showPW := s.superuser()
	for _, r := range s.roles() {
		super := r.super
		var pw any
		if showPW && r.password != "" {
			pw = r.password
		}
		switch rel {
		case "pg_user", "pg_shadow":
			if !r.login {
				continue
			}
			x := row{"usename": r.name, "usesysid": r.oid, "usecreatedb": super, "usesuper": super,
				"userepl": super, "usebypassrls": super}
			if rel == "pg_user" {
				x["passwd"] = "********"
			} else if pw != nil {
				x["passwd"] = pw
			}
			out = append(out, x)
		default:
			x := row{"oid": r.oid, "rolname": r.name, "rolsuper": super, "rolinherit": true,
				"rolcreaterole": super, "rolcreatedb": super, "rolcanlogin": r.login, "rolreplication": super,
				"rolconnlimit": -1, "rolbypassrls": super}
			if rel == "pg_roles" {
				x["rolpassword"] = "********"
			} else if pw != nil {
				x["rolpassword"] = pw
			}
			out = append(out, x)
		}
	}
	return out
}

// pgAuthMembersRows are the members of pg_read_server_files and
// pg_write_server_files, granted by
// the bootstrap superuser.
func (s *Session) pgAuthMembersRows() []row {
	var out []row
	for _, r := range s.roles() {
		if r.readFiles {
			out = append(out, row{"roleid": int64(auth.ReadFilesOID), "member": r.oid, "grantor": int64(auth.BootstrapOID), "admin_option": false})
		}
		if r.writeFiles {
			out = append(out, row{"roleid": int64(auth.WriteFilesOID), "member": r.oid, "grantor": int64(auth.BootstrapOID), "admin_option": false})
		}
	}
	return out
}

func (s *Session) pgSettingsRows() []row {
	var out []row
	for _, name := range s.settingNames() {
		v := s.setting(name)
		ctx := "user"
		if readOnlySettings[name] {
			ctx = "internal"
		}
		vartype := "string"
		switch v {
		case "on", "off":
			vartype = "bool"
		}
		if _, err := strconv.ParseInt(v, 10, 64); err == nil {
			vartype = "integer"
		}
		shown := name
		if p, ok := settingNames[name]; ok {
			shown = p
		}
		src, reset := "default", defaultSettings[name]
		if c, ok := s.client[name]; ok {
			src, reset = "client", c
		}
		if _, ok := s.settings[name]; ok {
			src = "session"
		}
		out = append(out, row{
			"name": shown, "setting": v, "category": "gpusql", "short_desc": "", "context": ctx,
			"vartype": vartype, "source": src, "boot_val": defaultSettings[name], "reset_val": reset,
			"pending_restart": false,
		})
	}
	return out
}

// pgAms are PostgreSQL's access methods, with their comments (\dA+).
var pgAms = []struct {
	oid           int64
	name, handler string
	kind          string
	descr         string
}{{2, "heap", "heap_tableam_handler", "t", "heap table access method"},
	{403, "btree", "bthandler", "i", "b-tree index access method"},
	{405, "hash", "hashhandler", "i", "hash index access method"},
	{783, "gist", "gisthandler", "i", "GiST index access method"},
	{2742, "gin", "ginhandler", "i", "GIN index access method"},
	{3580, "brin", "brinhandler", "i", "block range index (BRIN) access method"},
	{4000, "spgist", "spghandler", "i", "SP-GiST index access method"}}

func pgAmRows() []row {
	var out []row
	for _, a := range pgAms {
		out = append(out, row{"oid": a.oid, "amname": a.name, "amhandler": a.handler, "amtype": a.kind})
	}
	return out
}

// amDescription is an access method's comment, or "".
func amDescription(oid int64) string {
	for _, a := range pgAms {
		if a.oid == oid {
			return a.descr
		}
	}
	return ""
}

func pgCollationRows() []row {
	return []row{
		{"oid": 100, "collname": "default", "collnamespace": oidPgCatalog, "collowner": oidSuperuser,
			"collprovider": "d", "collisdeterministic": true, "collencoding": -1},
		{"oid": 950, "collname": "C", "collnamespace": oidPgCatalog, "collowner": oidSuperuser,
			"collprovider": "c", "collisdeterministic": true, "collencoding": -1, "collcollate": "C", "collctype": "C"},
		{"oid": 951, "collname": "POSIX", "collnamespace": oidPgCatalog, "collowner": oidSuperuser,
			"collprovider": "c", "collisdeterministic": true, "collencoding": -1, "collcollate": "POSIX", "collctype": "POSIX"},
	}
}

// procOwnerOnly are the built-in functions whose EXECUTE PostgreSQL
// revokes from PUBLIC (the statistics resets, statreset.go): only
// superusers may call them, and proacl says so.
var procOwnerOnly = map[int64]bool{2274: true, 3775: true, 3776: true, 3777: true}

// pgProcRows lists pg_proc; owner names OID 10 in the ACLs.
func pgProcRows(owner string) []row {
	var out []row
	for i := range pgProcs {
		p := &pgProcs[i]
		r := row{
			"oid": p.oid, "proname": p.name, "pronamespace": oidPgCatalog, "proowner": oidSuperuser,
			"prolang": p.lang, "procost": p.cost, "prorows": p.rows, "provariadic": p.variadic, "prosupport": p.support,
			"prokind": string(p.kind), "prosecdef": p.secdef, "proleakproof": p.leakproof, "proisstrict": p.strict,
			"proretset": p.retset, "provolatile": string(p.volatile), "proparallel": string(p.parallel), "pronargs": p.nargs,
			"pronargdefaults": p.ndefaults, "prorettype": p.rettype, "proargtypes": p.argtypes, "prosrc": p.src,
		}
		if p.allargs != nil {
			r["proallargtypes"] = *p.allargs
		}
		if p.modes != nil {
			r["proargmodes"] = *p.modes
		}
		if p.argname != nil {
			r["proargnames"] = *p.argname
		}
		if procOwnerOnly[p.oid] {
			r["proacl"] = "{" + pgACLName(owner) + "=X/" + pgACLName(owner) + "}"
		}
		out = append(out, r)
	}
	return out
}

func pgOperatorRows() []row {
	out := make([]row, 0, len(pgOperators))
	for i := range pgOperators {
		o := &pgOperators[i]
		out = append(out, row{
			"oid": o.oid, "oprname": o.name, "oprnamespace": oidPgCatalog, "oprowner": oidSuperuser,
			"oprkind": string(o.kind), "oprcanmerge": o.canMerge, "oprcanhash": o.canHash, "oprleft": o.left,
			"oprright": o.right, "oprresult": o.result, "oprcom": o.com, "oprnegate": o.negate,
			"oprcode": o.code, "oprrest": o.rest, "oprjoin": o.join,
		})
	}
	return out
}

// pgOpclassRows are the rows of pg_opfamily, pg_opclass, pg_amop or
// pg_amproc.
func pgOpclassRows(rel string) []row {
	var out []row
	switch rel {
	case "pg_opfamily":
		for _, f := range pgOpfamilies {
			out = append(out, row{"oid": f.oid, "opfmethod": f.method, "opfname": f.name,
				"opfnamespace": oidPgCatalog, "opfowner": oidSuperuser})
		}
	case "pg_opclass":
		for _, c := range pgOpclasses {
			out = append(out, row{"oid": c.oid, "opcmethod": c.method, "opcname": c.name, "opcnamespace": oidPgCatalog,
				"opcowner": oidSuperuser, "opcfamily": c.family, "opcintype": c.input, "opcdefault": c.isDefault,
				"opckeytype": c.keyType})
		}
	case "pg_amop":
		for _, o := range pgAmops {
			out = append(out, row{"oid": o.oid, "amopfamily": o.family, "amoplefttype": o.left, "amoprighttype": o.right,
				"amopstrategy": o.strategy, "amoppurpose": string(o.purpose), "amopopr": o.opr, "amopmethod": o.method,
				"amopsortfamily": o.sortFamily})
		}
	case "pg_amproc":
		for _, p := range pgAmprocs {
			out = append(out, row{"oid": p.oid, "amprocfamily": p.family, "amproclefttype": p.left,
				"amprocrighttype": p.right, "amprocnum": p.num, "amproc": p.proc})
		}
	}
	return out
}

// procDescription is a built-in function's comment, "" if none.
func procDescription(oid int64) string {
	if p := pgData().procs[oid]; p != nil {
		return p.descr
	}
	return ""
}

// procDescriptionRows are the pg_description rows of the built-in
// functions' comments.
func procDescriptionRows() []row {
	var out []row
	for i := range pgProcs {
		if p := &pgProcs[i]; p.descr != "" {
			out = append(out, row{"objoid": p.oid, "classoid": int64(oidPgProc), "objsubid": int32(0), "description": p.descr})
		}
	}
	return out
}

func (s *Session) pgTablesRows() []row {
	var out []row
	add := func(schema, name string) {
		out = append(out, row{"schemaname": schema, "tablename": name, "tableowner": s.params.User,
			"hasindexes": false, "hasrules": false, "hastriggers": false, "rowsecurity": false})
	}
	for _, r := range s.userRels() {
		if r.kind == 'r' {
			add(r.schema, r.name)
		}
	}
	for _, r := range pgData().rels {
		if r.kind == 'r' {
			add(r.schema, r.name)
		}
	}
	return out
}

func (s *Session) pgStatTablesRows(rel string) []row {
	var out []row
	for _, u := range s.userRels() {
		if u.kind != 'r' {
			continue
		}
		r := row{"relid": u.oid, "schemaname": u.schema, "relname": u.name}
		if rel == "pg_stat_user_tables" {
			// The counters are the table's (engine.TableCounters).
			// gpusql has no indexes, UPDATE, DELETE or dead rows, and
			// neither VACUUM nor ANALYZE, whose counters stay 0 and
			// whose times NULL; with no VACUUM, every inserted row is
			// one inserted since the last.
			c := u.table.Counters()
			ins := c.TupIns.Load()
			r["n_live_tup"], r["n_dead_tup"], r["n_tup_ins"] = u.table.Rows(), 0, ins
			r["seq_scan"], r["seq_tup_read"] = c.SeqScan.Load(), c.SeqTupRead.Load()
			r["n_tup_upd"], r["n_tup_del"], r["n_tup_hot_upd"] = 0, 0, 0
			r["n_mod_since_analyze"], r["n_ins_since_vacuum"] = c.ModSinceAnalyze.Load(), ins
			r["vacuum_count"], r["autovacuum_count"], r["analyze_count"], r["autoanalyze_count"] = 0, 0, 0, 0
		} else {
			r["heap_blks_read"], r["heap_blks_hit"] = 0, 0
		}
		out = append(out, r)
	}
	return out
}

// settingNames lists the parameters SHOW ALL shows, sorted.
// settingNames are the settings SHOW ALL and pg_settings list: every one
// SHOW knows but is_superuser, which PostgreSQL lists in neither.
func (s *Session) settingNames() []string {
	names := []string{"server_version", "gpusql.device", "gpusql.version", "gpusql.file_root", "client_connection_check_interval"}
	for k := range defaultSettings {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
