package parse_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

func TestCopy(t *testing.T) {
	opts := func(mod func(*engine.CSVOptions)) engine.CSVOptions {
		o := engine.DefaultCSVOptions()
		if mod != nil {
			mod(&o)
		}
		return o
	}
	text := func(mod func(*engine.CSVOptions)) engine.CSVOptions {
		o := engine.DefaultCSVOptions()
		o.Format, o.Delimiter, o.Null = engine.FormatText, '\t', `\N`
		if mod != nil {
			mod(&o)
		}
		return o
	}
	tests := []struct {
		sql  string
		want parse.Copy
	}{
		// PostgreSQL's default format is text
		{`copy t from '/data/t.csv'`, parse.Copy{Table: "t", Path: "/data/t.csv", Options: text(nil), Format: "text"}},
		{`COPY public.T (A, "B") FROM STDIN`, parse.Copy{Table: "t", Schema: "public", Columns: []string{"a", "B"}, Stdin: true, Options: text(nil), Format: "text"}},
		{`copy t from stdin (format text, delimiter '|', null '', header)`, parse.Copy{Table: "t", Stdin: true, Format: "text",
			Options: text(func(o *engine.CSVOptions) { o.Delimiter, o.Null, o.Header = '|', "", engine.HeaderSkip })}},
		{`copy t from stdin with (format csv, header true, delimiter ';', quote '''', escape '\', null 'NULL', on_error ignore, encoding 'utf8')`,
			parse.Copy{Table: "t", Stdin: true, Format: "csv", Options: opts(func(o *engine.CSVOptions) {
				o.Header, o.Delimiter, o.Quote, o.Escape, o.Null, o.OnError = engine.HeaderSkip, ';', '\'', '\\', "NULL", engine.OnErrorIgnore
			})}},
		{`copy t from 'f' (FORMAT 'csv', HEADER, DELIMITER E'\t')`, parse.Copy{Table: "t", Path: "f", Format: "csv",
			Options: opts(func(o *engine.CSVOptions) { o.Header, o.Delimiter = engine.HeaderSkip, '\t' })}},
		{`copy t from 'f' (format csv, header match)`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderMatch })}},
		{`copy t from 'f' (format csv, header 0)`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(nil)}},
		{`copy t from 'f' (format csv, header 1)`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`copy t from 'f' (format csv, header off, on_error stop)`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(nil)}},
		{`copy t from 'f' (format csv, header on, encoding 'UTF-8')`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`copy t from 'f' (format csv, quote '|')`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Quote, o.Escape = '|', '|' })}},
		// the old syntax, as psql's \copy sends it
		{`COPY t FROM STDIN WITH CSV HEADER DELIMITER ',' NULL ''`, parse.Copy{Table: "t", Stdin: true, Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`copy t from stdin csv header`, parse.Copy{Table: "t", Stdin: true, Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`copy t from 'f' with delimiter as '|' null as 'x' csv quote as '''' escape as '\'`, parse.Copy{Table: "t", Path: "f", Format: "csv",
			Options: opts(func(o *engine.CSVOptions) { o.Delimiter, o.Null, o.Quote, o.Escape = '|', "x", '\'', '\\' })}},
		{`copy t from stdin delimiter ';'`, parse.Copy{Table: "t", Stdin: true, Format: "text", Options: text(func(o *engine.CSVOptions) { o.Delimiter = ';' })}},
		// COPY TO
		{`copy t to stdout`, parse.Copy{Table: "t", To: true, Stdout: true, Options: text(nil), Format: "text"}},
		{`copy t (b, a) to '/tmp/x' (format csv, header, force_quote (a))`, parse.Copy{Table: "t", Columns: []string{"b", "a"}, To: true, Path: "/tmp/x", Format: "csv",
			ForceQuote: []string{"a"}, Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`COPY t TO STDOUT csv force quote *`, parse.Copy{Table: "t", To: true, Stdout: true, Format: "csv", ForceQuoteAll: true, Options: opts(nil)}},
		{`COPY t TO STDOUT csv force quote a, b`, parse.Copy{Table: "t", To: true, Stdout: true, Format: "csv", ForceQuote: []string{"a", "b"}, Options: opts(nil)}},
	}
	for _, tt := range tests {
		st := parseOne(t, tt.sql)
		got, ok := st.(*parse.Copy)
		tt.want.Text = tt.sql
		if !ok || !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("Parse(%q)\n got %+v\nwant %+v", tt.sql, st, tt.want)
		}
	}
}

func TestCopyErrors(t *testing.T) {
	tests := []struct {
		sql, code, msg string
		pos            int
	}{
		{`copy t to program 'gzip'`, "0A000", "COPY TO PROGRAM is not supported by gpusql", 11},
		{`copy (select 1) from stdin`, "42601", `syntax error at or near "from"`, 17},
		{`copy () to stdout`, "42601", `syntax error at or near ")"`, 7},
		{`copy t to stdout (on_error ignore)`, "0A000", "COPY ON_ERROR cannot be used with COPY TO", 0},
		{`copy t to stdout (format csv, header match)`, "0A000", `cannot use "match" with HEADER in COPY TO`, 31},
		{`copy t to stdout (force_quote *)`, "0A000", "COPY force quote available only in CSV mode", 0},
		{`copy t from stdin (format csv, force_quote (a))`, "0A000", "COPY force quote only available using COPY TO", 0},
		{`copy t from stdin (quote '|')`, "0A000", "COPY quote available only in CSV mode", 0},
		{`copy t from stdin (escape '|')`, "0A000", "COPY escape available only in CSV mode", 0},
		{`copy t from stdin (delimiter 'a')`, "22023", `COPY delimiter cannot be "a"`, 0},
		{`copy t from stdin (delimiter '\')`, "22023", `COPY delimiter cannot be "\"`, 0},
		{`copy t from stdin (null E'a\tb')`, "22023", "COPY delimiter must not appear in the NULL specification", 0},
		{`copy t from program 'gunzip'`, "0A000", "COPY FROM PROGRAM is not supported by gpusql", 13},
		{`copy t from 'f' where a > 1`, "0A000", "COPY FROM ... WHERE is not supported by gpusql", 17},
		{`copy t from f`, "42601", `syntax error at or near "f"`, 13},
		{`copy t (a, a) from 'f'`, "42701", `column "a" specified more than once`, 12},
		{`copy t from 'f' (format binary, delimiter ',')`, "42601", "cannot specify DELIMITER in BINARY mode", 0},
		{`copy t from 'f' binary null 'x'`, "42601", "cannot specify NULL in BINARY mode", 0},
		{`copy t from 'f' (format binary, on_error ignore)`, "0A000", "only ON_ERROR STOP is allowed in BINARY mode", 0},
		{`copy t from 'f' (format xml)`, "22023", `COPY format "xml" not recognized`, 18},
		{`copy t from 'f' (bogus 1)`, "42601", `option "bogus" not recognized`, 18},
		{`copy t from 'f' (header, header)`, "42601", "conflicting or redundant options", 26},
		{`copy t from 'f' (delimiter ',', DELIMITER ';')`, "42601", "conflicting or redundant options", 33},
		{`copy t from 'f' (delimiter)`, "42601", "delimiter requires a parameter", 18},
		{`copy t from 'f' (delimiter ',,')`, "0A000", "COPY delimiter must be a single one-byte character", 0},
		{`copy t from 'f' (delimiter 'é')`, "0A000", "COPY delimiter must be a single one-byte character", 0},
		{`copy t from 'f' (delimiter E'\n')`, "22023", "COPY delimiter cannot be newline or carriage return", 0},
		{`copy t from 'f' (format csv, quote '')`, "0A000", "COPY quote must be a single one-byte character", 0},
		{`copy t from 'f' (format csv, escape 'ab')`, "0A000", "COPY escape must be a single one-byte character", 0},
		{`copy t from 'f' (format csv, delimiter '"')`, "22023", "COPY delimiter and quote must be different", 0},
		{`copy t from 'f' (format csv, null 'a,b')`, "22023", "COPY delimiter must not appear in the NULL specification", 0},
		{`copy t from 'f' (null E'a\nb')`, "22023", "COPY null representation cannot use newline or carriage return", 0},
		{`copy t from 'f' (format csv, null '"')`, "22023", "CSV quote character must not appear in the NULL specification", 0},
		{`copy t from 'f' (header maybe)`, "22023", `header requires a Boolean value or "match"`, 18},
		{`copy t from 'f' (header 2)`, "22023", `header requires a Boolean value or "match"`, 18},
		{`copy t from 'f' (on_error skip)`, "22023", `COPY ON_ERROR "skip" not recognized`, 18},
		{`copy t from 'f' (encoding 'latin1')`, "0A000", `COPY encoding "latin1" is not supported by gpusql: only UTF8 is`, 18},
		{`copy t from 'f' (encoding 'klingon')`, "22023", `argument to option "encoding" must be a valid encoding name`, 18},
		{`copy t from 'f' (freeze)`, "0A000", `COPY option "freeze" is not supported by gpusql`, 18},
		{`copy t from 'f' (force_not_null (a))`, "0A000", `COPY option "force_not_null" is not supported by gpusql`, 18},
		{`copy t from 'f' csv force not null a`, "0A000", "COPY FORCE options are not supported by gpusql", 21},
		{`copy t from 'f' with`, "42601", "syntax error at end of input", 21},
		{`copy t from 'f' (delimiter ',', null '')x`, "42601", `syntax error at or near "x"`, 41},
		{`copy t from 'f' (delimiter ',' null '')`, "42601", `syntax error at or near "null"`, 32},
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
