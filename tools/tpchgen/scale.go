package main

import (
	"fmt"
	"math"
	"reflect"
	_ "unsafe" // for go:linkname

	"github.com/pingcap/go-tpc/tpch/dbgen"
)

// go-tpc's dbgen takes only whole scale factors (InitDbGen(int64), which
// initDbGen in pool.go replaces). The C dbgen it ports runs a fractional
// scale factor SF < 1 as scale 1 with every table's base row count
// multiplied by SF (driver.c: int_scale = 1000*SF; base =
// int_scale*base/1000, at least 1), so the keys that one table draws from
// another (customer keys in orders, part and supplier keys in lineitem and
// partsupp) stay inside the smaller tables. go-tpc keeps those counts in
// unexported variables, so initScale reaches them through go:linkname. The mirror below must match go-tpc v1.0.7's tDef
// field for field; go.mod pins that version, and TestSF001 fails if the
// layout ever stops matching.

// tdef mirrors dbgen.tDef (tpch/dbgen/driver.go in go-tpc v1.0.7).
type tdef struct {
	name    string
	comment string
	base    int64 // rows at scale 1 (dssHuge)
	loader  dbgen.Loader
	genSeed func(dbgen.Table, int64)
	child   dbgen.Table
	vTotal  int64
}

//go:linkname tdefs github.com/pingcap/go-tpc/tpch/dbgen.tDefs
var tdefs []tdef

//go:linkname ockeyMax github.com/pingcap/go-tpc/tpch/dbgen.ockeyMax
var ockeyMax int64

// scaleTables is the tables whose size follows the scale factor: all but
// nation and region (dbgen.TPart up to dbgen.TNation).
const scaleTables = int(dbgen.TNation)

// Per-mille steps of a fractional scale factor, as C dbgen's int_scale.
const milliScale = 1000

// checkScale reports whether sf is a scale factor that initScale takes.
func checkScale(sf float64) error {
	if sf >= 1 {
		if sf != math.Trunc(sf) {
			return fmt.Errorf("scale factor %g: above 1 it must be a whole number", sf)
		}
		return nil
	}
	milli := math.Round(sf * milliScale)
	if sf <= 0 || math.Abs(sf*milliScale-milli) > 1e-6 {
		return fmt.Errorf("scale factor %g: below 1 it must be a positive multiple of 0.001", sf)
	}
	return nil
}

// initScale initialises dbgen for scale factor sf: a whole number as
// go-tpc does, or a multiple of 0.001 below 1 as C dbgen does.
func initScale(sf float64) error {
	if err := checkScale(sf); err != nil {
		return err
	}
	if sf >= 1 {
		initDbGen(int64(sf))
		return nil
	}
	milli := int64(math.Round(sf * milliScale))
	initDbGen(1)
	if len(tdefs) != int(dbgen.TRegion)+1 {
		return fmt.Errorf("go-tpc dbgen has %d table definitions, want %d: the tdef mirror is out of date", len(tdefs), dbgen.TRegion+1)
	}
	for i := 0; i < scaleTables; i++ {
		tdefs[i].base = milli * tdefs[i].base / milliScale
		if tdefs[i].base < 1 {
			tdefs[i].base = 1
		}
	}
	// initDbGen derived these from the scale-1 counts (initOrder,
	// initLineItem); derive them again from the scaled ones.
	ockeyMax = tdefs[dbgen.TCust].base
	reflect.ValueOf(&dbgen.LPkeyMax).Elem().SetInt(tdefs[dbgen.TPart].base)
	return nil
}

// rowCount is the number of rows (orders, parts: items) of table t that
// dbgen.DbGen makes.
func rowCount(t dbgen.Table) int64 {
	n := tdefs[t].base
	if t < dbgen.TNation {
		n *= dbgenScale
	}
	return n
}
