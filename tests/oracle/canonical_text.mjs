// Canonical text of dates, times, timestamps, decimals and bytes for the oracle scripts
// (dates "YYYY-MM-DD", times "HH:MM:SS.ffffff", timestamps "YYYY-MM-DDTHH:MM:SS.ffffff",
// decimals as exact strings, bytes as lowercase hex), from integer units as BigInt.

export function floorDiv(a, b) {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}
export function pad(n, w) {
  const s = String(n);
  return s.length >= w ? s : '0'.repeat(w - s.length) + s;
}
export function civil(days) {  // Howard Hinnant's civil_from_days
  let z = days + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  let y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  if (m <= 2n) y += 1n;
  const ys = y < 0n ? '-' + pad(-y, 4) : pad(y, 4);
  return `${ys}-${pad(m, 2)}-${pad(d, 2)}`;
}
export function timeOfDay(units, perSec, digits) {
  const s = units / perSec, frac = units % perSec;
  return `${pad(s / 3600n, 2)}:${pad((s / 60n) % 60n, 2)}:${pad(s % 60n, 2)}.${pad(frac, digits)}`;
}
export function ts(units, perDay, perSec, digits) {
  const day = floorDiv(units, perDay);
  return civil(day) + 'T' + timeOfDay(units - day * perDay, perSec, digits);
}
export function decimal(v, scale) {
  const neg = v < 0n;
  let s = (neg ? -v : v).toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  }
  return (neg ? '-' : '') + s;
}
export function hex(bytes) {
  return Buffer.from(bytes).toString('hex');
}
