package main

// psql against gpusql and PostgreSQL 15: the describe commands, \copy in
// and out, \timing, and Ctrl-C on a running query.

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func psqlBin() string { return filepath.Join(diffPGBinDirDefault, "psql") }

// psqlArgs are psql's connection arguments for host:port; no psqlrc, stop
// at the first error.
func psqlArgs(host, port string, extra ...string) []string {
	return append([]string{"-X", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", "postgres", "-d", "postgres"}, extra...)
}

// No SSL or GSS negotiation: the cancel test's proxy reads plain messages.
var psqlEnv = []string{"PGSSLMODE=disable", "PGGSSENCMODE=disable", "PGAPPNAME=psql", "COLUMNS=200"}

// psqlBoth runs psql with args against gpusql and against PostgreSQL.
func psqlBoth(e *clientEnv) func(t testing.TB, args ...string) (gp, pg string) {
	return func(t testing.TB, args ...string) (gp, pg string) {
		h, p := e.gpHostPort()
		gp = runClient(t, psqlEnv, psqlBin(), psqlArgs(h, p, args...)...)
		h, p = e.pgHostPort()
		pg = runClient(t, psqlEnv, psqlBin(), psqlArgs(h, p, args...)...)
		return gp, pg
	}
}

// psqlSubset requires every line of gpusql's output gp of psql command
// cmd (run with -A -t), but the empty ones and those skip (if set) passes
// over, to be a line of PostgreSQL's output pg; it returns how many
// lines it checked.
func psqlSubset(t testing.TB, cmd, gp, pg string, skip func(line string) bool) int {
	t.Helper()
	have := map[string]bool{}
	for _, l := range strings.Split(pg, "\n") {
		have[l] = true
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(gp), "\n") {
		if l == "" || skip != nil && skip(l) {
			continue
		}
		n++
		if !have[l] {
			t.Errorf("%s: gpusql lists %q, which PostgreSQL does not", cmd, l)
		}
	}
	return n
}

// psqlSameError runs psql -c cmd against gpusql and against PostgreSQL:
// it must fail on both, with the same output.
func psqlSameError(t testing.TB, e *clientEnv, cmd string) {
	t.Helper()
	h, p := e.gpHostPort()
	_, gp, err1 := runClientErr(t, psqlEnv, psqlBin(), psqlArgs(h, p, "-c", cmd)...)
	h, p = e.pgHostPort()
	_, pg, err2 := runClientErr(t, psqlEnv, psqlBin(), psqlArgs(h, p, "-c", cmd)...)
	if err1 == nil || err2 == nil {
		t.Errorf("%s: want an error from both: gpusql %v, PostgreSQL %v", cmd, err1, err2)
	}
	sameOutput(t, cmd, gp, pg)
}

func testClientPsql(t *testing.T, e *clientEnv) {
	requireClient(t, psqlBin(), "postgresql-client-15")
	both := psqlBoth(e)

	// The describe commands: the same output as PostgreSQL's for the same
	// table (\l: PostgreSQL also lists its template databases, so only the
	// postgres database's line is compared).
	for _, c := range []struct{ name, cmd string }{
		{"dt", `\dt`},
		{"d_table", `\d lineitem`},
		{"dplus_table", `\d+ lineitem`},
		{"dn", `\dn`},
		// Built-in functions: where gpusql has every overload that
		// PostgreSQL has, the listing is the same, comments included.
		{"df", `\df`},
		{"dfw_plus", `\dfw+`},
		{"df_plus_count", `\df+ count`},
		{"df_plus_date_trunc", `\df+ date_trunc`},
		{"df_plus_regexp_replace", `\df+ regexp_replace`},
		{"df_plus_stddev", `\df+ stddev*`},
		{"df_plus_now", `\df+ now`},
		// \dd lists the comments on constraints, operator classes and
		// families, rules and triggers (none here in either server); \do
		// the operators outside pg_catalog (none).
		{"dd", `\dd`},
		{"do", `\do`},
		{"dT", `\dT`},
		{"dT_plus", `\dT+ numeric`},
		{"dT_plus_types", `\dT+ int2|int4|int8|bool|text|date|time|timestamp|timestamptz|interval|varchar|bpchar|float4|float8|numeric`},
		{"dn_plus", `\dn+`},
		{"du", `\du`},
		{"dv", `\dv`},
		{"di", `\di`},
		{"ds", `\ds`},
		// Objects gpusql has none of, nor PostgreSQL outside pg_catalog
		// here: conversions, per-role settings, user mappings, extended
		// statistics, collations.
		{"dc", `\dc`},
		{"drds", `\drds`},
		{"deu", `\deu`},
		{"dX", `\dX`},
		{"dO", `\dO`},
		// Access methods with their comments; the b-tree and hash
		// operator classes and families of the types gpusql stores, and
		// their operators, where gpusql has every operator PostgreSQL's
		// family holds (regoperator output); support functions of the
		// hash families whose functions gpusql all has, and of a family
		// neither has (dAp_compare_functions below compares the b-tree
		// ones).
		{"dA_plus", `\dA+`},
		{"dA_btree", `\dA btree`},
		{"dAc_int", `\dAc btree int*`},
		{"dAc_plus_int", `\dAc+ btree int*`},
		{"dAc_bool", `\dAc * bool`},
		{"dAf_integer", `\dAf btree integer_ops`},
		{"dAf_plus_float", `\dAf+ hash float_ops`},
		{"dAo_integer", `\dAo btree integer_ops`},
		{"dAo_plus_integer", `\dAo+ btree integer_ops`},
		{"dAo_datetime", `\dAo btree datetime_ops`},
		{"dAo_float_hash", `\dAo hash float_ops`},
		// Hash families whose support functions gpusql all has.
		{"dAp_hash_integer", `\dAp hash integer_ops`},
		{"dAp_plus_hash", `\dAp+ hash float_ops|date_ops|time_ops|timestamp*_ops|bpchar_ops|integer_ops|interval_ops|numeric_ops|*pattern_ops|text_ops|bool_ops`},
		{"dAp_none", `\dAp btree nosuch`},
		{"dAp_plus_none", `\dAp+ btree nosuch`},
		// Text search: gpusql has none, so its text search catalogs are
		// empty; a pattern that matches nothing in PostgreSQL either
		// gives the same (empty) listing.
		{"dF_none", `\dF nosuch`},
		{"dFd_none", `\dFd nosuch`},
		{"dFp_none", `\dFp nosuch`},
		{"dFt_none", `\dFt nosuch`},
		{"dFd_plus_none", `\dFd+ nosuch`},
		{"dFt_plus_none", `\dFt+ nosuch`},
		// Objects neither server has outside pg_catalog (aggregates,
		// domains, foreign data, materialized views, partitioned tables,
		// publications, subscriptions, event triggers, large objects,
		// default privileges) and the tablespaces, roles and privileges.
		{"da", `\da`},
		{"db", `\db`},
		{"dD_plus", `\dD+`},
		{"ddp", `\ddp`},
		{"dE_plus", `\dE+`},
		{"des_plus", `\des+`},
		{"det_plus", `\det+`},
		{"dew_plus", `\dew+`},
		{"dg_plus", `\dg+`},
		{"du_plus", `\du+`},
		{"dl", `\dl`},
		{"lo_list", `\lo_list`},
		{"dm_plus", `\dm+`},
		{"dP", `\dP`},
		// \dP+ joins a LATERAL subquery over pg_partition_tree.
		{"dP_plus", `\dP+`},
		{"dPtn_plus", `\dPtn+`},
		{"dPin_plus", `\dPin+`},
		{"dRp", `\dRp`},
		{"dRs_plus", `\dRs+`},
		{"dy_plus", `\dy+`},
		{"dp", `\dp`},
		{"z", `\z lineitem`},
		{"dconfig_style", `\dconfig *style*`},
		{"dconfig_names", `\dconfig search_path|standard_conforming_strings|bytea_output|DateStyle|lc_c*`},
		// \sf prints pg_get_functiondef: internal functions as
		// PostgreSQL's stub over their C symbol, SQL-standard bodies as
		// PostgreSQL deparses them, window functions and support
		// functions included.
		{"sf_now", `\sf now`},
		{"sf_plus_now", `\sf+ now`},
		{"sf_lower", `\sf lower(text)`},
		{"sf_obj_description", `\sf obj_description(oid, name)`},
		{"sf_row_number", `\sf row_number`},
		{"sf_generate_series", `\sf generate_series(int, int)`},
	} {
		subtest(t, c.name, func(t testing.TB) {
			gp, pg := both(t, "-c", c.cmd)
			sameOutput(t, c.cmd, gp, pg)
			t.Logf("%s against gpusql:\n%s", c.cmd, gp)
		})
	}
	// \sf's errors: an aggregate (42809), an unknown function, an
	// ambiguous name; psql's message, then exit status 1.
	subtest(t, "sf_errors", func(t testing.TB) {
		for _, cmd := range []string{`\sf max(integer)`, `\sf nosuch`, `\sf sum`} {
			psqlSameError(t, e, cmd)
		}
	})
	// pg_get_functiondef of every built-in function gpusql has (its
	// pg_proc rows but the aggregates): PostgreSQL's text for the same
	// OID.
	subtest(t, "functiondef_all", func(t testing.TB) {
		ctx := context.Background()
		q := "SELECT oid, pg_get_functiondef(oid) FROM pg_proc WHERE prokind <> 'a' AND pronamespace = 11 ORDER BY 1"
		gc, pc := e.connectBoth(t)
		gp, err := pgExec(ctx, gc, q)
		if err != nil {
			t.Fatal(err)
		}
		// One row per OID: the definitions span lines, so each is
		// compared as a whole.
		oids := regexp.MustCompile(`(?m)^([0-9]+) \| CREATE`).FindAllStringSubmatch(gp, -1)
		if len(oids) < 200 {
			t.Fatalf("only %d functions from gpusql", len(oids))
		}
		for _, o := range oids {
			one := "SELECT pg_get_functiondef(" + o[1] + ")"
			g, err1 := pgExec(ctx, gc, one)
			p, err2 := pgExec(ctx, pc, one)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %v, %v", one, err1, err2)
			}
			if g != p {
				t.Errorf("%s differs:\n%s", one, lineDiff(g, p))
			}
		}
		t.Logf("%d definitions compared", len(oids))
	})
	// \dconfig with no pattern lists the parameters that differ from their
	// built-in defaults. PostgreSQL's list also holds what its server
	// was started with (port, data_directory, fsync, ...), which gpusql
	// has no counterpart for: every row gpusql lists must be
	// PostgreSQL's, and psql's application_name (a client setting) must
	// be among them. \dconfig * lists all parameters; gpusql knows fewer,
	// and those it knows must read as in PostgreSQL, but for the values
	// that describe the server itself.
	subtest(t, "dconfig", func(t testing.TB) {
		serverOwn := map[string]string{
			"server_version":                   "a version string",
			"client_connection_check_interval": "gpusql's -client-check-interval flag sets it; PostgreSQL's is off (0)",
		}
		for _, cmd := range []string{`\dconfig`, `\dconfig *`} {
			gp, pg := both(t, "-A", "-t", "-c", cmd)
			n := psqlSubset(t, cmd, gp, pg, func(l string) bool {
				name, _, _ := strings.Cut(l, "|")
				_, ok := serverOwn[name]
				return ok || strings.HasPrefix(name, "gpusql.")
			})
			if !strings.Contains(gp, "application_name|psql\n") {
				t.Errorf("%s: no application_name|psql in\n%s", cmd, gp)
			}
			if cmd == `\dconfig *` && n < 25 {
				t.Errorf("%s: gpusql lists only %d parameters", cmd, n)
			}
			t.Logf("%s against gpusql:\n%s", cmd, gp)
		}
	})
	// \dx: PostgreSQL 15 lists plpgsql, which initdb installs; gpusql has
	// no procedural languages, so its list is empty.
	subtest(t, "dx", func(t testing.TB) {
		gp, pg := both(t, "-A", "-t", "-c", `\dx`)
		if gp != "" || pg != "plpgsql|1.0|pg_catalog|PL/pgSQL procedural language\n" {
			t.Errorf("\\dx: gpusql %q, PostgreSQL %q", gp, pg)
		}
	})
	// \l+: the postgres database's line, but for its size (PostgreSQL's
	// counts its catalogs and files, gpusql's the bytes of its tables).
	subtest(t, "l_plus", func(t testing.TB) {
		gp, pg := both(t, "-A", "-t", "-c", `\l+`)
		line := func(out string) (string, string) {
			for _, l := range strings.Split(out, "\n") {
				cells := strings.Split(l, "|")
				if cells[0] == "postgres" && len(cells) == 11 {
					size := cells[8]
					cells[8] = "(size)"
					return strings.Join(cells, "|"), size
				}
			}
			return "", ""
		}
		g, gsize := line(gp)
		p, _ := line(pg)
		if g == "" || g != p {
			t.Errorf("\\l+: the postgres database's line differs:\n  gpusql:   %q\n  postgres: %q", g, p)
		}
		if !regexp.MustCompile(`^[0-9]+ (bytes|kB|MB)$`).MatchString(gsize) {
			t.Errorf("\\l+: size %q", gsize)
		}
		t.Logf("\\l+ against gpusql:\n%s", gp)
	})
	// Elsewhere gpusql lists a subset of PostgreSQL's overloads: every
	// aggregate and function row it shows, PostgreSQL shows too.
	// So with operators: pg_operator lists the ones gpusql has
	// (scripts/pgcatalog/probe_operators.py), with PostgreSQL's comments.
	subtest(t, "df_subset", func(t testing.TB) {
		for _, cmd := range []string{`\dfaS+`, `\dfnS+`, `\doS+`, `\do+ +`, `\do ~~*`} {
			gp, pg := both(t, "-A", "-t", "-c", cmd)
			n := psqlSubset(t, cmd, gp, pg, nil)
			if min := map[string]int{`\do+ +`: 20, `\do ~~*`: 2}[cmd]; n < 50 && (min == 0 || n < min) {
				t.Errorf("%s: gpusql lists only %d rows", cmd, n)
			}
		}
	})
	// The operator class listings in full: every row gpusql lists is
	// PostgreSQL's (gpusql has the b-tree and hash classes of its own
	// types, and of their families' operators and support functions
	// those it implements: the b-tree comparison functions and the hash
	// functions). The text search listings run and are empty.
	subtest(t, "dA_subset", func(t testing.TB) {
		for _, c := range []struct {
			cmd string
			min int
		}{{`\dAc+`, 30}, {`\dAf+`, 15}, {`\dAo+`, 150}, {`\dAp+`, 52}, {`\dAo`, 150}, {`\dAp`, 52},
			{`\dF`, 0}, {`\dFd`, 0}, {`\dFp`, 0}, {`\dFt`, 0}, {`\dFd+`, 0}, {`\dFt+`, 0}} {
			gp, pg := both(t, "-A", "-t", "-c", c.cmd)
			n := psqlSubset(t, c.cmd, gp, pg, nil)
			if n < c.min || c.min == 0 && n > 0 {
				t.Errorf("%s: gpusql lists %d rows, want %s %d", c.cmd, n, map[bool]string{true: "at least", false: "exactly"}[c.min > 0], c.min)
			}
		}
	})
	// The comparison functions (support function 1) and the equalimage
	// functions (4) of the b-tree families of gpusql's numbers,
	// booleans, dates, times and strings are all there: PostgreSQL lists
	// the same, and then its sort support (2) and in_range (3)
	// functions, which gpusql lacks.
	subtest(t, "dAp_compare_functions", func(t testing.TB) {
		for _, cmd := range []string{`\dAp+ btree integer_ops|float_ops|numeric_ops|bool_ops|datetime_ops|time_ops|interval_ops`,
			`\dAp btree integer_ops`, `\dAp+ btree text_ops|bpchar_ops|text_pattern_ops|bpchar_pattern_ops`} {
			gp, pg := both(t, "-A", "-t", "-c", cmd)
			var want []string
			for _, line := range strings.Split(strings.TrimSpace(pg), "\n") {
				if f := strings.Split(line, "|"); len(f) == 6 && (f[4] == "1" || f[4] == "4") {
					want = append(want, line)
				}
			}
			if len(want) < 9 {
				t.Fatalf("%s: PostgreSQL lists %d comparison functions:\n%s", cmd, len(want), pg)
			}
			sameOutput(t, cmd, strings.TrimSpace(gp), strings.Join(want, "\n"))
		}
	})
	// \dF+ and \dFp+ (which list each configuration's or parser's
	// details) find nothing, and say so as PostgreSQL does for a name
	// it does not have; exit status 1.
	subtest(t, "dF_plus_errors", func(t testing.TB) {
		for _, cmd := range []string{`\dF+ nosuch`, `\dFp+ nosuch`} {
			psqlSameError(t, e, cmd)
		}
	})
	// \db+: the tablespaces but for their sizes (PostgreSQL's count its
	// files; gpusql's pg_default holds its tables, pg_global nothing).
	subtest(t, "db_plus", func(t testing.TB) {
		gp, pg := both(t, "-A", "-t", "-c", `\db+`)
		size := regexp.MustCompile(`\|[0-9]+ (bytes|kB|MB|GB)\|`)
		if n := len(size.FindAllString(gp, -1)); n != 2 {
			t.Errorf("\\db+: %d sizes in\n%s", n, gp)
		}
		sameOutput(t, `\db+`, size.ReplaceAllString(gp, "|(size)|"), size.ReplaceAllString(pg, "|(size)|"))
	})
	// regoperator output (and input, read back) of every operator
	// gpusql lists, against PostgreSQL's for the same OIDs; regoper of
	// those whose name is ambiguous among gpusql's operators (qualified,
	// as in PostgreSQL; a name unique in gpusql's pg_operator may not be
	// in PostgreSQL's, which has more operators).
	subtest(t, "regoperator", func(t testing.TB) {
		ctx := context.Background()
		gc, pc := e.connectBoth(t)
		oids, err := pgExec(ctx, gc, "SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_operator")
		if err != nil {
			t.Fatal(err)
		}
		oids = strings.TrimSpace(oids)
		if strings.Count(oids, ",") < 100 {
			t.Fatalf("only %s operators", oids)
		}
		compare := func(q string) {
			g, err1 := pgExec(ctx, gc, q)
			p, err2 := pgExec(ctx, pc, q)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %v, %v", q, err1, err2)
			}
			sameOutput(t, q, g, p)
		}
		compare("SELECT oid, oid::regoperator, oid::regoperator::text::regoperator::oid = oid FROM pg_operator WHERE oid IN (" + oids + ") ORDER BY 1")
		qualified, err := pgExec(ctx, gc, "SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_operator WHERE oid::regoper::text LIKE 'pg_catalog.%'")
		if err != nil {
			t.Fatal(err)
		}
		compare("SELECT oid, oid::regoper FROM pg_operator WHERE oid IN (" + strings.TrimSpace(qualified) + ") ORDER BY 1")
	})
	subtest(t, "l", func(t testing.TB) {
		gp, pg := both(t, "-c", `\l`)
		line := func(out string) string {
			for _, l := range strings.Split(out, "\n") {
				// Cells without padding: PostgreSQL's columns are wider
				// (template0, template1).
				cells := strings.Split(l, "|")
				for i := range cells {
					cells[i] = strings.TrimSpace(cells[i])
				}
				if cells[0] == "postgres" {
					return strings.Join(cells, "|")
				}
			}
			return ""
		}
		if line(gp) == "" || line(gp) != line(pg) {
			t.Errorf(`\l: the postgres database's line differs:\n  gpusql:   %q\n  postgres: %q\ngpusql's output:\n%s`, line(gp), line(pg), gp)
		}
		t.Logf(`\l against gpusql:\n%s`, gp)
	})

	// \copy out (COPY ... TO STDOUT into a client file) and in (COPY ...
	// FROM STDIN from a client file): the same bytes out, the same rows in.
	t.Run("copy", func(t *testing.T) {
		dir := t.TempDir()
		out := func(name string) string { return filepath.Join(dir, name) }
		sel := `(SELECT l_orderkey, l_linenumber, l_quantity, l_extendedprice, l_shipdate, l_shipmode, l_comment FROM lineitem WHERE l_orderkey < 2000 ORDER BY 1, 2)`
		h, p := e.gpHostPort()
		runClient(t, psqlEnv, psqlBin(), psqlArgs(h, p, "-c", `\copy `+sel+` to '`+out("gp.csv")+`' csv header`)...)
		h, p = e.pgHostPort()
		runClient(t, psqlEnv, psqlBin(), psqlArgs(h, p, "-c", `\copy `+sel+` to '`+out("pg.csv")+`' csv header`)...)
		gpb, err1 := os.ReadFile(out("gp.csv"))
		pgb, err2 := os.ReadFile(out("pg.csv"))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		sameOutput(t, `\copy to`, string(gpb), string(pgb))
		if n := strings.Count(string(gpb), "\n"); n < 100 {
			t.Fatalf(`\copy to wrote %d lines`, n)
		}
		create := `CREATE TABLE copied (l_orderkey bigint, l_linenumber integer, l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_shipdate date, l_shipmode char(10), l_comment varchar(44))`
		check := `SELECT count(*), sum(l_quantity), sum(l_extendedprice), min(l_shipdate), max(l_comment) FROM copied`
		gp, pg := both(t, "-c", create, "-c", `\copy copied from '`+out("pg.csv")+`' csv header`, "-c", check)
		sameOutput(t, `\copy from`, gp, pg)
		t.Logf(`\copy from, then %s, against gpusql:\n%s`, check, gp)
	})

	// \timing: psql reports the time of each statement.
	t.Run("timing", func(t *testing.T) {
		q := "SELECT l_returnflag, count(*) FROM lineitem GROUP BY 1 ORDER BY 1"
		gp, pg := both(t, "-c", `\timing on`, "-c", q)
		re := regexp.MustCompile(`(?m)^Time: [0-9]+\.[0-9]{3} ms$`)
		if !re.MatchString(gp) {
			t.Fatalf(`\timing: no "Time: n.nnn ms" line in:\n%s`, gp)
		}
		strip := func(s string) string { return re.ReplaceAllString(s, "Time: (elapsed)") }
		sameOutput(t, `\timing`, strip(gp), strip(pg))
		t.Logf("against gpusql:\n%s", gp)
	})

	// Ctrl-C: SIGINT to psql while its query runs makes psql send a
	// CancelRequest on a new connection; the query ends with 57014.
	// Deterministic: psql reaches gpusql through a proxy that holds back
	// the result after its first DataRow (so the query is still running,
	// its writes blocked), the test sends SIGINT, waits until the
	// server has taken the cancel connection's request and closed it,
	// then lets the result flow again.
	t.Run("cancel", func(t *testing.T) {
		h, p := e.gpHostPort()
		px := newHoldProxy(t, net.JoinHostPort(h, p))
		ph, pp, _ := net.SplitHostPort(px.addr())
		// A result far larger than the socket buffers between gpusql and
		// the proxy (a few MiB on loopback): 20,000 rows of about 1.5 KiB.
		wide := "l_comment"
		for i := 0; i < 40; i++ {
			wide += " || l_comment"
		}
		q := "SELECT l_orderkey, " + wide + " FROM lineitem"
		cmd := exec.Command(psqlBin(), psqlArgs(ph, pp, "-c", q)...)
		cmd.Env = append(os.Environ(), psqlEnv...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case <-px.held:
		case err := <-exited:
			t.Fatalf("psql exited before any row came back: %v\n%s%s", err, stdout.String(), stderr.String())
		case <-time.After(clientTimeout):
			t.Fatal("no DataRow within the time limit")
		}
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case <-px.cancelled:
		case <-time.After(clientTimeout):
			t.Fatal("psql sent no CancelRequest")
		}
		px.release()
		var err error
		select {
		case err = <-exited:
		case <-time.After(clientTimeout):
			cmd.Process.Kill()
			t.Fatal("psql did not exit after the cancel")
		}
		msg := stderr.String()
		if err == nil || !strings.Contains(msg, "canceling statement due to user request") {
			t.Fatalf("psql: err %v, want exit status 1 and the 57014 message; stderr:\n%s", err, msg)
		}
		t.Logf("psql's stderr after Ctrl-C: %s", strings.TrimSpace(msg))
	})
}

// holdProxy forwards TCP connections to a server. On the first connection
// it stops passing the server's messages on after the first DataRow
// (closing held) until release is called. Each later connection (psql's
// CancelRequest) is forwarded and, once the server has closed it,
// reported on cancelled.
type holdProxy struct {
	ln        net.Listener
	target    string
	held      chan struct{}
	cancelled chan struct{}
	resume    chan struct{}
	once      sync.Once
	mu        sync.Mutex
	n         int
	conns     []net.Conn
}

func newHoldProxy(t *testing.T, target string) *holdProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	px := &holdProxy{ln: ln, target: target, held: make(chan struct{}), cancelled: make(chan struct{}, 4), resume: make(chan struct{})}
	go px.accept()
	t.Cleanup(func() {
		px.release()
		ln.Close()
		px.mu.Lock()
		defer px.mu.Unlock()
		for _, c := range px.conns {
			c.Close()
		}
	})
	return px
}

func (px *holdProxy) addr() string { return px.ln.Addr().String() }
func (px *holdProxy) release()     { px.once.Do(func() { close(px.resume) }) }

func (px *holdProxy) accept() {
	for {
		c, err := px.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", px.target)
		if err != nil {
			c.Close()
			continue
		}
		px.mu.Lock()
		first := px.n == 0
		px.n++
		px.conns = append(px.conns, c, s)
		px.mu.Unlock()
		go func() { io.Copy(s, c); s.(*net.TCPConn).CloseWrite() }()
		go func() {
			if first {
				px.forwardHolding(c, s)
			} else {
				io.Copy(c, s)
				px.cancelled <- struct{}{}
			}
			c.Close()
		}()
	}
}

// forwardHolding copies the server's messages to the client, pausing
// after the first DataRow until release.
func (px *holdProxy) forwardHolding(c, s net.Conn) {
	var hdr [5]byte
	holding := true
	for {
		if _, err := io.ReadFull(s, hdr[:]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(hdr[1:])) - 4
		if n < 0 {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(s, body); err != nil {
			return
		}
		if _, err := c.Write(append(hdr[:], body...)); err != nil {
			return
		}
		if holding && hdr[0] == 'D' {
			holding = false
			close(px.held)
			<-px.resume
		}
	}
}

// testClientPsqlViews: \dv lists a view, \d describes it (\d+ would
// show its definition, which PostgreSQL rebuilds from the parsed query);
// \dt lists the session's temporary table in its pg_temp schema. The
// view is dropped again. It runs after the other clients: PostgreSQL
// keeps a temporary schema once a session has made it (it lists
// pg_temp_N in information_schema.schemata from then on), gpusql only
// while the session lasts.
func testClientPsqlViews(t *testing.T, e *clientEnv) {
	requireClient(t, psqlBin(), "postgresql-client-15")
	both := psqlBoth(e)
	subtest(t, "views", func(t testing.TB) {
		gp, pg := both(t,
			"-c", `CREATE VIEW shipped AS SELECT l_orderkey, l_shipdate, l_quantity * 2 AS twice, 'x'::varchar(3) AS tag FROM lineitem`,
			"-c", `\dv`, "-c", `\d shipped`,
			"-c", `CREATE TEMP TABLE recent (k bigint NOT NULL, note varchar(20))`,
			"-c", `INSERT INTO recent SELECT l_orderkey, l_shipmode FROM lineitem WHERE l_orderkey < 100`,
			"-c", `\dt recent`, "-c", `SELECT count(*) FROM recent`,
			"-c", `DROP VIEW shipped`)
		// The temporary schema's number is the backend's in PostgreSQL.
		re := regexp.MustCompile(`pg_temp_[0-9]+`)
		gp, pg = re.ReplaceAllString(gp, "pg_temp_N"), re.ReplaceAllString(pg, "pg_temp_N")
		sameOutput(t, `\dv, \d view, \dt temporary table`, gp, pg)
		t.Logf("against gpusql:\n%s", gp)
	})
	// \d+ of a view: its columns as PostgreSQL lists them, then its
	// definition, which gpusql keeps as written (PostgreSQL deparses
	// it); the rules query (pg_get_ruledef) finds no rule but _RETURN.
	subtest(t, "view_d_plus", func(t testing.TB) {
		gp, pg := both(t,
			"-c", `CREATE VIEW ruled AS SELECT l_orderkey, l_quantity FROM lineitem WHERE l_quantity > 10`,
			"-c", `\d+ ruled`, "-c", `SELECT pg_get_ruledef(oid, true) FROM pg_rewrite WHERE ev_class = 'ruled'::regclass`,
			"-c", `DROP VIEW ruled`)
		head := func(out string) string {
			h, _, ok := strings.Cut(out, "View definition:")
			if !ok {
				t.Errorf("no view definition in\n%s", out)
			}
			return h
		}
		sameOutput(t, `\d+ view`, head(gp), head(pg))
		wrapped := regexp.MustCompile(` *\+\n`).ReplaceAllString(gp, "\n")
		for _, want := range []string{"View definition:\n SELECT l_orderkey, l_quantity FROM lineitem WHERE l_quantity > 10;",
			`CREATE RULE "_RETURN" AS` + "\n" + `     ON SELECT TO ruled DO INSTEAD  SELECT l_orderkey`} {
			if !strings.Contains(wrapped, want) {
				t.Errorf("no %q in\n%s", want, gp)
			}
		}
		t.Logf("against gpusql:\n%s", gp)
	})
}
