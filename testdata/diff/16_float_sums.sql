-- sum/avg over real and double precision with the values where rounding
-- is not at issue: zeros of both signs, infinities, NaN, subnormals, the
-- overflow error, and the sign of a -0/0 GROUP BY key (the first row's).
-- gpusql sums exactly and rounds once (docs/sql.md); these agree with
-- PostgreSQL's row-by-row sums because no step of those rounds.

-- name: g201_float_sum_negative_zero
SELECT sum(CASE WHEN id <= 2 THEN '-0'::float8 END), avg(CASE WHEN id <= 2 THEN '-0'::float8 END),
       sum(CASE WHEN id <= 2 THEN '-0'::real END), avg(CASE WHEN id <= 2 THEN '-0'::real END) FROM obs;

-- name: g202_float_sum_negative_and_positive_zero
SELECT sum(CASE WHEN id <= 2 THEN '-0'::float8 WHEN id = 3 THEN 0::float8 END) FROM obs;

-- name: g203_float_sum_infinities
SELECT sum(CASE WHEN id = 3 THEN 'Infinity'::float8 ELSE d END),
       avg(CASE WHEN id = 3 THEN 'Infinity'::float8 WHEN id = 4 THEN '-Infinity'::float8 ELSE d END),
       sum(CASE WHEN id = 5 THEN '-Infinity'::real ELSE r END) FROM obs;

-- name: g204_float_sum_nan
SELECT sum(CASE WHEN id = 5 THEN 'NaN'::float8 ELSE d END), avg(CASE WHEN id = 6 THEN 'NaN'::real ELSE r END),
       sum(CASE WHEN id = 7 THEN 'NaN'::float8 WHEN id = 8 THEN 'Infinity'::float8 ELSE d END) FROM obs;

-- name: g205_float_sum_subnormals
SELECT sum(CASE WHEN id <= 4 THEN 5e-324::float8 END), sum(CASE WHEN id <= 4 THEN 1e-45::real END) FROM obs;

-- name: g206_float_sum_overflow
-- error 22003
SELECT sum(CASE WHEN id <= 3 THEN 1e308::float8 END) FROM obs;

-- name: g207_real_sum_overflow
-- error 22003
SELECT sum(CASE WHEN id <= 3 THEN 3e38::real END) FROM obs;

-- name: g208_float_sums_by_group
SELECT grp, sum(r), avg(r), sum(d), avg(d), sum(CASE WHEN id % 7 = 0 THEN '-Infinity'::float8 ELSE d END) FROM obs GROUP BY grp;

-- name: o201_group_by_negative_zero_first
SELECT CASE WHEN id % 2 = 1 THEN '-0'::float8 ELSE 0::float8 END AS z, count(*) FROM obs GROUP BY 1;

-- name: o202_group_by_zero_first
SELECT CASE WHEN id % 2 = 0 THEN '-0'::float8 ELSE 0::float8 END AS z, count(*), sum(d) FROM obs GROUP BY 1;
