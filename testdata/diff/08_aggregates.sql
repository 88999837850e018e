-- Aggregates: count, count(DISTINCT), sum/avg/min/max and their result
-- types, empty input.

-- name: g001_count_forms
SELECT count(*), count(l_comment), count(l_partkey), count(DISTINCT l_shipmode), count(DISTINCT l_orderkey),
       count(l_urgent), count(DISTINCT l_urgent)
  FROM lineitem;

-- name: g002_sum_lineitem
SELECT sum(l_orderkey), sum(l_partkey), sum(l_linenumber), sum(l_quantity), sum(l_extendedprice),
       sum(l_discount), sum(l_tax)
  FROM lineitem;

-- name: g003_avg_lineitem
SELECT avg(l_orderkey), avg(l_partkey), avg(l_linenumber), avg(l_quantity), avg(l_extendedprice),
       avg(l_discount), avg(l_tax)
  FROM lineitem;

-- name: g004_sum_obs_types
SELECT sum(s), sum(i), sum(big), sum(r), sum(d), sum(n), sum(id) FROM obs;

-- name: g005_avg_obs_types
SELECT avg(s), avg(i), avg(big), avg(r), avg(d), avg(n), avg(id) FROM obs;

-- name: g006_min_max_obs
SELECT min(id), max(id), min(s), max(s), min(i), max(i), min(big), max(big), min(r), max(r), min(d), max(d),
       min(d2), max(d2), min(ts), max(ts), min(n), max(n), min(grp), max(grp), min(code), max(code),
       min(note), max(note)
  FROM obs;

-- name: g007_min_max_lineitem
SELECT min(l_shipdate), max(l_shipdate), min(l_commitdate), max(l_receiptdate), min(l_quantity), max(l_extendedprice),
       min(l_comment), max(l_comment), min(l_shipinstruct), max(l_shipmode), min(l_returnflag), max(l_linestatus)
  FROM lineitem;

-- name: g008_empty_input
SELECT count(*), count(l_comment), sum(l_quantity), avg(l_quantity), min(l_shipdate), max(l_comment),
       sum(l_orderkey), avg(l_orderkey), count(DISTINCT l_shipmode)
  FROM lineitem WHERE l_orderkey < 0;

-- name: g009_empty_input_obs
SELECT count(*), sum(s), sum(big), sum(r), sum(d), avg(d), min(ts), max(flag::int) FROM obs WHERE id > 1000;

-- name: g010_empty_groups
SELECT l_shipmode, count(*) FROM lineitem WHERE false GROUP BY l_shipmode;

-- name: g011_all_null_input
SELECT count(*), count(n), sum(n), avg(n), min(n), max(n) FROM obs WHERE n IS NULL;

-- name: g012_agg_expressions
SELECT sum(l_extendedprice * (1 - l_discount)), avg(l_quantity * 2), max(l_extendedprice / l_quantity),
       min(l_shipdate + 1), sum(l_quantity) / count(*), sum(l_linenumber) / count(*)
  FROM lineitem;

-- name: g013_count_distinct_obs
SELECT count(DISTINCT grp), count(DISTINCT code), count(DISTINCT note), count(DISTINCT flag), count(DISTINCT d2),
       count(DISTINCT ts::date)
  FROM obs;

-- name: g014_count_distinct_numbers
SELECT count(DISTINCT l_quantity), count(DISTINCT l_discount), count(DISTINCT l_shipdate), count(DISTINCT l_partkey)
  FROM lineitem;

-- name: g015_sum_avg_filtered
SELECT sum(l_quantity), avg(l_extendedprice), avg(l_discount), count(*) FROM lineitem
 WHERE l_shipmode = 'AIR' AND l_urgent;

-- name: g016_avg_small_sets
SELECT avg(s), avg(n), avg(r), avg(big) FROM obs WHERE id <= 3;

-- name: g017_aggregate_arith
SELECT count(*) * 2, sum(s) + 1, max(n) - min(n), avg(d) * 2, count(*) - count(s) FROM obs;
