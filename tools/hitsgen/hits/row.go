package hits

import "strconv"

// Stats describe generated rows: the longest value of each text column in
// bytes (gpusql stores text at the width of the widest value).
type Stats struct {
	Rows   int64
	MaxLen [105]int // by column, in the order of Columns
}

// Merge adds o into s.
func (s *Stats) Merge(o *Stats) {
	s.Rows += o.Rows
	for i, n := range o.MaxLen {
		s.MaxLen[i] = max(s.MaxLen[i], n)
	}
}

// emitter appends one row's fields in the output format.
type emitter struct {
	buf   []byte
	tsv   bool
	col   int
	stats *Stats
}

func (e *emitter) sep() {
	if e.col > 0 {
		if e.tsv {
			e.buf = append(e.buf, '\t')
		} else {
			e.buf = append(e.buf, ',')
		}
	}
	e.col++
}

func (e *emitter) int(v int64) {
	e.sep()
	e.buf = strconv.AppendInt(e.buf, v, 10)
}

func (e *emitter) text(s []byte) { appendText(e, s) }

// str appends a string field; the strings passed here are constants and
// the values of the rare columns.
func (e *emitter) str(s string) { appendText(e, s) }

func appendText[T string | []byte](e *emitter, s T) {
	e.sep()
	if n := len(s); n > e.stats.MaxLen[e.col-1] {
		e.stats.MaxLen[e.col-1] = n
	}
	if e.tsv {
		for i := 0; i < len(s); i++ {
			switch c := s[i]; c {
			case '\\':
				e.buf = append(e.buf, '\\', '\\')
			case '\t':
				e.buf = append(e.buf, '\\', 't')
			case '\n':
				e.buf = append(e.buf, '\\', 'n')
			case '\r':
				e.buf = append(e.buf, '\\', 'r')
			default:
				e.buf = append(e.buf, c)
			}
		}
		return
	}
	quote := len(s) == 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ',' || c == '"' || c == '\n' || c == '\r' {
			quote = true
			break
		}
	}
	if !quote {
		e.buf = append(e.buf, s...)
		return
	}
	e.buf = append(e.buf, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			e.buf = append(e.buf, '"')
		}
		e.buf = append(e.buf, c)
	}
	e.buf = append(e.buf, '"')
}

// firstSecond is 2013-07-02 00:00:00 in seconds since 1970.
var firstSecond = firstDay.Unix()

// timestamp appends a time given in seconds since 1970 (no time zone) as
// 2013-07-15 12:34:56.
func (e *emitter) timestamp(sec int64) {
	e.sep()
	days := sec / 86400
	rem := sec - days*86400
	e.buf = appendDate(e.buf, days)
	e.buf = append(e.buf, ' ')
	e.buf = append2(e.buf, int(rem/3600))
	e.buf = append(e.buf, ':')
	e.buf = append2(e.buf, int(rem/60%60))
	e.buf = append(e.buf, ':')
	e.buf = append2(e.buf, int(rem%60))
}

func (e *emitter) date(days int64) {
	e.sep()
	e.buf = appendDate(e.buf, days)
}

// appendDate appends day number days (0 = 1970-01-01) as 2013-07-15
// (the civil-from-days algorithm of H. Hinnant's date library).
func appendDate(dst []byte, days int64) []byte {
	z := days + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
		y++
	}
	dst = strconv.AppendInt(dst, y, 10)
	dst = append(dst, '-')
	dst = append2(dst, int(m))
	dst = append(dst, '-')
	return append2(dst, int(d))
}

func append2(dst []byte, v int) []byte { return append(dst, byte('0'+v/10), byte('0'+v%10)) }

// scratch holds one worker's buffers.
type scratch struct {
	url, title, ref, phrase, tmp []byte
}

// AppendRows appends rows [from, to) to dst and adds them to st.
func (g *Generator) AppendRows(dst []byte, from, to int64, st *Stats) []byte {
	e := emitter{buf: dst, tsv: g.format == TSV, stats: st}
	var sc scratch
	for i := from; i < to; i++ {
		e.col = 0
		g.row(&e, &sc, i)
		e.buf = append(e.buf, '\n')
	}
	st.Rows += to - from
	return e.buf
}

// row appends row i. All its random draws come from the row's own
// stream, in a fixed order, then its fields go out in column order.
func (g *Generator) row(e *emitter, sc *scratch, i int64) {
	r := newRNG(g.seed, kindRow, uint64(i), 0)
	u := r.power(g.users, skew2)
	us := g.user(u)
	si := g.pickSite(&r)
	s := &g.sites[si]
	page := g.pickPage(&r, s)

	// When: a day (weekends at 0.8), an hour by the daily curve, a minute
	// and a second.
	event := firstSecond + int64(days.pick(&r))*86400 + int64(hours.pick(&r))*3600 + int64(r.intn(3600))

	// Where from: search, advertising, a link within the site, a direct
	// visit, or a link from elsewhere.
	var (
		source       int16
		engine, adv  int16
		phrase       int64 = -1
		refSite            = -1
		refPage      int64
		refererHash  int64
		refCategory  int16
		refRegion    int32
		hasReferer   = true
		advReference uint64
	)
	switch x := r.float(); {
	case x < us.searchRate:
		source, engine = 2, searchEngineIDs.pick(&r)
		phrase = r.power(g.phrases, skew3)
	case x < us.searchRate+advShare:
		source, adv = 3, advEngines.pick(&r)
		advReference = r.u64() >> 40
	case x < us.searchRate+advShare+internalShare:
		source, refSite = -1, si
		refPage = g.pickPage(&r, s)
	case x < us.searchRate+advShare+internalShare+directShare:
		source, hasReferer = 0, false
	default:
		source = otherSources.pick(&r)
		refSite = g.pickSite(&r)
		refPage = g.pickPage(&r, &g.sites[refSite])
	}

	sc.url = g.appendURL(sc.url[:0], si, page)
	urlHash := g.urlHash(si, page)
	if r.chance(0.015) {
		sc.url, urlHash = sc.url[:0], g.emptyRef // a hit with no URL
	}
	sc.title = g.appendTitle(sc.title[:0], si, page)
	sc.ref = sc.ref[:0]
	switch {
	case !hasReferer:
		refererHash = g.emptyRef
	case refSite >= 0:
		sc.ref = g.appendURL(sc.ref, refSite, refPage)
		refererHash = g.urlHash(refSite, refPage)
		refCategory, refRegion = g.sites[refSite].category, g.sites[refSite].region
	case phrase >= 0:
		sc.ref = g.appendSearchReferer(sc.ref, engine, phrase, sc.tmp)
		refererHash = int64(hash(g.seed, kindEngine, uint64(engine), uint64(phrase)))
		refCategory = 1
	default:
		sc.ref = append(sc.ref, "http://"...)
		sc.ref = append(sc.ref, advEngineHosts[int(adv)%len(advEngineHosts)]...)
		sc.ref = strconv.AppendUint(sc.ref, advReference, 10)
		refererHash = int64(hash(g.seed, kindEngine, 1000+uint64(adv), advReference))
		refCategory = 2
	}
	sc.phrase = sc.phrase[:0]
	if phrase >= 0 {
		sc.phrase = truncate(g.appendPhrase(sc.phrase, phrase), 0, phraseCap)
	}

	clientIP := us.ip
	if r.chance(sharedIPShare) {
		clientIP = int32(uint32(hash(g.seed, kindIP, uint64(r.power(g.sharedIPs, skew25)), 1)))
	}
	remoteIP := clientIP
	if r.chance(0.1) {
		remoteIP = int32(uint32(r.u64()))
	}
	winW, winH := int64(us.resW)-int64(r.intn(int(us.resW)/5+1)), int64(us.resH)-int64(r.between(60, 260))
	if r.chance(0.02) || winH < 0 {
		winW, winH = 0, 0
	}
	isRefresh := b2i(r.chance(us.refreshRate))
	dontCount := b2i(r.chance(0.05))
	isLink := b2i(r.chance(0.01))
	isDownload := b2i(r.chance(0.003))
	isNotBounce := b2i(r.chance(0.12))
	isEvent := b2i(r.chance(0.03))
	isParameter := b2i(r.chance(0.01))
	withHash := b2i(r.chance(0.015))
	isArtifical := b2i(r.chance(0.01))
	goodEvent := b2i(!r.chance(0.001))
	hitColor := hitColors.pick(&r)
	historyLength := int64(-1)
	if r.chance(0.9) {
		historyLength = 1 + r.power(30, skew2)
	}
	windowName, openerName := int64(-1), int64(-1)
	if r.chance(0.6) {
		windowName = int64(r.intn(100000))
	}
	if r.chance(0.2) {
		openerName = int64(r.intn(100000))
	}
	var timings [6]int64
	if r.chance(0.2) {
		for k, hi := range []int{1000, 300, 500, 3000, 4000, 5000} {
			timings[k] = int64(r.intn(hi))
		}
	}
	httpError := int64(0)
	if r.chance(0.005) {
		httpError = []int64{404, 500, 403, 502}[r.intn(4)]
	}
	hid := int64(r.u64() >> 33)

	// Rare columns: mostly empty or zero, as in the real data.
	params, originalURL := "", false
	if r.chance(0.03) {
		params = "p=" + strconv.Itoa(r.intn(1000)) + "&t=" + latWords[r.intn(128)]
	}
	if r.chance(0.03) {
		originalURL = true
	}
	var social, socialAction, socialPage string
	var socialID int64
	if r.chance(0.005) {
		social = socialNetworks[r.intn(len(socialNetworks))]
		socialAction = socialActions[r.intn(len(socialActions))]
		socialID = int64(1 + r.intn(6))
		socialPage = "http://" + social + ".ru/page" + strconv.Itoa(r.intn(100000))
	}
	var price int64
	var orderID, currency string
	var currencyID int64
	currency = "NH"
	if r.chance(0.05) {
		currency = ""
	}
	if r.chance(0.01) {
		price = int64(r.between(100, 100000))
		orderID = strconv.Itoa(r.intn(10000000))
		k := r.intn(len(currencies))
		currency, currencyID = currencies[k], int64(k+1)
	}
	var osName, osCampaign, osAd, osSource string
	if r.chance(0.01) {
		osName = openstatNames[r.intn(len(openstatNames))]
		osCampaign = strconv.Itoa(r.intn(100000))
		osAd = strconv.Itoa(r.intn(1000000))
		osSource = latWords[r.intn(128)]
	}
	var utmSource, utmMedium, utmCampaign, utmContent, utmTerm string
	if r.chance(0.02) {
		utmSource = utmSources[r.intn(len(utmSources))]
		utmMedium = utmMediums[r.intn(len(utmMediums))]
		utmCampaign = latWords[r.intn(128)] + "_" + strconv.Itoa(r.intn(1000))
		if r.chance(0.5) {
			utmContent = latWords[r.intn(128)] + "-" + latWords[r.intn(128)]
		}
		if r.chance(0.5) {
			utmTerm = cyrWords[r.intn(128)]
		}
	}
	var fromTag string
	if r.chance(0.01) {
		fromTag = "tag" + strconv.Itoa(r.intn(1000))
	}
	hasGCLID := b2i(r.chance(0.002))
	var clid int64
	if r.chance(0.05) {
		clid = int64(r.intn(3000000))
	}

	// Out, in column order. WatchID is a bijection of the row number, so
	// it is unique.
	watchID := int64(perm63(uint64(i) ^ g.seed<<23 ^ 0x2545f491))
	e.int(watchID)                    // WatchID
	e.int(int64(us.java))             // JavaEnable
	e.text(sc.title)                  // Title
	e.int(int64(goodEvent))           // GoodEvent
	e.timestamp(event)                // EventTime
	e.date(event / 86400)             // EventDate
	e.int(int64(s.id))                // CounterID
	e.int(int64(clientIP))            // ClientIP
	e.int(int64(us.region))           // RegionID
	e.int(us.id)                      // UserID
	e.int(int64(s.class))             // CounterClass
	e.int(int64(us.os))               // OS
	e.int(int64(us.agent))            // UserAgent
	e.text(sc.url)                    // URL
	e.text(sc.ref)                    // Referer
	e.int(int64(isRefresh))           // IsRefresh
	e.int(int64(refCategory))         // RefererCategoryID
	e.int(int64(refRegion))           // RefererRegionID
	e.int(int64(s.category))          // URLCategoryID
	e.int(int64(s.region))            // URLRegionID
	e.int(int64(us.resW))             // ResolutionWidth
	e.int(int64(us.resH))             // ResolutionHeight
	e.int(int64(us.resD))             // ResolutionDepth
	e.int(int64(us.flashMajor))       // FlashMajor
	e.int(int64(us.flashMinor))       // FlashMinor
	e.str(us.flashMinor2)             // FlashMinor2
	e.int(int64(us.netMajor))         // NetMajor
	e.int(int64(us.netMinor))         // NetMinor
	e.int(int64(us.agentMajor))       // UserAgentMajor
	e.str(us.agentMinor)              // UserAgentMinor
	e.int(int64(us.cookie))           // CookieEnable
	e.int(int64(us.js))               // JavascriptEnable
	e.int(int64(us.mobile))           // IsMobile
	e.int(int64(us.phone))            // MobilePhone
	e.str(us.model)                   // MobilePhoneModel
	e.str(params)                     // Params
	e.int(int64(us.network))          // IPNetworkID
	e.int(int64(source))              // TraficSourceID
	e.int(int64(engine))              // SearchEngineID
	e.text(sc.phrase)                 // SearchPhrase
	e.int(int64(adv))                 // AdvEngineID
	e.int(int64(isArtifical))         // IsArtifical
	e.int(winW)                       // WindowClientWidth
	e.int(winH)                       // WindowClientHeight
	e.int(int64(us.tz))               // ClientTimeZone
	e.timestamp(event + us.clockSkew) // ClientEventTime
	e.int(int64(us.sl1))              // SilverlightVersion1
	e.int(int64(us.sl2))              // SilverlightVersion2
	e.int(int64(us.sl3))              // SilverlightVersion3
	e.int(int64(us.sl4))              // SilverlightVersion4
	e.str(s.charset)                  // PageCharset
	e.int(int64(s.code))              // CodeVersion
	e.int(int64(isLink))              // IsLink
	e.int(int64(isDownload))          // IsDownload
	e.int(int64(isNotBounce))         // IsNotBounce
	e.int(us.fUniq)                   // FUniqID
	if originalURL {                  // OriginalURL
		e.text(sc.url)
	} else {
		e.text(nil)
	}
	e.int(hid)                          // HID
	e.int(int64(s.old))                 // IsOldCounter
	e.int(int64(isEvent))               // IsEvent
	e.int(int64(isParameter))           // IsParameter
	e.int(int64(dontCount))             // DontCountHits
	e.int(int64(withHash))              // WithHash
	e.str(hitColor)                     // HitColor
	e.timestamp(event + us.localOffset) // LocalEventTime
	e.int(int64(us.age))                // Age
	e.int(int64(us.sex))                // Sex
	e.int(int64(us.income))             // Income
	e.int(int64(us.interests))          // Interests
	e.int(int64(us.robotness))          // Robotness
	e.int(int64(remoteIP))              // RemoteIP
	e.int(windowName)                   // WindowName
	e.int(openerName)                   // OpenerName
	e.int(historyLength)                // HistoryLength
	e.str(us.lang)                      // BrowserLanguage
	e.str(us.country)                   // BrowserCountry
	e.str(social)                       // SocialNetwork
	e.str(socialAction)                 // SocialAction
	e.int(httpError)                    // HTTPError
	for _, t := range timings {         // SendTiming ... FetchTiming
		e.int(t)
	}
	e.int(socialID)        // SocialSourceNetworkID
	e.str(socialPage)      // SocialSourcePage
	e.int(price)           // ParamPrice
	e.str(orderID)         // ParamOrderID
	e.str(currency)        // ParamCurrency
	e.int(currencyID)      // ParamCurrencyID
	e.str(osName)          // OpenstatServiceName
	e.str(osCampaign)      // OpenstatCampaignID
	e.str(osAd)            // OpenstatAdID
	e.str(osSource)        // OpenstatSourceID
	e.str(utmSource)       // UTMSource
	e.str(utmMedium)       // UTMMedium
	e.str(utmCampaign)     // UTMCampaign
	e.str(utmContent)      // UTMContent
	e.str(utmTerm)         // UTMTerm
	e.str(fromTag)         // FromTag
	e.int(int64(hasGCLID)) // HasGCLID
	e.int(refererHash)     // RefererHash
	e.int(urlHash)         // URLHash
	e.int(clid)            // CLID
}
