-- Joins over user tables (issue 9): inner, outer, semi and anti joins
-- with NULL and duplicate keys, empty sides, keys of different types,
-- USING / NATURAL, subqueries that become joins, derived tables, WITH,
-- set operations over joins, and the errors of name resolution. The
-- small tables ja, jb, jc, jd and jempty are written by
-- cmd/gpusql/diff_data_test.go (diffJoinRows).

-- name: jn001_inner_null_dup_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k;

-- name: jn002_left_null_dup_keys
SELECT a.id, a.k, b.id, b.w FROM ja a LEFT JOIN jb b ON a.k = b.k;

-- name: jn003_right_null_dup_keys
SELECT a.id, b.id, b.k FROM ja a RIGHT JOIN jb b ON a.k = b.k;

-- name: jn004_full_null_dup_keys
SELECT a.id, a.k, b.id, b.k FROM ja a FULL JOIN jb b ON a.k = b.k;

-- name: jn005_full_outer_keyword
SELECT a.id, b.id FROM ja a FULL OUTER JOIN jb b ON b.k = a.k WHERE a.id IS NULL OR b.id IS NULL;

-- name: jn006_left_outer_keyword
SELECT a.id, b.id FROM ja AS a LEFT OUTER JOIN jb AS b ON a.k = b.k AND b.w > 15;

-- name: jn007_inner_keyword_cross_join
SELECT count(*), sum(a.id * b.id) FROM ja a CROSS JOIN jb b;

-- name: jn008_cross_join_empty_table
SELECT a.id, e.k FROM ja a CROSS JOIN jempty e;

-- name: jn009_inner_empty_table
SELECT a.id, e.s FROM ja a JOIN jempty e ON a.k = e.k;

-- name: jn010_left_empty_table
SELECT a.id, e.k, e.s, e.d FROM ja a LEFT JOIN jempty e ON a.k = e.k;

-- name: jn011_right_empty_table
SELECT a.id, e.k FROM jempty e RIGHT JOIN ja a ON a.k = e.k;

-- name: jn012_full_empty_table
SELECT a.id, e.k FROM ja a FULL JOIN jempty e ON a.k = e.k;

-- name: jn013_full_empty_left
SELECT e.k, b.id FROM jempty e FULL JOIN jb b ON e.k = b.k;

-- name: jn014_inner_filtered_empty
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k WHERE b.w > 1000;

-- name: jn015_left_right_filtered_empty
SELECT a.id, b.id FROM ja a LEFT JOIN (SELECT * FROM jb WHERE w > 1000) b ON a.k = b.k;

-- name: jn016_full_both_filtered_empty
SELECT a.id, b.id FROM (SELECT * FROM ja WHERE id < 0) a FULL JOIN (SELECT * FROM jb WHERE w > 1000) b ON a.k = b.k;

-- name: jn017_full_one_side_empty
SELECT a.id, b.id FROM (SELECT * FROM ja WHERE id < 0) a FULL JOIN jb b ON a.k = b.k;

-- name: jn018_left_join_count_empty
SELECT count(*), count(b.id) FROM ja a LEFT JOIN jb b ON a.k = b.k AND false;

-- name: jn019_on_false
SELECT a.id, b.id FROM ja a JOIN jb b ON false;

-- name: jn020_on_true
SELECT count(*) FROM ja a JOIN jb b ON true;

-- name: jn021_on_constant_null
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON NULL;

-- name: jn022_left_on_left_only_condition
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k AND a.id > 6;

-- name: jn023_left_on_right_only_condition
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k AND b.s LIKE '%an%';

-- name: jn024_full_on_one_side_conditions
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.id > 2 AND b.w < 90;

-- name: jn025_left_where_right_is_null
SELECT a.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE b.id IS NULL;

-- name: jn026_left_where_rejects_nulls
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE b.w > 15;

-- name: jn027_left_where_coalesce_keeps_nulls
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE coalesce(b.w, 0) < 50;

-- name: jn028_left_where_or_is_null
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE b.w = 10 OR b.w IS NULL;

-- name: jn029_left_where_is_not_distinct
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE b.w IS DISTINCT FROM 10;

-- name: jn030_left_where_case
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE CASE WHEN b.w IS NULL THEN true ELSE b.w > 50 END;

-- name: jn031_right_where_left_col
SELECT a.id, b.id FROM ja a RIGHT JOIN jb b ON a.k = b.k WHERE a.id > 2;

-- name: jn032_right_where_left_is_null
SELECT b.id FROM ja a RIGHT JOIN jb b ON a.k = b.k WHERE a.id IS NULL;

-- name: jn033_full_where_one_side
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k WHERE a.g = 'x';

-- name: jn034_full_where_other_side
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k WHERE b.w >= 50;

-- name: jn035_full_coalesce_key
SELECT coalesce(a.k, b.k) AS k, count(*), count(a.id), count(b.id) FROM ja a FULL JOIN jb b ON a.k = b.k GROUP BY 1;

-- name: jn036_full_nonequi_error
-- error 0A000
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k < b.k;

-- name: jn037_full_or_error
-- error 0A000
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k OR a.id = b.id;

-- name: jn038_full_one_side_condition_error
-- error 0A000
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = 1;

-- name: jn039_full_equality_and_residual
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.id < b.id;

-- name: jn040_full_equality_on_expressions
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k + 1 = b.k;

-- name: jn041_inner_expression_key
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k + 1 = b.k;

-- name: jn042_lower_key
SELECT a.id, b.id FROM ja a JOIN jb b ON lower(a.s) = b.s;

-- name: jn043_upper_both_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON upper(a.s) = upper(b.s);

-- name: jn044_multi_column_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k AND a.d = b.d;

-- name: jn045_multi_column_keys_left
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k AND a.s = b.s;

-- name: jn046_multi_column_keys_full
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.kb = b.kb AND a.v = b.v;

-- name: jn047_int_smallint_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k;

-- name: jn048_int_bigint_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.kb;

-- name: jn049_smallint_bigint_keys
SELECT a.id, b.id FROM jb a JOIN jb b ON a.k = b.kb;

-- name: jn050_int_numeric_keys
SELECT a.id, b.id, b.kn FROM ja a JOIN jb b ON a.k = b.kn;

-- name: jn051_numeric_scales_keys
SELECT a.id, a.kn, b.id, b.kn FROM ja a JOIN jb b ON a.kn = b.kn;

-- name: jn052_numeric_keys_full
SELECT a.id, a.kn, b.id, b.kn FROM ja a FULL JOIN jb b ON a.kn = b.kn;

-- name: jn053_bigint_numeric_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.kb = b.kn;

-- name: jn054_float_int_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k::float8 = b.k;

-- name: jn055_char_char_keys
SELECT a.id, a.c, b.id, b.c FROM ja a JOIN jb b ON a.c = b.c;

-- name: jn056_char_text_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.c = b.s;

-- name: jn057_char_varchar_keys
SELECT a.id, a.c, b.id, b.v FROM ja a JOIN jb b ON a.c = b.v;

-- name: jn058_varchar_char_keys
SELECT a.id, a.v, b.id, b.c FROM ja a JOIN jb b ON a.v = b.c;

-- name: jn059_varchar_varchar_keys
SELECT a.id, a.v, b.id, b.v FROM ja a JOIN jb b ON a.v = b.v;

-- name: jn060_char_varchar_left
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.v = b.c;

-- name: jn061_char_keys_left
SELECT a.id, b.id, b.c FROM ja a LEFT JOIN jb b ON a.c = b.c;

-- name: jn062_char_cast_text_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.c::text = b.v;

-- name: jn063_text_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.s = b.s;

-- name: jn064_text_keys_empty_string
SELECT a.id, b.id FROM ja a JOIN jb b ON a.c = b.c WHERE a.c = '';

-- name: jn065_date_keys
SELECT a.id, b.id, a.d FROM ja a JOIN jb b ON a.d = b.d;

-- name: jn066_date_timestamp_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.d = b.d::timestamp;

-- name: jn067_date_expression_keys
SELECT a.id, b.id FROM ja a JOIN jb b ON a.d + 1 = b.d;

-- name: jn068_multibyte_keys
SELECT a.id, b.id, a.s FROM ja a JOIN jb b ON a.c = b.c AND a.c = 'ÄÖ';

-- name: jn069_self_join
SELECT x.id, y.id FROM ja x JOIN ja y ON x.k = y.k AND x.id < y.id;

-- name: jn070_self_join_left
SELECT x.id, y.id FROM ja x LEFT JOIN ja y ON x.k = y.k AND x.id <> y.id;

-- name: jn071_self_join_lineitem
SELECT count(*), sum(a.l_linenumber), sum(b.l_linenumber) FROM lineitem a JOIN lineitem b ON a.l_orderkey = b.l_orderkey AND a.l_linenumber + 1 = b.l_linenumber;

-- name: jn072_self_join_obs_nulls
SELECT x.id, y.id FROM obs x JOIN obs y ON x.grp = y.grp AND x.id < y.id AND x.code = y.code;

-- name: jn073_three_way
SELECT a.id, b.id, c.name FROM ja a JOIN jb b ON a.k = b.k JOIN jc c ON c.k = b.k;

-- name: jn074_four_way
SELECT a.id, b.id, c.name, d.rname FROM ja a JOIN jb b ON a.k = b.k JOIN jc c ON c.k = a.k JOIN jd d ON d.region = c.region;

-- name: jn075_four_way_left
SELECT a.id, c.name, d.rname FROM ja a LEFT JOIN jc c ON c.k = a.k LEFT JOIN jd d ON d.region = c.region;

-- name: jn076_four_way_mixed
SELECT a.id, b.id, c.name, d.rname FROM ja a LEFT JOIN jb b ON a.k = b.k JOIN jc c ON c.k = a.k RIGHT JOIN jd d ON d.region = c.region;

-- name: jn077_comma_join_where
SELECT a.id, b.id FROM ja a, jb b WHERE a.k = b.k AND b.w < 50;

-- name: jn078_comma_join_three
SELECT a.id, c.name, d.rname FROM ja a, jc c, jd d WHERE a.k = c.k AND c.region = d.region AND a.g = 'x';

-- name: jn079_comma_join_cross
SELECT count(*) FROM ja, jb, jd;

-- name: jn080_comma_join_or_key
SELECT a.id, b.id FROM ja a, jb b WHERE a.k = b.k OR a.id = b.w;

-- name: jn081_comma_join_nonequi
SELECT a.id, b.id FROM ja a, jb b WHERE a.k > b.k AND a.id < 4;

-- name: jn082_comma_and_join
SELECT a.id, b.id, c.name FROM ja a JOIN jb b ON a.k = b.k, jc c WHERE c.k = a.id;

-- name: jn083_nonequi_inner
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k BETWEEN b.k - 1 AND b.k + 1;

-- name: jn084_nonequi_left
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k < b.k AND b.w > 60;

-- name: jn085_nonequi_right
SELECT a.id, b.id FROM ja a RIGHT JOIN jb b ON a.k > b.k;

-- name: jn086_or_condition_left
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k OR a.s = b.s;

-- name: jn087_left_residual_like
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k AND b.s LIKE a.s || '%';

-- name: jn088_using
SELECT k, a.id, b.id FROM ja a JOIN jb b USING (k);

-- name: jn089_using_star
SELECT * FROM jc JOIN jd USING (region);

-- name: jn090_using_star_not_first
SELECT * FROM jd JOIN jc USING (region);

-- name: jn091_using_two_columns
SELECT * FROM ja a JOIN jb b USING (k, kb) WHERE a.id < 5;

-- name: jn092_left_using
SELECT * FROM jc LEFT JOIN jd USING (region);

-- name: jn093_right_using
SELECT * FROM jc RIGHT JOIN jd USING (region);

-- name: jn094_full_using
SELECT * FROM jc FULL JOIN jd USING (region);

-- name: jn095_full_using_column
SELECT region, jc.region, jd.region, name, rname FROM jc FULL JOIN jd USING (region);

-- name: jn096_right_using_column
SELECT region, name FROM jc RIGHT JOIN jd USING (region);

-- name: jn097_natural
SELECT * FROM jc NATURAL JOIN jd;

-- name: jn098_natural_left
SELECT * FROM jd NATURAL LEFT JOIN jc;

-- name: jn099_natural_full
SELECT * FROM jc NATURAL FULL JOIN jd;

-- name: jn100_natural_no_common
SELECT count(*) FROM jd NATURAL JOIN jempty;

-- name: jn101_star_two_tables
SELECT * FROM jc c JOIN jd d ON c.region = d.region;

-- name: jn102_qualified_star
SELECT d.*, c.name FROM jc c JOIN jd d ON c.region = d.region;

-- name: jn103_star_three_tables
SELECT * FROM jd d JOIN jc c ON c.region = d.region JOIN ja a ON a.k = c.k WHERE a.id < 4;

-- name: jn104_using_qualified_star
SELECT jd.*, jc.* FROM jc JOIN jd USING (region);

-- name: jn105_using_chain
SELECT * FROM jc JOIN jd USING (region) JOIN ja USING (k) WHERE id < 5;

-- name: jn106_not_in_null_in_subquery
SELECT id FROM ja WHERE k NOT IN (SELECT k FROM jb);

-- name: jn107_not_in_no_null
SELECT id FROM ja WHERE k NOT IN (SELECT k FROM jb WHERE k IS NOT NULL);

-- name: jn108_not_in_empty
SELECT id FROM ja WHERE k NOT IN (SELECT k FROM jempty);

-- name: jn109_not_in_empty_filtered
SELECT id FROM ja WHERE k NOT IN (SELECT k FROM jb WHERE w > 1000);

-- name: jn110_not_in_null_outer
SELECT id, k FROM ja WHERE k NOT IN (SELECT k FROM jc WHERE k IS NOT NULL);

-- name: jn111_not_in_expression
SELECT id FROM ja WHERE k + 1 NOT IN (SELECT k FROM jb WHERE k IS NOT NULL);

-- name: jn112_not_in_types
SELECT id FROM ja WHERE kn NOT IN (SELECT k FROM jb WHERE k IS NOT NULL);

-- name: jn113_not_in_select_list
SELECT id, k NOT IN (SELECT k FROM jb) AS a, k NOT IN (SELECT k FROM jb WHERE k IS NOT NULL) AS b FROM ja;

-- name: jn114_in_subquery
SELECT id FROM ja WHERE k IN (SELECT k FROM jb);

-- name: jn115_in_subquery_duplicates
SELECT a.id FROM ja a WHERE a.s IN (SELECT s FROM jb) OR a.id = 1;

-- name: jn116_in_empty
SELECT id FROM ja WHERE k IN (SELECT k FROM jempty);

-- name: jn117_in_correlated
SELECT id FROM ja a WHERE k IN (SELECT b.k FROM jb b WHERE b.d = a.d);

-- name: jn118_in_types
SELECT id FROM ja WHERE kb IN (SELECT kn FROM jb);

-- name: jn119_in_char_text
SELECT id FROM ja WHERE c IN (SELECT v FROM jb);

-- name: jn120_not_in_correlated
SELECT id FROM ja a WHERE k NOT IN (SELECT b.k FROM jb b WHERE b.w > a.id * 10);

-- name: jn121_exists_correlated_eq
SELECT id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k);

-- name: jn122_not_exists_correlated_eq
SELECT id FROM ja a WHERE NOT EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k);

-- name: jn123_exists_nonequi
SELECT id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.k > a.k AND b.w < 50);

-- name: jn124_not_exists_nonequi
SELECT id FROM ja a WHERE NOT EXISTS (SELECT 1 FROM jb b WHERE b.k > a.k);

-- name: jn125_exists_eq_and_nonequi
SELECT id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND b.id <> a.id);

-- name: jn126_not_exists_eq_and_nonequi
SELECT id FROM ja a WHERE NOT EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND b.id > a.id);

-- name: jn127_exists_two_keys
SELECT id FROM ja a WHERE EXISTS (SELECT * FROM jb b WHERE b.k = a.k AND b.d = a.d);

-- name: jn128_exists_in_or
SELECT id FROM ja a WHERE a.id = 5 OR EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k);

-- name: jn129_not_exists_in_select_list
SELECT id, EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k) AS e, NOT EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND b.w > 50) AS ne FROM ja a;

-- name: jn130_exists_uncorrelated
SELECT id FROM ja WHERE EXISTS (SELECT 1 FROM jempty);

-- name: jn131_not_exists_uncorrelated
SELECT id FROM ja WHERE NOT EXISTS (SELECT 1 FROM jempty);

-- name: jn132_exists_with_aggregate
SELECT id FROM ja a WHERE EXISTS (SELECT count(*) FROM jb b WHERE b.k = a.k);

-- name: jn133_exists_over_join
SELECT id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b JOIN jc c ON c.k = b.k WHERE b.k = a.k AND c.region = 1);

-- name: jn134_exists_nested
SELECT id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k AND NOT EXISTS (SELECT 1 FROM jc c WHERE c.k = b.k AND c.region = 2));

-- name: jn135_scalar_count_where
SELECT id FROM ja a WHERE (SELECT count(*) FROM jb b WHERE b.k = a.k) = 0;

-- name: jn136_scalar_count_select
SELECT id, (SELECT count(*) FROM jb b WHERE b.k = a.k) AS n FROM ja a;

-- name: jn137_scalar_count_column
SELECT id, (SELECT count(b.w) FROM jb b WHERE b.k = a.k) AS n FROM ja a;

-- name: jn138_scalar_sum_null
SELECT id, (SELECT sum(b.w) FROM jb b WHERE b.k = a.k) AS s FROM ja a;

-- name: jn139_scalar_count_plus
SELECT id, (SELECT count(*) + 1 FROM jb b WHERE b.k = a.k) AS n, (SELECT coalesce(max(b.w), -1) FROM jb b WHERE b.k = a.k) AS m FROM ja a;

-- name: jn140_scalar_avg_compare
SELECT id FROM ja a WHERE a.id * 10 < (SELECT avg(b.w) FROM jb b WHERE b.k = a.k);

-- name: jn141_scalar_two_keys
SELECT id, (SELECT count(*) FROM jb b WHERE b.k = a.k AND b.d = a.d) FROM ja a;

-- name: jn144_scalar_inner_filter
SELECT id, (SELECT max(b.s) FROM jb b WHERE b.k = a.k AND b.w > 15) AS m FROM ja a;

-- name: jn145_scalar_q17_shape
SELECT id, kn FROM ja a WHERE a.kn < (SELECT 0.9 * avg(b.kn) FROM jb b WHERE b.k = a.k);

-- name: jn146_scalar_uncorrelated
SELECT id, (SELECT max(w) FROM jb) AS m FROM ja WHERE k > (SELECT min(k) FROM jb);

-- name: jn147_scalar_uncorrelated_empty
SELECT id FROM ja WHERE k = (SELECT k FROM jempty);

-- name: jn148_scalar_count_types
SELECT id, (SELECT count(*) FROM jb b WHERE b.kn = a.kn) FROM ja a;

-- name: jn149_scalar_key_expression
SELECT id, (SELECT count(*) FROM jb b WHERE b.k = a.k + 1) FROM ja a;

-- name: jn150_derived_join
SELECT x.k, x.n, y.m FROM (SELECT k, count(*) AS n FROM ja GROUP BY k) x JOIN (SELECT k, max(w) AS m FROM jb GROUP BY k) y ON x.k = y.k;

-- name: jn151_derived_left_null_groups
SELECT x.k, x.n, y.m FROM (SELECT k, count(*) AS n FROM ja GROUP BY k) x LEFT JOIN (SELECT k, max(w) AS m FROM jb GROUP BY k) y ON x.k = y.k;

-- name: jn152_derived_with_join_inside
SELECT t.name, count(*) FROM (SELECT c.name, a.id FROM ja a JOIN jc c ON a.k = c.k) t GROUP BY t.name;

-- name: jn153_derived_limit
SELECT a.id, t.id FROM ja a JOIN (SELECT id, k FROM jb ORDER BY id LIMIT 3) t ON a.k = t.k;

-- name: jn154_derived_distinct
SELECT a.id, t.k FROM ja a JOIN (SELECT DISTINCT k FROM jb) t ON a.k = t.k;

-- name: jn155_with_used_twice
WITH t AS (SELECT k, count(*) AS n FROM jb GROUP BY k)
SELECT x.k, x.n, y.n FROM t x JOIN t y ON x.k = y.k - 1;

-- name: jn156_with_join_table
WITH big AS (SELECT * FROM jb WHERE w >= 30)
SELECT a.id, big.id FROM ja a JOIN big ON a.k = big.k;

-- name: jn157_with_chain
WITH x AS (SELECT a.id, a.k FROM ja a JOIN jc c ON a.k = c.k), y AS (SELECT x.id, b.w FROM x JOIN jb b ON x.k = b.k)
SELECT id, sum(w) FROM y GROUP BY id;

-- name: jn158_with_left_self
WITH t AS (SELECT id, k FROM ja WHERE g = 'x')
SELECT t1.id, t2.id FROM t t1 LEFT JOIN t t2 ON t1.k = t2.k AND t1.id <> t2.id;

-- name: jn159_union_of_joins
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k UNION SELECT a.id, b.id FROM ja a JOIN jb b ON a.s = b.s;

-- name: jn160_union_all_of_joins
SELECT a.k FROM ja a JOIN jb b ON a.k = b.k UNION ALL SELECT c.k FROM jc c JOIN jd d ON c.region = d.region;

-- name: jn161_intersect_joins
SELECT a.k FROM ja a JOIN jb b ON a.k = b.k INTERSECT SELECT c.k FROM jc c JOIN jd d ON c.region = d.region;

-- name: jn162_intersect_all_joins
SELECT a.k FROM ja a LEFT JOIN jb b ON a.k = b.k INTERSECT ALL SELECT b.k FROM ja a RIGHT JOIN jb b ON a.k = b.k;

-- name: jn163_except_joins
SELECT a.k FROM ja a LEFT JOIN jb b ON a.k = b.k EXCEPT SELECT c.k FROM jc c JOIN jd d ON c.region = d.region;

-- name: jn164_except_all_joins
SELECT a.k FROM ja a LEFT JOIN jb b ON a.k = b.k EXCEPT ALL SELECT k FROM jb;

-- name: jn165_setop_in_derived_join
SELECT t.k, c.name FROM (SELECT k FROM ja UNION SELECT k FROM jb) t LEFT JOIN jc c ON c.k = t.k;

-- name: jn166_group_by_join
SELECT c.name, count(*), sum(b.w), min(a.id) FROM ja a JOIN jb b ON a.k = b.k JOIN jc c ON c.k = a.k GROUP BY c.name;

-- name: jn167_group_by_having_join
SELECT a.k, count(*) FROM ja a JOIN jb b ON a.k = b.k GROUP BY a.k HAVING count(*) > 2;

-- name: jn168_order_limit_join
-- ordered
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k ORDER BY b.w DESC, a.id LIMIT 5;

-- name: jn169_order_nulls_outer
-- ordered
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k ORDER BY a.id NULLS FIRST, b.id NULLS LAST;

-- name: jn170_aggregates_outer_nulls
SELECT count(*), count(b.id), sum(b.w), avg(b.w), min(b.s), max(b.d) FROM ja a LEFT JOIN jb b ON a.k = b.k;

-- name: jn171_group_by_outer_null
SELECT b.k, count(*), count(b.w) FROM ja a LEFT JOIN jb b ON a.k = b.k GROUP BY b.k;

-- name: jn172_group_by_both_sides
SELECT a.g, b.k, count(*) FROM ja a FULL JOIN jb b ON a.k = b.k GROUP BY a.g, b.k;

-- name: jn173_distinct_over_join
SELECT DISTINCT a.g, b.k FROM ja a JOIN jb b ON a.k = b.k;

-- name: jn174_count_distinct_join
SELECT count(DISTINCT a.id), count(DISTINCT b.id) FROM ja a JOIN jb b ON a.k = b.k;

-- name: jn175_order_by_offset
-- ordered
SELECT a.id, c.name FROM ja a JOIN jc c ON a.k = c.k ORDER BY c.name, a.id LIMIT 4 OFFSET 2;

-- name: jn176_join_lineitem_obs
SELECT o.id, count(*), sum(l.l_quantity) FROM obs o JOIN lineitem l ON l.l_orderkey = o.id GROUP BY o.id;

-- name: jn177_join_lineitem_left_obs
SELECT count(*), count(o.id), sum(o.s) FROM lineitem l LEFT JOIN obs o ON o.id = l.l_linenumber AND o.s > 0;

-- name: jn178_star_join_order
SELECT d.rname, count(*) FROM ja a, jb b, jc c, jd d WHERE a.k = b.k AND b.k = c.k AND c.region = d.region GROUP BY d.rname;

-- name: jn179_join_on_subquery_in
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k AND b.w IN (SELECT w FROM jb WHERE w > 50);

-- name: jn180_case_over_join
SELECT a.id, CASE WHEN b.id IS NULL THEN 'none' ELSE b.s END FROM ja a LEFT JOIN jb b ON a.k = b.k;

-- name: jn181_full_on_true
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON true WHERE a.id < 3;

-- name: jn182_full_on_false
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON false;

-- name: jn183_full_on_null_and_key
SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k AND NULL;

-- name: jn184_char_varchar_compare
SELECT id, c = v AS eq, c < v AS lt, v >= c AS ge, nullif(c, v) AS ni, c = s AS eq_text FROM ja;

-- name: jn185_varchar_char_distinct
SELECT a.id, b.id FROM ja a JOIN jb b ON a.v IS NOT DISTINCT FROM b.c AND a.id < 5;

-- name: jn186_using_merged_type
SELECT * FROM jb JOIN ja USING (k) WHERE ja.id < 4;

-- name: jn187_right_using_merged_right_value
SELECT k, b.id, a.id FROM jb b RIGHT JOIN ja a USING (k);

-- name: jn188_using_char_lengths
SELECT c, ja.id, jb.id FROM ja JOIN jb USING (c);

-- name: jn189_using_numeric_scales
-- (a FULL JOIN's merged column of numeric(8,2) and numeric(10,3) would
-- hold both scales: gpusql's intermediate results keep one per column)
SELECT kn, ja.id, jb.id FROM ja LEFT JOIN jb USING (kn);

-- name: jn190_parenthesized_using_right
SELECT * FROM ja a JOIN (jc JOIN jd USING (region)) ON a.k = jc.k;

-- name: jn191_full_using_where_group
SELECT region, count(*), count(name), count(rname) FROM jc FULL JOIN jd USING (region) WHERE region IS NULL OR region > 1 GROUP BY region;

-- name: jn192_natural_many_columns
SELECT * FROM ja NATURAL LEFT JOIN jb;

-- name: jn193_using_unqualified_in_where
SELECT k, a.k, b.k FROM ja a JOIN jb b USING (k) WHERE k > 2 AND a.id > 3;

-- name: jn194_full_using_order
-- ordered
SELECT region, name, rname FROM jc FULL JOIN jd USING (region) ORDER BY region NULLS FIRST, name;

-- name: jn195_full_using_numeric_same_type
SELECT kn, x.id, y.id FROM ja x FULL JOIN (SELECT id, kn FROM ja WHERE id > 6) y USING (kn);

-- name: jn196_full_using_int_smallint
SELECT k, ja.id, jb.id FROM ja FULL JOIN jb USING (k);

-- name: jn197_right_using_numeric_scales
SELECT kn, ja.id, jb.id FROM ja RIGHT JOIN jb USING (kn);

-- name: jn198_using_join_exists
SELECT region, name FROM jc JOIN jd USING (region) WHERE EXISTS (SELECT 1 FROM ja WHERE ja.k = jc.k) AND NOT EXISTS (SELECT 1 FROM jb WHERE jb.k = region);

-- name: jn199_using_join_scalar_subquery
SELECT region, name, (SELECT count(*) FROM ja WHERE ja.k = region) AS n FROM jc LEFT JOIN jd USING (region);

-- name: jn200_scalar_q17_obs
SELECT x.id FROM obs x WHERE x.i > (SELECT 0.5 * avg(y.i) FROM obs y WHERE y.grp = x.grp);

-- name: jn201_scalar_subquery_in_inner_on
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k AND b.w > (SELECT count(*) * 20 FROM jc c WHERE c.k = a.k);

-- name: jn202_scalar_subquery_order_by
-- ordered
SELECT a.id FROM ja a ORDER BY (SELECT count(*) FROM jb b WHERE b.k = a.k), a.id;

-- name: jn203_scalar_subquery_in_case
SELECT a.id, CASE WHEN a.id > 5 THEN (SELECT max(b.w) FROM jb b WHERE b.k = a.k) END FROM ja a;

-- name: jn204_scalar_subquery_in_or
SELECT a.id FROM ja a WHERE a.id = 1 OR (SELECT count(*) FROM jb b WHERE b.k = a.k) > 1;

-- name: jn205_scalar_subquery_over_derived
SELECT t.id, (SELECT count(*) FROM jb b WHERE b.k = t.k) FROM (SELECT * FROM ja WHERE id < 5) t;

-- name: jn206_scalar_subquery_where_over_join
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k WHERE b.w > (SELECT count(*) * 20 FROM jc c WHERE c.k = a.k);

-- name: jn207_in_correlated_nonequi
SELECT id FROM ja a WHERE k IN (SELECT b.k FROM jb b WHERE b.w > a.id * 5);

-- name: jn208_exists_limit
SELECT id FROM ja a WHERE EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k LIMIT 1);

-- name: jn209_two_scalar_subqueries_where
SELECT id FROM ja a WHERE (SELECT count(*) FROM jb b WHERE b.k = a.k AND b.s = a.s) = 0 AND (SELECT count(*) FROM jc c WHERE c.k = a.k) = 1;

-- name: jn210_exists_in_inner_on
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k AND EXISTS (SELECT 1 FROM jc c WHERE c.k = b.k AND c.region = 1);

-- name: jn211_in_not_in_in_inner_on
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k AND b.w NOT IN (SELECT w FROM jb WHERE w > 50) AND a.id IN (SELECT id FROM jb);

-- name: jn212_not_exists_in_on_three_way
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k AND NOT EXISTS (SELECT 1 FROM jc c WHERE c.k = a.id) JOIN jd d ON d.region = b.id;

-- name: jn213_exists_group_by
SELECT id FROM ja a WHERE EXISTS (SELECT b.k, count(*) FROM jb b WHERE b.k = a.k GROUP BY b.k);

-- name: jn214_not_exists_aggregate_false
SELECT id FROM ja a WHERE NOT EXISTS (SELECT max(b.w) FROM jb b WHERE b.k = a.k);

-- name: jn215_exists_having_uncorrelated_group
SELECT id, EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k GROUP BY b.s) AS e FROM ja a;

-- name: jn216_exists_in_case_and_count
SELECT id, CASE WHEN EXISTS (SELECT 1 FROM jc c WHERE c.k = a.k AND c.region = 1) THEN 'north' ELSE 'other' END AS r, (SELECT count(*) FROM jb b WHERE b.k = a.k) AS n FROM ja a;

-- name: jn217_exists_or_not_exists
SELECT id FROM ja a WHERE NOT EXISTS (SELECT 1 FROM jb b WHERE b.k = a.k) OR EXISTS (SELECT 1 FROM jc c WHERE c.k = a.k AND c.region IS NULL);

-- name: jn218_float_keys_zero_nan
SELECT a.x, b.y FROM (SELECT '-0'::float8 AS x UNION ALL SELECT 'NaN'::float8 UNION ALL SELECT 1.5::float8 UNION ALL SELECT NULL::float8) a JOIN (SELECT 0::float8 AS y UNION ALL SELECT 'NaN'::float8 UNION ALL SELECT 1.5::float8 UNION ALL SELECT NULL::float8) b ON a.x = b.y;

-- name: jn219_boolean_keys
SELECT x.id, y.id FROM obs x JOIN obs y ON x.flag = y.flag AND x.id + 20 = y.id;

-- name: jn220_left_join_constant_column
SELECT a.id, t.one, t.k FROM ja a LEFT JOIN (SELECT k, 1 AS one, 'x' AS s FROM jb WHERE w > 50) t ON a.k = t.k;

-- name: jn221_left_join_count_constant
SELECT count(t.one), count(*), sum(t.one) FROM ja a LEFT JOIN (SELECT k, 1 AS one FROM jb) t ON a.k = t.k;

-- name: jn223_lineitem_partkey_self_join
SELECT count(*), count(DISTINCT a.l_partkey) FROM lineitem a JOIN lineitem b ON a.l_partkey = b.l_partkey AND a.l_orderkey < b.l_orderkey;

-- name: jn224_comma_then_left_join
SELECT a.id, b.id, c.name FROM ja a, jb b LEFT JOIN jc c ON c.k = b.k WHERE a.k = b.k;

-- name: jn225_two_keys_same_left_column
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k AND a.k = b.kb;

-- name: jn226_null_safe_or_join
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k OR (a.k IS NULL AND b.k IS NULL);

-- name: jn227_left_join_having_no_match
SELECT a.id FROM ja a LEFT JOIN jb b ON a.k = b.k GROUP BY a.id HAVING count(b.id) = 0;

-- name: jn228_left_join_where_merged_using
SELECT k, ja.id, jb.id FROM ja LEFT JOIN jb USING (k) WHERE k = 2 OR k IS NULL;

-- name: jn229_order_by_right_column_limit
-- ordered
SELECT a.id FROM ja a LEFT JOIN jb b ON a.k = b.k ORDER BY b.w DESC NULLS LAST, a.id, b.id LIMIT 6;

-- name: jn230_select_both_stars
SELECT a.*, b.* FROM jc a JOIN jd b ON a.region = b.region;

-- name: jn231_bigint_extreme_keys
SELECT x.v, y.v FROM (SELECT 9223372036854775807 AS v UNION ALL SELECT -9223372036854775807 - 1 UNION ALL SELECT 0) x JOIN (SELECT 0::bigint AS v UNION ALL SELECT 9223372036854775807 UNION ALL SELECT -9223372036854775807 - 1) y ON x.v = y.v;

-- name: jn232_text_keys_multibyte_lower
SELECT a.id, b.id FROM ja a JOIN jb b ON lower(a.c) = lower(b.c) AND a.c <> '';

-- name: jn233_left_join_chain_where_rejects_inner
SELECT a.id, b.id, c.k FROM ja a LEFT JOIN jb b ON a.k = b.k LEFT JOIN jc c ON c.k = b.k WHERE c.region > 0;

-- name: jn234_left_join_not_in_where
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE NOT (b.w IN (10, 20));

-- name: jn235_left_join_not_or_keeps
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE NOT (b.w = 10 AND a.id = 2);

-- name: jn236_left_join_concat_where
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE b.s || 'x' IS NULL;

-- name: jn237_join_obs_lineitem_dates
SELECT o.id, count(*) FROM obs o JOIN lineitem l ON l.l_shipdate = o.ts::date GROUP BY o.id;

-- name: jn238_right_join_chain
SELECT a.id, b.id, c.k FROM ja a RIGHT JOIN jb b ON a.k = b.k RIGHT JOIN jc c ON c.k = b.k;

-- name: jn239_full_join_chain
SELECT a.id, b.id, c.k FROM ja a FULL JOIN jb b ON a.k = b.k FULL JOIN jc c ON c.k = b.k;

-- name: jn240_full_join_coalesce_chain
SELECT a.id, b.id, c.k FROM ja a FULL JOIN jb b ON a.k = b.k FULL JOIN jc c ON c.k = coalesce(a.k, b.k);

-- name: jn241_semi_join_over_left_join
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE a.k IN (SELECT k FROM jc WHERE region = 1);

-- name: jn242_anti_join_on_right_side_column
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE NOT EXISTS (SELECT 1 FROM jc c WHERE c.k = b.k);

-- name: jn243_not_in_on_right_side_column
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k WHERE b.k NOT IN (SELECT k FROM jc WHERE k IS NOT NULL AND region = 1);

-- name: jn244_right_using_in_derived_where
SELECT * FROM (SELECT k, jb.w FROM ja RIGHT JOIN jb USING (k)) t WHERE k > 2 OR k IS NULL;

-- name: jn245_using_three_chain_same_name
SELECT k, count(*) FROM ja JOIN jb USING (k) JOIN jc USING (k) GROUP BY k;

-- name: jn246_parenthesized_left
SELECT a.id, b.id, c.name FROM (ja a JOIN jb b ON a.k = b.k) LEFT JOIN jc c ON c.k = a.id;

-- name: jn247_derived_duplicate_names
SELECT * FROM (SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k) t;

-- name: jn248_with_in_subquery_and_join
WITH t AS (SELECT k FROM jb WHERE w >= 30)
SELECT a.id, c.name FROM ja a JOIN jc c ON c.k = a.k WHERE a.k IN (SELECT k FROM t);

-- name: jn249_union_of_joins_order_limit
-- ordered
(SELECT a.id, b.w FROM ja a JOIN jb b ON a.k = b.k) UNION (SELECT c.k, d.region FROM jc c JOIN jd d ON c.region = d.region) ORDER BY 1 DESC, 2 LIMIT 5;

-- name: jn250_count_bug_in_expression
SELECT id, (SELECT count(*) FROM jb b WHERE b.k = a.k) * 2 + 1 AS n, coalesce((SELECT sum(b.w) FROM jb b WHERE b.k = a.k), 0) AS s FROM ja a;

-- name: jn251_count_distinct_correlated
SELECT id, (SELECT count(DISTINCT b.s) FROM jb b WHERE b.k = a.k) FROM ja a;

-- name: jn252_group_by_merged_using
SELECT k, count(*), max(ja.id) FROM ja FULL JOIN jb USING (k) GROUP BY k;

-- name: jn254_not_in_correlated_eq
SELECT id FROM ja a WHERE k NOT IN (SELECT b.k FROM jb b WHERE b.s = a.s);

-- name: jn255_not_in_correlated_nulls_both
SELECT a.id FROM ja a WHERE a.kb NOT IN (SELECT b.kb FROM jb b WHERE b.d = a.d OR b.d IS NULL);

-- name: jn256_not_in_correlated_null_outer_empty
SELECT a.id, a.k FROM ja a WHERE a.k NOT IN (SELECT b.k FROM jb b WHERE b.w = a.id * 1000);

-- name: jn257_cross_join_values
SELECT a.id, t.one FROM ja a CROSS JOIN (SELECT 1 AS one) t WHERE a.id < 4;

-- name: jn258_join_generate_series
SELECT a.id, n FROM ja a JOIN generate_series(1, 3) n ON a.k = n;

-- name: jn259_left_join_generate_series
SELECT n, count(a.id) FROM generate_series(0, 10) n LEFT JOIN ja a ON a.k = n GROUP BY n;

-- name: jn260_distinct_order_over_join
-- ordered
SELECT DISTINCT a.g, b.k FROM ja a JOIN jb b ON a.k = b.k ORDER BY a.g, b.k;

-- name: jn261_limit_zero_join
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k LIMIT 0;

-- name: jn262_case_key
SELECT a.id, b.id FROM ja a JOIN jb b ON CASE WHEN a.k > 2 THEN a.k ELSE 0 END = b.k;

-- name: jn263_on_in_list
SELECT a.id, b.id FROM ja a LEFT JOIN jb b ON a.k = b.k AND b.w IN (10, 20, 30);

-- name: jn265_not_distinct_int
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k IS NOT DISTINCT FROM b.k WHERE a.id > 4;

-- name: jn266_full_join_lineitem_obs
SELECT count(*), count(l.l_orderkey), count(o.id), sum(o.id) FROM (SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_orderkey < 30) l FULL JOIN obs o ON o.id = l.l_orderkey;

-- name: jn267_uncorrelated_scalar_in_join_query
SELECT a.id, b.id, (SELECT max(k) FROM jc) AS mx FROM ja a JOIN jb b ON a.k = b.k AND b.k < (SELECT avg(k) FROM jc);

-- name: jn268_count_cross_join_empty
SELECT count(*) FROM ja, jempty;

-- name: jn269_join_catalog_and_user_table
SELECT c.relname::text, count(*) FROM pg_class c JOIN ja a ON c.relname = 'ja' GROUP BY c.relname;

-- name: jn270_between_join
SELECT a.id, b.id FROM ja a JOIN jb b ON b.d BETWEEN a.d AND a.d + 1 WHERE a.id < 5;

-- name: jn271_derived_avg_times_constant
SELECT t.k, t.a, c.name FROM (SELECT k, 0.9 * avg(kn) AS a FROM jb GROUP BY k) t LEFT JOIN jc c ON c.k = t.k;

-- name: e931_ambiguous_column
-- error 42702
SELECT id FROM ja a JOIN jb b ON a.k = b.k;

-- name: e932_ambiguous_in_on
-- error 42702
SELECT a.id FROM ja a JOIN jb b ON k = b.k;

-- name: e933_ambiguous_in_where
-- error 42702
SELECT a.id FROM ja a, jb b WHERE s = 'x';

-- name: e934_missing_from_entry
-- error 42P01
SELECT x.id FROM ja a JOIN jb b ON a.k = b.k;

-- name: e935_missing_from_entry_star
-- error 42P01
SELECT x.* FROM ja a;

-- name: e936_duplicate_alias
-- error 42712
SELECT 1 FROM ja a JOIN jb a ON true;

-- name: e937_duplicate_table_name
-- error 42712
SELECT 1 FROM ja, ja;

-- name: e938_using_missing_column
-- error 42703
SELECT 1 FROM ja JOIN jc USING (region);

-- name: e939_alias_hides_table_name
-- error 42P01
SELECT ja.id FROM ja a;

-- name: e940_on_references_later_table
-- error 42P01
SELECT 1 FROM ja a JOIN jb b ON a.k = c.k JOIN jc c ON c.k = b.k;

-- name: e941_ambiguous_using
-- error 42702
SELECT k FROM ja a JOIN jb b ON a.k = b.k JOIN jc USING (k);

-- name: e942_using_duplicate_column
-- error 42701
SELECT * FROM jc JOIN jd USING (region, region);

-- name: e943_using_type_mismatch
-- error 42804
SELECT * FROM ja JOIN jb USING (d, s) JOIN jc ON true JOIN (SELECT 1 AS name) x USING (name) WHERE false;

-- name: e944_comma_then_join_reference
-- error 42P01
SELECT 1 FROM ja a, jb b LEFT JOIN jc c ON c.k = a.k;

-- name: e945_join_without_on
-- error 42601
SELECT * FROM ja JOIN jb;

-- name: e946_left_join_without_on
-- error 42601
SELECT a.id FROM ja a LEFT JOIN jb b;

-- name: e947_table_name_hidden_by_alias
-- error 42P01
SELECT jb.id FROM ja a JOIN jb b ON true;

-- name: e948_order_by_ambiguous
-- error 42702
SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k ORDER BY id;

-- name: e949_on_not_boolean
-- error 42804
SELECT 1 FROM ja a JOIN jb b ON a.k;

-- name: e950_aggregate_in_on
-- error 42803
SELECT 1 FROM ja a JOIN jb b ON count(*) > 1;

-- name: e951_derived_reads_sibling
-- error 42P01
SELECT 1 FROM ja a, (SELECT * FROM jb WHERE jb.k = a.k) t;

-- name: e952_derived_duplicate_name_ambiguous
-- error 42702
SELECT t.id FROM (SELECT a.id, b.id FROM ja a JOIN jb b ON a.k = b.k) t;

-- name: e953_on_unknown_column
-- error 42703
SELECT 1 FROM ja a JOIN jb b ON a.nope = b.k;

-- name: e954_natural_with_using
-- error 42601
SELECT * FROM ja NATURAL JOIN jb USING (k);

-- name: jn_srf_column_alias
SELECT g.x, x * 2 AS y FROM generate_series(1, 4) AS g(x) ORDER BY x;

-- name: jn_srf_column_alias_no_as
SELECT a.id, s.k FROM ja a JOIN generate_series(1, 3) s(k) ON a.k = s.k ORDER BY 1, 2;

-- name: jn_srf_column_alias_unnest
SELECT u.v FROM unnest('{b,a,c}'::text[]) AS u(v) ORDER BY v;

-- Joins over tables in parts redistribute both sides by key: negative,
-- zero and NULL keys, a table joined with itself, outer joins, NOT IN
-- with and without NULLs, groups by the key with HAVING and LIMIT.

-- name: jr_self_join_negative_keys
SELECT a.id, b.id FROM jneg a JOIN jneg b ON a.k = b.k ORDER BY 1, 2;

-- name: jr_int_bigint_keys
SELECT a.id, b.id FROM jneg a JOIN jneg b ON a.kb = b.k ORDER BY 1, 2;

-- name: jr_left_join_nulls
SELECT a.id, a.k, j.id FROM jneg a LEFT JOIN ja j ON j.k = a.k ORDER BY 1, 3;

-- name: jr_right_join
SELECT a.id, j.id, j.k FROM jneg a RIGHT JOIN ja j ON j.k = a.k ORDER BY 2, 1;

-- name: jr_full_join
SELECT a.id, b.id FROM jneg a FULL JOIN jb b ON b.k = a.k ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;

-- name: jr_not_in_with_null
SELECT id FROM jneg WHERE k NOT IN (SELECT k FROM ja) ORDER BY 1;

-- name: jr_not_in_without_null
SELECT id FROM jneg WHERE k NOT IN (SELECT k FROM ja WHERE k IS NOT NULL) ORDER BY 1;

-- name: jr_exists_residual
SELECT a.id FROM jneg a WHERE EXISTS (SELECT 1 FROM jneg b WHERE b.k = a.k AND b.v <> a.v) ORDER BY 1;

-- name: jr_not_exists_residual
SELECT a.id FROM jneg a WHERE NOT EXISTS (SELECT 1 FROM jneg b WHERE b.k = a.k AND b.id <> a.id) ORDER BY 1;

-- name: jr_group_by_key_having_limit
SELECT a.k, count(*), sum(b.v) FROM jneg a JOIN jneg b ON a.k = b.kb GROUP BY a.k HAVING count(*) >= 1 ORDER BY 2 DESC, 1 LIMIT 3;

-- name: jr_group_by_key_null_group
SELECT a.k, count(*), count(b.id) FROM jneg a LEFT JOIN jneg b ON b.kb = a.k GROUP BY a.k ORDER BY 1 NULLS FIRST;

-- name: jr_count_distinct_by_key
SELECT a.k, count(DISTINCT b.v) FROM jneg a JOIN jneg b ON a.k = b.k GROUP BY a.k ORDER BY 1;

-- name: jr_distinct_keys
SELECT DISTINCT a.k FROM jneg a JOIN jneg b ON a.k = b.k ORDER BY 1;

-- name: jr_derived_groups_joined
SELECT x.k, x.n, y.m FROM (SELECT k, count(*) AS n FROM jneg GROUP BY k) x JOIN (SELECT kb, max(v) AS m FROM jneg GROUP BY kb) y ON x.k = y.kb ORDER BY 1;

-- Aggregation before the join (query/optimize_eager.go): a GROUP BY of
-- the left side's columns whose aggregates read only the right side, over
-- a right side with many rows per key, groups the right side by its join
-- key first. Left keys repeat (2) and are NULL, some meet no right row.

-- name: jn272_eager_left_count_per_key
SELECT g.n, count(l.l_orderkey), count(*), count(l.l_comment) FROM (VALUES (1), (2), (3), (7), (8), (NULL::integer), (2)) g(n)
LEFT JOIN lineitem l ON l.l_linenumber = g.n GROUP BY g.n;

-- name: jn273_eager_left_min_max
SELECT g.n, min(l.l_shipdate), max(l.l_shipdate), min(l.l_quantity), max(l.l_comment), min(l.l_shipmode)
FROM (VALUES (1), (4), (9), (NULL::integer), (4)) g(n) LEFT JOIN lineitem l ON l.l_linenumber = g.n GROUP BY g.n;

-- name: jn274_eager_group_by_other_left_column
SELECT g.label, count(l.l_partkey), count(*), max(l.l_extendedprice)
FROM (VALUES (1, 'low'), (2, 'low'), (5, 'high'), (6, 'high'), (9, 'none'), (NULL::integer, 'none'), (2, 'twice')) g(n, label)
LEFT JOIN lineitem l ON l.l_linenumber = g.n GROUP BY g.label;

-- name: jn275_eager_inner_count_having_order
-- ordered
SELECT g.n, count(*) AS c, count(l.l_comment), min(l.l_receiptdate) FROM (VALUES (1), (2), (3), (6), (8), (2)) g(n)
JOIN lineitem l ON l.l_linenumber = g.n GROUP BY g.n HAVING count(*) > 100 ORDER BY c DESC, g.n LIMIT 3;

-- name: jn276_eager_count_distribution
-- ordered
SELECT c, count(*) FROM (SELECT g.n, count(l.l_orderkey) AS c FROM (VALUES (1), (2), (3), (7), (8), (9), (NULL::integer)) g(n)
LEFT JOIN lineitem l ON l.l_linenumber = g.n AND l.l_quantity > 25 GROUP BY g.n) q GROUP BY c ORDER BY 2 DESC, 1 DESC;

-- name: jn277_eager_not_applied_left_aggregate
SELECT g.n, count(*), sum(g.n), count(l.l_orderkey) FROM (VALUES (1), (2), (2), (NULL::integer)) g(n)
LEFT JOIN lineitem l ON l.l_linenumber = g.n GROUP BY g.n;

-- name: jn278_eager_not_applied_global_count
SELECT count(l.l_orderkey), count(*), max(l.l_comment) FROM (VALUES (1), (2), (NULL::integer)) g(n)
LEFT JOIN lineitem l ON l.l_linenumber = g.n WHERE g.n > 5;

-- name: jn279_eager_empty_left_groups
SELECT g.n, count(l.l_orderkey) FROM (VALUES (1), (2)) g(n) LEFT JOIN lineitem l ON l.l_linenumber = g.n WHERE g.n > 5 GROUP BY g.n;
