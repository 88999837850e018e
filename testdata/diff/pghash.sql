-- PostgreSQL's hash support functions (pg_amproc numbers 1 and 2 of the
-- hash families gpusql lists; psql's \dAp names them), bit for bit: the
-- 32-bit ones and the seeded 64-bit ones, NULLs, zero and NaN floats,
-- trailing blanks of char(n), timestamps before and after 2000, intervals
-- equal by their span, numerics of any scale.
-- Prefix ph.

-- name: ph001_integers
-- ordered
SELECT id, hashint2(s), hashint4(i), hashint8(big), hashint8(i::bigint) = hashint4(i), hashint2extended(s, 0), hashint4extended(i, 42),
  hashint8extended(big, -1), hashint4(s), hashint8(s)
FROM obs ORDER BY id;

-- name: ph002_integer_literals
SELECT hashint4(0), hashint4(-1), hashint4(2147483647), hashint8(-9223372036854775807 - 1), hashint8(4294967296), hashint2(NULL),
  hashint4extended(7, NULL), hashint8extended(123456789012, 8816678312871386365), hashint4('12'), hashint2extended(3::smallint, 5);

-- name: ph003_floats
-- ordered
SELECT id, hashfloat4(r), hashfloat8(d), hashfloat8(d2), hashfloat4extended(r, 3), hashfloat8extended(d, 0), hashfloat8(i)
FROM obs ORDER BY id;

-- name: ph004_float_literals
SELECT hashfloat8(0), hashfloat8('-0'), hashfloat8extended('-0', 99), hashfloat8('NaN'), hashfloat8('-NaN'), hashfloat4('NaN'),
  hashfloat8('Infinity'), hashfloat8('-Infinity'), hashfloat4(1.5), hashfloat8(1.5), hashfloat4(0.1), hashfloat8(0.1), hashfloat4(NULL);

-- name: ph005_strings
-- ordered
SELECT id, hashtext(grp), hashtextextended(grp, 17), hashbpchar(code), hashbpcharextended(code, 0), hashtext(note), hashtext(code)
FROM obs ORDER BY id;

-- name: ph006_string_literals
SELECT hashtext(''), hashtext('a'), hashtext('abcdefghijkl'), hashtext('abcdefghijklm'), hashtext('naïve ünïcödé'), hashbpchar('ab   '),
  hashbpchar('ab'::char(6)) = hashbpchar('ab'), hashtextextended('hello', 0), hashtextextended('hello', 1), hashbpcharextended('x  ', 2);

-- name: ph007_times
-- ordered
SELECT id, timestamp_hash(ts), timestamp_hash_extended(ts, 11), time_hash(ts::time), time_hash_extended(ts::time, 0), timestamp_hash(ts::date)
FROM obs ORDER BY id;

-- name: ph008_time_literals
SELECT timestamp_hash('2000-01-01 00:00:00'), timestamp_hash('1970-01-01 00:00:00'), timestamp_hash('1999-12-31 23:59:59.999999'),
  timestamp_hash('2300-06-01 12:00:00'), time_hash('00:00'), time_hash('24:00'), time_hash('13:14:15.161718'), timestamp_hash(NULL);

-- name: ph009_no_such_overload
-- error 42883
SELECT hashint4(1.5);

-- name: ph010_no_such_overload_date
-- error 42883
SELECT hashint4(current_date);

-- name: ph011_wrong_arity
-- error 42883
SELECT hashint4extended(1);

-- name: ph012_intervals
SELECT interval_hash('1 mon'), interval_hash('30 days') = interval_hash('1 mon'), interval_hash('1 day') = interval_hash('24 hours'),
  interval_hash('-1 year 2 days 03:04:05.678901'), interval_hash_extended('1 mon', 5), interval_hash_extended('0', 0), interval_hash(NULL),
  interval_hash('178000000 years'), interval_hash('-178000000 years -2147483647 days');

-- name: ph013_interval_columns
-- ordered
SELECT id, interval_hash(ts - '2000-01-01'), interval_hash_extended(ts - '1999-06-15 12:00', -3) FROM obs ORDER BY id;

-- name: ph014_numerics
SELECT hash_numeric(0), hash_numeric(0.000), hash_numeric_extended(0, 10), hash_numeric(1), hash_numeric(-1), hash_numeric(1.0),
  hash_numeric(10000), hash_numeric(12345.6789), hash_numeric(0.0001), hash_numeric(0.00012), hash_numeric(123456789012345678901234567890),
  hash_numeric(-0.5), hash_numeric(99999999.99990000), hash_numeric_extended(12345.6789, 7), hash_numeric_extended(0.001, -2), hash_numeric(NULL),
  hash_numeric(5), hash_numeric(5::bigint), hash_numeric('3.14159');

-- name: ph015_numeric_columns
-- ordered
SELECT id, hash_numeric(n), hash_numeric_extended(n, 1), hash_numeric(n * 1000), hash_numeric(i), hash_numeric(big) FROM obs ORDER BY id;

-- hashname hashes a name's bytes, as hashtext does, after the cut to 63
-- bytes (at a character boundary); hashchar a "char", its one byte as
-- a signed C char.

-- name: ph016_names
SELECT hashname('abc'), hashname(''), hashnameextended('abc', 7), hashnameextended('abc', NULL), hashname(NULL),
  hashname('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx') = hashtext('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'),
  hashname('éééééééééééééééééééééééééééééééééééééééé'), hashnameextended('éééééééééééééééééééééééééééééééééééééééé', -3),
  hashname('a'::varchar);

-- name: ph017_name_columns
-- ordered
SELECT id, hashname(grp), hashnameextended(note, 11), hashname(grp) = hashtext(grp) FROM obs ORDER BY id;

-- name: ph018_chars
SELECT hashchar('a'), hashchar('ab'::"char"), hashchar(''), hashchar('é'), hashcharextended('é', 5), hashcharextended('z', 0),
  hashchar(NULL), hashchar('a') = hashint4(97);

-- name: ph019_char_no_bool
-- error 42883
SELECT hashchar(true);
