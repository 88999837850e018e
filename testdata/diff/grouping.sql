-- Grouping and aggregates of issue 10: FILTER, GROUPING SETS / ROLLUP /
-- CUBE and grouping(), DISTINCT ON, the statistics (stddev, variance,
-- corr, covar, regr_*), bool_and/bool_or/every, bit_and/bit_or,
-- array_agg, percentile_cont/percentile_disc/mode() WITHIN GROUP.
-- Tables: lineitem (20000 rows), obs (40 rows); see README.md.
-- Float statistics are exact sums rounded once (docs/sql.md), where
-- PostgreSQL's running sums (Youngs-Cramer) round: the one-argument ones
-- over obs.r and obs.d (multiples of 1/8) agree to the last digit; the
-- two-argument ones divide by N*(N-1) at each row in PostgreSQL, so the
-- corpus compares them rounded to 6 places, and to the last digit only
-- where PostgreSQL's steps are exact (two rows, y = x).
-- gpusql's arrays are text (docs/sql.md): array_agg is shown through ::text.

-- name: gs001_filter_count_sum
SELECT l_returnflag, count(*) FILTER (WHERE l_quantity > 25) AS big,
       sum(l_extendedprice) FILTER (WHERE l_shipmode = 'AIR') AS air,
       avg(l_discount) FILTER (WHERE l_urgent) AS urgent_disc,
       count(*) AS n
FROM lineitem GROUP BY l_returnflag;

-- name: gs002_filter_min_max_distinct
SELECT grp, min(i) FILTER (WHERE flag), max(n) FILTER (WHERE NOT flag),
       count(DISTINCT code) FILTER (WHERE s > 0) AS codes,
       count(*) FILTER (WHERE flag IS NULL) AS unknown
FROM obs GROUP BY grp;

-- name: gs003_filter_global_empty
SELECT count(*) FILTER (WHERE id > 100), sum(i) FILTER (WHERE id > 100), count(*) FROM obs;

-- name: gs004_filter_string_agg
SELECT grp, string_agg(note, ',' ORDER BY id) FILTER (WHERE id % 2 = 0) AS evens
FROM obs GROUP BY grp;

-- name: gs005_filter_in_having_order
-- ordered
SELECT l_shipmode, count(*) FILTER (WHERE l_returnflag = 'R') AS r
FROM lineitem GROUP BY l_shipmode
HAVING count(*) FILTER (WHERE l_returnflag = 'R') > 100
ORDER BY count(*) FILTER (WHERE l_returnflag = 'R') DESC, l_shipmode;

-- name: gs006_bool_aggs
SELECT grp, bool_and(flag), bool_or(flag), every(flag), bool_and(i > 0) AS allpos,
       bool_or(flag) FILTER (WHERE id > 20) AS late
FROM obs GROUP BY grp;

-- name: gs007_bool_aggs_empty
SELECT bool_and(flag), bool_or(flag), every(flag) FROM obs WHERE id < 0;

-- name: gs008_bit_aggs
SELECT grp, bit_and(s), bit_or(s), bit_and(i), bit_or(i), bit_and(big), bit_or(big)
FROM obs GROUP BY grp;

-- name: gs009_bit_aggs_lineitem
SELECT l_linestatus, bit_and(l_orderkey), bit_or(l_linenumber), bit_or(l_partkey), bit_and(l_partkey)
FROM lineitem GROUP BY l_linestatus;

-- name: gs010_variance_integers
SELECT grp, var_samp(i), var_pop(i), stddev_samp(i), stddev_pop(i), variance(s), stddev(s)
FROM obs GROUP BY grp;

-- name: gs011_variance_numeric
SELECT grp, var_samp(n), var_pop(n), stddev_samp(n), stddev_pop(n)
FROM obs GROUP BY grp;

-- name: gs012_variance_bigint
SELECT grp, variance(big), stddev(big), var_pop(big), stddev_pop(big) FROM obs GROUP BY grp;

-- name: gs013_variance_lineitem
SELECT l_returnflag, l_linestatus, stddev(l_quantity), variance(l_extendedprice),
       stddev_pop(l_discount), var_pop(l_tax), stddev(l_orderkey)
FROM lineitem GROUP BY l_returnflag, l_linestatus;

-- name: gs014_variance_one_row_and_none
SELECT var_samp(i), var_pop(i), stddev_samp(n), stddev_pop(n), variance(d), stddev_pop(d)
FROM obs WHERE id = 5;

-- name: gs015_variance_no_rows
SELECT var_samp(i), var_pop(n), stddev(d), corr(d, r), regr_count(d, r), regr_sxx(d, r)
FROM obs WHERE id < 0;

-- name: gs016_variance_constant
SELECT var_samp(x), stddev_pop(x), var_pop(y) FROM (SELECT 2.50 AS x, 7 AS y FROM obs) t;

-- name: gs017_variance_float
SELECT grp, var_samp(d), var_pop(d), stddev_samp(r), stddev_pop(r) FROM obs GROUP BY grp;

-- name: gs018_two_arg_stats
SELECT grp, round(covar_pop(d, r)::numeric, 6), round(covar_samp(d, r)::numeric, 6),
       round(regr_sxx(d, r)::numeric, 6), round(regr_syy(d, r)::numeric, 6), round(regr_sxy(d, r)::numeric, 6),
       regr_avgx(d, r), regr_avgy(d, r), regr_count(d, r)
FROM obs GROUP BY grp;

-- name: gs019_corr_regr
SELECT grp, round(corr(d, r)::numeric, 6), round(regr_slope(d, r)::numeric, 6),
       round(regr_intercept(d, r)::numeric, 6), round(regr_r2(d, r)::numeric, 6)
FROM obs GROUP BY grp;

-- name: gs020_stats_integers_as_double
SELECT round(corr(s, i)::numeric, 6), round(covar_pop(i, s)::numeric, 3), round(regr_slope(i, s)::numeric, 6), regr_count(i, s) FROM obs;

-- name: gs055_two_arg_stats_exact
SELECT corr(d, d), regr_r2(r, r), regr_slope(d, d), covar_samp(d, r), covar_pop(d, r), corr(d, r),
       regr_intercept(d, r), regr_sxx(d, r), regr_sxy(d, r), regr_slope(d, r)
FROM obs WHERE id IN (2, 4);

-- name: gs056_two_arg_stats_lines
SELECT corr(d, 1.5), regr_r2(1.5, d), regr_slope(d, 1.5), regr_slope(1.5, d), regr_intercept(2, d), covar_pop(d, 2)
FROM obs;

-- name: gs021_array_agg
-- ordered
SELECT grp, array_agg(id ORDER BY id)::text AS ids, array_agg(note ORDER BY id)::text AS notes,
       array_agg(flag ORDER BY id)::text AS flags, array_agg(code ORDER BY id)::text AS codes
FROM obs GROUP BY grp ORDER BY grp;

-- name: gs022_array_agg_types
-- ordered
SELECT grp, array_agg(n ORDER BY id)::text AS ns, array_agg(ts ORDER BY id DESC)::text AS tss,
       array_agg(DISTINCT s)::text AS ds
FROM obs GROUP BY grp ORDER BY grp;

-- name: gs023_array_agg_quoting
SELECT array_agg(x ORDER BY x)::text FROM (SELECT '' AS x UNION ALL SELECT 'NULL' UNION ALL SELECT 'null'
  UNION ALL SELECT 'a b' UNION ALL SELECT 'a,b' UNION ALL SELECT '{x}' UNION ALL SELECT 'q"t' UNION ALL SELECT 'b\s'
  UNION ALL SELECT E'tab\there' UNION ALL SELECT 'plain' UNION ALL SELECT NULL) v;

-- name: gs057_array_agg_intervals_dates
SELECT array_agg(DISTINCT l_shipdate - l_commitdate)::text AS days,
       array_agg(l_shipdate::timestamp - l_commitdate::timestamp ORDER BY l_orderkey, l_linenumber)::text AS spans
FROM lineitem WHERE l_shipdate > DATE '1998-11-25';

-- name: gs024_array_agg_empty_and_filter
SELECT array_agg(id)::text, array_agg(id) FILTER (WHERE id > 38)::text, array_agg(id) FILTER (WHERE id > 50)::text FROM obs WHERE id > 30;

-- name: gs025_percentiles
SELECT grp, percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS med,
       percentile_cont(0.25) WITHIN GROUP (ORDER BY i) AS q1,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS dmed,
       percentile_disc(0.9) WITHIN GROUP (ORDER BY note DESC) AS dnote
FROM obs GROUP BY grp;

-- name: gs026_percentile_edges
SELECT percentile_cont(0) WITHIN GROUP (ORDER BY i), percentile_cont(1) WITHIN GROUP (ORDER BY i),
       percentile_disc(0) WITHIN GROUP (ORDER BY ts), percentile_disc(1) WITHIN GROUP (ORDER BY ts),
       percentile_cont(NULL) WITHIN GROUP (ORDER BY i)
FROM obs;

-- name: gs027_percentile_no_rows
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i), percentile_disc(0.5) WITHIN GROUP (ORDER BY i),
       mode() WITHIN GROUP (ORDER BY i)
FROM obs WHERE id < 0;

-- name: gs028_percentile_out_of_range
-- error 22003
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY i) FROM obs;

-- name: gs029_mode
SELECT l_returnflag, mode() WITHIN GROUP (ORDER BY l_quantity) AS q,
       mode() WITHIN GROUP (ORDER BY l_shipmode DESC) AS m,
       mode() WITHIN GROUP (ORDER BY l_linenumber) AS ln
FROM lineitem GROUP BY l_returnflag;

-- name: gs030_mode_ties
SELECT mode() WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP (ORDER BY x DESC)
FROM (SELECT 3 AS x UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 1 UNION ALL SELECT 3
      UNION ALL SELECT NULL::int UNION ALL SELECT NULL::int UNION ALL SELECT NULL::int) v;

-- name: gs031_percentile_lineitem
SELECT l_shipmode, percentile_cont(0.5) WITHIN GROUP (ORDER BY l_quantity) AS med,
       percentile_disc(0.75) WITHIN GROUP (ORDER BY l_shipdate) AS d75
FROM lineitem GROUP BY l_shipmode;

-- name: gs032_rollup
SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_discount)
FROM lineitem GROUP BY ROLLUP (l_returnflag, l_linestatus);

-- name: gs033_cube_grouping
SELECT l_returnflag, l_linestatus, grouping(l_returnflag, l_linestatus) AS g,
       grouping(l_linestatus) AS gl, count(*)
FROM lineitem GROUP BY CUBE (l_returnflag, l_linestatus);

-- name: gs034_grouping_sets
SELECT grp, flag, count(*), sum(i), grouping(grp) AS gg
FROM obs GROUP BY GROUPING SETS ((grp), (flag), (grp, flag), ());

-- name: gs035_rollup_subtotal_report
-- ordered
SELECT CASE WHEN grouping(l_shipmode) = 1 THEN 'ALL MODES' ELSE coalesce(l_shipmode, '(none)') END::text AS mode,
       CASE WHEN grouping(l_returnflag) = 1 THEN 'subtotal' ELSE l_returnflag END AS flag,
       count(*) AS orders, sum(l_extendedprice) AS revenue,
       round(avg(l_quantity), 2) AS avg_qty
FROM lineitem
WHERE l_shipdate >= DATE '1995-01-01'
GROUP BY ROLLUP (l_shipmode, l_returnflag)
ORDER BY grouping(l_shipmode), l_shipmode NULLS FIRST, grouping(l_returnflag), l_returnflag;

-- name: gs036_rollup_empty_input
SELECT grp, count(*), sum(i) FROM obs WHERE id < 0 GROUP BY ROLLUP (grp);

-- name: gs037_grouping_sets_having_order_limit
-- ordered
SELECT grp, code, count(*) AS n FROM obs
GROUP BY GROUPING SETS ((grp, code), (grp), ())
HAVING count(*) > 1
ORDER BY n DESC, grp NULLS LAST, code NULLS LAST
LIMIT 6;

-- name: gs038_group_by_plus_rollup
SELECT l_returnflag, l_linestatus, l_shipmode, count(*)
FROM lineitem GROUP BY l_returnflag, ROLLUP (l_linestatus, l_shipmode);

-- name: gs039_rollup_composite_and_empty_set
SELECT grp, flag, code, count(*) FROM obs GROUP BY ROLLUP ((grp, flag), code);

-- name: gs040_group_by_empty_set
SELECT count(*), sum(i) FROM obs GROUP BY ();

-- name: gs041_grouping_sets_duplicates
SELECT grp, count(*) FROM obs GROUP BY GROUPING SETS ((grp), (grp), ());

-- name: gs042_cube_with_stats_and_filter
SELECT grp, flag, stddev(i), count(*) FILTER (WHERE s > 0), bool_or(flag), array_agg(id ORDER BY id)::text
FROM obs GROUP BY CUBE (grp, flag);

-- name: gs043_grouping_plain_group_by
SELECT grp, grouping(grp), count(*) FROM obs GROUP BY grp;

-- name: gs044_grouping_not_grouped
-- error 42803
SELECT grouping(id) FROM obs GROUP BY ROLLUP (grp);

-- name: gs045_distinct_on
-- ordered
SELECT DISTINCT ON (grp) grp, id, i FROM obs ORDER BY grp, i DESC NULLS LAST, id;

-- name: gs046_distinct_on_two_keys
-- ordered
SELECT DISTINCT ON (l_returnflag, l_linestatus) l_returnflag, l_linestatus, l_orderkey, l_extendedprice
FROM lineitem ORDER BY l_returnflag, l_linestatus, l_extendedprice DESC, l_orderkey, l_linenumber;

-- name: gs047_distinct_on_expression_not_selected
-- ordered
SELECT DISTINCT ON (id % 5) id, grp FROM obs ORDER BY id % 5, id DESC;

-- name: gs048_distinct_on_limit_offset
-- ordered
SELECT DISTINCT ON (l_shipmode) l_shipmode, l_orderkey, l_linenumber FROM lineitem
ORDER BY l_shipmode NULLS FIRST, l_orderkey, l_linenumber LIMIT 3 OFFSET 1;

-- name: gs049_distinct_on_mismatch
-- error 42P10
SELECT DISTINCT ON (grp) grp, id FROM obs ORDER BY id;

-- name: gs050_distinct_on_with_group_by
-- ordered
SELECT DISTINCT ON (l_returnflag) l_returnflag, l_shipmode, count(*) AS n
FROM lineitem GROUP BY l_returnflag, l_shipmode
ORDER BY l_returnflag, count(*) DESC, l_shipmode;

-- name: gs051_filter_on_non_aggregate
-- error 42809
SELECT lower(grp) FILTER (WHERE id > 1) FROM obs;

-- name: gs052_mode_without_within_group
-- error 42809
SELECT mode(i) FROM obs;

-- name: gs053_bool_and_of_integer
-- error 42883
SELECT bool_and(i) FROM obs;

-- name: gs054_stats_filter
SELECT grp, var_samp(i) FILTER (WHERE flag), round(corr(d, r) FILTER (WHERE id > 10)::numeric, 6),
       percentile_disc(0.5) WITHIN GROUP (ORDER BY id) FILTER (WHERE flag),
       mode() WITHIN GROUP (ORDER BY code) FILTER (WHERE id < 30)
FROM obs GROUP BY grp;

-- name: gs058_rollup_in_derived_table_and_join
SELECT t.l_returnflag, t.n, t.g, j.cnt
FROM (SELECT l_returnflag, count(*) AS n, grouping(l_returnflag) AS g FROM lineitem GROUP BY ROLLUP (l_returnflag)) t
JOIN (SELECT l_returnflag AS f, count(*) AS cnt FROM lineitem WHERE l_urgent GROUP BY 1) j ON j.f = t.l_returnflag;

-- name: gs059_distinct_on_in_subquery
SELECT count(*), sum(i) FROM (SELECT DISTINCT ON (grp) grp, i FROM obs ORDER BY grp, i NULLS LAST) t;
