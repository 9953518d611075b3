-- SPDX-License-Identifier: MIT
-- The sqlite3 row of the allocator stress suite (bench/alloc/stress/run): an in-memory
-- database filled, indexed, grouped and sorted; every result is deterministic, and the
-- driver checks that every allocator prints what glibc's run printed.
CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT, v TEXT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 150000)
INSERT INTO t SELECT x, printf('key-%08d', (x * 7919) % 150000), substr(hex(x * x * 31), 1, x % 40) FROM c;
CREATE INDEX t_k ON t(k);
SELECT count(*), sum(length(v)), min(k), max(k) FROM t;
SELECT k, v FROM t ORDER BY k LIMIT 1 OFFSET 75000;
SELECT substr(k, 1, 8) AS p, count(*), max(length(v)) FROM t GROUP BY p ORDER BY p LIMIT 3;
SELECT count(DISTINCT v) FROM (SELECT v FROM t ORDER BY v DESC LIMIT 50000);
DELETE FROM t WHERE id % 3 = 0;
VACUUM;
SELECT count(*), total(id) FROM t;
