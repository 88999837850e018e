package parse_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

func TestSessionStatements(t *testing.T) {
	tests := []struct {
		sql  string
		want parse.Stmt
	}{
		{`set x = 1`, &parse.Set{Name: "x", Value: "1"}},
		{`SET DateStyle TO ISO, MDY`, &parse.Set{Name: "datestyle", Value: "iso, mdy"}},
		{`set session application_name = 'My App'`, &parse.Set{Name: "application_name", Value: "My App"}},
		{`set local statement_timeout = 0`, &parse.Set{Name: "statement_timeout", Value: "0", Local: true}},
		{`set extra_float_digits = -1`, &parse.Set{Name: "extra_float_digits", Value: "-1"}},
		{`set search_path to public, "MySchema"`, &parse.Set{Name: "search_path", Value: "public, MySchema"}},
		{`set myapp.debug = on`, &parse.Set{Name: "myapp.debug", Value: "on"}},
		{`SET TIME ZONE 'UTC'`, &parse.Set{Name: "timezone", Value: "UTC"}},
		{`set time zone utc`, &parse.Set{Name: "timezone", Value: "utc"}},
		{`set time zone local`, &parse.Reset{Name: "timezone"}},
		{`set schema 'public'`, &parse.Set{Name: "search_path", Value: "public"}},
		{`set names 'UTF8'`, &parse.Set{Name: "client_encoding", Value: "UTF8"}},
		{`set work_mem to default`, &parse.Reset{Name: "work_mem"}},
		{`show x`, &parse.Show{Name: "x"}},
		{`SHOW ALL`, &parse.Show{Name: "all"}},
		{`show time zone`, &parse.Show{Name: "timezone"}},
		{`show transaction isolation level`, &parse.Show{Name: "transaction_isolation"}},
		{`show "TimeZone"`, &parse.Show{Name: "timezone"}},
		{`show server_version`, &parse.Show{Name: "server_version"}},
		{`reset x`, &parse.Reset{Name: "x"}},
		{`RESET ALL`, &parse.Reset{Name: "all"}},
		{`reset time zone`, &parse.Reset{Name: "timezone"}},
		{`begin`, &parse.Transaction{Kind: "BEGIN"}},
		{`BEGIN WORK`, &parse.Transaction{Kind: "BEGIN"}},
		{`begin transaction isolation level repeatable read, read only`, &parse.Transaction{Kind: "BEGIN", Isolation: "repeatable read"}},
		{`savepoint s`, &parse.Transaction{Kind: "SAVEPOINT", Name: "s"}},
		{`release savepoint "S"`, &parse.Transaction{Kind: "RELEASE", Name: "S"}},
		{`release s`, &parse.Transaction{Kind: "RELEASE", Name: "s"}},
		{`rollback to savepoint s`, &parse.Transaction{Kind: "ROLLBACK TO", Name: "s"}},
		{`rollback work to s`, &parse.Transaction{Kind: "ROLLBACK TO", Name: "s"}},
		{`set transaction read only`, &parse.Transaction{Kind: "SET TRANSACTION"}},
		{`set transaction isolation level serializable`, &parse.Transaction{Kind: "SET TRANSACTION", Isolation: "serializable"}},
		{`set session characteristics as transaction isolation level read committed`, &parse.Transaction{Kind: "SET CHARACTERISTICS", Isolation: "read committed"}},
		{`start transaction`, &parse.Transaction{Kind: "BEGIN"}},
		{`start transaction read write not deferrable`, &parse.Transaction{Kind: "BEGIN"}},
		{`commit`, &parse.Transaction{Kind: "COMMIT"}},
		{`commit transaction and no chain`, &parse.Transaction{Kind: "COMMIT"}},
		{`END`, &parse.Transaction{Kind: "COMMIT"}},
		{`end work`, &parse.Transaction{Kind: "COMMIT"}},
		{`rollback`, &parse.Transaction{Kind: "ROLLBACK"}},
		{`ROLLBACK WORK`, &parse.Transaction{Kind: "ROLLBACK"}},
		{`abort`, &parse.Transaction{Kind: "ROLLBACK"}},
	}
	for _, tt := range tests {
		st := parseOne(t, tt.sql)
		switch w := tt.want.(type) {
		case *parse.Set:
			w.Text = tt.sql
		case *parse.Show:
			w.Text = tt.sql
		case *parse.Reset:
			w.Text = tt.sql
		case *parse.Transaction:
			w.Text = tt.sql
		}
		if !reflect.DeepEqual(st, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.sql, st, tt.want)
		}
	}
}

func TestSessionErrors(t *testing.T) {
	tests := []struct {
		sql, code, msg string
		pos            int
	}{
		{`set x`, "42601", "syntax error at end of input", 6},
		{`set x =`, "42601", "syntax error at end of input", 8},
		{`set x = (1)`, "42601", `syntax error at or near "("`, 9},
		{`set transaction isolation level snapshot`, "42601", `syntax error at or near "snapshot"`, 33},
		{`set role admin`, "0A000", "SET ROLE is not supported by gpusql", 5},
		{`show`, "42601", "syntax error at end of input", 5},
		{`show a b`, "42601", `syntax error at or near "b"`, 8},
		{`reset`, "42601", "syntax error at end of input", 6},
		{`begin foo`, "42601", `syntax error at or near "foo"`, 7},
		{`start foo`, "42601", `syntax error at or near "foo"`, 7},
		{`commit and chain`, "0A000", "AND CHAIN is not supported by gpusql", 8},
		{`rollback to savepoint`, "42601", "syntax error at end of input", 22},
		{`commit prepared 'x'`, "0A000", "COMMIT PREPARED is not supported by gpusql", 8},
		{`savepoint`, "42601", "syntax error at end of input", 10},
		{`discard foo`, "42601", `syntax error at or near "foo"`, 9},
	}
	for _, tt := range tests {
		_, err := parse.Parse(tt.sql)
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): error %v, want *engine.Error", tt.sql, err)
			continue
		}
		if e.Code != tt.code || e.Message != tt.msg || e.Position != tt.pos {
			t.Errorf("Parse(%q) = %s %q at %d, want %s %q at %d", tt.sql, e.Code, e.Message, e.Position, tt.code, tt.msg, tt.pos)
		}
	}
}
