package loader

import (
	"testing"

	"github.com/gpusql/gpusql/engine"
)

var fuzzCols = []engine.ColumnDef{
	{Name: "a", Type: engine.Int32},
	{Name: "b", Type: engine.Text},
	{Name: "c", Type: engine.Type{Kind: engine.KindVarchar, Len: 3}},
	{Name: "d", Type: engine.NumericType(5, 2), NotNull: true},
	{Name: "e", Type: engine.Type{Kind: engine.KindChar, Len: 2}},
}

// FuzzLoad compares the chunked loader, under several configurations,
// with the sequential reference reader.
func FuzzLoad(f *testing.F) {
	seeds := []string{
		"1,a,b,1.5,x\n2,\"q,\"\"r\",\"é\",2,y\n",
		"1,\"a\nb\",ccc,3.14,zz\r\n,,,0,\n",
		"x,a,b,1,c\n1,a,bbbb,1,c\n1,a,b,9999,c\n1,a,b,,c\n",
		"1,a,b,1,c,extra\n1,a\n1,\"unterminated\n",
		"1|a|b|1|c|\n",
		"a,b,c,d,e\n1,'x''y',z,1,2\n",
		"1,\\\"a,b,1,c\n1,\"a\\\"b\",c,1,d\n",
		"1,a\rb,c,1,d\n1,a\xffb,c,1,d\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	f.Fuzz(func(t *testing.T, input []byte, mode uint8) {
		if len(input) > 4096 {
			return
		}
		o := engine.DefaultCSVOptions()
		switch mode % 4 {
		case 1:
			o.Delimiter = '|'
		case 2:
			o.Escape = '\\'
		case 3:
			o.Quote, o.Escape = '\'', '\''
		}
		if mode&4 != 0 {
			o.OnError = engine.OnErrorIgnore
		}
		if mode&8 != 0 {
			o.Null = "NA"
		}
		switch (mode >> 4) % 3 {
		case 1:
			o.Header = engine.HeaderSkip
		case 2:
			o.Header = engine.HeaderMatch
			// the reference does not check header names: require them
			if _, _, err := refLoad(input, fuzzCols, engine.CSVOptions{Delimiter: o.Delimiter, Quote: o.Quote, Escape: o.Escape, Header: engine.HeaderNone, OnError: engine.OnErrorIgnore}); err != nil {
				return
			}
			if !headerOK(input, o) {
				return
			}
		}
		o.MaxTextWidth = 64
		checkEquivalent(t, input, fuzzCols, o, false)
	})
}

// headerOK reports whether the input starts with a header line that names
// every fuzz column exactly once (the cases HEADER MATCH accepts).
func headerOK(input []byte, o engine.CSVOptions) bool {
	res, err := loadBytes(input, []engine.ColumnDef{{Name: "a", Type: engine.Text}}, engine.CSVOptions{
		Delimiter: o.Delimiter, Quote: o.Quote, Escape: o.Escape, Header: engine.HeaderMatch, OnError: engine.OnErrorIgnore, MaxTextWidth: 1 << 16,
	}, Config{})
	if err != nil || res == nil {
		return false
	}
	for _, c := range fuzzCols[1:] {
		if _, err := loadBytes(input, []engine.ColumnDef{{Name: c.Name, Type: engine.Text}}, engine.CSVOptions{
			Delimiter: o.Delimiter, Quote: o.Quote, Escape: o.Escape, Header: engine.HeaderMatch, OnError: engine.OnErrorIgnore, MaxTextWidth: 1 << 16,
		}, Config{}); err != nil {
			return false
		}
	}
	return true
}
