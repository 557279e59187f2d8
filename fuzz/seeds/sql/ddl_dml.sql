USE db;
CREATE TABLE db.t2 (id BIGINT NOT NULL COMMENT 'key', v STRUCT<a: INT, b: ARRAY<MAP<STRING, DOUBLE>>>, d DECIMAL(38, 10))
  USING iceberg PARTITIONED BY (bucket(16, id), days(d)) TBLPROPERTIES ('format-version' = '2');
INSERT INTO db.events (id, name) VALUES (1, 'x'), (2, NULL);
INSERT OVERWRITE events SELECT * FROM events WHERE id > 3;
DELETE FROM events WHERE id = 1;
UPDATE events SET name = 'y' WHERE id = 2;
MERGE INTO events t USING users s ON t.user_id = s.user_id WHEN MATCHED THEN UPDATE SET name = s.country WHEN NOT MATCHED THEN INSERT *;
ALTER TABLE events ADD COLUMNS (extra STRING AFTER name);
ALTER TABLE events RENAME COLUMN name TO title;
ALTER TABLE events SET TBLPROPERTIES ('a' = 'b');
DROP TABLE IF EXISTS db.t2 PURGE;
CALL system.rewrite_data_files(table => 'db.events');
SET spark.sql.ansi.enabled = true;
SHOW TABLES IN db; SHOW NAMESPACES; DESCRIBE TABLE EXTENDED events; SHOW CREATE TABLE events; SHOW TBLPROPERTIES events;
