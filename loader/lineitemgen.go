package loader

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/gpusql/gpusql/engine"
)

// LineitemColumns is the schema of the TPC-H-like lineitem table that
// WriteLineitem generates, in file order.
func LineitemColumns() []engine.ColumnDef {
	n152 := engine.NumericType(15, 2)
	char := func(n int) engine.Type { return engine.Type{Kind: engine.KindChar, Len: n} }
	return []engine.ColumnDef{
		{Name: "l_orderkey", Type: engine.Int64, NotNull: true},
		{Name: "l_partkey", Type: engine.Int32, NotNull: true},
		{Name: "l_suppkey", Type: engine.Int32, NotNull: true},
		{Name: "l_linenumber", Type: engine.Int32, NotNull: true},
		{Name: "l_quantity", Type: n152, NotNull: true},
		{Name: "l_extendedprice", Type: n152, NotNull: true},
		{Name: "l_discount", Type: n152, NotNull: true},
		{Name: "l_tax", Type: n152, NotNull: true},
		{Name: "l_returnflag", Type: char(1), NotNull: true},
		{Name: "l_linestatus", Type: char(1), NotNull: true},
		{Name: "l_shipdate", Type: engine.Date, NotNull: true},
		{Name: "l_commitdate", Type: engine.Date, NotNull: true},
		{Name: "l_receiptdate", Type: engine.Date, NotNull: true},
		{Name: "l_shipinstruct", Type: char(25), NotNull: true},
		{Name: "l_shipmode", Type: char(10), NotNull: true},
		{Name: "l_comment", Type: engine.Type{Kind: engine.KindVarchar, Len: 44}, NotNull: true},
	}
}

var (
	liInstruct = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	liMode     = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	liWords    = []string{"furiously", "quickly", "carefully", "blithely", "slyly", "ironic", "final", "pending",
		"regular", "express", "bold", "even", "special", "packages", "deposits", "requests", "accounts",
		"foxes", "theodolites", "pinto", "beans", "instructions", "dependencies", "excuses", "platelets"}
)

// WriteLineitem writes rows lines of TPC-H-like lineitem CSV (no header,
// comma-delimited, LF line ends) to w, deterministically for a seed. Most
// values follow TPC-H's distributions loosely; the comment is always
// quoted and about one in four contains a comma.
func WriteLineitem(w io.Writer, rows int, seed int64) error {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	bw := bufio.NewWriterSize(w, 1<<20)
	line := make([]byte, 0, 256)
	start := engine.DaysFromCivil(1992, 1, 1)
	orderkey := int64(1)
	linenumber := 1
	for i := 0; i < rows; i++ {
		if linenumber > 1+rng.IntN(7) {
			orderkey += int64(1 + rng.IntN(4))
			linenumber = 1
		}
		qty := 1 + rng.IntN(50)
		partkey := 1 + rng.IntN(200000)
		price := int64(qty) * int64(90000+partkey%20001*10+partkey/10%1000) / 100 // cents
		ship := start + int32(rng.IntN(2526))
		line = line[:0]
		line = strconv.AppendInt(line, orderkey, 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(partkey), 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(1+rng.IntN(10000)), 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(linenumber), 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(qty), 10)
		line = append(line, ',')
		line = appendCents(line, price)
		line = append(line, ',')
		line = appendCents(line, int64(rng.IntN(11)))
		line = append(line, ',')
		line = appendCents(line, int64(rng.IntN(9)))
		line = append(line, ',')
		line = append(line, "RAN"[rng.IntN(3)], ',', "OF"[rng.IntN(2)], ',')
		line = appendDate(line, ship)
		line = append(line, ',')
		line = appendDate(line, ship+int32(rng.IntN(91))-30)
		line = append(line, ',')
		line = appendDate(line, ship+1+int32(rng.IntN(30)))
		line = append(line, ',')
		line = append(line, liInstruct[rng.IntN(len(liInstruct))]...)
		line = append(line, ',')
		line = append(line, liMode[rng.IntN(len(liMode))]...)
		line = append(line, ',', '"')
		n := 0
		for words := 2 + rng.IntN(5); words > 0; words-- {
			wd := liWords[rng.IntN(len(liWords))]
			if n+len(wd)+2 > 44 {
				break
			}
			if n > 0 {
				if rng.IntN(8) == 0 {
					line = append(line, ',')
					n++
				}
				line = append(line, ' ')
				n++
			}
			line = append(line, wd...)
			n += len(wd)
		}
		line = append(line, '"', '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
		linenumber++
	}
	return bw.Flush()
}

func appendCents(b []byte, c int64) []byte {
	b = strconv.AppendInt(b, c/100, 10)
	c %= 100
	return append(b, '.', byte('0'+c/10), byte('0'+c%10))
}

func appendDate(b []byte, days int32) []byte {
	y, m, d := engine.CivilFromDays(days)
	return append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
}
