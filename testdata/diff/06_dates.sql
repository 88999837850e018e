-- Dates, timestamps and intervals.

-- name: d001_extract_date
SELECT l_orderkey, l_linenumber, l_shipdate, extract(year FROM l_shipdate), extract(month FROM l_shipdate),
       extract(day FROM l_shipdate)
  FROM lineitem WHERE l_orderkey < 300;

-- name: d002_date_integer_arith
SELECT l_orderkey, l_linenumber, l_shipdate + 30, l_shipdate - 7, l_receiptdate - l_shipdate,
       l_commitdate - l_shipdate, l_shipdate + l_linenumber
  FROM lineitem WHERE l_orderkey < 300;

-- name: d003_date_literals
SELECT date '1995-03-15', timestamp '1995-03-15 10:20:30', timestamp '2000-01-01 00:00:00.25',
       date '1998-12-01' - interval '90 day', date '1994-01-01' + interval '1 year',
       date '2000-02-28' + 1, date '2000-03-01' - date '2000-02-01', date '1995-01-31' + interval '1 month',
       date '1996-01-01' - 1;

-- name: d004_date_minus_interval_where
SELECT count(*) FROM lineitem WHERE l_shipdate <= date '1998-12-01' - interval '90 day';

-- name: d005_date_vs_timestamp
SELECT count(*) FROM lineitem WHERE l_shipdate < timestamp '1995-01-01 12:00:00';

-- name: d006_days_between_groups
-- ordered
SELECT l_receiptdate - l_shipdate AS days, count(*) FROM lineitem GROUP BY 1 ORDER BY 1;

-- name: d007_leap_days
-- ordered
SELECT l_shipdate, count(*) FROM lineitem
 WHERE extract(month FROM l_shipdate) = 2 AND extract(day FROM l_shipdate) = 29
 GROUP BY l_shipdate ORDER BY l_shipdate;

-- name: d008_date_minus_interval_column
SELECT l_orderkey, l_linenumber, l_shipdate - interval '3 day', l_shipdate + interval '1 month'
  FROM lineitem WHERE l_orderkey < 100;

-- name: d009_timestamps
-- ordered
SELECT id, ts, ts::date, extract(year FROM ts), ts > timestamp '2010-01-01 00:00:00', ts + interval '1 day'
  FROM obs ORDER BY id;

-- name: d010_year_month_groups
-- ordered
SELECT extract(year FROM l_shipdate) AS yr, extract(month FROM l_shipdate) AS mon, count(*), sum(l_quantity)
  FROM lineitem GROUP BY 1, 2 ORDER BY yr DESC, mon DESC LIMIT 15;

-- name: d011_date_compare_columns
SELECT count(*) FROM lineitem WHERE l_commitdate < l_receiptdate AND l_shipdate < l_commitdate;

-- name: d012_date_range_literal_strings
SELECT count(*), min(l_shipdate), max(l_shipdate) FROM lineitem
 WHERE l_shipdate >= '1994-01-01' AND l_shipdate < '1995-01-01';
