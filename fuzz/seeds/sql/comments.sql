-- a comment
/* block /* comment */ SELECT `weird``name`, "dq", 'it''s' FROM `db`.`events` /* trailing */ ;;
SELECT * FROM read_csv('data.csv', header => true) ; SELECT * FROM read_json('x.jsonl');
SELECT * FROM iceberg.`warehouse/db/events` ; SELECT * FROM db.events.snapshots;
