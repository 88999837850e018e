-- ClickBench's 43 queries (testdata/clickbench/queries, PostgreSQL syntax)
-- over the diff data's hits (5,000 rows from tools/hitsgen, seed 1).
-- Entry cbNN is ClickBench's query NN (numbered from 0). Where a query's
-- ORDER BY does not determine its rows (LIMIT cutting through tied
-- counts, or LIMIT with no ORDER BY), the ORDER BY here is extended with
-- the GROUP BY keys (or WatchID, which is unique), as each entry's comment
-- says, and the entry is "ordered"; elsewhere the text is ClickBench's.
-- The cbNNs entries are the same queries made to return rows from this
-- table: other LIKE patterns, lower HAVING thresholds and OFFSETs.

-- name: cb00_count
SELECT COUNT(*) FROM hits;

-- name: cb01_count_adv
SELECT COUNT(*) FROM hits WHERE AdvEngineID <> 0;

-- name: cb02_sum_count_avg
SELECT SUM(AdvEngineID), COUNT(*), AVG(ResolutionWidth) FROM hits;

-- name: cb03_avg_userid
SELECT AVG(UserID) FROM hits;

-- name: cb04_distinct_users
SELECT COUNT(DISTINCT UserID) FROM hits;

-- name: cb05_distinct_phrases
SELECT COUNT(DISTINCT SearchPhrase) FROM hits;

-- name: cb06_min_max_date
SELECT MIN(EventDate), MAX(EventDate) FROM hits;

-- name: cb07_adv_engines
-- ordered
-- ClickBench's ORDER BY COUNT(*) DESC; here: ORDER BY COUNT(*) DESC, AdvEngineID
SELECT AdvEngineID, COUNT(*) FROM hits WHERE AdvEngineID <> 0 GROUP BY AdvEngineID ORDER BY COUNT(*) DESC, AdvEngineID;

-- name: cb08_region_users
-- ordered
-- ClickBench's ORDER BY u DESC; here: ORDER BY u DESC, RegionID
SELECT RegionID, COUNT(DISTINCT UserID) AS u FROM hits GROUP BY RegionID ORDER BY u DESC, RegionID LIMIT 10;

-- name: cb09_region_stats
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, RegionID
SELECT RegionID, SUM(AdvEngineID), COUNT(*) AS c, AVG(ResolutionWidth), COUNT(DISTINCT UserID) FROM hits GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 10;

-- name: cb10_phone_model_users
-- ordered
-- ClickBench's ORDER BY u DESC; here: ORDER BY u DESC, MobilePhoneModel
SELECT MobilePhoneModel, COUNT(DISTINCT UserID) AS u FROM hits WHERE MobilePhoneModel <> '' GROUP BY MobilePhoneModel ORDER BY u DESC, MobilePhoneModel LIMIT 10;

-- name: cb11_phone_users
-- ordered
-- ClickBench's ORDER BY u DESC; here: ORDER BY u DESC, MobilePhone, MobilePhoneModel
SELECT MobilePhone, MobilePhoneModel, COUNT(DISTINCT UserID) AS u FROM hits WHERE MobilePhoneModel <> '' GROUP BY MobilePhone, MobilePhoneModel ORDER BY u DESC, MobilePhone, MobilePhoneModel LIMIT 10;

-- name: cb12_phrase_count
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, SearchPhrase
SELECT SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;

-- name: cb13_phrase_users
-- ordered
-- ClickBench's ORDER BY u DESC; here: ORDER BY u DESC, SearchPhrase
SELECT SearchPhrase, COUNT(DISTINCT UserID) AS u FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY u DESC, SearchPhrase LIMIT 10;

-- name: cb14_engine_phrase_count
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, SearchEngineID, SearchPhrase
SELECT SearchEngineID, SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchEngineID, SearchPhrase ORDER BY c DESC, SearchEngineID, SearchPhrase LIMIT 10;

-- name: cb15_user_count
-- ordered
-- ClickBench's ORDER BY COUNT(*) DESC; here: ORDER BY COUNT(*) DESC, UserID
SELECT UserID, COUNT(*) FROM hits GROUP BY UserID ORDER BY COUNT(*) DESC, UserID LIMIT 10;

-- name: cb16_user_phrase_count
-- ordered
-- ClickBench's ORDER BY COUNT(*) DESC; here: ORDER BY COUNT(*) DESC, UserID, SearchPhrase
SELECT UserID, SearchPhrase, COUNT(*) FROM hits GROUP BY UserID, SearchPhrase ORDER BY COUNT(*) DESC, UserID, SearchPhrase LIMIT 10;

-- name: cb17_user_phrase_any
-- ordered
-- ClickBench's LIMIT without ORDER BY; here: ORDER BY UserID, SearchPhrase LIMIT 10
SELECT UserID, SearchPhrase, COUNT(*) FROM hits GROUP BY UserID, SearchPhrase ORDER BY UserID, SearchPhrase LIMIT 10;

-- name: cb18_user_minute_phrase
-- ordered
-- ClickBench's ORDER BY COUNT(*) DESC; here: ORDER BY COUNT(*) DESC, UserID, m, SearchPhrase
SELECT UserID, extract(minute FROM EventTime) AS m, SearchPhrase, COUNT(*) FROM hits GROUP BY UserID, m, SearchPhrase ORDER BY COUNT(*) DESC, UserID, m, SearchPhrase LIMIT 10;

-- name: cb19_user_lookup
SELECT UserID FROM hits WHERE UserID = 435090932899640449;

-- name: cb20_count_google
SELECT COUNT(*) FROM hits WHERE URL LIKE '%google%';

-- name: cb21_google_phrases
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, SearchPhrase
SELECT SearchPhrase, MIN(URL), COUNT(*) AS c FROM hits WHERE URL LIKE '%google%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;

-- name: cb22_google_titles
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, SearchPhrase
SELECT SearchPhrase, MIN(URL), MIN(Title), COUNT(*) AS c, COUNT(DISTINCT UserID) FROM hits WHERE Title LIKE '%Google%' AND URL NOT LIKE '%.google.%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;

-- name: cb23_select_star_google
-- ordered
-- ClickBench's ORDER BY EventTime; here: ORDER BY EventTime, WatchID
SELECT * FROM hits WHERE URL LIKE '%google%' ORDER BY EventTime, WatchID LIMIT 10;

-- name: cb24_phrase_by_time
-- ordered
-- ClickBench's ORDER BY EventTime; here: ORDER BY EventTime, WatchID
SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime, WatchID LIMIT 10;

-- name: cb25_phrase_sorted
-- ordered
-- ORDER BY SearchPhrase: tied rows are equal, so the rows are determined
SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY SearchPhrase LIMIT 10;

-- name: cb26_phrase_by_time_phrase
-- ordered
-- ORDER BY EventTime, SearchPhrase: tied rows are equal, so the rows are determined
SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime, SearchPhrase LIMIT 10;

-- name: cb27_counter_url_length
-- ordered
-- ClickBench's ORDER BY l DESC; here: ORDER BY l DESC, CounterID
SELECT CounterID, AVG(length(URL)) AS l, COUNT(*) AS c FROM hits WHERE URL <> '' GROUP BY CounterID HAVING COUNT(*) > 100000 ORDER BY l DESC, CounterID LIMIT 25;

-- name: cb28_referer_domains
-- ordered
-- ClickBench's ORDER BY l DESC; here: ORDER BY l DESC, k
SELECT REGEXP_REPLACE(Referer, '^https?://(?:www\.)?([^/]+)/.*$', '\1') AS k, AVG(length(Referer)) AS l, COUNT(*) AS c, MIN(Referer) FROM hits WHERE Referer <> '' GROUP BY k HAVING COUNT(*) > 100000 ORDER BY l DESC, k LIMIT 25;

-- name: cb29_sum_90
SELECT SUM(ResolutionWidth), SUM(ResolutionWidth + 1), SUM(ResolutionWidth + 2), SUM(ResolutionWidth + 3), SUM(ResolutionWidth + 4), SUM(ResolutionWidth + 5), SUM(ResolutionWidth + 6), SUM(ResolutionWidth + 7), SUM(ResolutionWidth + 8), SUM(ResolutionWidth + 9), SUM(ResolutionWidth + 10), SUM(ResolutionWidth + 11), SUM(ResolutionWidth + 12), SUM(ResolutionWidth + 13), SUM(ResolutionWidth + 14), SUM(ResolutionWidth + 15), SUM(ResolutionWidth + 16), SUM(ResolutionWidth + 17), SUM(ResolutionWidth + 18), SUM(ResolutionWidth + 19), SUM(ResolutionWidth + 20), SUM(ResolutionWidth + 21), SUM(ResolutionWidth + 22), SUM(ResolutionWidth + 23), SUM(ResolutionWidth + 24), SUM(ResolutionWidth + 25), SUM(ResolutionWidth + 26), SUM(ResolutionWidth + 27), SUM(ResolutionWidth + 28), SUM(ResolutionWidth + 29), SUM(ResolutionWidth + 30), SUM(ResolutionWidth + 31), SUM(ResolutionWidth + 32), SUM(ResolutionWidth + 33), SUM(ResolutionWidth + 34), SUM(ResolutionWidth + 35), SUM(ResolutionWidth + 36), SUM(ResolutionWidth + 37), SUM(ResolutionWidth + 38), SUM(ResolutionWidth + 39), SUM(ResolutionWidth + 40), SUM(ResolutionWidth + 41), SUM(ResolutionWidth + 42), SUM(ResolutionWidth + 43), SUM(ResolutionWidth + 44), SUM(ResolutionWidth + 45), SUM(ResolutionWidth + 46), SUM(ResolutionWidth + 47), SUM(ResolutionWidth + 48), SUM(ResolutionWidth + 49), SUM(ResolutionWidth + 50), SUM(ResolutionWidth + 51), SUM(ResolutionWidth + 52), SUM(ResolutionWidth + 53), SUM(ResolutionWidth + 54), SUM(ResolutionWidth + 55), SUM(ResolutionWidth + 56), SUM(ResolutionWidth + 57), SUM(ResolutionWidth + 58), SUM(ResolutionWidth + 59), SUM(ResolutionWidth + 60), SUM(ResolutionWidth + 61), SUM(ResolutionWidth + 62), SUM(ResolutionWidth + 63), SUM(ResolutionWidth + 64), SUM(ResolutionWidth + 65), SUM(ResolutionWidth + 66), SUM(ResolutionWidth + 67), SUM(ResolutionWidth + 68), SUM(ResolutionWidth + 69), SUM(ResolutionWidth + 70), SUM(ResolutionWidth + 71), SUM(ResolutionWidth + 72), SUM(ResolutionWidth + 73), SUM(ResolutionWidth + 74), SUM(ResolutionWidth + 75), SUM(ResolutionWidth + 76), SUM(ResolutionWidth + 77), SUM(ResolutionWidth + 78), SUM(ResolutionWidth + 79), SUM(ResolutionWidth + 80), SUM(ResolutionWidth + 81), SUM(ResolutionWidth + 82), SUM(ResolutionWidth + 83), SUM(ResolutionWidth + 84), SUM(ResolutionWidth + 85), SUM(ResolutionWidth + 86), SUM(ResolutionWidth + 87), SUM(ResolutionWidth + 88), SUM(ResolutionWidth + 89) FROM hits;

-- name: cb30_engine_ip
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, SearchEngineID, ClientIP
SELECT SearchEngineID, ClientIP, COUNT(*) AS c, SUM(IsRefresh), AVG(ResolutionWidth) FROM hits WHERE SearchPhrase <> '' GROUP BY SearchEngineID, ClientIP ORDER BY c DESC, SearchEngineID, ClientIP LIMIT 10;

-- name: cb31_watch_ip_search
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, WatchID, ClientIP
SELECT WatchID, ClientIP, COUNT(*) AS c, SUM(IsRefresh), AVG(ResolutionWidth) FROM hits WHERE SearchPhrase <> '' GROUP BY WatchID, ClientIP ORDER BY c DESC, WatchID, ClientIP LIMIT 10;

-- name: cb32_watch_ip
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, WatchID, ClientIP
SELECT WatchID, ClientIP, COUNT(*) AS c, SUM(IsRefresh), AVG(ResolutionWidth) FROM hits GROUP BY WatchID, ClientIP ORDER BY c DESC, WatchID, ClientIP LIMIT 10;

-- name: cb33_url_count
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, URL
SELECT URL, COUNT(*) AS c FROM hits GROUP BY URL ORDER BY c DESC, URL LIMIT 10;

-- name: cb34_one_url_count
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, URL
SELECT 1, URL, COUNT(*) AS c FROM hits GROUP BY 1, URL ORDER BY c DESC, URL LIMIT 10;

-- name: cb35_ip_minus
-- ordered
-- ClickBench's ORDER BY c DESC; here: ORDER BY c DESC, ClientIP
SELECT ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3, COUNT(*) AS c FROM hits GROUP BY ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3 ORDER BY c DESC, ClientIP LIMIT 10;

-- name: cb36_counter62_urls
-- ordered
-- ClickBench's ORDER BY PageViews DESC; here: ORDER BY PageViews DESC, URL
SELECT URL, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND DontCountHits = 0 AND IsRefresh = 0 AND URL <> '' GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10;

-- name: cb37_counter62_titles
-- ordered
-- ClickBench's ORDER BY PageViews DESC; here: ORDER BY PageViews DESC, Title
SELECT Title, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND DontCountHits = 0 AND IsRefresh = 0 AND Title <> '' GROUP BY Title ORDER BY PageViews DESC, Title LIMIT 10;

-- name: cb38_counter62_links
-- ordered
-- ClickBench's ORDER BY PageViews DESC; here: ORDER BY PageViews DESC, URL
SELECT URL, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND IsRefresh = 0 AND IsLink <> 0 AND IsDownload = 0 GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10 OFFSET 1000;

-- name: cb39_counter62_sources
-- ordered
-- ClickBench's ORDER BY PageViews DESC; here: ORDER BY PageViews DESC, TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst
SELECT TraficSourceID, SearchEngineID, AdvEngineID, CASE WHEN (SearchEngineID = 0 AND AdvEngineID = 0) THEN Referer ELSE '' END AS Src, URL AS Dst, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND IsRefresh = 0 GROUP BY TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst ORDER BY PageViews DESC, TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst LIMIT 10 OFFSET 1000;

-- name: cb40_counter62_url_hashes
-- ordered
-- ClickBench's ORDER BY PageViews DESC; here: ORDER BY PageViews DESC, URLHash, EventDate
SELECT URLHash, EventDate, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND IsRefresh = 0 AND TraficSourceID IN (-1, 6) AND RefererHash = 3594120000172545465 GROUP BY URLHash, EventDate ORDER BY PageViews DESC, URLHash, EventDate LIMIT 10 OFFSET 100;

-- name: cb41_counter62_windows
-- ordered
-- ClickBench's ORDER BY PageViews DESC; here: ORDER BY PageViews DESC, WindowClientWidth, WindowClientHeight
SELECT WindowClientWidth, WindowClientHeight, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND IsRefresh = 0 AND DontCountHits = 0 AND URLHash = 2868770270353813622 GROUP BY WindowClientWidth, WindowClientHeight ORDER BY PageViews DESC, WindowClientWidth, WindowClientHeight LIMIT 10 OFFSET 10000;

-- name: cb42_counter62_minutes
-- ordered
-- ORDER BY the minute, a GROUP BY key: total
SELECT DATE_TRUNC('minute', EventTime) AS M, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-14' AND EventDate <= '2013-07-15' AND IsRefresh = 0 AND DontCountHits = 0 GROUP BY DATE_TRUNC('minute', EventTime) ORDER BY DATE_TRUNC('minute', EventTime) LIMIT 10 OFFSET 1000;

-- name: cb21s_google_phrases_scaled
-- ordered
-- cb21 with Referer LIKE '%google%' in place of URL LIKE '%google%'
SELECT SearchPhrase, MIN(URL), COUNT(*) AS c FROM hits WHERE Referer LIKE '%google%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;

-- name: cb22s_google_titles_scaled
-- ordered
-- cb22 with Title LIKE '%фильм%' AND URL NOT LIKE '%.ru%' in place of Title LIKE '%Google%' AND URL NOT LIKE '%.google.%'
SELECT SearchPhrase, MIN(URL), MIN(Title), COUNT(*) AS c, COUNT(DISTINCT UserID) FROM hits WHERE Title LIKE '%фильм%' AND URL NOT LIKE '%.ru%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;

-- name: cb23s_select_star_google_scaled
-- ordered
-- cb23 with Referer LIKE '%google%' in place of URL LIKE '%google%'
SELECT * FROM hits WHERE Referer LIKE '%google%' ORDER BY EventTime, WatchID LIMIT 10;

-- name: cb27s_counter_url_length_scaled
-- ordered
-- cb27 with HAVING COUNT(*) > 20 in place of HAVING COUNT(*) > 100000
SELECT CounterID, AVG(length(URL)) AS l, COUNT(*) AS c FROM hits WHERE URL <> '' GROUP BY CounterID HAVING COUNT(*) > 20 ORDER BY l DESC, CounterID LIMIT 25;

-- name: cb28s_referer_domains_scaled
-- ordered
-- cb28 with HAVING COUNT(*) > 20 in place of HAVING COUNT(*) > 100000
SELECT REGEXP_REPLACE(Referer, '^https?://(?:www\.)?([^/]+)/.*$', '\1') AS k, AVG(length(Referer)) AS l, COUNT(*) AS c, MIN(Referer) FROM hits WHERE Referer <> '' GROUP BY k HAVING COUNT(*) > 20 ORDER BY l DESC, k LIMIT 25;

-- name: cb38s_counter62_links_scaled
-- ordered
-- cb38 with OFFSET 2 in place of OFFSET 1000
SELECT URL, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND IsRefresh = 0 AND IsLink <> 0 AND IsDownload = 0 GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10 OFFSET 2;

-- name: cb39s_counter62_sources_scaled
-- ordered
-- cb39 with OFFSET 5 in place of OFFSET 1000
SELECT TraficSourceID, SearchEngineID, AdvEngineID, CASE WHEN (SearchEngineID = 0 AND AdvEngineID = 0) THEN Referer ELSE '' END AS Src, URL AS Dst, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND IsRefresh = 0 GROUP BY TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst ORDER BY PageViews DESC, TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst LIMIT 10 OFFSET 5;

-- name: cb40s_counter62_url_hashes_scaled
-- ordered
-- cb40 with OFFSET 1 in place of OFFSET 100
SELECT URLHash, EventDate, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND IsRefresh = 0 AND TraficSourceID IN (-1, 6) AND RefererHash = 3594120000172545465 GROUP BY URLHash, EventDate ORDER BY PageViews DESC, URLHash, EventDate LIMIT 10 OFFSET 1;

-- name: cb41s_counter62_windows_scaled
-- ordered
-- cb41 with OFFSET 5 in place of OFFSET 10000
SELECT WindowClientWidth, WindowClientHeight, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-01' AND EventDate <= '2013-07-31' AND IsRefresh = 0 AND DontCountHits = 0 AND URLHash = 2868770270353813622 GROUP BY WindowClientWidth, WindowClientHeight ORDER BY PageViews DESC, WindowClientWidth, WindowClientHeight LIMIT 10 OFFSET 5;

-- name: cb42s_counter62_minutes_scaled
-- ordered
-- cb42 with OFFSET 5 in place of OFFSET 1000
SELECT DATE_TRUNC('minute', EventTime) AS M, COUNT(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-14' AND EventDate <= '2013-07-15' AND IsRefresh = 0 AND DontCountHits = 0 GROUP BY DATE_TRUNC('minute', EventTime) ORDER BY DATE_TRUNC('minute', EventTime) LIMIT 10 OFFSET 5;
