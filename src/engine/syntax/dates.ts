/** PDF date strings ("D:YYYYMMDDHHmmSSOHH'mm'") to ISO 8601, and back. */
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

export function isoToPdfDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `D:${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`;
}
