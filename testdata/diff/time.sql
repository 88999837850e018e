-- Time zones, timestamptz, time, precisions and the time functions
-- (table tz: DST transitions, leap days, ISO week boundaries, NULLs).
-- Entries that SET TimeZone are reset by the harness afterwards.

-- name: t001_load_and_show_utc
-- ordered
SELECT id, ts, tz, d, t, ts3, grp FROM tz ORDER BY id;

-- name: t002_show_berlin
-- ordered
SET TIME ZONE 'Europe/Berlin';
SELECT id, tz, tz::text, tz::date, tz::time, tz::timestamp FROM tz ORDER BY id;

-- name: t003_show_new_york
-- ordered
SET timezone = 'America/New_York';
SELECT id, tz, tz::date, tz::timestamp, ts::timestamptz, d::timestamptz FROM tz ORDER BY id;

-- name: t004_show_fixed_offsets
-- ordered
SET TIME ZONE -3.5;
SHOW TimeZone;
SELECT id, tz FROM tz WHERE id < 12 ORDER BY id;

-- name: t005_set_time_zone_forms
SET TIME ZONE 5; SHOW timezone; SET TIME ZONE 'europe/berlin'; SHOW timezone; SET TIME ZONE '-03:30'; SHOW timezone;
SELECT timestamptz '2024-07-01 12:00:00+00'; SET TIME ZONE 'UTC+5'; SELECT timestamptz '2024-07-01 12:00:00+00';
SET TIME ZONE DEFAULT; SHOW timezone;

-- name: t006_bad_time_zone
-- error 22023
SET TIME ZONE 'Mars/Olympus_Mons';

-- name: t007_timestamptz_literals
SELECT timestamptz '2024-03-01 12:00:00+02', timestamptz '2024-03-01T10:00:00Z', '2024-03-01 10:00 EST'::timestamptz,
  '2024-07-01 10:00 Europe/Berlin'::timestamptz, '2024-07-01 10:00 CET'::timestamptz, '2024-07-01 10:00+0530'::timestamptz,
  timestamp with time zone '2024-01-01 00:00:00.123456-03:30', '1850-01-01 12:00+00'::timestamptz;

-- name: t008_timestamptz_literals_in_berlin
SET TIME ZONE 'Europe/Berlin';
SELECT timestamptz '2024-07-01', '2024-03-31 02:30'::timestamptz, '2024-10-27 02:30'::timestamptz,
  '2024-03-31 01:59:59.999999'::timestamptz, '1850-01-01 12:00+00'::timestamptz, '2024-01-01 12:00'::timestamptz::text;

-- name: t009_bad_timestamptz
-- error 22007
SELECT '2024-03-01 sometime'::timestamptz;

-- name: t010_timestamptz_displacement_out_of_range
-- error 22009
SELECT '2024-01-01 10:00 +16'::timestamptz;

-- name: t011_at_time_zone_both_ways
-- ordered
SELECT id, tz AT TIME ZONE 'Europe/Berlin', tz AT TIME ZONE 'America/New_York', ts AT TIME ZONE 'Europe/Berlin',
  ts AT TIME ZONE 'America/New_York', tz AT TIME ZONE 'UTC' AT TIME ZONE 'Asia/Kolkata'
FROM tz ORDER BY id;

-- name: t012_at_time_zone_gaps_and_overlaps
SELECT '2024-03-31 02:30'::timestamp AT TIME ZONE 'Europe/Berlin', '2024-10-27 02:30'::timestamp AT TIME ZONE 'Europe/Berlin',
  '2024-03-10 02:30'::timestamp AT TIME ZONE 'America/New_York', '2024-11-03 01:30'::timestamp AT TIME ZONE 'America/New_York',
  '2024-10-27 01:59:59'::timestamp AT TIME ZONE 'Europe/Berlin', '2024-10-27 03:00'::timestamp AT TIME ZONE 'Europe/Berlin';

-- name: t013_at_time_zone_forms
SELECT ts AT TIME ZONE '+05', ts AT TIME ZONE '-03:30', ts AT TIME ZONE 'UTC+5', ts AT TIME ZONE 'EST', ts AT TIME ZONE 'est',
  ts AT TIME ZONE 'CET', ts AT TIME ZONE 'CEST', ts AT TIME ZONE 'europe/berlin', ts AT TIME ZONE '<+05>-05',
  ts AT TIME ZONE 'EST5EDT', ts AT TIME ZONE 'Etc/GMT+2', ts AT TIME ZONE 'Z', ts AT TIME ZONE 'utc',
  tz AT TIME ZONE 'Asia/Kolkata', tz AT TIME ZONE 'America/Sao_Paulo', tz AT TIME ZONE 'MSK', tz AT TIME ZONE 'NZST'
FROM tz WHERE id IN (1, 4, 12, 21);

-- name: t014_at_time_zone_interval_and_function
SELECT timestamp '2024-07-01 12:00' AT TIME ZONE INTERVAL '+05:30', timezone('Europe/Berlin', timestamptz '2024-07-01 12:00+00'),
  timezone('America/New_York', timestamp '2024-07-01 12:00'), date '2024-07-01' AT TIME ZONE 'UTC';

-- name: t015_at_time_zone_unknown_zone
-- error 22023
SELECT ts AT TIME ZONE 'Nowhere/Land' FROM tz;

-- name: t016_at_time_zone_nulls
SELECT count(*), count(tz AT TIME ZONE 'Europe/Berlin'), count(ts AT TIME ZONE 'UTC'), NULL::timestamp AT TIME ZONE 'UTC' FROM tz;

-- name: t017_extract_timestamptz_berlin
-- ordered
SET TIME ZONE 'Europe/Berlin';
SELECT id, extract(year FROM tz), extract(month FROM tz), extract(day FROM tz), extract(hour FROM tz), extract(minute FROM tz),
  extract(second FROM tz), extract(epoch FROM tz), extract(timezone FROM tz), extract(timezone_hour FROM tz),
  extract(timezone_minute FROM tz), extract(dow FROM tz), extract(doy FROM tz), extract(week FROM tz), extract(isoyear FROM tz)
FROM tz ORDER BY id;

-- name: t018_extract_every_field_timestamp
-- ordered
SELECT id, extract(microseconds FROM ts), extract(milliseconds FROM ts), extract(second FROM ts), extract(minute FROM ts),
  extract(hour FROM ts), extract(day FROM ts), extract(month FROM ts), extract(quarter FROM ts), extract(year FROM ts),
  extract(decade FROM ts), extract(century FROM ts), extract(millennium FROM ts), extract(dow FROM ts), extract(isodow FROM ts),
  extract(doy FROM ts), extract(week FROM ts), extract(isoyear FROM ts), extract(epoch FROM ts), extract(julian FROM ts)
FROM tz ORDER BY id;

-- name: t019_extract_date_time_interval
-- ordered
SELECT id, extract(epoch FROM d), extract(julian FROM d), extract(week FROM d), extract(hour FROM t), extract(second FROM t),
  extract(epoch FROM t), extract(milliseconds FROM t), extract(epoch FROM ts - timestamp '2000-01-01'),
  extract(day FROM ts - timestamp '2000-01-01'), extract(hour FROM timestamp '2000-01-01' - ts)
FROM tz ORDER BY id;

-- name: t020_extract_interval_fields
-- ordered
SELECT id, extract(epoch FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(year FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(month FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(quarter FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(day FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(hour FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(minute FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(second FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(milliseconds FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(microseconds FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(decade FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(century FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END),
  extract(millennium FROM CASE id WHEN 1 THEN interval '1 year 2 months 3 days 04:05:06.789' WHEN 2 THEN interval '-1 year -2 months -3 days -04:05:06.789' WHEN 3 THEN interval '1234 years 11 months' WHEN 4 THEN interval '-7 mons 400 days -30:00:00.5' WHEN 5 THEN NULL::interval WHEN 6 THEN interval '-0.000001 sec' END)
FROM tz WHERE id <= 6 ORDER BY id;

-- name: t021_date_part_doubles
-- ordered
SET TIME ZONE 'America/New_York';
SELECT id, date_part('year', ts), date_part('second', ts), date_part('epoch', ts), date_part('epoch', tz), date_part('hour', tz),
  date_part('milliseconds', ts), date_part('microseconds', ts), date_part('julian', ts), date_part('timezone', tz),
  date_part('day', d), date_part('hour', d), date_part('epoch', t), date_part('epoch', interval '1 year 1 day 00:00:01.5')
FROM tz ORDER BY id;

-- name: t022_extract_unit_aliases
SELECT extract('years' FROM ts), date_part('mons', ts), date_part('h', ts), date_part('ms', ts), extract(secs FROM ts)
FROM tz WHERE id = 16;

-- name: t023_extract_unsupported_unit
-- error 0A000
SELECT extract(hour FROM d) FROM tz;

-- name: t024_extract_unknown_unit
-- error 22023
SELECT extract(fortnight FROM ts) FROM tz;

-- name: t025_extract_timezone_of_timestamp
-- error 0A000
SELECT extract(timezone FROM ts) FROM tz;

-- name: t026_date_trunc_timestamp_every_unit
-- ordered
SELECT id, date_trunc('microseconds', ts), date_trunc('milliseconds', ts), date_trunc('second', ts), date_trunc('minute', ts),
  date_trunc('hour', ts), date_trunc('day', ts), date_trunc('week', ts), date_trunc('month', ts), date_trunc('quarter', ts),
  date_trunc('year', ts), date_trunc('decade', ts), date_trunc('century', ts), date_trunc('millennium', ts)
FROM tz ORDER BY id;

-- name: t027_date_trunc_timestamptz_berlin
-- ordered
SET TIME ZONE 'Europe/Berlin';
SELECT id, tz, date_trunc('hour', tz), date_trunc('day', tz), date_trunc('week', tz), date_trunc('month', tz),
  date_trunc('quarter', tz), date_trunc('year', tz), date_trunc('minute', tz), date_trunc('second', tz)
FROM tz ORDER BY id;

-- name: t028_date_trunc_timestamptz_new_york
-- ordered
SET TIME ZONE 'America/New_York';
SELECT id, date_trunc('hour', tz), date_trunc('day', tz), date_trunc('week', tz), date_trunc('month', tz), date_trunc('decade', tz)
FROM tz ORDER BY id;

-- name: t029_date_trunc_with_zone_argument
-- ordered
SELECT id, date_trunc('day', tz, 'Europe/Berlin'), date_trunc('hour', tz, 'America/New_York'),
  date_trunc('month', tz, 'Asia/Kolkata'), date_trunc('week', tz, 'UTC')
FROM tz ORDER BY id;

-- name: t030_date_trunc_date_and_interval
-- ordered
SELECT id, date_trunc('month', d), date_trunc('year', d), date_trunc('hour', ts - timestamp '2000-01-01'),
  date_trunc('day', timestamp '2000-01-01' - ts), date_trunc('year', interval '1234 years 11 mons 3 days'),
  date_trunc('quarter', interval '-5 mons 3 days'), date_trunc('millennium', interval '-2500 years')
FROM tz ORDER BY id;

-- name: t031_date_trunc_unknown_unit
-- error 22023
SELECT date_trunc('fortnight', ts) FROM tz;

-- name: t032_date_trunc_week_of_interval
-- error 0A000
SELECT date_trunc('week', interval '10 days');

-- name: t033_date_bin
-- ordered
SELECT id, date_bin('15 minutes', ts, timestamp '2000-01-01'), date_bin('1 day 6 hours', ts, timestamp '2020-06-15 03:00'),
  date_bin('7 days', tz, timestamptz '2024-01-01 00:00+00'), date_bin('1.5 seconds', ts, timestamp '1970-01-01'),
  date_bin('1 hour', ts, timestamp '2100-01-01 00:30')
FROM tz ORDER BY id;

-- name: t034_date_bin_months
-- error 0A000
SELECT date_bin('1 month', ts, timestamp '2000-01-01') FROM tz;

-- name: t035_date_bin_zero_stride
-- error 22008
SELECT date_bin('0 minutes', ts, timestamp '2000-01-01') FROM tz;

-- name: t036_now_is_stable
SELECT now() = current_timestamp, now() = transaction_timestamp(), statement_timestamp() >= now(),
  clock_timestamp() >= statement_timestamp(), now() > '2020-01-01', current_date = now()::date,
  localtimestamp = now()::timestamp, now() - now(), current_date - current_date;

-- name: t037_now_in_a_transaction
BEGIN; SELECT now() = transaction_timestamp(); SELECT now() <= statement_timestamp(); COMMIT;

-- name: t038_now_minus_interval_filter
SELECT count(*) FROM tz WHERE tz > now() - interval '100 years' AND tz < now() + interval '7 days';

-- name: t039_current_date_and_localtime_in_a_zone
SET TIME ZONE 'Pacific/Kiritimati';
SELECT current_date = (now() AT TIME ZONE 'Pacific/Kiritimati')::date, localtime IS NOT NULL, current_timestamp(0) <= now() + interval '1 second';

-- name: t040_age
-- ordered
SELECT id, age(ts, timestamp '2000-02-29 12:00'), age(timestamp '2000-02-29 12:00', ts), age(d, date '1999-12-31'),
  age(ts3, ts), age(ts, ts)
FROM tz ORDER BY id;

-- name: t041_age_timestamptz_berlin
-- ordered
SET TIME ZONE 'Europe/Berlin';
SELECT id, age(tz, timestamptz '2024-01-31 23:00+00'), age(timestamptz '2024-03-31 01:30+00', tz) FROM tz ORDER BY id;

-- name: t042_age_of_today
SELECT age(current_date::timestamp) = interval '0', age(now()) < interval '1 day';

-- name: t043_justify
-- ordered
SELECT id, CASE id WHEN 1 THEN interval '35 days' WHEN 2 THEN interval '-35 days' WHEN 3 THEN interval '1 mon -1 day' WHEN 4 THEN interval '50 hours' WHEN 5 THEN interval '-50 hours' WHEN 6 THEN interval '1 day -1 hour' WHEN 7 THEN interval '-1 day 1 hour' WHEN 8 THEN interval '1 mon -1 hour' WHEN 9 THEN interval '-1 mon 1 hour' WHEN 10 THEN interval '6 mons -3 days 50:00:00' WHEN 11 THEN interval '30 days 24:00:00' WHEN 12 THEN NULL::interval WHEN 13 THEN interval '-1 mon 29 days 23:00:00' WHEN 14 THEN interval '1 mon -29 days -23:00:00' END,
  justify_days(CASE id WHEN 1 THEN interval '35 days' WHEN 2 THEN interval '-35 days' WHEN 3 THEN interval '1 mon -1 day' WHEN 4 THEN interval '50 hours' WHEN 5 THEN interval '-50 hours' WHEN 6 THEN interval '1 day -1 hour' WHEN 7 THEN interval '-1 day 1 hour' WHEN 8 THEN interval '1 mon -1 hour' WHEN 9 THEN interval '-1 mon 1 hour' WHEN 10 THEN interval '6 mons -3 days 50:00:00' WHEN 11 THEN interval '30 days 24:00:00' WHEN 12 THEN NULL::interval WHEN 13 THEN interval '-1 mon 29 days 23:00:00' WHEN 14 THEN interval '1 mon -29 days -23:00:00' END),
  justify_hours(CASE id WHEN 1 THEN interval '35 days' WHEN 2 THEN interval '-35 days' WHEN 3 THEN interval '1 mon -1 day' WHEN 4 THEN interval '50 hours' WHEN 5 THEN interval '-50 hours' WHEN 6 THEN interval '1 day -1 hour' WHEN 7 THEN interval '-1 day 1 hour' WHEN 8 THEN interval '1 mon -1 hour' WHEN 9 THEN interval '-1 mon 1 hour' WHEN 10 THEN interval '6 mons -3 days 50:00:00' WHEN 11 THEN interval '30 days 24:00:00' WHEN 12 THEN NULL::interval WHEN 13 THEN interval '-1 mon 29 days 23:00:00' WHEN 14 THEN interval '1 mon -29 days -23:00:00' END),
  justify_interval(CASE id WHEN 1 THEN interval '35 days' WHEN 2 THEN interval '-35 days' WHEN 3 THEN interval '1 mon -1 day' WHEN 4 THEN interval '50 hours' WHEN 5 THEN interval '-50 hours' WHEN 6 THEN interval '1 day -1 hour' WHEN 7 THEN interval '-1 day 1 hour' WHEN 8 THEN interval '1 mon -1 hour' WHEN 9 THEN interval '-1 mon 1 hour' WHEN 10 THEN interval '6 mons -3 days 50:00:00' WHEN 11 THEN interval '30 days 24:00:00' WHEN 12 THEN NULL::interval WHEN 13 THEN interval '-1 mon 29 days 23:00:00' WHEN 14 THEN interval '1 mon -29 days -23:00:00' END)
FROM tz WHERE id <= 14 ORDER BY id;

-- name: t044_make_functions
SELECT make_date(2024, 2, 29), make_date(-44, 3, 15), make_time(8, 15, 23.5), make_timestamp(2024, 2, 29, 23, 59, 59.999999),
  make_interval(1, 2, 3, 4, 5, 6, 7.5), make_interval(days => 10), make_interval(hours => -3, secs => 1.25),
  make_interval(), make_timestamp(1, 1, 1, 0, 0, 0);

-- name: t045_make_timestamptz
SET TIME ZONE 'Europe/Berlin';
SELECT make_timestamptz(2024, 3, 31, 2, 30, 0), make_timestamptz(2024, 7, 1, 12, 0, 0, 'America/New_York'),
  make_timestamptz(2024, 10, 27, 2, 30, 0), make_timestamptz(2024, 1, 1, 0, 0, 0, 'UTC');

-- name: t046_make_date_leap_error
-- error 22008
SELECT make_date(2023, 2, 29);

-- name: t047_make_time_error
-- error 22008
SELECT make_time(24, 0, 0.5);

-- name: t048_make_from_columns
-- ordered
SELECT id, make_date(extract(year FROM d)::int, extract(month FROM d)::int, 1),
  make_timestamp(2020, extract(month FROM ts)::int, 1, extract(hour FROM ts)::int, 0, extract(second FROM ts)::float8)
FROM tz WHERE d < date '5000-01-01' ORDER BY id;

-- name: t049_timestamptz_arithmetic_across_dst
-- ordered
SET TIME ZONE 'Europe/Berlin';
SELECT id, tz + interval '1 day', tz - interval '1 day', tz + interval '24 hours', tz + interval '1 month', tz - interval '1 mon 1 day 1 hour',
  interval '2 days' + tz, tz - timestamptz '2024-01-01 00:00+01', tz - ts, ts - tz, tz - d
FROM tz WHERE id < 26 ORDER BY id;

-- name: t050_timestamptz_arithmetic_new_york
-- ordered
SET TIME ZONE 'America/New_York';
SELECT id, tz + interval '1 day', tz + interval '1 mon', tz - interval '1 year' FROM tz WHERE id BETWEEN 5 AND 14 ORDER BY id;

-- name: t052_compare_timestamptz_with_timestamp_and_date
-- ordered
SET TIME ZONE 'Europe/Berlin';
SELECT id, tz = ts, tz < ts, tz > d, tz = '2024-03-31 03:00:00', ts = '2024-03-31 01:00' FROM tz ORDER BY id;

-- name: t053_timestamptz_between_grafana
SELECT count(*), min(tz), max(tz) FROM tz WHERE tz BETWEEN '2024-01-01T00:00:00Z'::timestamptz AND '2024-12-31T23:59:59.999Z'::timestamptz;

-- name: t054_timestamptz_group_order
-- ordered
SET TIME ZONE 'America/New_York';
SELECT tz::date AS day, count(*), min(tz), max(ts) FROM tz GROUP BY 1 ORDER BY 1 NULLS FIRST;

-- name: t055_time_type
-- ordered
SELECT id, t, t + interval '1 hour 30 minutes', t - interval '25 hours', interval '1 minute' + t, t - time '12:00',
  d + t, t + d, t::interval, ts::time, t > time '12:00', t::text
FROM tz ORDER BY id;

-- name: t056_time_literals
SELECT time '24:00', time '12:00:00.5+02', time '2024-01-01 13:14', '07:05'::time, time '23:59:59.999999',
  time '10:00' + interval '14 hours', time(0) '12:34:56.5', '12:34:56.789'::time(1), interval '26:00' :: time;

-- name: t057_bad_time
-- error 22008
SELECT '24:00:01'::time;

-- name: t058_timestamp_precisions
-- ordered
SELECT id, ts3, ts::timestamp(0), ts::timestamp(2), tz::timestamptz(0), ts3::timestamp(1), t::time(0),
  timestamp(1) '1999-12-31 23:59:59.95', timestamp(0) '1999-12-31 23:59:59.5', timestamp(0) '2000-01-01 00:00:00.5'
FROM tz ORDER BY id;

-- name: t059_interval_fields_and_precision
SELECT interval '1.5' day, interval '1 day 3 hours' day, '1.5'::interval day,
  interval '1 year 2 months 3 days 04:05:06.789' year to month, interval '10' minute, '1:30'::interval minute to second,
  interval '3 days 04:05:06.789' day to second(1), interval '1 day 3 hours' hour, interval(2) '1.2345 sec',
  '-1:30'::interval minute to second, interval '7' year, interval '2 years 7 months' month, interval '5 days 06:07:08' day to hour,
  interval '5 days 06:07:08' hour to minute, '-3 days -00:00:01.5'::interval(0);

-- name: t060_casts_between_date_and_time_types
-- ordered
SET TIME ZONE 'America/New_York';
SELECT id, d::timestamp, d::timestamptz, ts::date, tz::date, ts::timestamptz::timestamp, tz::timestamp::timestamptz,
  tz::text::timestamptz = tz, ts::text, tz::varchar(10)
FROM tz ORDER BY id;

-- name: t061_timestamptz_text_roundtrip_zones
-- ordered
SELECT id, (tz AT TIME ZONE 'Asia/Kolkata')::text, (tz::text)::timestamptz = tz FROM tz ORDER BY id;

-- name: t062_leap_days
-- ordered
SELECT id, d + interval '1 year', d - interval '1 year', ts + interval '4 years', date_trunc('month', d + 31),
  extract(doy FROM d), make_date(extract(year FROM d)::int, 12, 31) - make_date(extract(year FROM d)::int, 1, 1)
FROM tz WHERE extract(month FROM d) = 2 ORDER BY id;

-- name: t063_negative_intervals
SELECT ts, ts + interval '-1 mon -2 days -03:00:00', ts - interval '-1 year', interval '-1 day' + ts,
  age(ts, ts + interval '1 year 1 day'), justify_interval(ts - (ts + interval '40 days 30 hours'))
FROM (SELECT timestamp '2024-03-31 12:00' AS ts UNION ALL SELECT timestamp '2024-02-29 00:00'
  UNION ALL SELECT timestamp '2023-12-31 23:59:59.999999') v;

-- name: t064_metabase_week_groups
-- ordered
SELECT (date_trunc('week', (tz AT TIME ZONE 'UTC')) AT TIME ZONE 'UTC') AS week, count(*) AS count
FROM tz WHERE tz IS NOT NULL GROUP BY 1 ORDER BY 1;

-- name: t065_metabase_week_groups_berlin_report
-- ordered
SELECT CAST(date_trunc('week', (tz AT TIME ZONE 'Europe/Berlin')) AS date) AS "tz", count(*) AS "count"
FROM tz GROUP BY 1 ORDER BY 1 NULLS LAST;

-- name: t067_superset_time_grain
-- ordered
SELECT date_trunc('month', ts) AS __timestamp, grp, count(*) AS count
FROM tz WHERE ts >= '2000-01-01 00:00:00.000000' AND ts < '2030-01-01 00:00:00.000000'
GROUP BY date_trunc('month', ts), grp ORDER BY 1, 2 NULLS LAST LIMIT 100;

-- name: t068_date_trunc_on_date_is_timestamptz
SET TIME ZONE 'Europe/Berlin';
SELECT date_trunc('month', date '2024-03-31'), date_trunc('day', timestamptz '2024-10-27 12:00+00'),
  date_trunc('month', d), date_trunc('week', d) FROM tz WHERE id IN (1, 11, 12, 26);

-- name: t066_grafana_time_group_and_filter
-- ordered
SET TIME ZONE 'America/New_York';
SELECT floor(extract(epoch FROM tz) / 300) * 300 AS "time", count(*) AS "value"
FROM tz WHERE tz BETWEEN '2020-01-01T00:00:00Z'::timestamptz AND '2030-01-01T00:00:00Z'::timestamptz
GROUP BY 1 ORDER BY 1;

-- name: t069_generate_series_timestamps
-- ordered
SELECT * FROM generate_series(timestamp '2024-02-27 12:00', timestamp '2024-03-02', interval '12 hours') AS g ORDER BY 1;

-- name: t070_generate_series_timestamptz_dst
-- ordered
SET TIME ZONE 'Europe/Berlin';
SELECT g, g AT TIME ZONE 'UTC' FROM generate_series(timestamptz '2024-03-30 00:00', timestamptz '2024-04-01 00:00', interval '1 day') g
UNION ALL
SELECT g, g AT TIME ZONE 'UTC' FROM generate_series(timestamptz '2024-10-26 01:30', timestamptz '2024-10-27 05:00', '90 minutes') g
ORDER BY 1;

-- name: t071_generate_series_dates_and_months
-- ordered
SET TIME ZONE 'America/New_York';
SELECT g, g::date FROM generate_series(date '2024-01-31', date '2024-06-30', interval '1 month') g ORDER BY 1;

-- name: t072_generate_series_backwards_and_empty
SELECT (SELECT count(*) FROM generate_series(timestamp '2024-01-10', timestamp '2024-01-01', interval '-1 day 6 hours')),
  (SELECT count(*) FROM generate_series(timestamp '2024-01-10', timestamp '2024-01-01', interval '1 day')),
  (SELECT count(*) FROM generate_series(timestamp '2024-01-01', NULL::timestamp, interval '1 day')),
  (SELECT max(g) FROM generate_series(timestamp '2024-01-10', timestamp '2024-01-01', interval '-1 day 6 hours') g);

-- name: t073_generate_series_zero_step
-- error 22023
SELECT * FROM generate_series(timestamp '2024-01-01', timestamp '2024-01-02', interval '0 days');

-- name: t074_calendar_left_join
-- ordered
SELECT c::date AS day, count(t.id) FROM generate_series(timestamp '2024-02-26', timestamp '2024-03-05', interval '1 day') c
LEFT JOIN tz t ON t.ts >= c AND t.ts < c + interval '1 day' GROUP BY 1 ORDER BY 1;

-- name: t075_generate_series_literals_are_timestamptz
-- ordered
SET TIME ZONE 'Asia/Kolkata';
SELECT * FROM generate_series('2024-01-01', '2024-01-02', interval '6 hours') g
UNION ALL SELECT * FROM generate_series(timestamp '2024-01-01', '2024-01-01 12:00', '6 hours') ORDER BY 1;

-- name: t076_to_char_timestamps
-- ordered
SELECT id, to_char(ts, 'YYYY-MM-DD HH24:MI:SS'), to_char(ts, 'YYYY-MM'), to_char(ts, 'Mon DD, YYYY HH12:MI AM'),
  to_char(ts, 'Day, FMMonth FMDDth YYYY'), to_char(ts, 'DY dy Dy MON mon MONTH month FMmonth'), to_char(ts, 'Q IW IYYY WW W D ID DDD IDDD J'),
  to_char(ts, 'HH HH12 hh24 mi ss MS US FF1 FF3 SSSS a.m. P.M. pm'), to_char(ts, 'YY YYY Y,YYY CC RM rm FMRM AD bc'),
  to_char(ts, '"Week "IW" of "IYYY'), to_char(ts, 'DDth DDTH FMDDth FMHH12th'), to_char(ts3, 'HH24:MI:SS.MS')
FROM tz ORDER BY id;

-- name: t077_to_char_timestamptz_zones
-- ordered
SET TIME ZONE 'Europe/Berlin';
SELECT id, to_char(tz, 'YYYY-MM-DD HH24:MI:SS TZ OF TZH:TZM tz'), to_char(tz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI TZ'),
  to_char(d, 'YYYY-MM-DD TZ'), to_char(date_trunc('week', tz), 'IYYY-"W"IW')
FROM tz ORDER BY id;

-- name: t078_to_char_new_york_and_india
-- ordered
SET TIME ZONE 'America/New_York';
SELECT id, to_char(tz, 'YYYY-MM-DD"T"HH24:MI:SSOF'), to_char(tz, 'FMHH12:MI am TZ') FROM tz ORDER BY id;

-- name: t079_to_char_literals_and_nulls
SELECT to_char(timestamp '2024-02-29 13:05:09.123456', 'FMDD/FMMM/YY "at" HH24\hMI'), to_char(NULL::timestamp, 'YYYY'),
  to_char(timestamp '2024-01-01', NULL), to_char(date '0044-03-15' - 365 * 100, 'YYYY BC'), to_char(timestamp '2024-12-30', 'IYYY IW ID'),
  to_char(timestamp '2021-01-03', 'IYYY-IW-ID YYYY-WW'), to_char(timestamp '2024-07-04 00:00', 'HH12 AM "noon? " HH24');

-- name: t080_to_date_to_timestamp
SET TIME ZONE 'Europe/Berlin';
SELECT to_date('2024-03-15', 'YYYY-MM-DD'), to_date('15 Mar 2024', 'DD Mon YYYY'), to_date('20240315', 'YYYYMMDD'),
  to_date('March 5, 24', 'Month DD, YY'), to_date('2024/366', 'YYYY/DDD'), to_date('2460385', 'J'),
  to_timestamp('2024-03-31 02:30:00', 'YYYY-MM-DD HH24:MI:SS'), to_timestamp('2024-10-27 02:30', 'YYYY-MM-DD HH24:MI'),
  to_timestamp('05/04/2024 11:45:30.25 PM', 'MM/DD/YYYY HH:MI:SS.MS AM'), to_timestamp('2024-01-01 10:00 +05:30', 'YYYY-MM-DD HH24:MI TZH:TZM'),
  to_timestamp('1999-12-31 23:59:59.999999', 'YYYY-MM-DD HH24:MI:SS.US'), to_timestamp(NULL, 'YYYY'), to_date('1 1 1', 'Y MM DD');

-- name: t081_to_timestamp_epoch
SET TIME ZONE 'America/New_York';
SELECT to_timestamp(0), to_timestamp(1700000000.5), to_timestamp(-86400 * 365.25), to_timestamp(1e9::bigint), to_timestamp(NULL::float8);

-- name: t082_to_date_columns_roundtrip
-- ordered
SELECT id, to_date(to_char(d, 'YYYY-MM-DD'), 'YYYY-MM-DD') = d, to_timestamp(to_char(ts, 'YYYY-MM-DD HH24:MI:SS.US'), 'YYYY-MM-DD HH24:MI:SS.US')::timestamp = ts
FROM tz WHERE d > date '0001-01-01' ORDER BY id;

-- name: t083_to_date_bad_month
-- error 22008
SELECT to_date('2024-13-01', 'YYYY-MM-DD');

-- name: t084_to_date_bad_value
-- error 22007
SELECT to_date('2024-xx-01', 'YYYY-MM-DD');

-- name: t085_to_timestamp_bad_hour12
-- error 22007
SELECT to_timestamp('13:00 PM', 'HH:MI AM');

-- name: t086_metabase_month_label
-- ordered
SELECT to_char(date_trunc('month', ts), 'YYYY-MM') AS month, count(*) FROM tz WHERE ts IS NOT NULL GROUP BY 1 ORDER BY 1;

-- name: t087_extract_of_a_call_in_from_position
-- ordered
SELECT id, extract(epoch FROM age(ts, d::timestamp)), extract(day FROM justify_hours(ts - d::timestamp)), extract(julian FROM d),
  extract(hour FROM ts::time), substring(grp FROM lower('A'))
FROM tz WHERE ts IS NOT NULL AND d IS NOT NULL ORDER BY id;

-- name: t088_date_part_integer_fields_and_aliases
-- ordered
SELECT id, date_part('year', ts), date_part('mon', ts), date_part('hours', ts), date_part('dow', d), date_part('isoyear', ts),
  date_part('microseconds', ts), date_part('week', tz), date_part('doy', tz)
FROM tz ORDER BY id;
