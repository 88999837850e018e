SELECT upper(substr(l_comment, 1, 4)) AS head, count(*) AS n
FROM lineitem
GROUP BY 1
ORDER BY n DESC, head
LIMIT 10;
