package hits

import "strings"

// A Column is one column of hits: its name and its type as ClickBench's
// PostgreSQL schema (postgresql/create.sql) writes it. Every column is
// NOT NULL there.
type Column struct {
	Name, Type string
}

// Columns are the 105 columns of hits in table order: the order of
// ClickBench's create.sql, of its hits.tsv and hits.csv, and of each row
// this package writes.
var Columns = []Column{
	{"WatchID", "BIGINT"},
	{"JavaEnable", "SMALLINT"},
	{"Title", "TEXT"},
	{"GoodEvent", "SMALLINT"},
	{"EventTime", "TIMESTAMP"},
	{"EventDate", "Date"},
	{"CounterID", "INTEGER"},
	{"ClientIP", "INTEGER"},
	{"RegionID", "INTEGER"},
	{"UserID", "BIGINT"},
	{"CounterClass", "SMALLINT"},
	{"OS", "SMALLINT"},
	{"UserAgent", "SMALLINT"},
	{"URL", "TEXT"},
	{"Referer", "TEXT"},
	{"IsRefresh", "SMALLINT"},
	{"RefererCategoryID", "SMALLINT"},
	{"RefererRegionID", "INTEGER"},
	{"URLCategoryID", "SMALLINT"},
	{"URLRegionID", "INTEGER"},
	{"ResolutionWidth", "SMALLINT"},
	{"ResolutionHeight", "SMALLINT"},
	{"ResolutionDepth", "SMALLINT"},
	{"FlashMajor", "SMALLINT"},
	{"FlashMinor", "SMALLINT"},
	{"FlashMinor2", "TEXT"},
	{"NetMajor", "SMALLINT"},
	{"NetMinor", "SMALLINT"},
	{"UserAgentMajor", "SMALLINT"},
	{"UserAgentMinor", "VARCHAR(255)"},
	{"CookieEnable", "SMALLINT"},
	{"JavascriptEnable", "SMALLINT"},
	{"IsMobile", "SMALLINT"},
	{"MobilePhone", "SMALLINT"},
	{"MobilePhoneModel", "TEXT"},
	{"Params", "TEXT"},
	{"IPNetworkID", "INTEGER"},
	{"TraficSourceID", "SMALLINT"},
	{"SearchEngineID", "SMALLINT"},
	{"SearchPhrase", "TEXT"},
	{"AdvEngineID", "SMALLINT"},
	{"IsArtifical", "SMALLINT"},
	{"WindowClientWidth", "SMALLINT"},
	{"WindowClientHeight", "SMALLINT"},
	{"ClientTimeZone", "SMALLINT"},
	{"ClientEventTime", "TIMESTAMP"},
	{"SilverlightVersion1", "SMALLINT"},
	{"SilverlightVersion2", "SMALLINT"},
	{"SilverlightVersion3", "INTEGER"},
	{"SilverlightVersion4", "SMALLINT"},
	{"PageCharset", "TEXT"},
	{"CodeVersion", "INTEGER"},
	{"IsLink", "SMALLINT"},
	{"IsDownload", "SMALLINT"},
	{"IsNotBounce", "SMALLINT"},
	{"FUniqID", "BIGINT"},
	{"OriginalURL", "TEXT"},
	{"HID", "INTEGER"},
	{"IsOldCounter", "SMALLINT"},
	{"IsEvent", "SMALLINT"},
	{"IsParameter", "SMALLINT"},
	{"DontCountHits", "SMALLINT"},
	{"WithHash", "SMALLINT"},
	{"HitColor", "CHAR"},
	{"LocalEventTime", "TIMESTAMP"},
	{"Age", "SMALLINT"},
	{"Sex", "SMALLINT"},
	{"Income", "SMALLINT"},
	{"Interests", "SMALLINT"},
	{"Robotness", "SMALLINT"},
	{"RemoteIP", "INTEGER"},
	{"WindowName", "INTEGER"},
	{"OpenerName", "INTEGER"},
	{"HistoryLength", "SMALLINT"},
	{"BrowserLanguage", "TEXT"},
	{"BrowserCountry", "TEXT"},
	{"SocialNetwork", "TEXT"},
	{"SocialAction", "TEXT"},
	{"HTTPError", "SMALLINT"},
	{"SendTiming", "INTEGER"},
	{"DNSTiming", "INTEGER"},
	{"ConnectTiming", "INTEGER"},
	{"ResponseStartTiming", "INTEGER"},
	{"ResponseEndTiming", "INTEGER"},
	{"FetchTiming", "INTEGER"},
	{"SocialSourceNetworkID", "SMALLINT"},
	{"SocialSourcePage", "TEXT"},
	{"ParamPrice", "BIGINT"},
	{"ParamOrderID", "TEXT"},
	{"ParamCurrency", "TEXT"},
	{"ParamCurrencyID", "SMALLINT"},
	{"OpenstatServiceName", "TEXT"},
	{"OpenstatCampaignID", "TEXT"},
	{"OpenstatAdID", "TEXT"},
	{"OpenstatSourceID", "TEXT"},
	{"UTMSource", "TEXT"},
	{"UTMMedium", "TEXT"},
	{"UTMCampaign", "TEXT"},
	{"UTMContent", "TEXT"},
	{"UTMTerm", "TEXT"},
	{"FromTag", "TEXT"},
	{"HasGCLID", "SMALLINT"},
	{"RefererHash", "BIGINT"},
	{"URLHash", "BIGINT"},
	{"CLID", "INTEGER"},
}

// CreateTable returns ClickBench's CREATE TABLE hits statement for
// PostgreSQL, which gpusql and DuckDB also take (testdata/clickbench/schema.sql
// holds the same text).
func CreateTable() string {
	var b strings.Builder
	b.WriteString("CREATE TABLE hits\n(\n")
	for i, c := range Columns {
		b.WriteString("    " + c.Name + " " + c.Type + " NOT NULL")
		if i < len(Columns)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(");\n")
	return b.String()
}
