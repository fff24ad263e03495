/**
 * Seeded mutations of request bodies: XFDF (and any XML body), FDF, and the
 * JSON and XML bodies of actions and other writes. Byte-level damage comes
 * from mutations.ts; the rest is what a hostile client writes on purpose:
 * deep nesting, entity declarations, duplicated elements, absurd attribute
 * values, undecodable appearances, wrong types, missing and unknown keys,
 * prototype keys, oversized strings.
 */
import { mutate, mutateBytes, type Mutation, type SeedDocument } from './mutations.js';
import { parseObjects } from './pdf-objects.js';
import type { Rng } from './prng.js';

export interface BodyMutation {
  kind: string;
  detail: string;
  body: Buffer;
}

const HOSTILE_ATTRIBUTES = [
  '', 'NaN', '-1', '-0', '1e999', '-1e999', '4294967296', '99999999999999999999', '0x10', '1,2', 'NaN,NaN,NaN,NaN', '1e38,1e38,-1e38,-1e38',
  '#GGGGGG', '#', 'D:99999999999999', 'D:2026-13-45', '&#0;', '&#xFFFF;', '&#xD800;', '\u202e\u0000', '../../etc/passwd', 'A'.repeat(70_000),
];

const HOSTILE_TEXT = ['', ']]>', '<![CDATA[x]]>', '&amp;&lt;&#1;', '\u0000\u0001\u001f', '\ud83d', '\u202eevil', 'x'.repeat(300_000), '&undefined;'];

function nestedElements(rng: Rng): { open: string; close: string; depth: number } {
  const depth = rng.pick([50, 99, 100, 101, 1000, 20_000, 200_000]);
  const name = rng.pick(['a', 'annots', 'field', 'value', 'xfdf']);
  return { open: `<${name}>`.repeat(depth), close: rng.chance(0.8) ? `</${name}>`.repeat(depth) : '', depth };
}

/** Positions just after a start tag's ">" (not in the XML declaration). */
function tagEnds(s: string): number[] {
  return [...s.matchAll(/<[A-Za-z][^<>]*>/g)].map((m) => m.index! + m[0].length);
}

/** One mutation of an XML body (XFDF, or an action as XML). */
export function mutateXml(xml: Buffer, rng: Rng): BodyMutation {
  const s = xml.toString('utf8');
  const kind = rng.weighted([
    [30, 'bytes'],
    [10, 'xml-deep'],
    [8, 'xml-doctype'],
    [14, 'xml-attribute'],
    [8, 'xml-duplicate'],
    [8, 'xml-text'],
    [6, 'xml-appearance'],
    [4, 'xml-encoding'],
    [4, 'xml-root'],
  ] as const);
  const text = (detail: string, out: string): BodyMutation => ({ kind, detail, body: Buffer.from(out, 'utf8') });
  switch (kind) {
    case 'bytes': {
      const m = mutateBytes(xml, rng);
      return { kind: `bytes:${m.kind}`, detail: m.detail, body: m.bytes };
    }
    case 'xml-deep': {
      const ends = tagEnds(s);
      const at = ends.length ? rng.pick(ends) : s.length;
      const { open, close, depth } = nestedElements(rng);
      return text(`${close ? '' : 'unclosed '}elements ${depth} deep at ${at}`, s.slice(0, at) + open + close + s.slice(at));
    }
    case 'xml-doctype': {
      const variant = rng.pick(['laughs', 'external', 'parameter', 'plain'] as const);
      const decl = {
        laughs: '<!DOCTYPE xfdf [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>',
        external: '<!DOCTYPE xfdf [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
        parameter: '<!DOCTYPE xfdf [<!ENTITY % p SYSTEM "http://127.0.0.1:1/evil.dtd"> %p;]>',
        plain: '<!DOCTYPE xfdf>',
      }[variant];
      const ref = { laughs: '&h;', external: '&x;', parameter: '', plain: '' }[variant];
      const afterDecl = s.startsWith('<?xml') ? s.indexOf('?>') + 2 : 0;
      let out = s.slice(0, afterDecl) + decl + s.slice(afterDecl);
      const ends = tagEnds(out).filter((e) => e > afterDecl + decl.length);
      if (ref && ends.length) {
        const at = rng.pick(ends);
        out = out.slice(0, at) + ref + out.slice(at);
      }
      return text(`DOCTYPE (${variant})`, out);
    }
    case 'xml-attribute': {
      const attrs = [...s.matchAll(/ ([\w:-]+)="([^"]*)"/g)];
      if (attrs.length === 0) return mutateXml(xml, rng);
      const m = rng.pick(attrs);
      const value = rng.pick(HOSTILE_ATTRIBUTES).replace(/"/g, '&quot;');
      return text(`${m[1]}="${m[2]!.slice(0, 20)}" -> "${value.slice(0, 20)}"${value.length > 20 ? ` (${value.length} chars)` : ''}`, s.slice(0, m.index!) + ` ${m[1]}="${value}"` + s.slice(m.index! + m[0].length));
    }
    case 'xml-duplicate': {
      const elements = [...s.matchAll(/<(\w+)\b[^>]*\/>|<(\w+)\b[^>]*>[^]*?<\/\2>/g)].filter((m) => !/^<(xfdf|\?xml)/.test(m[0]));
      if (elements.length === 0) return mutateXml(xml, rng);
      const m = rng.pick(elements);
      const copies = rng.pick([2, 10, 500, 3000]);
      const end = m.index! + m[0].length;
      return text(`element <${m[1] ?? m[2]}> repeated ${copies} times`, s.slice(0, end) + m[0].repeat(copies - 1) + s.slice(end));
    }
    case 'xml-text': {
      const texts = [...s.matchAll(/>([^<>]+)</g)];
      const value = rng.pick(HOSTILE_TEXT);
      if (texts.length === 0) return mutateXml(xml, rng);
      const m = rng.pick(texts);
      return text(`text "${m[1]!.slice(0, 20)}" -> ${JSON.stringify(value.slice(0, 20))}${value.length > 20 ? ` (${value.length} chars)` : ''}`, s.slice(0, m.index! + 1) + value + s.slice(m.index! + m[0].length - 1));
    }
    case 'xml-appearance': {
      const payload = rng.pick([
        () => 'not base64 at all!!',
        () => Buffer.from(`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><DICT KEY="AP"/>`).toString('base64'),
        () => Buffer.from(`<DICT KEY="AP">${'<DICT KEY="N">'.repeat(5000)}</DICT>`).toString('base64'),
        () => rng.bytes(rng.int(1, 4000)).toString('base64'),
        () => Buffer.from('<STREAM KEY="N"><DICT KEY="Length"><INT VAL="999999999999"/></DICT><DATA MODE="RAW" ENCODING="HEX">00</DATA></STREAM>').toString('base64'),
        () => 'A'.repeat(1_000_001),
      ])();
      const has = /<appearance>[^<]*<\/appearance>/.test(s);
      const out = has
        ? s.replace(/<appearance>[^<]*<\/appearance>/, `<appearance>${payload}</appearance>`)
        : s.replace(/(<stamp\b[^>]*>)/, `$1<appearance>${payload}</appearance>`);
      return text(`appearance -> ${payload.slice(0, 30)} (${payload.length} chars)`, out);
    }
    case 'xml-encoding': {
      const variant = rng.pick(['utf-16-declared', 'bom', 'latin1-bytes', 'nul'] as const);
      if (variant === 'utf-16-declared') return text('declared UTF-16, sent UTF-8', s.replace(/encoding="[^"]*"/, 'encoding="UTF-16"'));
      if (variant === 'bom') return { kind, detail: 'UTF-16 byte order mark', body: Buffer.concat([Buffer.from([0xff, 0xfe]), xml]) };
      if (variant === 'latin1-bytes') return { kind, detail: 'invalid UTF-8 bytes', body: Buffer.concat([xml.subarray(0, xml.length >> 1), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xff]), xml.subarray(xml.length >> 1)]) };
      return { kind, detail: 'NUL bytes inside', body: Buffer.concat([xml.subarray(0, xml.length >> 1), Buffer.alloc(16), xml.subarray(xml.length >> 1)]) };
    }
    case 'xml-root': {
      const out = rng.pick(['', '<?xml version="1.0"?>', '<xfdf/>', '<notxfdf xmlns="http://ns.adobe.com/xfdf/"/>', '<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>', s + s, `<xfdf>${'<annots/>'.repeat(100_000)}</xfdf>`]);
      return text(`body -> ${JSON.stringify(out.slice(0, 40))}`, out);
    }
  }
}

/** One mutation of an FDF body: the PDF mutations (FDF is PDF syntax) and a few of its own. */
export function mutateFdf(fdf: Buffer, rng: Rng): BodyMutation {
  const kind = rng.weighted([
    [50, 'pdf'],
    [10, 'fdf-kids-loop'],
    [10, 'fdf-deep-fields'],
    [8, 'fdf-many-objects'],
    [7, 'fdf-values'],
  ] as const);
  const s = fdf.toString('latin1');
  const out = (detail: string, text: string): BodyMutation => ({ kind, detail, body: Buffer.from(text, 'latin1') });
  switch (kind) {
    case 'pdf': {
      const seed: SeedDocument = { name: 'fdf', bytes: fdf, objects: parseObjects(fdf) };
      const m: Mutation = mutate(seed, rng);
      return { kind: `pdf:${m.kind}`, detail: m.detail, body: m.bytes };
    }
    case 'fdf-kids-loop': {
      const objs = [...s.matchAll(/(\d+) 0 obj/g)].map((m) => m[1]);
      const target = objs.length ? rng.pick(objs) : '1';
      return out(`/Fields and /Kids pointing back at object ${target}`, s.replace(/\/Fields\s*\[/, `/Fields [<< /T (loop) /Kids [${target} 0 R << /T (x) /Kids [${target} 0 R] >>] >> `));
    }
    case 'fdf-deep-fields': {
      const depth = rng.pick([63, 64, 65, 1000, 100_000]);
      const nested = '<< /T (d) /Kids ['.repeat(depth) + '<< /T (leaf) /V (x) >>' + '] >>'.repeat(depth);
      return out(`field tree ${depth} deep`, s.replace(/\/Fields\s*\[/, `/Fields [${nested} `));
    }
    case 'fdf-many-objects': {
      const n = rng.pick([1000, 99_999, 100_001, 200_000]);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(`${100000 + i} 0 obj\n<< /T (f${i}) /V (v) >>\nendobj\n`);
      const at = s.lastIndexOf('trailer');
      return out(`${n} extra objects`, at >= 0 ? s.slice(0, at) + parts.join('') + s.slice(at) : s + parts.join(''));
    }
    case 'fdf-values': {
      const value = rng.pick(['/Off', '/' + 'N'.repeat(70_000), '(' + 'v'.repeat(500_000) + ')', '[(a) (b) (c)]', '<FEFF' + 'D800'.repeat(10) + '>', '99999999999999999999', '<< /V (x) >>', `[${'['.repeat(10000)}]`, 'null', '1 0 R']);
      const fields = [...s.matchAll(/\/V\s*(\([^)]*\)|\/\w+|\[[^\]]*\]|<[0-9A-Fa-f]*>)/g)];
      if (fields.length === 0) return out(`added /V ${value.slice(0, 20)}`, s.replace(/\/T\s*\(/, `/V ${value} /T (`));
      const m = rng.pick(fields);
      return out(`/V -> ${value.slice(0, 30)}`, s.slice(0, m.index!) + `/V ${value}` + s.slice(m.index! + m[0].length));
    }
  }
}

// ---- JSON (and XML) bodies of actions and other writes -----------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const HOSTILE_VALUES: (() => Json)[] = [
  () => null,
  () => true,
  () => -1,
  () => 0,
  () => 1e308,
  () => -1e308,
  () => 2 ** 53 + 1,
  () => 0.5,
  () => 4294967296,
  () => '',
  () => ' ',
  () => 'x'.repeat(100_000),
  () => '\u0000\ud800\u202e',
  () => '../../../etc/passwd',
  () => '/absolute/path.pdf',
  () => 'a/./b/../c.pdf',
  () => '%2e%2e/x.pdf',
  () => '1-3,,7-',
  () => '0',
  () => '99999999999-',
  () => '3-1',
  () => '1-999999999',
  () => [],
  () => {
    return {};
  },
  () => [1, 'two', null],
  () => '#GGG',
  () => '(a+)+$',
  () => '((a|a)*)*b',
];

/** Hand-picked valid parameters, so unmutated and lightly mutated bodies also succeed sometimes. */
export function baseParams(action: string, lane: string): Record<string, Json> {
  const out = `robust-out/${lane}`;
  switch (action) {
    case 'CopyAction':
      return { savePath: `${out}/copy.pdf`, namingMode: 1 };
    case 'ApplyRedactionsAction':
      return { scrubElsewhere: true };
    case 'FlattenFieldsAction':
    case 'FlattenAnnotationsAction':
      return {};
    case 'NewPageAction':
      return { pageIndex: 0, width: 300, height: 400 };
    case 'InsertUploadedPagesAction':
      return { appendFilePath: `bodies/${lane}/text.pdf`, pageRange: '1', pageIndex: 0 };
    case 'InsertAttachedPagesAction':
      return { pageRange: '1' };
    case 'DeletePagesAction':
      return { pageRange: '1' };
    case 'RotatePagesAction':
      return { rotation: 90, pageRange: '1-' };
    case 'MovePagesAction':
      return { pageRange: '1', toIndex: 0 };
    case 'ExtractPagesAction':
      return { pageRange: '1', savePath: `${out}/extract.pdf`, namingMode: 1 };
    case 'TextStampAction':
      return { text: 'ROBUST', x: 72, y: 72, fontSize: 24, rotation: 30, transparency: 0.5, pageIndex: 0 };
    case 'ImageStampAction':
      return { x: 72, y: 72, width: 50, pageIndex: 0 };
    default:
      return {};
  }
}

function deepJson(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A JSON body (as text) with one named wrapper key, mutated. */
export function mutateJsonBody(wrapper: string | null, params: Record<string, Json>, rng: Rng, others: readonly string[]): BodyMutation {
  const wrap = (p: Json): Json => (wrapper ? { [wrapper]: p } : p);
  const kind = rng.weighted([
    [8, 'valid'],
    [26, 'value'],
    [8, 'drop-key'],
    [8, 'unknown-key'],
    [5, 'two-actions'],
    [6, 'not-object'],
    [6, 'root'],
    [8, 'deep'],
    [5, 'proto'],
    [15, 'bytes'],
    [3, 'big'],
  ] as const);
  const json = (detail: string, value: Json | string): BodyMutation => ({ kind, detail, body: Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8') });
  const keys = Object.keys(params);
  switch (kind) {
    case 'valid':
      return json('unchanged', wrap(params));
    case 'value': {
      const key = keys.length && rng.chance(0.85) ? rng.pick(keys) : rng.pick(['pageIndex', 'savePath', 'namingMode', 'pageRange', 'text', 'x', 'y', 'searchText', 'value']);
      const value = rng.pick(HOSTILE_VALUES)();
      return json(`${key} -> ${JSON.stringify(value)?.slice(0, 40)}`, wrap({ ...params, [key]: value }));
    }
    case 'drop-key': {
      if (!keys.length) return json('no keys to drop: empty parameters', wrap({}));
      const key = rng.pick(keys);
      const { [key]: _dropped, ...rest } = params;
      return json(`without ${key}`, wrap(rest));
    }
    case 'unknown-key':
      return json('unknown key', wrap({ ...params, [rng.pick(['extra', 'savepath', 'PageIndex', '', ' ', '\u0000'])]: 1 }));
    case 'two-actions':
      return json('two actions', wrapper ? { [wrapper]: params, [rng.pick(others)]: {} } : { ...params, second: params });
    case 'not-object':
      return json('parameters not an object', wrap(rng.pick<Json>([[], 'x', 1, null, true, [params]])));
    case 'root':
      return json('root not an object', rng.pick(['', ' ', '[]', '"x"', '1', 'null', 'true', '{}', '{"": {}}']));
    case 'deep': {
      const depth = rng.pick([100, 1000, 10_000, 100_000, 1_000_000]);
      const nested = deepJson(depth, rng.pick(['array', 'object'] as const));
      const key = keys.length ? rng.pick(keys) : 'x';
      const text = JSON.stringify(wrap({ ...params, [key]: '__DEEP__' })).replace('"__DEEP__"', nested);
      return json(`${key} nested ${depth} deep`, text);
    }
    case 'proto': {
      const body = rng.pick([
        `{"__proto__": {"admin": true}}`,
        wrapper ? `{"${wrapper}": {"__proto__": {"savePath": "x.pdf"}}}` : `{"__proto__": {"polluted": 1}}`,
        wrapper ? `{"${wrapper}": {"constructor": {"prototype": {"x": 1}}}}` : `{"constructor": {"prototype": {"x": 1}}}`,
      ]);
      return json('prototype keys', body);
    }
    case 'bytes': {
      const m = mutateBytes(Buffer.from(JSON.stringify(wrap(params)), 'utf8'), rng);
      return { kind: `bytes:${m.kind}`, detail: m.detail, body: m.bytes };
    }
    case 'big': {
      const size = rng.pick([3_900_000, 4_300_000, 20_000_000]);
      const key = keys.length ? rng.pick(keys) : 'x';
      return json(`${key} a string of ${size} characters`, wrap({ ...params, [key]: 'y'.repeat(size) }));
    }
  }
}

/** A JSON value as the XML the service reads: root element the wrapper, one element per property. */
export function toXml(root: string, params: Record<string, Json>): string {
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const inner = Object.entries(params)
    .map(([k, v]) => `<${k}>${esc(Array.isArray(v) ? v.join(' ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))}</${k}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>${inner}</${root}>`;
}
