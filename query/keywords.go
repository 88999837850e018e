package query

import (
	"strings"

	"github.com/gpusql/gpusql/engine"
)

// pg_get_keywords(): the SQL keywords of PostgreSQL 15, which gpusql's
// dialect follows, with their category (U unreserved, C unreserved but
// not a function or type name, T reserved but a function or type name,
// R reserved) and whether they may be a column label without AS. Each
// entry is word/category then t or f.
const pgKeywords = "" +
	"abort/Ut absolute/Ut access/Ut action/Ut add/Ut admin/Ut after/Ut aggregate/Ut all/Rt " +
	"also/Ut alter/Ut always/Ut analyse/Rt analyze/Rt and/Rt any/Rt array/Rf as/Rf asc/Rt " +
	"asensitive/Ut assertion/Ut assignment/Ut asymmetric/Rt at/Ut atomic/Ut attach/Ut " +
	"attribute/Ut authorization/Tt backward/Ut before/Ut begin/Ut between/Ct bigint/Ct " +
	"binary/Tt bit/Ct boolean/Ct both/Rt breadth/Ut by/Ut cache/Ut call/Ut called/Ut " +
	"cascade/Ut cascaded/Ut case/Rt cast/Rt catalog/Ut chain/Ut char/Cf character/Cf " +
	"characteristics/Ut check/Rt checkpoint/Ut class/Ut close/Ut cluster/Ut coalesce/Ct " +
	"collate/Rt collation/Tt column/Rt columns/Ut comment/Ut comments/Ut commit/Ut " +
	"committed/Ut compression/Ut concurrently/Tt configuration/Ut conflict/Ut connection/Ut " +
	"constraint/Rt constraints/Ut content/Ut continue/Ut conversion/Ut copy/Ut cost/Ut " +
	"create/Rf cross/Tt csv/Ut cube/Ut current/Ut current_catalog/Rt current_date/Rt " +
	"current_role/Rt current_schema/Tt current_time/Rt current_timestamp/Rt current_user/Rt " +
	"cursor/Ut cycle/Ut data/Ut database/Ut day/Uf deallocate/Ut dec/Ct decimal/Ct declare/Ut " +
	"default/Rt defaults/Ut deferrable/Rt deferred/Ut definer/Ut delete/Ut delimiter/Ut " +
	"delimiters/Ut depends/Ut depth/Ut desc/Rt detach/Ut dictionary/Ut disable/Ut discard/Ut " +
	"distinct/Rt do/Rt document/Ut domain/Ut double/Ut drop/Ut each/Ut else/Rt enable/Ut " +
	"encoding/Ut encrypted/Ut end/Rt enum/Ut escape/Ut event/Ut except/Rf exclude/Ut " +
	"excluding/Ut exclusive/Ut execute/Ut exists/Ct explain/Ut expression/Ut extension/Ut " +
	"external/Ut extract/Ct false/Rt family/Ut fetch/Rf filter/Uf finalize/Ut first/Ut " +
	"float/Ct following/Ut for/Rf force/Ut foreign/Rt forward/Ut freeze/Tt from/Rf full/Tt " +
	"function/Ut functions/Ut generated/Ut global/Ut grant/Rf granted/Ut greatest/Ct group/Rf " +
	"grouping/Ct groups/Ut handler/Ut having/Rf header/Ut hold/Ut hour/Uf identity/Ut if/Ut " +
	"ilike/Tt immediate/Ut immutable/Ut implicit/Ut import/Ut in/Rt include/Ut including/Ut " +
	"increment/Ut index/Ut indexes/Ut inherit/Ut inherits/Ut initially/Rt inline/Ut inner/Tt " +
	"inout/Ct input/Ut insensitive/Ut insert/Ut instead/Ut int/Ct integer/Ct intersect/Rf " +
	"interval/Ct into/Rf invoker/Ut is/Tt isnull/Tf isolation/Ut join/Tt key/Ut label/Ut " +
	"language/Ut large/Ut last/Ut lateral/Rt leading/Rt leakproof/Ut least/Ct left/Tt level/Ut " +
	"like/Tt limit/Rf listen/Ut load/Ut local/Ut localtime/Rt localtimestamp/Rt location/Ut " +
	"lock/Ut locked/Ut logged/Ut mapping/Ut match/Ut matched/Ut materialized/Ut maxvalue/Ut " +
	"merge/Ut method/Ut minute/Uf minvalue/Ut mode/Ut month/Uf move/Ut name/Ut names/Ut " +
	"national/Ct natural/Tt nchar/Ct new/Ut next/Ut nfc/Ut nfd/Ut nfkc/Ut nfkd/Ut no/Ut " +
	"none/Ct normalize/Ct normalized/Ut not/Rt nothing/Ut notify/Ut notnull/Tf nowait/Ut " +
	"null/Rt nullif/Ct nulls/Ut numeric/Ct object/Ut of/Ut off/Ut offset/Rf oids/Ut old/Ut " +
	"on/Rf only/Rt operator/Ut option/Ut options/Ut or/Rt order/Rf ordinality/Ut others/Ut " +
	"out/Ct outer/Tt over/Uf overlaps/Tf overlay/Ct overriding/Ut owned/Ut owner/Ut " +
	"parallel/Ut parameter/Ut parser/Ut partial/Ut partition/Ut passing/Ut password/Ut " +
	"placing/Rt plans/Ut policy/Ut position/Ct preceding/Ut precision/Cf prepare/Ut " +
	"prepared/Ut preserve/Ut primary/Rt prior/Ut privileges/Ut procedural/Ut procedure/Ut " +
	"procedures/Ut program/Ut publication/Ut quote/Ut range/Ut read/Ut real/Ct reassign/Ut " +
	"recheck/Ut recursive/Ut ref/Ut references/Rt referencing/Ut refresh/Ut reindex/Ut " +
	"relative/Ut release/Ut rename/Ut repeatable/Ut replace/Ut replica/Ut reset/Ut restart/Ut " +
	"restrict/Ut return/Ut returning/Rf returns/Ut revoke/Ut right/Tt role/Ut rollback/Ut " +
	"rollup/Ut routine/Ut routines/Ut row/Ct rows/Ut rule/Ut savepoint/Ut schema/Ut schemas/Ut " +
	"scroll/Ut search/Ut second/Uf security/Ut select/Rt sequence/Ut sequences/Ut " +
	"serializable/Ut server/Ut session/Ut session_user/Rt set/Ut setof/Ct sets/Ut share/Ut " +
	"show/Ut similar/Tt simple/Ut skip/Ut smallint/Ct snapshot/Ut some/Rt sql/Ut stable/Ut " +
	"standalone/Ut start/Ut statement/Ut statistics/Ut stdin/Ut stdout/Ut storage/Ut stored/Ut " +
	"strict/Ut strip/Ut subscription/Ut substring/Ct support/Ut symmetric/Rt sysid/Ut " +
	"system/Ut table/Rt tables/Ut tablesample/Tt tablespace/Ut temp/Ut template/Ut " +
	"temporary/Ut text/Ut then/Rt ties/Ut time/Ct timestamp/Ct to/Rf trailing/Rt " +
	"transaction/Ut transform/Ut treat/Ct trigger/Ut trim/Ct true/Rt truncate/Ut trusted/Ut " +
	"type/Ut types/Ut uescape/Ut unbounded/Ut uncommitted/Ut unencrypted/Ut union/Rf unique/Rt " +
	"unknown/Ut unlisten/Ut unlogged/Ut until/Ut update/Ut user/Rt using/Rt vacuum/Ut valid/Ut " +
	"validate/Ut validator/Ut value/Ut values/Ct varchar/Ct variadic/Rt varying/Uf verbose/Tt " +
	"version/Ut view/Ut views/Ut volatile/Ut when/Rt where/Rf whitespace/Ut window/Rf with/Rf " +
	"within/Uf without/Uf work/Ut wrapper/Ut write/Ut xml/Ut xmlattributes/Ct xmlconcat/Ct " +
	"xmlelement/Ct xmlexists/Ct xmlforest/Ct xmlnamespaces/Ct xmlparse/Ct xmlpi/Ct xmlroot/Ct " +
	"xmlserialize/Ct xmltable/Ct year/Uf yes/Ut zone/Ut"

// keywordCategories are pg_get_keywords' catdesc values.
var keywordCategories = map[byte]string{
	'U': "unreserved",
	'C': "unreserved (cannot be function or type name)",
	'T': "reserved (can be function or type name)",
	'R': "reserved",
}

// keywordsSource is pg_get_keywords()'s rows: word, catcode, barelabel,
// catdesc, baredesc.
func keywordsSource(alias string) (source, error) {
	entries := strings.Fields(pgKeywords)
	n := len(entries)
	word, code, desc, bare := engine.NewVec(engine.Text, n), engine.NewVec(engine.Text, n), engine.NewVec(engine.Text, n), engine.NewVec(engine.Text, n)
	label := engine.NewVec(engine.Bool, n)
	for i, e := range entries {
		w, rest, _ := strings.Cut(e, "/")
		word.S[i] = []byte(w)
		code.S[i] = []byte(rest[:1])
		desc.S[i] = []byte(keywordCategories[rest[0]])
		if rest[1] == 't' {
			label.I[i] = 1
			bare.S[i] = []byte("can be bare label")
		} else {
			bare.S[i] = []byte("requires AS")
		}
	}
	return batchSource(alias, alias, []string{"word", "catcode", "barelabel", "catdesc", "baredesc"},
		[]engine.Type{engine.Text, engine.Text, engine.Bool, engine.Text, engine.Text},
		&engine.Batch{N: n, Cols: []*engine.Vec{word, code, label, desc, bare}})
}
