-- Window functions (name prefix wf): every function, every frame form,
-- named windows, windows over GROUP BY, and the errors PostgreSQL gives.
-- obs.r has ties (1024, 100.75, ...) and NULLs for peer groups; a ROWS
-- frame or a row-order function (row_number, lag, first_value, ...)
-- orders by a unique key (id, or the key then id), since PostgreSQL's
-- order among peers is not determined. Float sums read r and d, whose
-- values are multiples of 1/8 (README).

-- name: wf001_ranking_partitioned
SELECT id, grp, r, row_number() OVER (PARTITION BY grp ORDER BY r, id), rank() OVER (PARTITION BY grp ORDER BY r),
       dense_rank() OVER (PARTITION BY grp ORDER BY r), percent_rank() OVER (PARTITION BY grp ORDER BY r),
       cume_dist() OVER (PARTITION BY grp ORDER BY r)
FROM obs;

-- name: wf002_ranking_desc_nulls_last
SELECT id, r, rank() OVER (ORDER BY r DESC NULLS LAST), dense_rank() OVER (ORDER BY r DESC NULLS LAST),
       percent_rank() OVER (ORDER BY r DESC NULLS LAST), cume_dist() OVER (ORDER BY r DESC NULLS LAST)
FROM obs;

-- name: wf003_ranking_nulls_first
SELECT id, s, rank() OVER (ORDER BY s NULLS FIRST), dense_rank() OVER (ORDER BY s DESC NULLS FIRST),
       row_number() OVER (ORDER BY s NULLS FIRST, id DESC) FROM obs;

-- name: wf004_ranking_no_order
SELECT id, rank() OVER (), dense_rank() OVER (), percent_rank() OVER (), cume_dist() OVER (),
       rank() OVER (PARTITION BY flag) FROM obs;

-- name: wf005_ranking_single_row_partitions
SELECT id, percent_rank() OVER (PARTITION BY id ORDER BY r), cume_dist() OVER (PARTITION BY id), rank() OVER (PARTITION BY id)
FROM obs WHERE id < 6;

-- name: wf006_ranking_multi_key
SELECT id, rank() OVER (ORDER BY flag, r DESC), dense_rank() OVER (PARTITION BY flag ORDER BY code, r NULLS FIRST),
       cume_dist() OVER (PARTITION BY grp IS NULL ORDER BY note) FROM obs;

-- name: wf007_row_number_ordered_output
-- ordered
SELECT id, grp, row_number() OVER (PARTITION BY grp ORDER BY id DESC) AS rn FROM obs ORDER BY grp NULLS FIRST, rn;

-- name: wf008_ntile
SELECT id, ntile(1) OVER (ORDER BY id), ntile(3) OVER (ORDER BY id), ntile(7) OVER (PARTITION BY grp ORDER BY id),
       ntile(50) OVER (ORDER BY id DESC), ntile(2 + 2) OVER (PARTITION BY flag ORDER BY id) FROM obs;

-- name: wf009_ntile_null_argument
SELECT id, ntile(NULL) OVER (ORDER BY id), ntile(CAST(NULL AS integer)) OVER () FROM obs;

-- name: wf010_ntile_zero
-- error 22014
SELECT ntile(0) OVER (ORDER BY id) FROM obs;

-- name: wf011_ntile_negative_no_rows
SELECT ntile(-1) OVER () FROM obs WHERE false;

-- name: wf012_ntile_bigint
-- error 42883
SELECT ntile(3000000000) OVER () FROM obs;

-- name: wf013_lag_lead_defaults
SELECT id, lag(i) OVER (ORDER BY id), lead(i) OVER (ORDER BY id), lag(i, 2) OVER (ORDER BY id),
       lead(i, 3, -1) OVER (ORDER BY id), lag(i, 0) OVER (ORDER BY id) FROM obs;

-- name: wf014_lag_lead_partitioned
SELECT id, grp, lag(s, 1, s) OVER (PARTITION BY grp ORDER BY id), lead(d, 1, 0) OVER (PARTITION BY grp ORDER BY id),
       lag(n, 2, 0.5) OVER (PARTITION BY grp ORDER BY id) FROM obs;

-- name: wf015_lag_negative_and_expression_offsets
SELECT id, lag(i, -1) OVER (ORDER BY id), lead(i, -2, 7) OVER (ORDER BY id), lag(i, 1 + 1) OVER (ORDER BY id),
       lead(i, CAST(NULL AS integer)) OVER (ORDER BY id), lag(i, 100, 5) OVER (ORDER BY id) FROM obs;

-- name: wf016_lag_types
SELECT id, lag(grp) OVER w, lag(code) OVER w, lag(note) OVER w, lag(ts) OVER w, lag(flag) OVER w,
       lag(big) OVER w, lag(r) OVER w, lag(d2) OVER w, lead(ts::date, 1, DATE '2000-01-01') OVER w
FROM obs WINDOW w AS (ORDER BY id);

-- name: wf017_lag_default_type
SELECT id, lag(i, 1, 2.5) OVER (ORDER BY id), lead(s, 1, 100000) OVER (ORDER BY id), lag(note, 1, 'none') OVER (ORDER BY id)
FROM obs;

-- name: wf018_lag_bad_default
-- error 22P02
SELECT lag(i, 1, 'x') OVER (ORDER BY id) FROM obs;

-- name: wf019_lag_numeric_offset
-- error 42883
SELECT lag(i, 1.5) OVER (ORDER BY id) FROM obs;

-- name: wf020_first_last_default_frame
SELECT id, r, first_value(id) OVER (ORDER BY r), last_value(id) OVER (ORDER BY r, id),
       last_value(r) OVER (ORDER BY r), first_value(grp) OVER (PARTITION BY flag ORDER BY id DESC) FROM obs;

-- name: wf021_first_last_whole_partition
SELECT id, first_value(i) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
       last_value(i) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
       first_value(note) OVER (PARTITION BY code ORDER BY id RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
FROM obs;

-- name: wf022_nth_value
SELECT id, nth_value(i, 1) OVER w, nth_value(i, 2) OVER w, nth_value(i, 5) OVER w, nth_value(i, 2 + 1) OVER w,
       nth_value(i, 3) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING),
       nth_value(grp, 2) OVER (PARTITION BY flag ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
FROM obs WINDOW w AS (ORDER BY id);

-- name: wf023_nth_value_zero
-- error 22016
SELECT nth_value(i, 0) OVER (ORDER BY id) FROM obs;

-- name: wf024_nth_value_null
SELECT id, nth_value(i, CAST(NULL AS integer)) OVER (ORDER BY id) FROM obs;

-- name: wf025_value_functions_empty_frames
SELECT id, first_value(i) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING),
       last_value(i) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING),
       nth_value(i, 2) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND CURRENT ROW) FROM obs;

-- name: wf026_aggregates_running
SELECT id, grp, count(*) OVER (PARTITION BY grp ORDER BY id), count(i) OVER (PARTITION BY grp ORDER BY id),
       sum(i) OVER (PARTITION BY grp ORDER BY id), avg(i) OVER (PARTITION BY grp ORDER BY id),
       min(i) OVER (PARTITION BY grp ORDER BY id), max(i) OVER (PARTITION BY grp ORDER BY id) FROM obs;

-- name: wf027_aggregates_with_peers
SELECT id, r, count(*) OVER (ORDER BY r), sum(d) OVER (ORDER BY r), avg(r) OVER (ORDER BY r),
       min(d) OVER (ORDER BY r DESC), max(n) OVER (ORDER BY r NULLS FIRST) FROM obs;

-- name: wf028_aggregates_whole_partition
SELECT id, grp, count(*) OVER (PARTITION BY grp), sum(n) OVER (PARTITION BY grp), avg(n) OVER (PARTITION BY grp),
       min(note) OVER (PARTITION BY grp), max(ts) OVER (PARTITION BY grp), sum(big) OVER (), avg(s) OVER () FROM obs;

-- name: wf029_aggregate_types
SELECT id, sum(s) OVER w, sum(big) OVER w, sum(r) OVER w, sum(d) OVER w, sum(n) OVER w,
       avg(s) OVER w, avg(big) OVER w, avg(r) OVER w, avg(d) OVER w, avg(n) OVER w
FROM obs WINDOW w AS (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING);

-- name: wf030_min_max_types
SELECT id, min(grp) OVER w, max(code) OVER w, min(note) OVER w, max(ts) OVER w, min(ts::date) OVER w,
       min(d2) OVER w, max(d2) OVER w, max(r) OVER w, min(big) OVER w
FROM obs WINDOW w AS (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING);

-- name: wf031_rows_frames
SELECT id, sum(i) OVER (ORDER BY id ROWS 2 PRECEDING), sum(i) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING),
       sum(i) OVER (ORDER BY id ROWS CURRENT ROW), sum(i) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
       sum(i) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING), sum(i) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING),
       count(*) OVER (ORDER BY id ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING) FROM obs;

-- name: wf032_rows_frame_partitioned
SELECT id, grp, sum(i) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
       count(i) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING),
       max(s) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) FROM obs;

-- name: wf033_rows_without_order
SELECT id, count(*) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
       sum(i) OVER (PARTITION BY flag ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM obs;

-- name: wf034_rows_offset_expressions
SELECT id, sum(i) OVER (ORDER BY id ROWS BETWEEN 1 + 1 PRECEDING AND '1' FOLLOWING),
       sum(i) OVER (ORDER BY id ROWS 1.5 PRECEDING), sum(i) OVER (ORDER BY id ROWS BETWEEN 0 PRECEDING AND 0 FOLLOWING),
       sum(i) OVER (ORDER BY id ROWS BETWEEN 100 PRECEDING AND 9000000000000000000 FOLLOWING) FROM obs;

-- name: wf035_groups_frames
SELECT id, r, sum(d) OVER (ORDER BY r GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
       count(*) OVER (ORDER BY r GROUPS CURRENT ROW), count(*) OVER (ORDER BY r GROUPS 2 PRECEDING),
       count(*) OVER (ORDER BY r DESC GROUPS BETWEEN 1 FOLLOWING AND 2 FOLLOWING),
       count(*) OVER (ORDER BY r NULLS FIRST GROUPS BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM obs;

-- name: wf036_groups_partitioned
SELECT id, flag, r, sum(r) OVER (PARTITION BY flag ORDER BY r GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING),
       min(id) OVER (PARTITION BY flag ORDER BY r, code GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM obs;

-- name: wf037_range_current_row
SELECT id, r, sum(i) OVER (ORDER BY r RANGE BETWEEN CURRENT ROW AND CURRENT ROW),
       count(*) OVER (ORDER BY r RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
       count(*) OVER (ORDER BY r RANGE UNBOUNDED PRECEDING), count(*) OVER (RANGE BETWEEN CURRENT ROW AND CURRENT ROW) FROM obs;

-- name: wf038_range_integer_offsets
SELECT id, s, sum(i) OVER (ORDER BY s RANGE BETWEEN 100 PRECEDING AND 50 FOLLOWING),
       count(*) OVER (ORDER BY s DESC RANGE BETWEEN 200 PRECEDING AND CURRENT ROW),
       count(*) OVER (ORDER BY s NULLS FIRST RANGE BETWEEN 300 FOLLOWING AND 400 FOLLOWING),
       count(*) OVER (ORDER BY s RANGE BETWEEN UNBOUNDED PRECEDING AND 500 PRECEDING),
       count(*) OVER (ORDER BY s DESC NULLS LAST RANGE BETWEEN 100 FOLLOWING AND UNBOUNDED FOLLOWING) FROM obs;

-- name: wf039_range_bigint_offsets
SELECT id, big, count(*) OVER (ORDER BY big RANGE BETWEEN 100000000000000 PRECEDING AND 100000000000000 FOLLOWING),
       count(*) OVER (ORDER BY big RANGE BETWEEN 9223372036854775807 PRECEDING AND 9223372036854775807 FOLLOWING),
       sum(s) OVER (ORDER BY i RANGE BETWEEN 3000000000 PRECEDING AND 100000 FOLLOWING) FROM obs;

-- name: wf040_range_numeric_offsets
SELECT id, n, count(*) OVER (ORDER BY n RANGE BETWEEN 100.5 PRECEDING AND 50 FOLLOWING),
       sum(n) OVER (ORDER BY n DESC RANGE BETWEEN 0.001 PRECEDING AND 0.001 FOLLOWING),
       count(*) OVER (ORDER BY n NULLS FIRST RANGE 200 PRECEDING) FROM obs;

-- name: wf041_range_float_offsets
SELECT id, r, d, sum(d) OVER (ORDER BY r RANGE BETWEEN 1.5 PRECEDING AND 2 FOLLOWING),
       count(*) OVER (ORDER BY d DESC RANGE BETWEEN 100 PRECEDING AND 100 FOLLOWING),
       count(*) OVER (ORDER BY r RANGE BETWEEN 'Infinity' PRECEDING AND CURRENT ROW),
       count(*) OVER (ORDER BY d2 RANGE BETWEEN 1e10 PRECEDING AND 1e10 FOLLOWING) FROM obs;

-- name: wf042_range_float_nan_infinity
SELECT id, count(*) OVER (ORDER BY v RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING),
       count(*) OVER (ORDER BY v DESC RANGE BETWEEN 'Infinity' PRECEDING AND 0 FOLLOWING)
FROM (SELECT id, CASE WHEN id % 5 = 0 THEN 'NaN'::float8 WHEN id % 7 = 0 THEN 'Infinity'::float8
                      WHEN id % 11 = 0 THEN '-Infinity'::float8 ELSE r END AS v FROM obs) t;

-- name: wf043_range_timestamp_interval
SELECT id, ts, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1 year' PRECEDING AND CURRENT ROW),
       count(*) OVER (ORDER BY ts DESC RANGE BETWEEN '2 years 3 months' PRECEDING AND '10 days' FOLLOWING),
       min(id) OVER (ORDER BY ts NULLS FIRST RANGE BETWEEN '1 day' FOLLOWING AND '3 years' FOLLOWING) FROM obs;

-- name: wf044_range_date_interval
SELECT l_shipdate, sum(l_quantity), sum(sum(l_quantity)) OVER (ORDER BY l_shipdate RANGE BETWEEN INTERVAL '6 days' PRECEDING AND CURRENT ROW),
       count(*) OVER (ORDER BY l_shipdate RANGE BETWEEN '1 mon' PRECEDING AND '1 mon' FOLLOWING)
FROM lineitem WHERE l_shipdate < DATE '1992-06-01' GROUP BY l_shipdate;

-- name: wf045_range_interval_key
-- gpusql-error 0A000
-- (an interval column cannot be an intermediate result yet: see docs/sql.md)
SELECT id, count(*) OVER (ORDER BY iv RANGE BETWEEN '1 day' PRECEDING AND '1 day' FOLLOWING)
FROM (SELECT id, ts - TIMESTAMP '2000-01-01' AS iv FROM obs) t;

-- name: wf046_exclude
SELECT id, r, sum(i) OVER (ORDER BY r, id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW),
       sum(i) OVER (ORDER BY r GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP),
       sum(i) OVER (ORDER BY r RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES),
       count(*) OVER (ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP),
       count(*) OVER (ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE NO OTHERS) FROM obs;

-- name: wf047_exclude_value_functions
SELECT id, r, first_value(id) OVER (ORDER BY r, id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING EXCLUDE CURRENT ROW),
       last_value(id) OVER (ORDER BY r RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE GROUP),
       nth_value(i, 2) OVER (ORDER BY r GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES) FROM obs WHERE r <> 1024;

-- name: wf048_exclude_without_order
SELECT id, count(*) OVER (PARTITION BY grp ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW),
       count(*) OVER (PARTITION BY grp RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP),
       sum(i) OVER (PARTITION BY grp RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES) FROM obs;

-- name: wf049_empty_frames
SELECT id, count(*) OVER (ORDER BY id ROWS BETWEEN 45 FOLLOWING AND 50 FOLLOWING),
       sum(i) OVER (ORDER BY id ROWS BETWEEN 45 FOLLOWING AND 50 FOLLOWING),
       avg(n) OVER (ORDER BY id ROWS BETWEEN 50 PRECEDING AND 45 PRECEDING),
       min(grp) OVER (ORDER BY s RANGE BETWEEN 10000 FOLLOWING AND UNBOUNDED FOLLOWING) FROM obs;

-- name: wf050_string_agg_window
SELECT id, string_agg(grp, ',') OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
       string_agg(code, '|') OVER (PARTITION BY flag ORDER BY id), string_agg(note, ';') OVER () FROM obs WHERE id <= 12;

-- name: wf051_named_windows
SELECT id, sum(i) OVER w, rank() OVER w, count(*) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW),
       first_value(id) OVER (w2 ORDER BY id DESC), lag(id) OVER w3
FROM obs WINDOW w AS (PARTITION BY grp ORDER BY id), w2 AS (PARTITION BY flag), w3 AS (w2 ORDER BY s, id);

-- name: wf052_named_window_chain
SELECT id, sum(i) OVER (b ROWS 1 PRECEDING), count(*) OVER c FROM obs
WINDOW a AS (PARTITION BY flag), b AS (a ORDER BY id), c AS (b RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING);

-- name: wf053_named_window_unused
SELECT id FROM obs WINDOW w AS (ORDER BY id) ORDER BY id LIMIT 3;

-- name: wf054_named_window_unknown
-- error 42704
SELECT rank() OVER nope FROM obs;

-- name: wf055_named_window_duplicate
-- error 42P20
SELECT rank() OVER w FROM obs WINDOW w AS (ORDER BY id), w AS (ORDER BY s);

-- name: wf056_named_window_override_partition
-- error 42P20
SELECT rank() OVER (w PARTITION BY flag) FROM obs WINDOW w AS (ORDER BY id);

-- name: wf057_named_window_override_order
-- error 42P20
SELECT rank() OVER (w ORDER BY s) FROM obs WINDOW w AS (ORDER BY id);

-- name: wf058_named_window_copy_frame
-- error 42P20
SELECT sum(i) OVER (w) FROM obs WINDOW w AS (ORDER BY id ROWS 2 PRECEDING);

-- name: wf059_named_window_with_frame
SELECT id, sum(i) OVER w FROM obs WINDOW w AS (ORDER BY id ROWS 2 PRECEDING);

-- name: wf060_window_in_where
-- error 42P20
SELECT id FROM obs WHERE rank() OVER (ORDER BY id) > 3;

-- name: wf061_window_in_group_by
-- error 42P20
SELECT count(*) FROM obs GROUP BY rank() OVER (ORDER BY id);

-- name: wf062_window_in_having
-- error 42P20
SELECT grp FROM obs GROUP BY grp HAVING rank() OVER (ORDER BY grp) > 1;

-- name: wf063_window_nested
-- error 42P20
SELECT sum(rank() OVER (ORDER BY id)) OVER () FROM obs;

-- name: wf064_window_in_aggregate
-- error 42803
SELECT sum(rank() OVER (ORDER BY id)) FROM obs;

-- name: wf065_window_in_window_order
-- error 42P20
SELECT rank() OVER (ORDER BY rank() OVER (ORDER BY id)) FROM obs;

-- name: wf066_distinct_in_window_aggregate
-- error 0A000
SELECT count(DISTINCT grp) OVER () FROM obs;

-- name: wf067_order_by_in_window_aggregate
-- error 0A000
SELECT string_agg(grp, ',' ORDER BY id) OVER () FROM obs;

-- name: wf068_frame_start_unbounded_following
-- error 42P20
SELECT sum(i) OVER (ORDER BY id ROWS UNBOUNDED FOLLOWING) FROM obs;

-- name: wf069_frame_end_unbounded_preceding
-- error 42P20
SELECT sum(i) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED PRECEDING) FROM obs;

-- name: wf070_frame_current_row_to_preceding
-- error 42P20
SELECT sum(i) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM obs;

-- name: wf071_frame_following_to_current_row
-- error 42P20
SELECT sum(i) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM obs;

-- name: wf072_frame_one_bound_following
-- error 42P20
SELECT sum(i) OVER (ORDER BY id ROWS 2 FOLLOWING) FROM obs;

-- name: wf073_rows_negative_offset
-- error 22013
SELECT sum(i) OVER (ORDER BY id ROWS -1 PRECEDING) FROM obs;

-- name: wf074_rows_null_offset
-- error 22004
SELECT sum(i) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND NULL FOLLOWING) FROM obs;

-- name: wf075_rows_offset_variable
-- error 42P10
SELECT sum(i) OVER (ORDER BY id ROWS id PRECEDING) FROM obs;

-- name: wf076_range_offset_two_keys
-- error 42P20
SELECT sum(i) OVER (ORDER BY i, id RANGE 1 PRECEDING) FROM obs;

-- name: wf077_range_offset_no_order
-- error 42P20
SELECT sum(i) OVER (RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM obs;

-- name: wf078_range_offset_text_key
-- error 0A000
SELECT sum(i) OVER (ORDER BY grp RANGE 1 PRECEDING) FROM obs;

-- name: wf079_range_offset_type_mismatch
-- error 0A000
SELECT sum(i) OVER (ORDER BY i RANGE 1.5 PRECEDING) FROM obs;

-- name: wf080_range_timestamp_integer_offset
-- error 0A000
SELECT count(*) OVER (ORDER BY ts RANGE 1 PRECEDING) FROM obs;

-- name: wf081_range_negative_offset
-- error 22013
SELECT sum(i) OVER (ORDER BY i RANGE -1 PRECEDING) FROM obs;

-- name: wf082_groups_without_order
-- error 42P20
SELECT sum(i) OVER (GROUPS 1 PRECEDING) FROM obs;

-- name: wf083_exclude_without_frame
-- error 42601
SELECT sum(i) OVER (ORDER BY id EXCLUDE TIES) FROM obs;

-- name: wf084_unknown_window_aggregate
-- error 42883
SELECT foo(i) OVER () FROM obs;

-- name: wf085_group_by_rank_of_sum
SELECT grp, sum(i), rank() OVER (ORDER BY sum(i) DESC), dense_rank() OVER (ORDER BY count(*)),
       sum(i) * 100 / sum(sum(i)) OVER () AS pct FROM obs GROUP BY grp;

-- name: wf086_group_by_running_sum
-- ordered
SELECT flag, grp, count(*), sum(count(*)) OVER (PARTITION BY flag ORDER BY grp NULLS FIRST) AS running
FROM obs GROUP BY flag, grp ORDER BY flag NULLS FIRST, grp NULLS FIRST;

-- name: wf087_group_by_having_window
SELECT grp, max(s), lag(max(s)) OVER (ORDER BY grp), avg(avg(d)) OVER () FROM obs GROUP BY grp HAVING count(*) > 3;

-- name: wf088_global_aggregate_window
SELECT sum(i), rank() OVER (), count(*) OVER (), sum(sum(i)) OVER () FROM obs;

-- name: wf089_group_by_column_not_grouped
-- error 42803
SELECT grp, rank() OVER (ORDER BY id) FROM obs GROUP BY grp;

-- name: wf090_window_over_group_expression
SELECT s % 3 AS m, count(*), first_value(s % 3) OVER (ORDER BY s % 3 DESC NULLS LAST) FROM obs GROUP BY s % 3;

-- name: wf091_top_n_per_group
-- ordered
SELECT * FROM (
  SELECT l_returnflag, l_linestatus, l_orderkey, l_linenumber, l_extendedprice,
         rank() OVER (PARTITION BY l_returnflag, l_linestatus ORDER BY l_extendedprice DESC) AS rnk
  FROM lineitem) t
WHERE rnk <= 3 ORDER BY l_returnflag, l_linestatus, rnk, l_orderkey, l_linenumber;

-- name: wf092_running_total_by_month
-- ordered
SELECT extract(year FROM l_shipdate) AS y, extract(month FROM l_shipdate) AS m, sum(l_extendedprice) AS revenue,
       sum(sum(l_extendedprice)) OVER (PARTITION BY extract(year FROM l_shipdate) ORDER BY extract(month FROM l_shipdate)) AS ytd,
       sum(sum(l_extendedprice)) OVER (ORDER BY extract(year FROM l_shipdate), extract(month FROM l_shipdate)) AS running
FROM lineitem GROUP BY 1, 2 ORDER BY 1, 2;

-- name: wf093_month_over_month
-- ordered
SELECT y, m, revenue, revenue - lag(revenue) OVER (ORDER BY y, m) AS change,
       round(100 * revenue / NULLIF(lag(revenue, 12) OVER (ORDER BY y, m), 0), 2) AS yoy
FROM (SELECT extract(year FROM l_shipdate) AS y, extract(month FROM l_shipdate) AS m, sum(l_extendedprice) AS revenue
      FROM lineitem GROUP BY 1, 2) t ORDER BY y, m;

-- name: wf094_moving_average
-- ordered
SELECT l_shipdate, count(*) AS n, avg(count(*)) OVER (ORDER BY l_shipdate ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS ma7
FROM lineitem WHERE l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-03-31' GROUP BY l_shipdate ORDER BY l_shipdate;

-- name: wf095_share_and_rank_by_mode
SELECT l_shipmode, l_returnflag, sum(l_quantity) AS q,
       round(sum(l_quantity) / sum(sum(l_quantity)) OVER (PARTITION BY l_shipmode), 4) AS share,
       dense_rank() OVER (PARTITION BY l_returnflag ORDER BY sum(l_quantity) DESC) AS dr
FROM lineitem GROUP BY l_shipmode, l_returnflag;

-- name: wf096_lineitem_partition_windows
SELECT l_orderkey, l_linenumber, count(*) OVER (PARTITION BY l_orderkey),
       sum(l_quantity) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber),
       lead(l_shipdate) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber),
       percent_rank() OVER (PARTITION BY l_orderkey ORDER BY l_extendedprice)
FROM lineitem WHERE l_orderkey < 2000;

-- name: wf097_windows_over_join
SELECT a.id, b.id, a.k, sum(b.w) OVER (PARTITION BY a.k ORDER BY a.id, b.id), rank() OVER (ORDER BY a.kn NULLS FIRST)
FROM ja a JOIN jb b ON a.k = b.k;

-- name: wf098_window_in_subquery_and_cte
WITH r AS (SELECT id, grp, i, row_number() OVER (PARTITION BY grp ORDER BY i DESC NULLS LAST, id) AS rn FROM obs)
SELECT grp, id, i FROM r WHERE rn = 1;

-- name: wf099_window_over_derived_table
SELECT k, c, sum(c) OVER (ORDER BY k) FROM (SELECT s % 4 AS k, count(*) AS c FROM obs GROUP BY s % 4) t;

-- name: wf100_order_by_window_result
-- ordered
SELECT id, i FROM obs ORDER BY rank() OVER (ORDER BY i DESC NULLS LAST), id LIMIT 10;

-- name: wf101_distinct_window_results
SELECT DISTINCT grp, count(*) OVER (PARTITION BY grp) FROM obs;

-- name: wf102_window_expressions
SELECT id, i - lag(i) OVER (ORDER BY id) AS delta, coalesce(lead(grp) OVER (ORDER BY id), '-') AS nxt,
       CASE WHEN rank() OVER (ORDER BY s NULLS LAST) <= 5 THEN 'top' ELSE 'rest' END AS band,
       sum(i) OVER (ORDER BY id) / NULLIF(count(i) OVER (ORDER BY id), 0) AS mean FROM obs;

-- name: wf103_windows_over_empty_table
SELECT k, rank() OVER (ORDER BY k), sum(k) OVER (), lag(s) OVER (ORDER BY k) FROM jempty;

-- name: wf104_windows_no_rows
SELECT id, count(*) OVER (), row_number() OVER (ORDER BY id) FROM obs WHERE id > 100;

-- name: wf105_window_without_from
SELECT row_number() OVER (), rank() OVER (ORDER BY 1), sum(5) OVER (), lag(1, 1, 0) OVER ();

-- name: wf106_window_partition_by_expression
SELECT id, count(*) OVER (PARTITION BY id % 3, flag), sum(id) OVER (PARTITION BY upper(grp) ORDER BY id),
       max(id) OVER (PARTITION BY ts::date < DATE '2010-01-01') FROM obs;

-- name: wf107_same_call_twice
SELECT id, sum(i) OVER (ORDER BY id), sum(i) OVER (ORDER BY id) + 1, rank() OVER w, rank() OVER (ORDER BY id) FROM obs
WINDOW w AS (ORDER BY id);

-- name: wf108_window_over_constant_order
SELECT id, sum(i) OVER (ORDER BY 'x'), rank() OVER (PARTITION BY 1 ORDER BY NULL) FROM obs;

-- name: wf109_window_on_booleans_and_chars
SELECT id, flag, rank() OVER (ORDER BY flag NULLS FIRST), code, dense_rank() OVER (ORDER BY code DESC),
       count(*) OVER (PARTITION BY code) FROM obs;

-- name: wf110_window_column_names
SELECT row_number() OVER (), rank() OVER (), count(*) OVER (), string_agg(grp, ',') OVER (), avg(i) OVER () AS a
FROM obs WHERE id = 1;

-- name: wf111_cume_dist_with_ties_partitioned
SELECT id, code, r, cume_dist() OVER (PARTITION BY code ORDER BY r DESC), percent_rank() OVER (PARTITION BY code ORDER BY r DESC)
FROM obs;

-- name: wf112_sum_float_running_exact
SELECT id, sum(r) OVER (ORDER BY id), avg(d) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING),
       sum(r + d) OVER (PARTITION BY flag ORDER BY d DESC, id) FROM obs;

-- name: wf113_numeric_sum_big
SELECT id, sum(big * 1000) OVER (ORDER BY id), avg(big) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM obs;

-- name: wf114_statistics_over_windows
SELECT id, var_samp(i) OVER (PARTITION BY flag ORDER BY id), stddev_pop(n) OVER (PARTITION BY grp),
       var_pop(s) OVER (ORDER BY id ROWS BETWEEN 5 PRECEDING AND CURRENT ROW), bool_and(i > 0) OVER (ORDER BY id),
       bool_or(i > 1000000) OVER (PARTITION BY flag), every(i < 0) OVER (PARTITION BY grp ORDER BY id) FROM obs;

-- name: wf116_top_n_per_group_ties
-- ordered
SELECT grp, id, i, r FROM (SELECT grp, id, i, rank() OVER (PARTITION BY grp ORDER BY i DESC NULLS LAST) AS r FROM obs) x
WHERE r <= 2 ORDER BY grp NULLS FIRST, r, id;

-- name: wf117_running_total_with_peers_and_nulls
SELECT id, code, sum(i) OVER (ORDER BY code NULLS FIRST), count(i) OVER (ORDER BY code NULLS FIRST),
       sum(i) OVER (ORDER BY code, id ROWS UNBOUNDED PRECEDING) FROM obs;

-- name: wf118_filter_count_star_running
SELECT id, grp, count(*) FILTER (WHERE i > 0) OVER (ORDER BY id), count(*) FILTER (WHERE flag) OVER (PARTITION BY grp),
       count(*) OVER (ORDER BY id) FROM obs;

-- name: wf119_filter_aggregates_frames
SELECT id, sum(i) FILTER (WHERE flag) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING),
       min(n) FILTER (WHERE id % 3 <> 0) OVER (ORDER BY id), max(s) FILTER (WHERE s < 100) OVER (ORDER BY i NULLS FIRST),
       count(big) FILTER (WHERE big IS NOT NULL AND big < 0) OVER (ORDER BY id GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW),
       avg(i) FILTER (WHERE i % 2 = 0) OVER (PARTITION BY flag) FROM obs;

-- name: wf120_filter_named_window_and_others
SELECT id, sum(r) FILTER (WHERE r > 0) OVER w, string_agg(grp, ',') FILTER (WHERE id < 10) OVER w,
       bool_and(i > 0) FILTER (WHERE i IS NOT NULL) OVER w, var_pop(s) FILTER (WHERE flag) OVER w,
       sum(1) FILTER (WHERE flag) OVER w, round(CAST(corr(i, s) FILTER (WHERE id > 5) OVER w AS numeric), 9)
FROM obs WINDOW w AS (ORDER BY id);

-- name: wf121_filter_over_group_by
SELECT grp, sum(i), sum(sum(i)) FILTER (WHERE grp IS NOT NULL) OVER (ORDER BY grp),
       count(*) FILTER (WHERE grp > 'b') OVER () FROM obs GROUP BY grp;

-- name: wf128_filter_aggregate_grouped
-- error 42803
SELECT grp, count(*) FILTER (WHERE count(*) > 1) OVER () FROM obs GROUP BY grp;

-- name: wf122_filter_null_and_false
SELECT id, count(*) FILTER (WHERE NULL) OVER (), sum(i) FILTER (WHERE false) OVER (ORDER BY id),
       count(i) FILTER (WHERE true) OVER (ORDER BY id) FROM obs;

-- name: wf123_filter_non_aggregate
-- error 0A000
SELECT row_number() FILTER (WHERE id > 1) OVER () FROM obs;

-- name: wf124_filter_with_window_function
-- error 42P20
SELECT count(*) FILTER (WHERE rank() OVER () > 1) OVER () FROM obs;

-- name: wf125_filter_with_aggregate_ungrouped
-- error 42803
SELECT count(*) FILTER (WHERE count(*) > 1) OVER () FROM obs;

-- name: wf126_filter_not_boolean
-- error 42804
SELECT count(*) FILTER (WHERE id) OVER () FROM obs;

-- name: wf127_corr_window_pruned_columns
SELECT round(CAST(corr(d, i) OVER (ORDER BY id) AS numeric), 9), round(CAST(regr_slope(i, s) OVER (PARTITION BY flag) AS numeric), 6),
       round(CAST(covar_pop(s, r) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS numeric), 6) FROM obs;

-- name: wf129_two_argument_aggregate_window_in_subquery
SELECT x.id, round(CAST(x.c AS numeric), 6) FROM (SELECT id, grp, note, big, regr_sxx(i, s) OVER (PARTITION BY flag) AS c FROM obs) x WHERE x.id > 3;

-- name: wf130_filter_distinct_window
-- error 0A000
SELECT count(DISTINCT i) FILTER (WHERE flag) OVER () FROM obs;

-- name: wf131_filter_in_expression_and_order_by
-- ordered
SELECT id, 1 + count(*) FILTER (WHERE i IS NULL) OVER (ORDER BY id) AS c, sum(i) FILTER (WHERE grp IN ('a', 'b')) OVER (PARTITION BY flag ORDER BY id) AS s
FROM obs ORDER BY c DESC, s NULLS FIRST, id;

-- name: wf132_avg_integer_numeric_frames
SELECT id, avg(i) OVER (ORDER BY id ROWS BETWEEN 5 FOLLOWING AND 10 FOLLOWING), avg(s) OVER (PARTITION BY grp ORDER BY id),
       avg(n) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING), avg(big) OVER (PARTITION BY flag),
       avg(n) FILTER (WHERE n > 0) OVER (ORDER BY i NULLS FIRST GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
       avg(i) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING EXCLUDE CURRENT ROW) FROM obs;

-- name: wf133_avg_with_sum_and_count_same_window
SELECT id, avg(i) OVER w AS a, sum(i) OVER w, count(i) OVER w, avg(i) OVER w + 1, avg(n) OVER (ORDER BY s RANGE BETWEEN 100 PRECEDING AND 50 FOLLOWING)
FROM obs WINDOW w AS (PARTITION BY grp ORDER BY id);

-- name: wf134_avg_over_grouped_and_in_order_by
-- ordered
SELECT grp, avg(sum(i)) OVER (ORDER BY grp) AS a, avg(count(*)) OVER () FROM obs GROUP BY grp ORDER BY a NULLS FIRST, grp NULLS FIRST;

-- name: wf135_window_call_cast
-- ordered
SELECT id, sum(n) OVER (PARTITION BY grp ORDER BY id)::numeric(18,1), rank() OVER (ORDER BY s NULLS LAST, id)::text,
       lag(n, 1, 0) OVER (ORDER BY id)::text, count(*) FILTER (WHERE flag) OVER w::float8, avg(i) OVER w::int
FROM obs WINDOW w AS (PARTITION BY grp ORDER BY id ROWS 2 PRECEDING) ORDER BY id;

-- name: wf136_window_call_cast_in_expression
-- ordered
SELECT id, 1 + row_number() OVER (ORDER BY id DESC)::int * 2,
       sum(s) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW)::bigint
FROM obs ORDER BY id;
