SELECT id, name, amount * 2 AS doubled FROM db.events WHERE day = DATE '2026-05-01' AND score > 1.5e0 ORDER BY id DESC LIMIT 10;
