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
	tests := []struct {
		sql  string
		want parse.Copy
	}{
		{`copy t from '/data/t.csv'`, parse.Copy{Table: "t", Path: "/data/t.csv", Options: opts(nil), Format: "csv"}},
		{`COPY public.T (A, "B") FROM STDIN`, parse.Copy{Table: "t", Columns: []string{"a", "B"}, Stdin: true, Options: opts(nil), Format: "csv"}},
		{`copy t from stdin with (format csv, header true, delimiter ';', quote '''', escape '\', null 'NULL', on_error ignore, encoding 'utf8')`,
			parse.Copy{Table: "t", Stdin: true, Format: "csv", Options: opts(func(o *engine.CSVOptions) {
				o.Header, o.Delimiter, o.Quote, o.Escape, o.Null, o.OnError = engine.HeaderSkip, ';', '\'', '\\', "NULL", engine.OnErrorIgnore
			})}},
		{`copy t from 'f' (FORMAT 'csv', HEADER, DELIMITER E'\t')`, parse.Copy{Table: "t", Path: "f", Format: "csv",
			Options: opts(func(o *engine.CSVOptions) { o.Header, o.Delimiter = engine.HeaderSkip, '\t' })}},
		{`copy t from 'f' (header match)`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderMatch })}},
		{`copy t from 'f' (header 0)`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(nil)}},
		{`copy t from 'f' (header 1)`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`copy t from 'f' (header off, on_error stop)`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(nil)}},
		{`copy t from 'f' (header on, encoding 'UTF-8')`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`copy t from 'f' (quote '|')`, parse.Copy{Table: "t", Path: "f", Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Quote, o.Escape = '|', '|' })}},
		// the old syntax, as psql's \copy sends it
		{`COPY t FROM STDIN WITH CSV HEADER DELIMITER ',' NULL ''`, parse.Copy{Table: "t", Stdin: true, Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`copy t from stdin csv header`, parse.Copy{Table: "t", Stdin: true, Format: "csv", Options: opts(func(o *engine.CSVOptions) { o.Header = engine.HeaderSkip })}},
		{`copy t from 'f' with delimiter as '|' null as 'x' csv quote as '''' escape as '\'`, parse.Copy{Table: "t", Path: "f", Format: "csv",
			Options: opts(func(o *engine.CSVOptions) { o.Delimiter, o.Null, o.Quote, o.Escape = '|', "x", '\'', '\\' })}},
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
		{`copy t to 'f'`, "0A000", "COPY TO is not supported by gpusql", 8},
		{`copy (select 1) to stdout`, "0A000", "COPY (query) TO is not supported by gpusql", 6},
		{`copy t from program 'gunzip'`, "0A000", "COPY FROM PROGRAM is not supported by gpusql", 13},
		{`copy t from 'f' where a > 1`, "0A000", "COPY FROM ... WHERE is not supported by gpusql", 17},
		{`copy t from f`, "42601", `syntax error at or near "f"`, 13},
		{`copy t (a, a) from 'f'`, "42701", `column "a" specified more than once`, 12},
		{`copy t from 'f' (format text)`, "0A000", `COPY format "text" is not supported by gpusql yet: only csv is (text format is planned)`, 18},
		{`copy t from 'f' (format binary)`, "0A000", `COPY format "binary" is not supported by gpusql yet: only csv is (text format is planned)`, 18},
		{`copy t from 'f' binary`, "0A000", `COPY format "binary" is not supported by gpusql yet: only csv is (text format is planned)`, 17},
		{`copy t from 'f' (format xml)`, "22023", `COPY format "xml" not recognized`, 18},
		{`copy t from 'f' (bogus 1)`, "42601", `option "bogus" not recognized`, 18},
		{`copy t from 'f' (header, header)`, "42601", "conflicting or redundant options", 26},
		{`copy t from 'f' (delimiter ',', DELIMITER ';')`, "42601", "conflicting or redundant options", 33},
		{`copy t from 'f' (delimiter)`, "42601", "delimiter requires a parameter", 18},
		{`copy t from 'f' (delimiter ',,')`, "0A000", "COPY delimiter must be a single one-byte character", 0},
		{`copy t from 'f' (delimiter 'é')`, "0A000", "COPY delimiter must be a single one-byte character", 0},
		{`copy t from 'f' (delimiter E'\n')`, "22023", "COPY delimiter cannot be newline or carriage return", 0},
		{`copy t from 'f' (quote '')`, "0A000", "COPY quote must be a single one-byte character", 0},
		{`copy t from 'f' (escape 'ab')`, "0A000", "COPY escape must be a single one-byte character", 0},
		{`copy t from 'f' (delimiter '"')`, "22023", "COPY delimiter and quote must be different", 0},
		{`copy t from 'f' (null 'a,b')`, "22023", "COPY delimiter must not appear in the NULL specification", 0},
		{`copy t from 'f' (null E'a\nb')`, "22023", "COPY null representation cannot use newline or carriage return", 0},
		{`copy t from 'f' (null '"')`, "22023", "CSV quote character must not appear in the NULL specification", 0},
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
