/**
 * The one home of PDF dates (ISO 32000-1 7.9.4, "D:YYYYMMDDHHmmSSOHH'mm'"): read as ISO 8601 (pdfDateToIso), written
 * from ISO 8601 (isoToPdfDate) or from a moment (pdfDate), and a moment as the ISO 8601 the models answer (isoSeconds).
 * Every date the service writes into a PDF goes through isoToPdfDate, so all have one form: UTC is +00'00'.
 */
export function pdfDateToIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz+-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?/.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const monthOk = Number(mo) >= 1 && Number(mo) <= 12 && Number(d) >= 1 && Number(d) <= 31;
  if (!monthOk || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const zone = !sign || sign === 'Z' || sign === 'z' ? 'Z' : `${sign}${oh}:${om}`;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

/** A moment as ISO 8601 in UTC to the second ("2026-11-30T21:38:50Z"): PDF dates and XMP's have no fraction. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A moment as a PDF date in UTC to the second ("D:20261130213850+00'00'"). */
export function pdfDate(date: Date): string {
  return isoToPdfDate(isoSeconds(date))!;
}

/**
 * An ISO 8601 date as XMP writes dates (a year, a month, a day, or a time to the minute or second, with or without a
 * fraction, a zone Z or +hh:mm) as a PDF date of the same precision, the zone written +hh'mm' (PDFBox Preflight
 * misreads Z00'00', so Z is +00'00'); undefined when it is none such or names no real date (February 30). A fraction of
 * a second is dropped: PDF dates have none.
 */
export function isoToPdfDate(iso: string): string | undefined {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/.exec(iso.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, zone] = m;
  const check = new Date(Date.UTC(Number(y), Number(mo ?? '01') - 1, Number(d ?? '01'), Number(h ?? '0'), Number(mi ?? '0'), Number(s ?? '0')));
  if (check.getUTCMonth() !== Number(mo ?? '01') - 1 || check.getUTCDate() !== Number(d ?? '01') || check.getUTCHours() !== Number(h ?? '0') || check.getUTCMinutes() !== Number(mi ?? '0') || check.getUTCSeconds() !== Number(s ?? '0')) return undefined;
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return undefined;
  const zoned = zone === undefined ? '' : zone === 'Z' ? "+00'00'" : `${zone.slice(0, 3)}'${zone.slice(4)}'`;
  return `D:${y}${mo ?? ''}${d ?? ''}${h ?? ''}${mi ?? ''}${s ?? (h !== undefined ? '00' : '')}${zoned}`;
}
