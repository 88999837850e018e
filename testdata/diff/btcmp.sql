-- PostgreSQL's b-tree comparison support functions (pg_amproc number 1
-- of the b-tree families gpusql lists; psql's \dAp names them): sign,
-- NULLs, float NaN and infinities, cross-type comparisons, btint2cmp's
-- difference rather than its sign, and the overloads that do not exist.
-- Prefix bc.

-- name: bc001_integers
-- ordered
SELECT id, btint2cmp(s, id), btint2cmp(id, s), btint4cmp(i, 0), btint8cmp(big, i::bigint), btint24cmp(s, i), btint28cmp(s, big),
  btint42cmp(i, s), btint48cmp(i, big), btint82cmp(big, s), btint84cmp(big, i)
FROM obs ORDER BY id;

-- name: bc002_integer_literals
SELECT btint2cmp((-32768)::smallint, 32767::smallint), btint2cmp(32767::smallint, (-32768)::smallint), btint2cmp(3::smallint, 3::smallint),
  btint4cmp(-2147483647 - 1, 2147483647), btint4cmp(5, 2), btint8cmp(9223372036854775807, -9223372036854775807 - 1), btint4cmp(NULL, 1),
  btint4cmp('7', '7'), btint48cmp(2, 3000000000), btint84cmp(3000000000, 2), btint4cmp(2::smallint, 3::smallint);

-- name: bc003_floats
-- ordered
SELECT id, btfloat4cmp(r, 0), btfloat8cmp(d, d2), btfloat48cmp(r, d), btfloat84cmp(d, r), btfloat8cmp(d, 'NaN'), btfloat8cmp(i, d)
FROM obs ORDER BY id;

-- name: bc004_float_literals
SELECT btfloat8cmp('NaN', 'NaN'), btfloat8cmp('NaN', 'Infinity'), btfloat8cmp('-Infinity', 'NaN'), btfloat4cmp('-0', '0'),
  btfloat48cmp('NaN'::real, 'NaN'::float8), btfloat84cmp(1.5::float8, 1.5::real), btfloat8cmp(1, 2.5), btfloat4cmp(NULL, NULL);

-- name: bc005_numeric_bool
-- ordered
SELECT id, numeric_cmp(n, 0), numeric_cmp(n, n), btboolcmp(flag, true), btboolcmp(false, flag), numeric_cmp(i, 2.5)
FROM obs ORDER BY id;

-- name: bc006_numeric_literals
SELECT numeric_cmp(1.10, 1.1), numeric_cmp(-0.001, 0), numeric_cmp(10, 9.999), btboolcmp(true, false),
  btboolcmp(false, true), btboolcmp(NULL, true);

-- name: bc007_datetimes
-- ordered
SELECT id, timestamp_cmp(ts, '2000-01-01'), date_cmp(ts::date, '2000-01-01'), date_cmp_timestamp(ts::date, ts),
  timestamp_cmp_date(ts, ts::date), timestamp_cmp_timestamptz(ts, ts::timestamptz), timestamptz_cmp(ts::timestamptz, '2001-02-03 04:05:06+00'),
  date_cmp_timestamptz(ts::date, ts::timestamptz), timestamptz_cmp_date(ts::timestamptz, ts::date), timestamptz_cmp_timestamp(ts::timestamptz, ts)
FROM obs ORDER BY id;

-- name: bc008_datetime_literals
SELECT date_cmp('2020-01-02', '2020-01-01'), date_cmp('1999-12-31'::date, '2000-01-01'::date), date_cmp_timestamp('2020-01-01', '2020-01-01 00:00:00'),
  date_cmp_timestamp('2020-01-01', '2020-01-01 00:00:01'), timestamp_cmp('2020-01-01 10:00', '2020-01-01 10:00'), time_cmp('10:00', '09:59:59.999999'),
  time_cmp('24:00', '00:00'), interval_cmp('1 mon', '30 days'), interval_cmp('1 day', '24 hours'), interval_cmp('-1 year', '1 sec'),
  timestamptz_cmp('2020-01-01 00:00:00+01', '2020-01-01 00:00:00+00'), date_cmp_timestamptz('2020-01-01', '2019-12-31 23:00:00-01');

-- name: bc009_args_cast_implicitly
SELECT btint8cmp(1::smallint, 2), btfloat8cmp(1::smallint, 0.5::real), numeric_cmp(3::bigint, 2), timestamptz_cmp('2020-01-01'::date, '2020-01-01'::timestamp);

-- name: bc010_no_such_overload
-- error 42883
SELECT btint4cmp(1.5, 2);

-- name: bc011_no_such_overload_text
-- error 42883
SELECT date_cmp(now(), now());

-- name: bc012_wrong_arity
-- error 42883
SELECT btint4cmp(1);

-- name: bc013_order_by_cmp
-- ordered
SELECT id, i FROM obs WHERE btint4cmp(i, 100) < 0 ORDER BY btint4cmp(i, 0), id;

-- The string families' comparison functions. Under the C collation
-- PostgreSQL returns memcmp's value: the difference of the first bytes
-- that differ, or -1/1 when one string is a prefix of the other;
-- btnamecmp's strncmp counts the shorter name's end as a zero byte.
-- character(n) values compare without their trailing spaces.

-- name: bc014_text_columns
-- ordered
SELECT id, bttextcmp(grp, note), bttextcmp(note, 'm'), bttext_pattern_cmp(grp, 'b'), bpcharcmp(code, 'AB'), btbpchar_pattern_cmp(code, code),
  bpcharcmp(code, note), btnamecmp(grp, note), btnametextcmp(grp, note), bttextnamecmp(note, grp), bttextcmp(code, note)
FROM obs ORDER BY id;

-- name: bc015_text_literals
SELECT bttextcmp('a', 'c'), bttextcmp('abc', 'ab'), bttextcmp('a', 'aaaa'), bttextcmp('é', 'a'), bttextcmp('', ''), bttextcmp('', 'x'),
  bttextcmp('a', 'a '), bttext_pattern_cmp('ä', 'a'), bttext_pattern_cmp('ab', 'a'), bttext_pattern_cmp('~', ' '), bttextcmp(NULL, 'a');

-- name: bc016_bpchar_literals
SELECT bpcharcmp('a  ', 'a'), bpcharcmp('a', 'b '), bpcharcmp(' a', 'a'), bpcharcmp('ab'::char(5), 'ab  '), bpcharcmp('a', E'a\t'),
  btbpchar_pattern_cmp('ab ', 'a'), btbpchar_pattern_cmp('a ', 'a'), btbpchar_pattern_cmp('z', 'a'), bpcharcmp('a', 'b'::text),
  bpcharcmp(NULL, 'a'), bttextcmp('a'::char(3), 'a');

-- name: bc017_name_literals
SELECT btnamecmp('a', 'ab'), btnamecmp('ab', 'a'), btnamecmp('abc', 'abd'), btnamecmp('a'::text, 'b'::text), btnametextcmp('a', 'abc'),
  btnametextcmp('abc', 'a'), bttextnamecmp('ca', 'a'), bttextnamecmp('b', 'a'::name),
  btnamecmp('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx1', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx2'),
  btnametextcmp('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx1', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'),
  btnamecmp('ééééééééééééééééééééééééééééééééé', 'éééééééééééééééééééééééééééééééé'), btnamecmp(NULL, NULL);

-- name: bc018_text_no_such_overload
-- error 42883
SELECT bttextcmp(1, 2);

-- name: bc019_text_wrong_arity
-- error 42883
SELECT bpcharcmp('a');

-- name: bc020_equalimage
SELECT btequalimage(23), btequalimage(0), btequalimage(NULL), btvarstrequalimage(NULL);

-- name: bc021_varstrequalimage_needs_collation
-- error 42P22
SELECT btvarstrequalimage(25);

-- name: bc022_order_by_textcmp
-- ordered
SELECT id, grp FROM obs WHERE bttextcmp(grp, 'zzz') < 0 ORDER BY bttextcmp(grp, 'b') > 0, id;

-- name: bc023_name_collation
-- ordered
SELECT id, btnamecmp(grp, grp || 'x'), btnamecmp(grp, 'zz'), btnamecmp(grp::name, grp || 'x'), btnamecmp(grp, (grp || 'x')::name),
  btnamecmp(grp::text, note::text), btnametextcmp(grp, grp || 'x'), bttextnamecmp(grp || 'x', grp)
FROM obs ORDER BY id;

-- name: bc024_name_literal_casts
SELECT btnamecmp('a'::name, 'ab'), btnamecmp('a'::text, 'ab'::text), btnamecmp('a'::text, 'ab'::name), btnamecmp(('a'::name)::name, 'ab'::text),
  btnamecmp('a'::varchar, 'ab'), btnamecmp(('a'), ('ab')::text);
