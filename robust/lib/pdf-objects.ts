/**
 * Just enough PDF syntax to mutate the structure of a document and still write
 * a correct cross-reference table: a document with a classic xref (every
 * fixture the tests build in code) is read into its numbered objects and
 * trailer entries, changed as text, and written again. Bodies are latin1
 * strings, one character per byte, so binary stream data survives untouched.
 */
export interface PdfObjects {
  /** Object number → body (what is between "N G obj" and "endobj"). */
  objects: Map<number, string>;
  /** The trailer dictionary's entries without /Size (and without /Prev), e.g. "/Root 1 0 R /ID [...]". */
  trailer: string;
  header: string;
}

/** Reads a classic-xref PDF; null when the file has no "trailer" dictionary or no objects. */
export function parseObjects(bytes: Buffer): PdfObjects | null {
  const s = bytes.toString('latin1');
  const objects = new Map<number, string>();
  const re = /(?:^|[\r\n])(\d+)\s+(\d+)\s+obj\b/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    const start = m.index + m[0].length;
    const streamAt = s.indexOf('stream', start);
    const endobj = s.indexOf('endobj', start);
    if (endobj < 0) break;
    let end = endobj;
    if (streamAt >= 0 && streamAt < endobj) {
      const endstream = s.indexOf('endstream', streamAt);
      if (endstream >= 0) end = s.indexOf('endobj', endstream);
      if (end < 0) break;
    }
    objects.set(Number(m[1]), s.slice(start, end).replace(/^\s*\n/, '').replace(/\n$/, ''));
    re.lastIndex = end;
  }
  const at = s.lastIndexOf('trailer');
  if (at < 0 || objects.size === 0) return null;
  const dict = balancedDict(s, s.indexOf('<<', at));
  if (!dict) return null;
  const trailer = dict.slice(2, -2).replace(/\/Size\s+\d+/, '').replace(/\/Prev\s+\d+/, '').trim();
  const header = /^%(PDF|FDF)-\d\.\d/.exec(s)?.[0] ?? '%PDF-1.7';
  return { objects, trailer, header };
}

/** The dictionary "<< ... >>" that starts at `from`, nested dictionaries included. */
export function balancedDict(s: string, from: number): string | null {
  if (from < 0 || !s.startsWith('<<', from)) return null;
  let depth = 0;
  for (let i = from; i < s.length - 1; i++) {
    if (s[i] === '(') {
      // Skip a literal string (balanced parentheses, backslash escapes).
      let level = 0;
      for (; i < s.length; i++) {
        if (s[i] === '\\') i++;
        else if (s[i] === '(') level++;
        else if (s[i] === ')' && --level === 0) break;
      }
      continue;
    }
    if (s[i] === '<' && s[i + 1] === '<') {
      depth++;
      i++;
    } else if (s[i] === '>' && s[i + 1] === '>') {
      depth--;
      i++;
      if (depth === 0) return s.slice(from, i + 1);
    }
  }
  return null;
}

/** Writes the objects with a classic cross-reference table (free entries for missing numbers). */
export function serializeObjects(doc: PdfObjects, extraTrailer = ''): Buffer {
  const parts: string[] = [`${doc.header}\n%\xe2\xe3\xcf\xd3\n`];
  let length = parts[0]!.length;
  const offsets = new Map<number, number>();
  const numbers = [...doc.objects.keys()].sort((a, b) => a - b);
  for (const n of numbers) {
    const text = `${n} 0 obj\n${doc.objects.get(n)}\nendobj\n`;
    offsets.set(n, length);
    parts.push(text);
    length += text.length;
  }
  const size = (numbers[numbers.length - 1] ?? 0) + 1;
  const rows = ['0000000000 65535 f \n'];
  for (let n = 1; n < size; n++) {
    const o = offsets.get(n);
    rows.push(o === undefined ? '0000000000 65535 f \n' : `${String(o).padStart(10, '0')} 00000 n \n`);
  }
  parts.push(`xref\n0 ${size}\n`, ...rows);
  parts.push(`trailer\n<< /Size ${size} ${doc.trailer}${extraTrailer ? ` ${extraTrailer}` : ''} >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

export function cloneObjects(doc: PdfObjects): PdfObjects {
  return { objects: new Map(doc.objects), trailer: doc.trailer, header: doc.header };
}

/** Numbers of the objects whose dictionary matches `re` (e.g. /\/Type\s*\/Pages\b/). */
export function objectsMatching(doc: PdfObjects, re: RegExp): number[] {
  return [...doc.objects.entries()].filter(([, body]) => re.test(dictPart(body))).map(([n]) => n);
}

/** The dictionary part of a body (before "stream", when it is a stream). */
export function dictPart(body: string): string {
  const at = body.indexOf('stream');
  return at >= 0 ? body.slice(0, at) : body;
}

export function nextNumber(doc: PdfObjects): number {
  return Math.max(0, ...doc.objects.keys()) + 1;
}

/** Adds entries right after the opening "<<" of an object's dictionary (no-op when it is not a dictionary). */
export function addEntries(body: string, entries: string): string {
  const at = body.indexOf('<<');
  return at < 0 ? body : `${body.slice(0, at + 2)} ${entries} ${body.slice(at + 2)}`;
}

/** Sets (or adds) a key of an object's dictionary; the old value must be a simple token or reference. */
export function setEntry(body: string, key: string, value: string): string {
  const re = new RegExp(`/${key}(?![\\w.-])(\\s+\\d+\\s+\\d+\\s+R|\\s*\\[[^\\]]*\\]|\\s*[^/\\s>\\]]+)`);
  const dict = dictPart(body);
  if (re.test(dict)) return dict.replace(re, `/${key} ${value}`) + body.slice(dict.length);
  return addEntries(body, `/${key} ${value}`);
}
