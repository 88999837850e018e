package query

import (
	"github.com/gpusql/gpusql/engine"
)

// The user relations as the catalog relations and functions show them:
// the tables and views of schema public, and the session's temporary
// tables and views in its schema pg_temp_N (whose namespace, with its
// pg_toast_temp_N, pg_namespace lists once the session has made it).
// Other sessions' temporary relations are not shown.

// userRel is one user relation.
type userRel struct {
	schema string // "public" or pg_temp_N
	nsp    int64  // the schema's OID
	name   string
	oid    uint32
	kind   byte // 'r' table, 'v' view
	temp   bool
	cols   []engine.ColumnDef
	table  *engine.Table // nil for a view
	view   *engine.View  // nil for a table
}

// userRels lists the user relations the session sees: public tables,
// public views, then its temporary tables and views.
func (s *Session) userRels() []userRel {
	var out []userRel
	for _, t := range s.srv.cat.Tables() {
		if s.droppedInBlock(t) {
			continue
		}
		out = append(out, userRel{schema: "public", nsp: oidPublic, name: t.Name, oid: t.OID, kind: 'r', cols: t.Columns, table: t})
	}
	views := s.srv.cat.Views(s.temp)
	for _, v := range views {
		if v.Schema == "" {
			out = append(out, userRel{schema: "public", nsp: oidPublic, name: v.Name, oid: v.OID, kind: 'v', cols: v.Columns, view: v})
		}
	}
	if s.temp == "" {
		return out
	}
	nsp := int64(s.tempOIDs[0])
	for _, t := range s.srv.cat.TempTables(s.temp) {
		if s.droppedInBlock(t) {
			continue
		}
		out = append(out, userRel{schema: s.temp, nsp: nsp, name: t.Name, oid: t.OID, kind: 'r', temp: true, cols: t.Columns, table: t})
	}
	for _, v := range views {
		if v.Schema != "" {
			out = append(out, userRel{schema: s.temp, nsp: nsp, name: v.Name, oid: v.OID, kind: 'v', temp: true, cols: v.Columns, view: v})
		}
	}
	return out
}

// userRelByOID finds a user relation by OID.
func (s *Session) userRelByOID(oid int64) (userRel, bool) {
	for _, r := range s.userRels() {
		if int64(r.oid) == oid {
			return r, true
		}
	}
	return userRel{}, false
}

// visible reports whether an unqualified name finds r (pg_table_is_visible):
// a public relation is hidden by a temporary one of its name, and by a
// catalog relation.
func (s *Session) visible(r userRel) bool {
	if r.temp {
		return true
	}
	if catalogRelation("", r.name) != nil {
		return false
	}
	if s.temp != "" {
		if t, v := s.lookup(s.temp, r.name); t != nil || v != nil {
			return false
		}
	}
	return true
}

// tempNamespaceRows are the pg_namespace rows of the session's temporary
// schema, once it exists.
func (s *Session) tempNamespaceRows() []row {
	if s.temp == "" {
		return nil
	}
	return []row{
		{"oid": int64(s.tempOIDs[0]), "nspname": s.temp, "nspowner": oidSuperuser},
		{"oid": int64(s.tempOIDs[1]), "nspname": "pg_toast_temp_" + s.temp[len("pg_temp_"):], "nspowner": oidSuperuser},
	}
}

// pgClassUserRow is the pg_class row of a user relation.
func pgClassUserRow(r userRel) row {
	persistence := "p"
	if r.temp {
		persistence = "t"
	}
	out := row{
		"oid": r.oid, "relname": r.name, "relnamespace": r.nsp, "reltype": 0, "reloftype": 0,
		"relowner": oidSuperuser, "relam": oidHeapAM, "relfilenode": r.oid, "reltablespace": 0,
		"relpages": 0, "reltuples": float32(-1), "relallvisible": 0,
		"reltoastrelid": 0, "relhasindex": false, "relisshared": false, "relpersistence": persistence,
		"relkind": string(r.kind), "relnatts": len(r.cols), "relchecks": 0, "relhasrules": r.kind == 'v',
		"relhastriggers": false, "relhassubclass": false, "relrowsecurity": false,
		"relforcerowsecurity": false, "relispopulated": true, "relreplident": "d",
		"relispartition": false, "relrewrite": 0, "relfrozenxid": 0, "relminmxid": 0,
	}
	if r.table != nil {
		out["relpages"] = int32((tableBytes(r.table) + 8191) / 8192)
		out["reltuples"] = float32(r.table.Rows())
	} else {
		out["relam"], out["relfilenode"], out["relreplident"] = 0, 0, "n"
	}
	return out
}

// viewDefinition is what pg_get_viewdef and pg_views show: the query as
// it was written (PostgreSQL shows it rebuilt from the parsed query).
func viewDefinition(v *engine.View) string { return " " + v.SQL + ";" }

// pgViewsRows are pg_views' user views (the catalog's own views have no
// definition here).
func (s *Session) pgViewsRows() []row {
	var out []row
	for _, r := range s.userRels() {
		if r.kind == 'v' {
			out = append(out, row{"schemaname": r.schema, "viewname": r.name, "viewowner": s.params.User, "definition": viewDefinition(r.view)})
		}
	}
	for _, r := range pgData().rels {
		if r.kind == 'v' {
			out = append(out, row{"schemaname": r.schema, "viewname": r.name, "viewowner": s.params.User})
		}
	}
	return out
}

// infoViewsRows are information_schema.views' user views: none is
// updatable through gpusql.
func (s *Session) infoViewsRows() []row {
	var out []row
	for _, r := range s.userRels() {
		if r.kind != 'v' {
			continue
		}
		out = append(out, row{"table_catalog": s.params.Database, "table_schema": r.schema, "table_name": r.name,
			"view_definition": viewDefinition(r.view), "check_option": "NONE", "is_updatable": "NO",
			"is_insertable_into": "NO", "is_trigger_updatable": "NO", "is_trigger_deletable": "NO",
			"is_trigger_insertable_into": "NO"})
	}
	return out
}

// A view is a relation with a rule, as in PostgreSQL: its _RETURN rule
// (pg_rewrite) is what depends on the relations the view reads
// (pg_depend), and the rule depends on the view internally. pg_dump
// orders its CREATE VIEWs by these dependencies. A rule takes its view's
// OID: OIDs need only be unique within their catalog, and gpusql
// assigns no others to rules. A dependency is on the whole relation
// (refobjsubid 0): gpusql does not record which columns a view reads.

const oidPgRewrite = 2618

// pgRewriteRows are the _RETURN rules of the session's views.
func (s *Session) pgRewriteRows() []row {
	var out []row
	for _, r := range s.userRels() {
		if r.kind == 'v' {
			out = append(out, row{"oid": int64(r.oid), "rulename": "_RETURN", "ev_class": int64(r.oid), "ev_type": "1",
				"ev_enabled": "O", "is_instead": true, "ev_qual": "<>", "ev_action": "<>"})
		}
	}
	return out
}

// pgDependRows are the dependencies of the views' rules: on their view
// ('i'), and on each relation they read ('n').
func (s *Session) pgDependRows() []row {
	rels := s.userRels()
	oids := make(map[engine.RelRef]uint32, len(rels))
	for _, r := range rels {
		schema := r.schema
		if schema == "public" {
			schema = ""
		}
		oids[engine.RelRef{Schema: schema, Name: r.name}] = r.oid
	}
	dep := func(rule, ref uint32, kind string) row {
		return row{"classid": int64(oidPgRewrite), "objid": int64(rule), "objsubid": int32(0),
			"refclassid": int64(oidPgClass), "refobjid": int64(ref), "refobjsubid": int32(0), "deptype": kind}
	}
	var out []row
	for _, r := range rels {
		if r.kind != 'v' {
			continue
		}
		out = append(out, dep(r.oid, r.oid, "i"))
		seen := map[uint32]bool{}
		for _, d := range r.view.Deps {
			if o, ok := oids[d.Rel]; ok && !seen[o] {
				seen[o] = true
				out = append(out, dep(r.oid, o, "n"))
			}
		}
	}
	return out
}
