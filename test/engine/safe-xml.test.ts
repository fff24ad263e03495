/**
 * src/safe-xml.ts, the one XML parser factory (request bodies, XFDF, XMP, Factur-X invoices, WebDAV answers): a DTD
 * refused before parsing (no entity declared, fetched or expanded), broken markup refused, nesting bounded with the
 * root as level 1, a byte order mark skipped, and the three ways of reading references.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { declaresDtd, safeXmlParser, type XmlRefusal } from '../../src/safe-xml.js';

class Refused extends Error {
  constructor(readonly refusal: XmlRefusal) {
    super(refusal.reason);
  }
}
const refuse = (refusal: XmlRefusal): never => {
  throw new Refused(refusal);
};
/** What the parser answers, or its refusal. */
function run(parse: ReturnType<typeof safeXmlParser>, text: string): unknown {
  try {
    return parse(text, refuse);
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
}

const plain = { ignoreAttributes: true, parseTagValue: false } as const;

test('a DOCTYPE or entity declaration is refused before parsing, in any case and wherever it is; nothing is expanded', () => {
  const parse = safeXmlParser({ maxDepth: 10, references: 'predefined', shape: plain });
  const bombs = [
    '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><x>&b;</x>',
    '<?xml version="1.0"?><!doctype x SYSTEM "file:///etc/passwd"><x/>',
    '<x><!ENTITY a "b"></x>',
  ];
  for (const text of bombs) {
    assert.equal(declaresDtd(text), true, text);
    assert.deepEqual(run(parse, text), { reason: 'dtd' }, text);
  }
  assert.equal(declaresDtd('<x>DOCTYPE and ENTITY as words</x>'), false);
});

test('broken markup is refused with its line; elements nested deeper than maxDepth are refused (the root is level 1)', () => {
  const parse = safeXmlParser({ maxDepth: 3, references: 'predefined', shape: plain });
  const broken = run(parse, '<a>\n<b></a>') as XmlRefusal;
  assert.equal(broken.reason, 'malformed');
  assert.equal((broken as { line: number }).line, 2);
  assert.deepEqual(run(parse, '<a><b><c>x</c></b></a>'), { a: { b: { c: 'x' } } });
  assert.deepEqual(run(parse, '<a><b><c><d>x</d></c></b></a>'), { reason: 'too-deep', maxDepth: 3 });
  const deep = safeXmlParser({ maxDepth: 100, references: 'predefined', shape: plain });
  assert.deepEqual(run(deep, `${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}`), { reason: 'too-deep', maxDepth: 100 });
});

test('references: kept as written, XML\'s five decoded, or those, character references and HTML\'s names; a byte order mark is skipped', () => {
  const text = '\ufeff<x>&lt;&amp;&#65;&#x42;&nbsp;</x>';
  assert.deepEqual(run(safeXmlParser({ maxDepth: 5, references: 'kept', shape: plain }), text), { x: '&lt;&amp;&#65;&#x42;&nbsp;' });
  assert.deepEqual(run(safeXmlParser({ maxDepth: 5, references: 'predefined', shape: plain }), text), { x: '<&&#65;&#x42;&nbsp;' });
  assert.deepEqual(run(safeXmlParser({ maxDepth: 5, references: 'html', shape: plain }), text), { x: '<&AB\u00a0' });
});
