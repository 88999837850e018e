-- Queries that must fail with the same SQLSTATE as PostgreSQL.

-- name: e001_int_division_by_zero
-- error 22012
SELECT 1 / 0;

-- name: e002_numeric_division_by_zero
-- error 22012
SELECT 1.5 / 0;

-- name: e003_float_division_by_zero
-- error 22012
SELECT 1.0::float8 / 0;

-- name: e004_column_division_by_zero
-- error 22012
SELECT l_quantity / (l_linenumber - 1) FROM lineitem;

-- name: e005_int_column_division_by_zero
-- error 22012
SELECT id / (id - 5) FROM obs;

-- name: e006_integer_overflow
-- error 22003
SELECT 2147483647 + 1;

-- name: e007_smallint_overflow
-- error 22003
SELECT s * s FROM obs;

-- name: e008_bigint_overflow
-- error 22003
SELECT 9223372036854775807 + 1;

-- name: e009_bad_integer_text
-- error 22P02
SELECT 'abc'::integer;

-- name: e010_numeric_field_overflow
-- error 22003
SELECT 12345.678::numeric(5,2);

-- name: e011_bad_date
-- error 22008
SELECT '2021-02-30'::date;

-- name: e012_bad_boolean
-- error 22P02
SELECT 'maybe'::boolean;

-- name: e013_undefined_column
-- error 42703
SELECT nosuch FROM obs;

-- name: e014_undefined_table
-- error 42P01
SELECT * FROM nosuch;

-- name: e015_syntax_error
-- error 42601
SELECT FROM WHERE;

-- name: e016_ungrouped_column
-- error 42803
SELECT l_orderkey, count(*) FROM lineitem;

-- name: e017_column_not_in_group_by
-- error 42803
SELECT l_shipmode, l_orderkey FROM lineitem GROUP BY l_shipmode;

-- name: e018_operator_does_not_exist
-- error 42883
SELECT l_comment + 1 FROM lineitem;

-- name: e019_unknown_literal_coerced_to_int
-- error 22P02
SELECT 'a' + 1;

-- name: e020_order_by_position_out_of_range
-- error 42P10
SELECT id, s FROM obs ORDER BY 3;

-- name: e021_group_by_position_out_of_range
-- error 42P10
SELECT id FROM obs GROUP BY 2;

-- name: e022_where_not_boolean
-- error 42804
SELECT id FROM obs WHERE id;

-- name: e023_undefined_function
-- error 42883
SELECT nosuchfunc(1);

-- name: e024_sum_of_text
-- error 42883
SELECT sum(l_comment) FROM lineitem;

-- name: e025_having_ungrouped
-- error 42803
SELECT id FROM obs HAVING count(*) > 1;

-- name: e026_float_column_division_by_zero
-- error 22012
SELECT d / (id - id) FROM obs;

-- name: e027_in_list_bad_literal
-- error 22P02
SELECT count(*) FROM lineitem WHERE l_orderkey IN (1, 'x');

-- name: e028_cast_overflow_int
-- error 22003
SELECT big::integer FROM obs;

-- name: e029_aggregate_in_where
-- error 42803
SELECT id FROM obs WHERE count(*) > 1;

-- name: e030_bad_timestamp
-- error 22007
SELECT timestamp 'not a time';
