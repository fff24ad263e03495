/**
 * Field data (POST .../fields/content) and annotations (POST
 * .../annotations/content) read XFDF with one parser (src/engine/xfdf/parse.ts).
 * Each case is a point where the two used to differ; both endpoints must now
 * give the same answer (docs/architecture.md, Decisions, "XFDF bodies").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();
const XFDF = 'application/vnd.adobe.xfdf';
const NS = 'http://ns.adobe.com/xfdf/';
const FIELDS_DOC = 'xfdf-parse/form.pdf';
const ANNOTS_DOC = 'xfdf-parse/plain.pdf';

type Endpoint = 'fields' | 'annotations';

/** The XFDF of one value: field "comment" of the form, or the contents of text annotation "t1". */
function body(endpoint: Endpoint, content: string, options: { rich?: boolean; depth?: number } = {}): string {
  // <xfdf>, <fields>/<annots> and <field>/<text> are three levels; unknown elements beside the value make the rest.
  const padding = options.depth ? `${'<a>'.repeat(options.depth - 3)}${'</a>'.repeat(options.depth - 3)}` : '';
  const rich = (tag: string) => `<${tag}><body xmlns="http://www.w3.org/1999/xhtml">${content}</body></${tag}>`;
  const inner =
    endpoint === 'fields'
      ? `<fields><field name="comment">${options.rich ? rich('value-richtext') : `<value>${content}</value>`}${padding}</field></fields>`
      : `<annots><text page="0" rect="10,10,30,30" name="t1">${options.rich ? rich('contents-richtext') : `<contents>${content}</contents>`}${padding}</text></annots>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="${NS}" xml:space="preserve">${inner}</xfdf>\n`;
}

interface Answer {
  status: number;
  code?: string;
  detail?: string;
  /** The value the document got: the field's value, or the annotation's contents. */
  value?: unknown;
}

/** Imports into the endpoint's document and says what happened; a refusal must leave the document as it was. */
async function answer(endpoint: Endpoint, xfdf: string | Buffer): Promise<Answer> {
  const doc = endpoint === 'fields' ? FIELDS_DOC : ANNOTS_DOC;
  const before = sha256(await storedBytes(server, doc));
  const reply = await call(server, 'POST', `/documents/${doc}/${endpoint}/content`, { body: Buffer.from(xfdf), headers: { 'content-type': XFDF } });
  if (reply.status !== 200) {
    assert.equal(sha256(await storedBytes(server, doc)), before, `${endpoint}: a refused import changes nothing`);
    return { status: reply.status, code: reply.json().code, detail: reply.json().detail };
  }
  if (endpoint === 'annotations') {
    return { status: 200, value: reply.json().annotations.find((a: { name: string }) => a.name === 't1')?.contents };
  }
  const fields = (await call(server, 'GET', `/documents/${doc}/fields`, { headers: { accept: 'application/json' } })).json().fields;
  return { status: 200, value: fields.find((f: { name: string }) => f.name === 'comment')?.value };
}

/** Both endpoints' answers to the same XFDF; asserted equal, returned for the case's own checks. */
async function both(make: (endpoint: Endpoint) => string | Buffer): Promise<Answer> {
  const fields = await answer('fields', make('fields'));
  const annotations = await answer('annotations', make('annotations'));
  assert.deepEqual(fields, annotations, 'fields/content and annotations/content answer alike');
  return fields;
}

describe('one XFDF parser: field data and annotation imports read a body alike', () => {
  test('set-up', async () => {
    assert.equal((await putPdf(server, FIELDS_DOC, makeFormPdf())).status, 201);
    assert.equal((await putPdf(server, ANNOTS_DOC, makePdf({ pages: 1 }))).status, 201);
  });

  test("XML's five entities and character references are decoded (in text and attributes)", async () => {
    assert.deepEqual(await both((e) => body(e, '&lt;&gt;&amp;&quot;&apos; &#65;&#x42; &#x1F600; &#160;')), { status: 200, value: '<>&"\' AB \u{1F600} \u00a0' });
  });

  test('HTML named entities (&nbsp;, &eacute;) are refused with 400 MALFORMED_XFDF naming the entity, never kept as text or half decoded', async () => {
    for (const content of ['caf&eacute;', 'a&nbsp;b', 'a&copy;b', '&foo;']) {
      const refused = await both((e) => body(e, content));
      assert.equal(refused.status, 400, content);
      assert.equal(refused.code, 'MALFORMED_XFDF');
      assert.match(refused.detail!, /is not an XML reference/);
      assert.ok(refused.detail!.includes(content.match(/&\w+;/)![0]), refused.detail);
    }
    // In an attribute too (the field's name; the annotation's name).
    const attribute = await both((e) => body(e, 'x').replace(e === 'fields' ? 'name="comment"' : 'name="t1"', 'name="caf&eacute;"'));
    assert.equal(attribute.code, 'MALFORMED_XFDF');
  });

  test('character references XML 1.0 does not allow (&#0;, control characters, surrogates, past U+10FFFF) are refused alike', async () => {
    for (const ref of ['&#0;', '&#1;', '&#x1F;', '&#xD800;', '&#xFFFE;', '&#x110000;', '&#;']) {
      const refused = await both((e) => body(e, `a${ref}b`));
      assert.equal(refused.status, 400, ref);
      assert.equal(refused.code, 'MALFORMED_XFDF', ref);
    }
  });

  test('CDATA sections are text, taken literally and in document order', async () => {
    assert.deepEqual(await both((e) => body(e, 'x<![CDATA[<b>&amp;</b>]]>y')), { status: 200, value: 'x<b>&amp;</b>y' });
    assert.deepEqual(await both((e) => body(e, '<![CDATA[one]]> two <![CDATA[three]]>')), { status: 200, value: 'one two three' });
  });

  test('a UTF-8 byte order mark before the body is accepted', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    assert.deepEqual(await both((e) => Buffer.concat([bom, Buffer.from(body(e, 'with BOM'))])), { status: 200, value: 'with BOM' });
  });

  test('one nesting limit: 100 levels are read, 101 are refused', async () => {
    assert.deepEqual(await both((e) => body(e, 'deep', { depth: 100 })), { status: 200, value: 'deep' });
    const refused = await both((e) => body(e, 'deeper', { depth: 101 }));
    assert.equal(refused.code, 'MALFORMED_XFDF');
    assert.match(refused.detail!, /nested deeper than 100 levels/);
  });

  test('element names: a namespace prefix and upper case are read as the plain names', async () => {
    const prefixed = (xfdf: string) =>
      xfdf.replace(`xmlns="${NS}"`, `xmlns:x="${NS}"`).replace(/<(\/?)(xfdf|fields|field|value|annots|text|contents)\b/g, '<$1x:$2');
    assert.deepEqual(await both((e) => prefixed(body(e, 'prefixed'))), { status: 200, value: 'prefixed' });
    const upper = (xfdf: string) => xfdf.replace(/<(\/?)(xfdf|fields|field|value|annots|text|contents)\b/g, (_, slash: string, name: string) => `<${slash}${name.toUpperCase()}`);
    assert.deepEqual(await both((e) => upper(body(e, 'upper'))), { status: 200, value: 'upper' });
  });

  test('rich text becomes plain text the same way: paragraphs as lines, references decoded, markup dropped', async () => {
    const xhtml = '\n<p>First &amp; <b>bold</b> &#65;</p>\n<p>second<br/>third</p>\n';
    assert.deepEqual(await both((e) => body(e, xhtml, { rich: true })), { status: 200, value: 'First & bold A\nsecond\nthird' });
  });

  test('an empty body, or white space only, is 400 MALFORMED_XFDF with the same message', async () => {
    for (const empty of ['', ' \n', '\ufeff']) {
      const refused = await both(() => empty);
      assert.equal(refused.code, 'MALFORMED_XFDF');
      assert.match(refused.detail!, /empty/);
    }
  });
});
