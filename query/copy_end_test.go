package query

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gpusql/gpusql/engine"
)

func TestEndMarkerReader(t *testing.T) {
	csv := engine.DefaultCSVOptions()
	text := engine.CSVOptions{Format: engine.FormatText, Delimiter: '\t', Null: `\N`}
	bsEscape := csv
	bsEscape.Escape = '\\'
	for _, c := range []struct {
		name string
		opts engine.CSVOptions
		in   string
		want string
	}{
		{"text marker", text, "1\ta\n2\tb\n\\.\n", "1\ta\n2\tb\n"},
		{"text marker crlf", text, "1\ta\r\n\\.\r\n", "1\ta\r\n"},
		{"text marker at end", text, "1\ta\n\\.", "1\ta\n"},
		{"text marker then junk", text, "1\ta\n\\.\nnot data\n", "1\ta\n"},
		{"text no marker", text, "1\ta\n2\tb\n", "1\ta\n2\tb\n"},
		{"text lone backslash at end", text, "1\ta\n\\", "1\ta\n\\"},
		{"text escaped backslash line", text, "\\\\.\n", "\\\\.\n"},
		{"text marker first", text, "\\.\n", ""},
		{"text marker mid line is data", text, "a\\.\n", "a\\.\n"},
		{"text marker with more is data", text, "\\.x\n1\n", "\\.x\n1\n"},
		{"csv marker", csv, "1,a\n2,b\n\\.\n", "1,a\n2,b\n"},
		{"csv marker in quotes is data", csv, "1,\"x\n\\.\ny\"\n\\.\n", "1,\"x\n\\.\ny\"\n"},
		{"csv doubled quote", csv, "1,\"a\"\"\n\\.\n\"\n\\.\n", "1,\"a\"\"\n\\.\n\"\n"},
		{"csv backslash escape", bsEscape, "1,\"a\\\"\n\\.\n\"\n\\.\n", "1,\"a\\\"\n\\.\n\"\n"},
	} {
		for _, split := range []bool{false, true} {
			var src io.Reader = strings.NewReader(c.in)
			if split {
				src = iotest.OneByteReader(src)
			}
			got, err := io.ReadAll(newEndMarkerReader(src, c.opts))
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if string(got) != c.want {
				t.Errorf("%s (split %v): got %q, want %q", c.name, split, got, c.want)
			}
		}
	}
}
