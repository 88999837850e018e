package main

import (
	"fmt"
	"strings"
	_ "unsafe" // for go:linkname

	"github.com/pingcap/go-tpc/tpch/dbgen"
	"github.com/pingcap/go-tpc/tpch/dbgen/dist"
)

// go-tpc's InitDbGen spends 13 to 17 s of every run building dbgen's 300 MB
// text pool (misc.go initTextPool: sentences from random stream 5, a few
// allocations per word), whatever the scale factor. initDbGen does what
// InitDbGen does, but builds the same pool with buildTextPool, which draws
// the same random numbers from the same stream without the allocations
// (about 1.5 s). TestTextPool checks the two pools are equal byte for byte,
// and that stream 5 ends in the same state.
//
// InitDbGen also appends to its word lists on every call (dist.go readDist),
// so a second InitDbGen in one process picks other words; initDbGen reads
// them once per process.

// seed mirrors dbgen.Seed (rand.go).
type seed struct {
	table    dbgen.Table
	value    int64
	usage    int64
	boundary int64
}

//go:linkname seeds github.com/pingcap/go-tpc/tpch/dbgen.seeds
var seeds [48]seed

//go:linkname szTextPool github.com/pingcap/go-tpc/tpch/dbgen.szTextPool
var szTextPool []byte

//go:linkname dbgenScale github.com/pingcap/go-tpc/tpch/dbgen.scale
var dbgenScale int64

//go:linkname initSeeds github.com/pingcap/go-tpc/tpch/dbgen.initSeeds
func initSeeds()

//go:linkname initDists github.com/pingcap/go-tpc/tpch/dbgen.initDists
func initDists()

//go:linkname initTDefs github.com/pingcap/go-tpc/tpch/dbgen.initTDefs
func initTDefs()

//go:linkname initOrder github.com/pingcap/go-tpc/tpch/dbgen.initOrder
func initOrder()

//go:linkname initLineItem github.com/pingcap/go-tpc/tpch/dbgen.initLineItem
func initLineItem()

// goTPCTextPool is go-tpc's own pool builder, for TestTextPool.
//
//go:linkname goTPCTextPool github.com/pingcap/go-tpc/tpch/dbgen.initTextPool
func goTPCTextPool()

// genTbl makes rows [start, start+count) of a table (driver.go).
//
//go:linkname genTbl github.com/pingcap/go-tpc/tpch/dbgen.genTbl
func genTbl(t dbgen.Table, start, count int64) error

var distsRead bool

// initDbGen is dbgen.InitDbGen(sc) with the faster text pool.
func initDbGen(sc int64) {
	dbgenScale = sc
	initSeeds()
	if !distsRead {
		initDists()
		distsRead = true
	}
	buildTextPool()
	initTDefs()
	initOrder()
	initLineItem()
}

const (
	textPoolSize = 300 * 1024 * 1024 // misc.go textPoolSize
	poolStream   = 5                 // initTextPool's txtSentence(5)
)

// pickList is a dbgen distribution with a table from the drawn weight
// j (1..max) to the member that pickStr returns: the first whose
// cumulative weight is >= j.
type pickList struct {
	words []string
	byJ   []uint8 // byJ[j] = member index, j in 1..max
	max   int64
}

func newPickList(name string) *pickList {
	d := dist.Maps[name]
	if len(d) == 0 || len(d) > 256 {
		panic(fmt.Sprintf("tpchgen: dbgen distribution %q has %d members", name, len(d)))
	}
	p := &pickList{}
	var cum []int64
	for _, it := range d {
		p.max += int64(it.Weight)
		cum = append(cum, p.max)
		p.words = append(p.words, it.Text)
	}
	p.byJ = make([]uint8, p.max+1)
	pos := 0
	for j := int64(1); j <= p.max; j++ {
		for cum[pos] < j {
			pos++
		}
		p.byJ[j] = uint8(pos)
	}
	return p
}

// syntaxItem is one space-separated item of a grammar, np or vp syntax:
// its letter and the punctuation after it, if any.
type syntaxItem struct {
	kind, suffix byte
}

func splitSyntax(p *pickList) [][]syntaxItem {
	out := make([][]syntaxItem, len(p.words))
	for i, s := range p.words {
		for _, it := range strings.Split(s, " ") {
			si := syntaxItem{kind: it[0]}
			if len(it) > 1 {
				si.suffix = it[1]
			}
			out[i] = append(out[i], si)
		}
	}
	return out
}

// poolGen replays misc.go txtSentence, txtNp and txtVp on one stream.
type poolGen struct {
	value, calls int64
	grammar, np, vp, prepositions, terminators *pickList
	grammarItems, npItems, vpItems             [][]syntaxItem
	npWords, vpWords                           [256]*pickList
}

// pick is pickStr: random(1, max) as rand.go unifInt draws it, then the
// member.
func (g *poolGen) pick(p *pickList) int {
	g.value = g.value * 16807 % 2147483647
	g.calls++
	j := 1 + int64(float64(g.value)/2147483647.0*float64(p.max))
	return int(p.byJ[j])
}

func (g *poolGen) phrase(b []byte, items [][]syntaxItem, syntax *pickList, words *[256]*pickList) []byte {
	for _, it := range items[g.pick(syntax)] {
		src := words[it.kind]
		b = append(b, src.words[g.pick(src)]...)
		if it.suffix != 0 {
			b = append(b, it.suffix)
		}
		b = append(b, ' ')
	}
	return b
}

func (g *poolGen) sentence(b []byte) []byte {
	for _, it := range g.grammarItems[g.pick(g.grammar)] {
		switch it.kind {
		case 'V':
			b = g.phrase(b, g.vpItems, g.vp, &g.vpWords)
		case 'N':
			b = g.phrase(b, g.npItems, g.np, &g.npWords)
		case 'P':
			b = append(b, g.prepositions.words[g.pick(g.prepositions)]...)
			b = append(b, " the "...)
			b = g.phrase(b, g.npItems, g.np, &g.npWords)
		case 'T':
			b = b[:len(b)-1]
			b = append(b, g.terminators.words[g.pick(g.terminators)]...)
		default:
			panic("tpchgen: unknown grammar item")
		}
		if it.suffix != 0 {
			b = append(b, it.suffix)
		}
	}
	return b
}

// buildTextPool sets szTextPool as misc.go initTextPool does, and leaves
// stream 5 as it would.
func buildTextPool() {
	g := &poolGen{
		value:        seeds[poolStream].value,
		grammar:      newPickList("grammar"),
		np:           newPickList("np"),
		vp:           newPickList("vp"),
		prepositions: newPickList("prepositions"),
		terminators:  newPickList("terminators"),
	}
	g.grammarItems = splitSyntax(g.grammar)
	g.npItems = splitSyntax(g.np)
	g.vpItems = splitSyntax(g.vp)
	g.npWords['A'] = newPickList("articles")
	g.npWords['J'] = newPickList("adjectives")
	g.npWords['D'] = newPickList("adverbs")
	g.npWords['N'] = newPickList("nouns")
	g.vpWords['D'] = g.npWords['D']
	g.vpWords['V'] = newPickList("verbs")
	g.vpWords['X'] = newPickList("auxillaries")
	for _, items := range [][][]syntaxItem{g.npItems, g.vpItems} {
		words := &g.npWords
		if &items[0] == &g.vpItems[0] {
			words = &g.vpWords
		}
		for _, s := range items {
			for _, it := range s {
				if words[it.kind] == nil {
					panic(fmt.Sprintf("tpchgen: unknown syntax item %q", it.kind))
				}
			}
		}
	}

	pool := make([]byte, 0, textPoolSize)
	var s []byte
	for len(pool) < textPoolSize {
		s = g.sentence(s[:0])
		needed := textPoolSize - len(pool)
		if needed >= len(s)+1 {
			pool = append(append(pool, s...), ' ')
		} else {
			pool = append(pool, s[:needed]...)
		}
	}
	szTextPool = pool
	seeds[poolStream].value = g.value
	seeds[poolStream].usage += g.calls
}
