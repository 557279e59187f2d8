WITH big AS (SELECT id, amount FROM events WHERE amount > 100.00), small AS (SELECT id, amount FROM events WHERE amount <= 100.00)
SELECT * FROM big UNION ALL SELECT * FROM small EXCEPT SELECT id, CAST(0 AS DECIMAL(10, 2)) FROM events INTERSECT SELECT 1, 2.5;
