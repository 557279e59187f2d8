SELECT id FROM events WHERE user_id IN (SELECT user_id FROM users WHERE country = 'DE') AND EXISTS (SELECT 1 FROM users)
  AND amount > (SELECT max(amount) FROM events) ;
SELECT * FROM (SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY ts) AS rn FROM events) t WHERE rn = 1;
