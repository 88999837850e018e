-- TPC-H Q1 and Q6 shapes over lineitem.

-- name: h001_tpch_q1
-- ordered
select
	l_returnflag,
	l_linestatus,
	sum(l_quantity) as sum_qty,
	sum(l_extendedprice) as sum_base_price,
	sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
	sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
	avg(l_quantity) as avg_qty,
	avg(l_extendedprice) as avg_price,
	avg(l_discount) as avg_disc,
	count(*) as count_order
from
	lineitem
where
	l_shipdate <= date '1998-12-01' - interval '90 day'
group by
	l_returnflag,
	l_linestatus
order by
	l_returnflag,
	l_linestatus;

-- name: h002_tpch_q6
select
	sum(l_extendedprice * l_discount) as revenue
from
	lineitem
where
	l_shipdate >= date '1994-01-01'
	and l_shipdate < date '1994-01-01' + interval '1 year'
	and l_discount between 0.06 - 0.01 and 0.06 + 0.01
	and l_quantity < 24;

-- name: h003_tpch_q1_variant
-- ordered
SELECT l_returnflag, l_linestatus, sum(l_quantity), avg(l_tax), min(l_extendedprice), max(l_discount), count(l_comment)
  FROM lineitem WHERE l_shipdate <= date '1998-12-01' - interval '120 day'
 GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag DESC, l_linestatus DESC;

-- name: h004_tpch_q6_variant
SELECT sum(l_extendedprice * l_discount) AS revenue, count(*)
  FROM lineitem
 WHERE l_shipdate >= date '1996-01-01' AND l_shipdate < date '1996-01-01' + interval '1 year'
   AND l_discount BETWEEN 0.02 AND 0.04 AND l_quantity < 30;
