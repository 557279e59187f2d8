SELECT CASE WHEN ok THEN 'yes' WHEN NOT ok THEN 'no' ELSE NULL END, coalesce(name, 'x') || '-' || upper(substr(name, 2, 3)),
  tags[0], attrs['k'], loc.lat, size(tags), element_at(attrs, 'z'), date_add(day, 7), year(ts), hour(ts),
  abs(-score) % 3, round(amount, 1), CAST(id AS STRING), CAST('12.5' AS DOUBLE), TRY_CAST('x' AS INT),
  name LIKE 'a%b_' ESCAPE '\\', name RLIKE '^[a-z]+$', id BETWEEN 1 AND 10, payload IS NOT NULL,
  X'DEADBEEF', TIMESTAMP '2026-01-01 12:00:00', INTERVAL '1' DAY, -9223372036854775808, 1e309, 0.1234567890123456789
FROM events;
