package query_test

import (
	"strings"
	"testing"

	"github.com/gpusql/gpusql/engine"
)

// The settings a client gives at startup (application_name and options)
// read as PostgreSQL's: source "client" in pg_settings, and RESET returns
// to them rather than to the built-in default.
func TestClientSettings(t *testing.T) {
	srv, _ := newTestServer(t)
	s := testSession(t, srv, engine.SessionParams{Application: "psql", Options: map[string]string{"TimeZone": "Europe/Paris"}})
	q := func(sql string) string { t.Helper(); return strings.Join(queryRows(t, s, sql), "\n") }
	const list = "SELECT name, setting, source, reset_val FROM pg_settings WHERE name IN ('application_name', 'TimeZone', 'DateStyle') ORDER BY 1"
	for _, step := range []struct{ sql, want string }{
		{list, "DateStyle|ISO, MDY|default|ISO, MDY\nTimeZone|Europe/Paris|client|Europe/Paris\napplication_name|psql|client|psql"},
		{"SET application_name = 'other'", ""},
		{"SET TimeZone = 'UTC'", ""},
		{list, "DateStyle|ISO, MDY|default|ISO, MDY\nTimeZone|UTC|session|Europe/Paris\napplication_name|other|session|psql"},
		{"RESET application_name", ""},
		{"SHOW application_name", "psql"},
		{"RESET ALL", ""},
		{list, "DateStyle|ISO, MDY|default|ISO, MDY\nTimeZone|Europe/Paris|client|Europe/Paris\napplication_name|psql|client|psql"},
		{"SELECT current_setting('application_name'), application_name FROM pg_stat_activity", "psql|psql"},
	} {
		if got := q(step.sql); step.want != "" && got != step.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", step.sql, got, step.want)
		}
	}
}

// SET in a transaction block is transactional: a rollback (or ROLLBACK
// TO) undoes it, and SET LOCAL ends with the block.
func TestSetInBlock(t *testing.T) {
	srv, _ := newTestServer(t)
	s := testSession(t, srv, engine.SessionParams{})
	q := func(sql string) string { t.Helper(); return strings.Join(queryRows(t, s, sql), "\n") }
	for _, step := range []struct{ sql, want string }{
		{"BEGIN; SET TimeZone = 'Asia/Tokyo'; ROLLBACK; SHOW TimeZone", "UTC"},
		{"BEGIN; SET LOCAL TimeZone = 'Asia/Tokyo'; COMMIT; SHOW TimeZone", "UTC"},
		{"BEGIN; SET LOCAL TimeZone = 'Asia/Tokyo'; SHOW TimeZone", "Asia/Tokyo"},
		{"COMMIT; SHOW TimeZone", "UTC"},
		{"BEGIN; SET TimeZone = 'Europe/Paris'; SAVEPOINT a; SET TimeZone = 'Asia/Tokyo'; ROLLBACK TO a; COMMIT; SHOW TimeZone", "Europe/Paris"},
		{"BEGIN; SET LOCAL TimeZone = 'Asia/Tokyo'; SET TimeZone = 'Asia/Seoul'; COMMIT; SHOW TimeZone", "Asia/Seoul"},
		// One Query of several statements is an implicit block: the
		// SET LOCAL lasts until its end, as in PostgreSQL.
		{"SET LOCAL TimeZone = 'UTC'; SHOW TimeZone", "UTC"},
		{"SHOW TimeZone", "Asia/Seoul"},
		{"SET LOCAL TimeZone = 'UTC'", ""},
		{"SHOW TimeZone", "Asia/Seoul"},
		{"BEGIN; RESET ALL; ROLLBACK; SHOW TimeZone", "Asia/Seoul"},
		{"BEGIN; SELECT set_config('TimeZone', 'UTC', true); COMMIT; SHOW TimeZone", "Asia/Seoul"},
	} {
		if got := q(step.sql); !strings.HasSuffix(got, step.want) {
			t.Errorf("%s: got %q, want %q", step.sql, got, step.want)
		}
	}
}
