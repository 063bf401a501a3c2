/**
 * `new Date(ms).toISOString()`, faster: the engine writes a date on every segment of every channel,
 * and consecutive dates share their minute. The minute's prefix is formatted once and reused; only
 * seconds and milliseconds are written per call. Same output as toISOString for every input
 * (fractional ms truncated like Date does; out-of-range or odd values go to Date itself).
 */
let minuteKey = Number.NaN;
let minutePrefix = '';

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** Years 1970..9999: toISOString's plain four-digit form. */
const MAX_PLAIN_MS = 253_402_300_799_999;

export function isoDate(ms: number): string {
  if (!(ms >= 0 && ms <= MAX_PLAIN_MS)) return new Date(ms).toISOString();
  const whole = Math.trunc(ms);
  const minute = Math.floor(whole / 60_000);
  if (minute !== minuteKey) {
    minutePrefix = new Date(minute * 60_000).toISOString().slice(0, 17);
    minuteKey = minute;
  }
  const inMinute = whole - minute * 60_000;
  const s = Math.floor(inMinute / 1000);
  return `${minutePrefix}${pad2(s)}.${pad3(inMinute - s * 1000)}Z`;
}
