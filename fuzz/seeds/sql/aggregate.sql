SELECT user_id, count(*), sum(amount), avg(score), min(ts), max(name) FROM events GROUP BY user_id HAVING count(*) > 1 ORDER BY 2 DESC NULLS LAST;
