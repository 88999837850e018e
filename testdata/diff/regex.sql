-- Regular expressions: the operators ~ ~* !~ !~*, and regexp_replace,
-- regexp_match and substring(x FROM pattern), which return what matched
-- (PostgreSQL's flags, replacement escapes, start and N arguments, and
-- its choice of the longest match for a greedy pattern). The GPU backend
-- runs the operators in a kernel and the functions as host steps over
-- the distinct arguments (docs/gpu.md).

-- name: rx001_operators
SELECT count(*) FILTER (WHERE URL ~ '^https?://[^/]*yandex'), count(*) FILTER (WHERE URL ~* 'GOOGLE'),
       count(*) FILTER (WHERE Title !~ '[0-9]'), count(*) FILTER (WHERE SearchPhrase !~* '^$|A') FROM hits;

-- name: rx002_operators_nulls
-- ordered
SELECT id, note ~ 'a.', note !~* 'A', grp ~ '^g' FROM obs ORDER BY id;

-- name: rx003_referer_domain_groups
-- ordered
SELECT REGEXP_REPLACE(Referer, '^https?://(?:www\.)?([^/]+)/.*$', '\1') AS k, COUNT(*) AS c, MIN(Referer)
  FROM hits WHERE Referer <> '' GROUP BY k ORDER BY c DESC, k LIMIT 20;

-- name: rx004_replace_global_escapes
-- ordered
SELECT l_orderkey, l_linenumber, regexp_replace(l_comment, '([aeiou])([a-z])', '<\2\1|\&|\\|\0|\x>', 'g'),
       regexp_replace(l_comment, '[AEIOU]+', '_', 'gi'), regexp_replace(l_comment, 's', 'S')
  FROM lineitem ORDER BY 1, 2 LIMIT 40;

-- name: rx005_replace_start_and_n
-- ordered
SELECT l_orderkey, l_linenumber, regexp_replace(l_comment, 'e', 'E', 3), regexp_replace(l_comment, 'e', 'E', 3, 2),
       regexp_replace(l_comment, 'e', 'E', 1, 0), regexp_replace(l_comment, 'E', '#', 2, 1, 'i'),
       regexp_replace(l_comment, 'e', 'E', 200)
  FROM lineitem ORDER BY 1, 2 LIMIT 40;

-- name: rx006_empty_matches_and_nulls
-- ordered
SELECT id, regexp_replace(note, 'x*', '-', 'g'), regexp_replace(note, 'a*', '.', 'g'), regexp_replace(note, 'a', NULL),
       regexp_replace(grp, '$', '!')
  FROM obs ORDER BY id;

-- name: rx007_longest_match
-- ordered
SELECT l_orderkey, l_linenumber, regexp_replace(l_comment, 'e|ep|epo', '[\&]', 'g'), regexp_replace(l_comment, 'a|al', '<\&>', 'g'),
       regexp_replace(l_comment, '[a-z]*?s', '@')
  FROM lineitem ORDER BY 1, 2 LIMIT 40;

-- name: rx008_regexp_match
-- ordered
SELECT WatchID, (regexp_match(URL, '^https?://([^/]+)(/[^?]*)?'))[1], regexp_match(URL, '^https?://([^/]+)(/[^?]*)?(\?.*)?')::text,
       regexp_match(Title, '[0-9]+')::text, regexp_match(SearchPhrase, 'X', 'i')::text
  FROM hits ORDER BY WatchID LIMIT 50;

-- name: rx009_substring_from_pattern
-- ordered
SELECT WatchID, substring(URL from 'https?://([^/]+)'), substring(URL FROM '[0-9]+'), substring(Title, '(x)?[a-z]+')
  FROM hits ORDER BY WatchID LIMIT 50;

-- name: rx010_constants
SELECT regexp_replace('abc', 'b*', '-', 'g'), regexp_replace('abc', 'x*', '-', 'g'), regexp_replace('aaa', 'a|aa', 'X'),
       regexp_replace('abcd', '(b)(c)', '[\2\1\&\\\0\x]'), regexp_replace('abcabc', 'b', 'X', 2), regexp_replace('abcabc', 'b', 'X', 1, 2),
       regexp_replace('héllo wörld', '[öé]', '*', 3), regexp_replace('héllo', '', '|', 'g'),
       regexp_match('ab', '(x)?b')::text, regexp_match('a{b,"c d', '.*')::text, regexp_match('abc', 'z')::text,
       substring('XY1234Z' from 'Y([0-9]{1,3})'), substring('abc' from 'z'), substring('foobar' from 'o(x)?b');

-- name: rx011_in_where_group_and_case
SELECT substring(URL from '^https?://([^/.]+)') AS h, count(*), sum(CASE WHEN regexp_replace(Title, '[^0-9]', '', 'g') = '' THEN 1 ELSE 0 END)
  FROM hits WHERE regexp_replace(URL, '\?.*', '') <> URL OR URL ~ 'html$' GROUP BY h;

-- name: rx012_char_and_varchar
-- ordered
SELECT id, regexp_replace(c, ' ', '_', 'g'), regexp_replace(v, '^(.)', '\1\1'), substring(c from '.$') FROM ja ORDER BY id;

-- name: rx013_bad_flag
-- error 22023
SELECT regexp_replace(l_comment, 'a', 'b', 'z') FROM lineitem;

-- name: rx014_match_global_flag
-- error 22023
SELECT regexp_match(l_comment, 'a', 'g') FROM lineitem;

-- name: rx015_bad_start
-- error 22023
SELECT regexp_replace(l_comment, 'a', 'b', 0) FROM lineitem;

-- name: rx016_bad_pattern
-- error 2201B
SELECT regexp_replace(l_comment, '(a', 'b') FROM lineitem;

-- name: rx017_bad_n
-- error 22023
SELECT regexp_replace(l_comment, 'a', 'b', 1, -1) FROM lineitem;
