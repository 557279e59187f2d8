#!/usr/bin/python3
"""Dumps an Avro container file with python3-avro (Debian) as one JSON object:
{"codec", "metadata", "schema", "records"}. Bytes print as one code point per byte (Avro's JSON
encoding), unions as their plain value. Logical types are stripped before decoding so values
stay in their Avro representation. Run with /usr/bin/python3 (the Debian interpreter)."""
import json
import math
import sys
import warnings

import avro.io
import avro.schema
from avro.datafile import DataFileReader

warnings.simplefilter("ignore")


def strip_logical(node):
    if isinstance(node, dict):
        return {k: strip_logical(v) for k, v in node.items() if k != "logicalType"}
    if isinstance(node, list):
        return [strip_logical(v) for v in node]
    return node


def plain(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None  # as floe cat and JSON.stringify print NaN and infinities
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def main(path):
    with open(path, "rb") as f:
        reader = DataFileReader(f, avro.io.DatumReader())
        schema_json = json.loads(reader.meta["avro.schema"].decode("utf-8"))
        stripped = avro.schema.parse(json.dumps(strip_logical(schema_json)))
        reader.datum_reader.writers_schema = stripped
        reader.datum_reader.readers_schema = stripped
        records = [plain(r) for r in reader]
        out = {
            "codec": reader.meta.get("avro.codec", b"null").decode(),
            "metadata": {k: v.decode("latin-1") for k, v in reader.meta.items()},
            "schema": schema_json,
            "records": records,
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
