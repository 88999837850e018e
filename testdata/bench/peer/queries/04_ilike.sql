SELECT count(*) FROM lineitem WHERE l_comment ILIKE '%PACKAGES%' OR l_shipinstruct LIKE 'DELIVER%';
