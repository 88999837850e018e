// Package hits generates a synthetic version of ClickBench's hits table:
// its 105 columns as ClickBench's PostgreSQL schema declares them, with
// distributions made after the real data's (model.go says which facts
// they follow and where the facts come from).
//
// Rows are made independently of each other (rand.go), so a table of n
// rows is the same bytes however many workers make it and in which order;
// Write runs workers and writes their chunks in order.
package hits

import (
	"fmt"
	"math"
)

// Format is the output file format.
type Format int

const (
	// CSV is comma-separated, with a value quoted only where it must be
	// (a comma, a quote or a line break in it) and the empty string
	// written as "", since an unquoted empty field is NULL to PostgreSQL,
	// gpusql and DuckDB (every hits column is NOT NULL).
	CSV Format = iota
	// TSV is PostgreSQL's text format, as ClickBench's hits.tsv: values
	// separated by tabs, with backslash, tab, newline and carriage return
	// escaped by a backslash (the generated text holds none of them).
	TSV
)

// ParseFormat reads "csv" or "tsv".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "csv":
		return CSV, nil
	case "tsv":
		return TSV, nil
	}
	return 0, fmt.Errorf("format %q: want csv or tsv", s)
}

// Ext is the file name extension of the format, with its dot.
func (f Format) Ext() string {
	if f == TSV {
		return ".tsv"
	}
	return ".csv"
}

// Options choose the table.
type Options struct {
	Rows   int64  // rows in the table
	Seed   uint64 // another seed gives other values from the same distributions
	Format Format
}

// Generator makes the rows of one table; it is safe for concurrent use.
type Generator struct {
	seed   uint64
	rows   int64
	format Format

	users, phrases, sharedIPs, networks int64
	plantedUser                         int64 // user index that gets plantedUserID

	sites     []site // the head sites, then the tail ones
	headCum   []float64
	headTotal float64

	regionHeadCum []float64
	regionHead    float64 // share of users in the head regions

	modelCum []float64 // cumulative user shares of headModels
	emptyRef int64     // RefererHash of the empty referer
}

// site is one CounterID: a web site whose pages are the URLs.
type site struct {
	id       int32
	host     string // "http://name.zone"
	pages    int64  // page population; page 0 is the home page
	home     float64
	pathLen  int // target mean length of a URL other than the home page
	charset  string
	code     int32
	class    int16
	category int16
	region   int32
	old      int16 // IsOldCounter
}

// New makes a generator for o.
func New(o Options) (*Generator, error) {
	if o.Rows < 0 {
		return nil, fmt.Errorf("hits: %d rows", o.Rows)
	}
	if o.Format != CSV && o.Format != TSV {
		return nil, fmt.Errorf("hits: unknown format %d", o.Format)
	}
	n := float64(max(o.Rows, 1))
	g := &Generator{
		seed:      o.Seed,
		rows:      o.Rows,
		format:    o.Format,
		users:     max(1, int64(usersPerRow*n)),
		phrases:   max(1, int64(phrasesPerSearch*searchShare*n)),
		sharedIPs: max(1, int64(sharedIPsPerRow*n)),
		networks:  max(1, int64(networksPerRow*n)),
	}
	g.plantedUser = g.users / 2
	g.emptyRef = int64(hash(g.seed, kindEngine, 0, 0))

	// Sites: the head ones with their real shares of the rows, then
	// tailCounters more sharing the rest with skew15.
	for _, h := range headCounters {
		g.headTotal += h.rows / realRows
		g.headCum = append(g.headCum, g.headTotal)
	}
	isHead := map[int32]bool{}
	for _, h := range headCounters {
		isHead[h.id] = true
	}
	tail := 1 - g.headTotal
	for i := 0; i < len(headCounters)+tailCounters; i++ {
		var id int32
		var share, urlLen float64
		r := newRNG(g.seed, kindCounter, uint64(i), 0)
		if i < len(headCounters) {
			h := headCounters[i]
			id, share, urlLen = h.id, h.rows/realRows, h.urlLen
		} else {
			s := i - len(headCounters)
			// Five ids a slot, one of them taken: distinct, and never a
			// head site's.
			k := int32(hash(g.seed, kindCounter, uint64(s), 1) % 5)
			id = 100 + 5*int32(s) + k
			if isHead[id] {
				id = 100 + 5*int32(s) + (k+1)%5
			}
			share = tail * (math.Pow(float64(s+1)/tailCounters, 2.0/3) - math.Pow(float64(s)/tailCounters, 2.0/3))
			urlLen = float64(r.between(45, 130))
		}
		g.sites = append(g.sites, g.newSite(&r, id, share, urlLen))
	}

	var acc float64
	for _, u := range headRegionUsers {
		acc += u / realUsers
		g.regionHeadCum = append(g.regionHeadCum, acc)
	}
	g.regionHead = acc
	acc = 0
	for _, u := range headModelUsers {
		acc += u / realUsers
		g.modelCum = append(g.modelCum, acc)
	}
	return g, nil
}

func (g *Generator) newSite(r *rng, id int32, share, urlLen float64) site {
	s := site{id: id}
	// The name is the site's number in base 64 syllables, so it is the
	// site's own; the first syllable varies with the seed.
	name := []byte{}
	x := uint64(id)*64 + uint64(r.intn(64))
	for {
		name = append(name, syllables[x%64]...)
		x /= 64
		if x == 0 {
			break
		}
	}
	prefix := "http://"
	if r.chance(0.2) {
		prefix = "http://www."
	}
	if r.chance(0.05) {
		prefix = "https://"
	}
	s.host = prefix + string(name) + zones.pick(r)
	s.pages = max(1, int64(pagesPerHit*share*float64(g.rows)))
	s.home = 0.3
	if id == 3922 {
		s.home = 0.6 // the real top URL takes 3.3% of all rows
	}
	// The mean over all its rows is urlLen: home pages are short.
	homeLen := float64(len(s.host) + 1)
	s.pathLen = int((urlLen - s.home*homeLen) / (1 - s.home))
	s.pathLen = min(max(s.pathLen, len(s.host)+12), urlCap)
	s.charset = pageCharsets.pick(r)
	s.code = int32(codeVersions.pick(r))
	s.class = int16(r.intn(3))
	s.category = int16(r.between(1, 200))
	s.region = g.region(r)
	if r.chance(0.05) {
		s.old = 1
	}
	return s
}

// pickSite draws a site index: a row's CounterID, or the site of a
// referring page.
func (g *Generator) pickSite(r *rng) int {
	x := r.float()
	if x < g.headTotal {
		for i, c := range g.headCum {
			if x < c {
				return i
			}
		}
	}
	return len(headCounters) + int(r.power(tailCounters, skew15))
}

// pickPage draws a page of site s: the home page with its share, else
// a page by skew2.
func (g *Generator) pickPage(r *rng, s *site) int64 {
	if s.pages == 1 || r.chance(s.home) {
		return 0
	}
	return 1 + r.power(s.pages-1, skew2)
}

// region draws a RegionID with the real users' weights.
func (g *Generator) region(r *rng) int32 {
	x := r.float()
	if x < g.regionHead {
		for i, c := range g.regionHeadCum {
			if x < c {
				return headRegions[i]
			}
		}
	}
	// Tail regions: ids from 250 up, clear of the head ones (all below 250).
	return 250 + int32(r.power(tailRegions, skew2))
}

// urlHash is URLHash of a page, and RefererHash of a referer that is that
// page, so that the two agree.
func (g *Generator) urlHash(si int, p int64) int64 {
	if g.sites[si].id == plantedCounter {
		switch p {
		case 0:
			return plantedURLHash
		case 1:
			return plantedRefererHash
		}
	}
	return int64(hash(g.seed, kindPage, uint64(si), uint64(p)))
}

// user is what a row takes from its user.
type user struct {
	id                      int64
	ip, network, region     int32
	os, agent, agentMajor   int16
	agentMinor              string
	resW, resH, resD        int16
	flashMajor, flashMinor  int16
	flashMinor2             string
	netMajor, netMinor      int16
	java, cookie, js        int16
	mobile, phone           int16
	model                   string
	tz                      int16
	clockSkew, localOffset  int64 // seconds
	sl1, sl2, sl4           int16
	sl3                     int32
	fUniq                   int64
	age, sex, income        int16
	interests, robotness    int16
	lang, country           string
	searchRate, refreshRate float64
}

// user derives user u's properties from u alone.
func (g *Generator) user(u int64) user {
	r := newRNG(g.seed, kindUser, uint64(u), 0)
	us := user{id: int64(perm63(uint64(u) ^ g.seed<<17 ^ 0x5bd1e995))}
	if u == g.plantedUser {
		us.id = plantedUserID
	}
	us.ip = int32(uint32(hash(g.seed, kindIP, uint64(u), 0)))
	us.network = int32(hash(g.seed, kindNetwork, uint64(r.power(g.networks, skew2)), 0) & (1<<22 - 1))
	us.region = g.region(&r)
	us.os = oses.pick(&r)
	us.agent = userAgents.pick(&r)
	us.agentMajor = userAgentMajors.pick(&r)
	us.agentMinor = userAgentMinor.pick(&r)

	// Phone: the real users' shares of the head models, then the tail.
	x := r.float()
	switch {
	case x < g.modelCum[len(g.modelCum)-1]:
		for i, c := range g.modelCum {
			if x < c {
				us.model = headModels[i]
				break
			}
		}
	case x < g.modelCum[len(g.modelCum)-1]+tailModelShare:
		us.model = mobileModels[r.power(int64(len(mobileModels)), skew2)]
	}
	var screen [2]int16
	switch us.model {
	case "":
		screen = desktopScreens.pick(&r)
		if r.chance(0.1) {
			screen = [2]int16{int16(r.between(800, 2600)), int16(r.between(600, 1600))}
		}
	case "iPad":
		us.phone = iPadPhones.pick(&r)
		screen = [2]int16{1024, 768}
		if r.chance(0.35) {
			screen = [2]int16{768, 1024}
		}
	case "iPhone", "iPho":
		us.phone = iPhonePhones.pick(&r)
		screen = [2]int16{320, 480}
		if r.chance(0.5) {
			screen = [2]int16{640, 1136}
		}
	case "A500":
		us.phone = 118
		screen = [2]int16{1280, 800}
	default:
		us.phone = int16(r.between(1, 150))
		screen = phoneScreens.pick(&r)
	}
	if us.model != "" {
		us.mobile = 1
	}
	us.resW, us.resH = screen[0], screen[1]
	us.resD = depths.pick(&r)

	if us.mobile == 0 && r.chance(0.8) {
		us.flashMajor = int16(r.between(10, 11))
		us.flashMinor = int16(r.intn(10))
		us.flashMinor2 = flashMinor2s.pick(&r)
	}
	if r.chance(0.2) {
		us.netMajor, us.netMinor = int16(r.between(1, 4)), int16(r.intn(8))
	}
	us.java = b2i(r.chance(0.85))
	us.cookie = b2i(r.chance(0.97))
	us.js = b2i(r.chance(0.98))
	us.tz = timeZones.pick(&r)
	switch y := r.float(); {
	case y < 0.7:
		us.clockSkew = int64(r.between(-120, 120))
	case y < 0.95:
		us.clockSkew = int64(r.between(-3600, 3600))
	default:
		us.clockSkew = int64(r.between(-12*3600, 12*3600))
	}
	us.localOffset = 3600 * int64([]int{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, -1, 5, 6, 7, 8, -2}[r.intn(16)])
	if r.chance(0.5) {
		us.sl1, us.sl2 = int16(r.between(4, 5)), int16(r.intn(2))
		us.sl3 = []int32{16561, 15738, 51204, 20320}[r.intn(4)]
	}
	if r.chance(0.5) {
		us.fUniq = int64(r.u64() >> 1)
	}
	us.age = ages.pick(&r)
	if us.age != 0 {
		us.sex = int16(r.between(1, 2))
		us.income = int16(r.between(1, 4))
	}
	if r.chance(0.4) {
		us.interests = int16(r.intn(16384))
	}
	if r.chance(0.1) {
		us.robotness = int16(r.between(1, 100))
	}
	us.lang = languages.pick(&r)
	us.country = countries.pick(&r)
	// Some users search much more than others, and some reload pages.
	us.searchRate = searchShare * (0.25 + 1.5*r.float())
	us.refreshRate = 0.08 * (0.25 + 1.5*r.float())
	return us
}

func b2i(b bool) int16 {
	if b {
		return 1
	}
	return 0
}
