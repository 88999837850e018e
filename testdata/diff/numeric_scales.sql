-- Unconstrained numeric columns loaded from CSV (tables nu and nu2): each
-- value keeps the scale it is written with, as numeric_in gives it, where
-- gpusql used to round the column to scale 0.

-- name: ns001_select_all
SELECT id, v, g FROM nu;

-- name: ns002_arithmetic_keeps_scales
SELECT id, v + 1, v * 2, -v, v / 4, round(v, 1), v::text FROM nu;

-- name: ns003_aggregates
SELECT sum(v), avg(v), min(v), max(v), count(v) FROM nu;

-- name: ns004_group_by_and_order
-- ordered
SELECT g, sum(v), max(v), count(*) FROM nu GROUP BY g ORDER BY g;

-- name: ns005_where_and_order_by_value
-- ordered
SELECT id, v FROM nu WHERE v > 0 ORDER BY v, id;

-- name: ns006_group_by_value
-- 1.5 twice: one group; equal values of other scales would be one group
SELECT v, count(*) FROM nu GROUP BY v;

-- name: ns007_join_and_union
SELECT a.id, a.v, b.v FROM nu a JOIN nu2 b ON a.id = b.id
UNION ALL SELECT id, v, v FROM nu2;

-- name: ns008_copy_loaded
SELECT id, v, v * 10 FROM nu2;

-- name: ns009_window
-- ordered
SELECT id, v, sum(v) OVER (ORDER BY id), lag(v) OVER (ORDER BY id) FROM nu ORDER BY id;
