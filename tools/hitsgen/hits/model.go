package hits

import "time"

// The model: what a row is made of, and the facts about the real hits
// that its distributions follow. README.md (tools/hitsgen) lists the
// sources; "real" below means ClickBench's hits (99,997,497 rows),
// as the answers of its queries over the full data show them
// (duckdb/duckdb, benchmark/clickbench/answers).
//
// A row is a page view: a user (who brings their browser, screen, region,
// IP address and phone), on a site (CounterID) and one of its pages (URL,
// Title, URLHash), coming from a referer (another page of the site, another
// site, a search engine with a search phrase, an ad, or nothing), at a
// time in July 2013. Users, sites, pages and phrases are drawn from
// skewed distributions whose populations grow with the table, so that the
// ratios that matter to GROUP BY (distinct values per row, the share of
// the most frequent values) are about those of the real data at any size.

// Population sizes, per row of the table.
const (
	// usersPerRow: real COUNT(DISTINCT UserID) is 17,630,976, 0.176 per
	// row. Users are drawn with skew2 from 0.18·rows, of which about
	// 0.176·rows occur (checked by TestDistributions); the most active
	// user takes rows/sqrt(0.18·rows) rows: 23,600 at 100 M rows (real
	// 29,097).
	usersPerRow = 0.18
	// searchShare: the share of rows that come from a search engine, with
	// a non-empty SearchPhrase and SearchEngineID <> 0. An assumption
	// (about 1 in 8); no source used states it.
	searchShare = 0.13
	// phrasesPerSearch: real COUNT(DISTINCT SearchPhrase) is 6,019,103,
	// 0.06 per row; phrases are drawn with skew3 from 1.0 per search row,
	// about 0.48 of which occur: 0.062 per row.
	phrasesPerSearch = 1.0
	// pagesPerHit: a site's page population is 0.25 per hit the site gets;
	// with skew2 about 0.23 of them occur, so about 0.2 distinct URLs per
	// row (an assumption: the real data's distinct URL count is not in
	// the sources).
	pagesPerHit = 0.25
	// sharedIPsPerRow: 15% of rows come from shared addresses (offices,
	// mobile networks), drawn with skew25 from 0.05·rows, so that the top
	// ClientIP takes about 0.03% of rows (real: 47,008 of 100 M).
	sharedIPsPerRow = 0.05
	sharedIPShare   = 0.15
	// networksPerRow: IPNetworkID, one per user from 0.02·rows networks.
	networksPerRow = 0.02
	// tailCounters is the number of sites beyond the head ones; drawn with
	// skew15 from 30,000, the largest takes 0.095% of rows, so only the
	// head sites pass q27's HAVING COUNT(*) > 100000 at 100 M rows, as in
	// the real data.
	tailCounters = 30000
	// tailRegions: RegionID beyond the head ones.
	tailRegions = 9000
)

// Planted values: constants of the queries, given to the rows that play
// their part in the real data.
const (
	// plantedUserID is q19's UserID; it goes to the user at the middle of
	// the population, who has a few rows at any size.
	plantedUserID = 435090932899640449
	// plantedURLHash is q42's URLHash: the home page of CounterID 62.
	plantedURLHash = 2868770270353813622
	// plantedRefererHash is q41's RefererHash: page 1 of CounterID 62,
	// which its internal links (TraficSourceID -1) come from.
	plantedRefererHash = 3594120000172545465
	plantedCounter     = 62
)

// headCounter is a site of the real data that q27 lists: CounterIDs with
// more than 100,000 rows with a non-empty URL, their row counts and their
// average URL length.
type headCounter struct {
	id     int32
	rows   float64 // real rows with URL <> '' (of 99,997,497)
	urlLen float64 // real avg(length(URL))
}

var headCounters = []headCounter{
	{3922, 5410321, 87.8}, {1483, 869128, 71.3}, {62, 613474, 93.2}, {38, 507770, 76.4},
	{1095, 363337, 65.0}, {1634, 315442, 198.1}, {2264, 278338, 67.7}, {1060, 252489, 61.0},
	{786, 120528, 186.7}, {4635, 116646, 66.1}, {1830, 113980, 64.9}, {515, 102793, 126.4},
}

const realRows = 99997497

// Head regions: real RegionIDs with the most distinct users (q08) and
// those counts. RegionID is a property of the user, so these are the
// weights of the users' regions; the rest (10.5 M of 17.6 M users) go to
// tailRegions other regions.
var headRegions = []int32{229, 2, 208, 169, 184, 158, 34, 55, 107, 42}
var headRegionUsers = []float64{2845673, 1081016, 831676, 604583, 322661, 307152, 299479, 286525, 272448, 243181}

const realUsers = 17630976

// advEngines: real AdvEngineID <> 0 in 630,500 rows (0.63%), over these
// values with these counts (q07).
var advEngines = weightedOf(
	[]int16{2, 27, 13, 45, 44, 3, 62, 52, 50, 28, 53, 25, 61, 21, 42, 16, 7, 22},
	[]float64{404602, 113167, 45631, 38960, 9730, 6896, 5266, 3554, 938, 836, 350, 343, 158, 38, 20, 7, 3, 1})

const advShare = 630500.0 / realRows

// searchEngineIDs of search rows: 2 and 3 lead in the real data (q14:
// the top phrase/engine pairs are all 2 or 3); the rest is a tail.
var searchEngineIDs = weightedOf(
	[]int16{2, 3, 1, 4, 5, 6, 7, 9, 11, 13, 16, 17, 20, 25, 30},
	[]float64{62, 20, 5, 3, 2, 1.5, 1.2, 1, 1, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3})

// Mobile phones, one per user: real distinct users per MobilePhoneModel
// (q10): iPad 1,090,347, iPhone 45,758, A500 16,046, ... of 17.6 M users;
// the named models beyond those share 0.5% of users.
var headModels = []string{"iPad", "iPhone", "A500", "N8-00", "iPho", "ONE TOUCH 6030A", "GT-P7300B", "3110000", "GT-I9500", "eagle75"}
var headModelUsers = []float64{1090347, 45758, 16046, 5565, 3300, 2759, 1907, 1871, 1598, 1492}

const tailModelShare = 0.005

// MobilePhone codes of iPad and iPhone users (q11: (1, iPad) 931,038,
// (5, iPad) 48,385, ... (6, iPhone) 14,516, (26, iPhone) 13,566).
var (
	iPadPhones   = weightedOf([]int16{1, 5, 6, 7, 10, 32, 13, 2, 3}, []float64{931038, 48385, 29710, 28391, 11433, 9503, 9417, 6000, 4000})
	iPhonePhones = weightedOf([]int16{6, 26, 1, 5, 7}, []float64{14516, 13566, 6000, 4000, 3000})
)

// Screens: desktop resolutions of 2013 with weights that give a mean
// width of about 1,500 (real avg(ResolutionWidth) 1513.5, q02); a tenth
// of the users get an odd size, as the obfuscated real data has many.
var desktopScreens = weightedOf(
	[][2]int16{{1920, 1080}, {1366, 768}, {1280, 1024}, {1600, 900}, {1440, 900}, {1280, 800}, {1024, 768},
		{1680, 1050}, {1920, 1200}, {1360, 768}, {2560, 1440}, {1280, 720}, {1536, 864}},
	[]float64{20, 22, 10, 8, 7, 7, 8, 6, 3, 3, 1, 2, 2})
var phoneScreens = weightedOf([][2]int16{{320, 480}, {480, 800}, {720, 1280}, {360, 640}, {540, 960}, {1080, 1920}},
	[]float64{25, 30, 20, 12, 8, 5})

// Browsers and systems: obfuscated codes, skewed as such codes are.
var (
	userAgents      = weightedOf([]int16{7, 5, 3, 2, 88, 6, 50, 4, 1, 9, 16, 33, 56}, []float64{30, 22, 15, 8, 6, 5, 4, 3, 2, 2, 1, 1, 1})
	oses            = weightedOf([]int16{44, 2, 56, 3, 106, 5, 97, 126, 1, 35, 115, 120}, []float64{30, 25, 10, 8, 6, 5, 4, 3, 3, 2, 2, 2})
	userAgentMajors = weightedOf([]int16{22, 15, 16, 13, 1, 27, 28, 9, 10, 11, 3, 5, 8, 12}, []float64{15, 14, 10, 8, 8, 7, 6, 6, 5, 5, 4, 4, 4, 4})
	timeZones       = weightedOf([]int16{135, 433, 322, 246, 181, 77, 58, 495, 310, 402}, []float64{55, 12, 8, 6, 5, 4, 3, 3, 2, 2})
	depths          = weightedOf([]int16{24, 32, 16}, []float64{70, 25, 5})
	ages            = weightedOf([]int16{0, 17, 22, 31, 40, 50, 55}, []float64{55, 6, 12, 12, 8, 5, 2})
	languages       = weightedOf([]string{"S0", "E3", "1Q", "F0", "9K", "Tp", "\uFFFD", "n6"}, []float64{60, 15, 8, 5, 4, 3, 3, 2})
	countries       = weightedOf([]string{"\uFFFD", "h1", "_i", "Q0", "W1", "jQ", "C\uFFFD", "Zp"}, []float64{45, 20, 12, 8, 6, 4, 3, 2})
)

// Traffic sources (TraficSourceID) and their shares: an assumption
// (search and advertising as above; -1 is a link within the site, 0 a
// direct visit with no referer, 1 a link from another site, the rest
// rarer sources with a referer from another site).
const (
	internalShare = 0.40
	directShare   = 0.30
)

var otherSources = weightedOf([]int16{1, 4, 5, 6, 7, 8, 9, 10}, []float64{80, 3, 4, 4, 2, 4, 2, 1})

// Time: EventDate runs from 2013-07-02 to 2013-07-31 as in the real data
// (q06). Days are alike but for weekends (0.8); hours follow an assumed
// daily curve (Moscow time), minutes and seconds are uniform.
var (
	firstDay = time.Date(2013, 7, 2, 0, 0, 0, 0, time.UTC)
	days     = dayWeights(30)
	hours    = weightedOf([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23},
		[]float64{3, 2, 1.5, 1, 0.8, 0.8, 1.2, 2, 3.5, 5, 6, 6.5, 6.5, 6.5, 6.5, 6.5, 6.5, 6, 5.5, 5.5, 5.5, 5.5, 5, 4})
)

// Length caps in bytes of the long text columns. Real URLs and titles run
// to thousands of bytes in the long tail; these caps keep the widest value
// (which sets gpusql's fixed string width) within reach.
const (
	urlCap      = 256
	titleCap    = 256
	phraseCap   = 128
	refererCap  = 256
	paramsCap   = 64
	smallTxtCap = 32
)

// dayWeights weighs n days from firstDay: 1 a weekday, 0.8 a weekend day.
func dayWeights(n int) weighted[int] {
	var ds []int
	var ws []float64
	for d := 0; d < n; d++ {
		ds = append(ds, d)
		w := 1.0
		if wd := firstDay.AddDate(0, 0, d).Weekday(); wd == time.Saturday || wd == time.Sunday {
			w = 0.8
		}
		ws = append(ws, w)
	}
	return newWeighted(ds, ws)
}
