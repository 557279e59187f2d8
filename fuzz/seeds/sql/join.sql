SELECT e.id, u.country FROM lakehouse.db.events e JOIN db.users u ON e.user_id = u.user_id LEFT JOIN users v USING (user_id) WHERE u.country IN ('DE', 'FR') OR u.country IS NULL;
