// Dumps an Avro container file with avsc as one JSON object: {codec, metadata, schema,
// records}. Longs are decoded exactly (BigInt), bytes print as one code point per byte, unions
// as their plain value. Usage: node avro_dump.mjs FILE
import avro from 'avsc';
import {decompress as zstdDecompress} from 'fzstd';
import snappy from 'snappyjs';
import zlib from 'zlib';

const longType = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt(n));
    return b;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n) => typeof n === 'bigint',
  compare: (a, b) =>
      (a === b   ? 0 :
           a < b ? -1 :
                   1),
});

// A `codecs` option replaces avsc's defaults, so null and deflate are listed too.
const codecs = {
  null: (buf, cb) => cb(null, buf),
  deflate: zlib.inflateRaw,
  snappy: (buf, cb) => {
    try {
      cb(null, Buffer.from(snappy.uncompress(buf.subarray(0, buf.length - 4))));
    } catch (e) {
      cb(e);
    }
  },
  zstandard: (buf, cb) => {
    try {
      cb(null, Buffer.from(zstdDecompress(buf)));
    } catch (e) {
      cb(e);
    }
  },
};

function stripLogical(node) {
  if (Array.isArray(node)) return node.map(stripLogical);
  if (node && typeof node === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(node))
      if (k !== 'logicalType') out[k] = stripLogical(v);
    return out;
  }
  return node;
}

function plain(v) {
  if (typeof v === 'bigint') return `__big__${v}`;
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = plain(x);
    return out;
  }
  return v;
}

const path = process.argv[2];
let type;
const out = {
  records: []
};
avro.createFileDecoder(path, {codecs, noDecode: true})
    .on('metadata',
        (_wType, codec, header) => {
          const schema = JSON.parse(header.meta['avro.schema'].toString());
          out.codec = codec;
          out.metadata = {};
          for (const [k, v] of Object.entries(header.meta)) out.metadata[k] = v.toString('latin1');
          out.schema = schema;
          type = avro.Type.forSchema(stripLogical(schema), {registry: {long: longType}});
        })
    .on('data', (buf) => out.records.push(plain(type.fromBuffer(buf))))
    .on('error',
        (e) => {
          console.error(`avsc: ${e.message}`);
          process.exit(1);
        })
    .on('end', () => {
      process.stdout.write(JSON.stringify(out).replace(/"__big__(-?\d+)"/g, '$1') + '\n');
    });
