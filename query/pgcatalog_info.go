package query

import (
	"strconv"
)

// information_schema's views, computed as PostgreSQL 15's view definitions
// compute them (src/backend/catalog/information_schema.sql), over the
// relations pg_class and pg_attribute report: the user tables in schema
// public and the emulated catalog relations.

// infoRel is a relation as information_schema sees it.
type infoRel struct {
	schema, name string
	kind         byte
	temp         bool
	cols         []infoCol
}

type infoCol struct {
	name    string
	typ     int64
	typmod  int32
	notNull bool
}

func (s *Session) infoRels() []infoRel {
	var out []infoRel
	for _, u := range s.userRels() {
		r := infoRel{schema: u.schema, name: u.name, kind: u.kind, temp: u.temp}
		for _, c := range u.cols {
			r.cols = append(r.cols, infoCol{c.Name, typeOIDOf(c.Type), c.Type.Typmod(), c.NotNull})
		}
		out = append(out, r)
	}
	d := pgData()
	for _, rel := range d.rels {
		r := infoRel{schema: rel.schema, name: rel.name, kind: rel.kind}
		for _, c := range d.cols[rel.oid] {
			r.cols = append(r.cols, infoCol{c.name, c.typ, c.typmod, c.notNull})
		}
		out = append(out, r)
	}
	return out
}

func (s *Session) infoSchemaRows(name string) []row {
	db := s.params.Database
	switch name {
	case "information_schema_catalog_name":
		return []row{{"catalog_name": db}}
	case "schemata":
		var out []row
		for _, n := range s.pgNamespaceRows() {
			owner := s.params.User
			if n["nspowner"] == oidDatabaseOwner {
				owner = "pg_database_owner"
			}
			out = append(out, row{"catalog_name": db, "schema_name": n["nspname"], "schema_owner": owner})
		}
		return out
	case "tables":
		var out []row
		for _, r := range s.infoRels() {
			typ, ins := "BASE TABLE", "YES"
			if r.kind == 'v' {
				typ, ins = "VIEW", "NO"
			}
			if r.temp {
				typ = "LOCAL TEMPORARY"
			}
			out = append(out, row{"table_catalog": db, "table_schema": r.schema, "table_name": r.name,
				"table_type": typ, "is_insertable_into": ins, "is_typed": "NO"})
		}
		return out
	case "views":
		return s.infoViewsRows()
	case "columns":
		var out []row
		for _, r := range s.infoRels() {
			for i, c := range r.cols {
				out = append(out, s.infoColumnRow(r, i+1, c))
			}
		}
		return out
	}
	return nil
}

// infoColumnRow is a row of information_schema.columns.
func (s *Session) infoColumnRow(r infoRel, num int, c infoCol) row {
	d := pgData()
	db := s.params.Database
	x := row{
		"table_catalog": db, "table_schema": r.schema, "table_name": r.name, "column_name": c.name,
		"ordinal_position": num, "is_nullable": "YES", "dtd_identifier": strconv.Itoa(num),
		"is_self_referencing": "NO", "is_identity": "NO", "identity_cycle": "NO", "is_generated": "NEVER",
		"is_updatable": "YES", "udt_catalog": db,
	}
	if r.kind == 'v' {
		x["is_updatable"] = "NO"
	}
	if c.notNull {
		x["is_nullable"] = "NO"
	}
	t, ok := d.types[c.typ]
	if !ok {
		return x
	}
	// A domain column describes its base type, and names the domain.
	typ, typmod := c.typ, c.typmod
	if t.typtype == 'd' {
		x["domain_catalog"], x["domain_schema"], x["domain_name"] = db, nspName(t.nsp), t.name
		typ, typmod = t.base, t.typmod
		if b, ok := d.types[typ]; ok {
			t = b
		}
	}
	switch {
	case t.elem != 0 && t.len == -1:
		x["data_type"] = "ARRAY"
	case t.nsp == oidPgCatalog:
		x["data_type"] = formatType(typ, 0, false)
	default:
		x["data_type"] = "USER-DEFINED"
	}
	x["udt_schema"], x["udt_name"] = nspName(t.nsp), t.name
	// Lengths, precisions and scales, as information_schema's
	// _pg_char_max_length, _pg_numeric_precision and friends.
	switch typ {
	case 1042, 1043: // bpchar, varchar
		if typmod != -1 {
			x["character_maximum_length"] = typmod - 4
			x["character_octet_length"] = (typmod - 4) * 4 // UTF8: at most 4 bytes a character
		} else {
			x["character_octet_length"] = 1073741824
		}
	case 25:
		x["character_octet_length"] = 1073741824
	case 21:
		x["numeric_precision"], x["numeric_precision_radix"], x["numeric_scale"] = 16, 2, 0
	case 23:
		x["numeric_precision"], x["numeric_precision_radix"], x["numeric_scale"] = 32, 2, 0
	case 20:
		x["numeric_precision"], x["numeric_precision_radix"], x["numeric_scale"] = 64, 2, 0
	case 700:
		x["numeric_precision"], x["numeric_precision_radix"] = 24, 2
	case 701:
		x["numeric_precision"], x["numeric_precision_radix"] = 53, 2
	case 1700:
		x["numeric_precision_radix"] = 10
		if typmod != -1 {
			x["numeric_precision"] = ((typmod - 4) >> 16) & 65535
			x["numeric_scale"] = (typmod - 4) & 65535
		}
	case 1082:
		x["datetime_precision"] = 0
	case 1083, 1114, 1184, 1266:
		if typmod < 0 {
			x["datetime_precision"] = 6
		} else {
			x["datetime_precision"] = typmod
		}
	case 1186:
		if typmod < 0 {
			x["datetime_precision"] = 6
		} else {
			x["datetime_precision"] = typmod & 65535
		}
	}
	// A column's collation is shown unless it is the database default.
	coll := t.collation
	if coll != 0 && coll != oidDefaultColl {
		x["collation_catalog"], x["collation_schema"] = db, "pg_catalog"
		x["collation_name"] = collationName(coll)
	}
	return x
}

func nspName(oid int64) string {
	switch oid {
	case oidPgCatalog:
		return "pg_catalog"
	case oidPgToast:
		return "pg_toast"
	case oidPublic:
		return "public"
	case oidInfoSchema:
		return "information_schema"
	}
	return ""
}

func collationName(oid int64) string {
	switch oid {
	case 100:
		return "default"
	case 950:
		return "C"
	case 951:
		return "POSIX"
	}
	return ""
}
