-- TPC-H Q6, forecasting revenue change. Validation parameters: DATE = 1994-01-01, DISCOUNT = 0.06, QUANTITY = 24
-- (DISCOUNT ± 0.01 written out as 0.05 and 0.07: the bounds are exact decimals, not the doubles 0.06 - 0.01).
-- order:
select
  sum(l_extendedprice * l_discount) as revenue
from lineitem
where l_shipdate >= date '1994-01-01'
  and l_shipdate < date '1994-01-01' + interval '1' year
  and l_discount between 0.05 and 0.07
  and l_quantity < 24
