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
// cumulative weight is >= j. Each word is also kept in a 16-byte array,
// copied whole into the pool (one store instead of a memmove call).
type pickList struct {
	words []string
	fixed []fixedWord
	byJ   []uint8 // byJ[j] = member index, j in 1..max
	max   int64
}

type fixedWord struct {
	b [16]byte
	n int
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
		var f fixedWord
		f.n = copy(f.b[:], it.Text)
		if f.n != len(it.Text) {
			f.n = -1 // too long: copied as a string
		}
		p.fixed = append(p.fixed, f)
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
	value, calls                               int64
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

// word writes member i of p at b[n:] and returns the new length; b has
// room for 16 bytes more than any sentence needs.
func word(b []byte, n int, p *pickList, i int) int {
	f := &p.fixed[i]
	if f.n < 0 {
		return n + copy(b[n:], p.words[i])
	}
	*(*[16]byte)(b[n : n+16]) = f.b
	return n + f.n
}

func (g *poolGen) phrase(b []byte, n int, items [][]syntaxItem, syntax *pickList, words *[256]*pickList) int {
	for _, it := range items[g.pick(syntax)] {
		src := words[it.kind]
		n = word(b, n, src, g.pick(src))
		if it.suffix != 0 {
			b[n] = it.suffix
			n++
		}
		b[n] = ' '
		n++
	}
	return n
}

// sentence writes one txtSentence at b[n:] and returns the new length.
func (g *poolGen) sentence(b []byte, n int) int {
	for _, it := range g.grammarItems[g.pick(g.grammar)] {
		switch it.kind {
		case 'V':
			n = g.phrase(b, n, g.vpItems, g.vp, &g.vpWords)
		case 'N':
			n = g.phrase(b, n, g.npItems, g.np, &g.npWords)
		case 'P':
			n = word(b, n, g.prepositions, g.pick(g.prepositions))
			n += copy(b[n:], " the ")
			n = g.phrase(b, n, g.npItems, g.np, &g.npWords)
		case 'T':
			n--
			n = word(b, n, g.terminators, g.pick(g.terminators))
		default:
			panic("tpchgen: unknown grammar item")
		}
		if it.suffix != 0 {
			b[n] = it.suffix
			n++
		}
	}
	return n
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

	// Sentences are written straight into the pool, so it has room for
	// one sentence past its end (txtSentence makes at most a few hundred
	// bytes). initTextPool appends a sentence and ' ' while both fit, else
	// as much of the sentence as fits.
	pool := make([]byte, textPoolSize+64<<10)
	n := 0
	for n < textPoolSize {
		end := g.sentence(pool, n)
		if end-n > 32<<10 {
			panic("tpchgen: text pool sentence too long")
		}
		if end+1 <= textPoolSize {
			pool[end] = ' '
			n = end + 1
		} else {
			n = textPoolSize
		}
	}
	pool = pool[:textPoolSize:textPoolSize]
	szTextPool = pool
	seeds[poolStream].value = g.value
	seeds[poolStream].usage += g.calls
}
