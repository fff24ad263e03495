/**
 * engine/xfdf/parse.ts reads XFDF with two readers: readPlain, one pass straight into the element tree, for the XML
 * every XFDF writer produces, and fast-xml-parser (parseSafeXmlSlowly) for everything else, refusals included. The
 * pair must answer exactly as fast-xml-parser alone: the same tree, or the same refusal with the same message. Here
 * both answer a set of hand-written bodies and thousands of damaged copies of them; readPlain must take the plain ones.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSafeXml, parseSafeXmlSlowly, readPlain } from '../../src/engine/xfdf/parse.js';

/** What a reader answers: the tree, or the refusal's code and message. */
function answer(read: () => unknown): unknown {
  try {
    return { tree: read() };
  } catch (err) {
    const e = err as Error & { code?: string };
    return { refused: e.code, message: e.message };
  }
}

const PLAIN = [
  // An export as the service writes it.
  `<?xml version="1.0" encoding="UTF-8"?>
<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve">
  <annots>
    <text page="0" rect="40,310,136,390" name="a1" title="Zoë Ångström" date="D:20240202100100+01'00'" color="#255B35" flags="print" icon="Comment" open="no">
      <contents>Text 1: please check the figures (and the units) &amp; &lt;b&gt; &#65;&#x1F600;</contents>
      <popup page="0" rect="148,310,244,390" name="a2" flags="print,nozoom,norotate" open="no"/>
    </text>
    <freetext page="0" rect="1,2,3,4" name="f" width="0">
      <contents-richtext><body xmlns="http://www.w3.org/1999/xhtml"><p dir="ltr">First &amp; <span style="font-weight:bold">bold</span></p><p>second<br/>third</p></body></contents-richtext>
      <defaultappearance>/Helv 12 Tf 0 g</defaultappearance>
      <contents-richtext/>
    </freetext>
    <ink page="1" rect="1,2,3,4" name="i"><inklist><gesture>1,2;3,4</gesture><gesture>5,6;7,8</gesture></inklist></ink>
  </annots>
  <fields><field name="a"><value>x</value><value-richtext><p>rich</p></value-richtext></field></fields>
  <ids original="ABC" modified="DEF"/>
</xfdf>
`,
  // Comments, CDATA, a BOM, single quotes, white space inside tags, > and new lines in attribute values, CRLF.
  `\ufeff<!-- before --><xfdf><!-- inside --><annots><square page = '0' rect="0,0,1,1"\r\n name="s" subject="a > b" title="two\nlines\tand a tab"><contents>x<![CDATA[<b>&amp;</b>]]>y<!-- c -->z\r\nw\rv</contents></square ></annots></xfdf ><!-- after -->\n`,
  // Prefixed and upper-case names, an empty element, a self-closed root.
  `<x:xfdf xmlns:x="http://ns.adobe.com/xfdf/"><x:annots><x:TEXT page="0" rect="0,0,1,1"><x:contents></x:contents></x:TEXT></x:annots></x:xfdf>`,
  `<xfdf/>`,
  // Appearance XML (appearance-xml.ts reads it with parseSafeXml).
  `<DICT KEY="AP"><STREAM KEY="N"><DICT KEY="Resources"/><ARRAY KEY="BBox"><FIXED VAL="0"/><INT VAL="10"/></ARRAY><DATA MODE="FILTERED" ENCODING="ASCII">0 0 1 rg 0 0 10 10 re f</DATA></STREAM></DICT>`,
  // Nesting at the limit.
  `<xfdf><fields><field name="f">${'<a>'.repeat(97)}${'</a>'.repeat(97)}<value>x</value></field></fields></xfdf>`,
];

const NOT_PLAIN = [
  '', ' ', 'plain text', '<xfdf>', '<xfdf></xfdf', '<xfdf></fdf>', '<xfdf/><xfdf/>', '<xfdf/>x', 'x<xfdf/>',
  '<!DOCTYPE x><xfdf/>', '<xfdf><![CDATA[<!ENTITY]]></xfdf>', ' <?xml version="1.0"?><xfdf/>', '<?pi x?><xfdf/>', '<xfdf><?pi x?></xfdf>',
  '<xfdf a="1" a="2"/>', '<xfdf a="1"b="2"/>', '<xfdf a/>', '<xfdf a=1/>', '<xfdf a="<"/>', '<xfdf a="&nbsp;"/>', '<xfdf>&nbsp;</xfdf>',
  '<xfdf>& </xfdf>', '<xfdf>&#0;</xfdf>', '<xfdf>&#x;</xfdf>', '<xfdf>&#X41;</xfdf>', '<xfdf><!-- open </xfdf>', '<xfdf><![CDATA[open</xfdf>',
  '< xfdf/>', '<xfdf / >', '<x.y/>', '<a:b:c/>', '<é/>', '<xfdf é="1"/>', '<__proto__/>', '<xfdf __proto__="1"/>',
  `<xfdf>${'<a>'.repeat(100)}${'</a>'.repeat(100)}</xfdf>`, '<contents-richtext>x</contents-richtext>',
  '<xfdf><contents-richtext><contents-richtext/></contents-richtext></xfdf>', '<xfdf><Contents-RichText><p>x</p></Contents-RichText></xfdf>',
  '<xfdf><x:contents-richtext><p>x</p></x:contents-richtext></xfdf>', '<xfdf><contents-richtext><p>&nbsp;</p></contents-richtext></xfdf>',
  '<xfdf><contents-richtext><p>x</contents-richtext></xfdf>', '<xfdf></xfdf><!-- x', '<xfdf><![CDAT[x]]></xfdf>', '<xfdf><!ELEMENT x></xfdf>',
];

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['<', '>', '/', '&', '"', "'", '=', ' ', '\r', '\n', ':', '.', '-', ']]>', '<!--', '-->', '<![CDATA[', '&amp;', '&#0;', '&#65;', '&nbsp;', '<?pi?>', '<a>', '</a>', '<b/>', 'x', '\u00e9'];

/** A copy of `text` with a few characters deleted, pieces of markup inserted or a slice repeated. */
function damaged(text: string, next: () => number): string {
  let out = text;
  for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
    const at = Math.floor(next() * (out.length + 1));
    const what = next();
    if (what < 0.35) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(next() * 3));
    else if (what < 0.85) out = out.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)]! + out.slice(at);
    else out = out.slice(0, at) + out.slice(at, at + Math.floor(next() * 40)) + out.slice(at);
  }
  return out;
}

function assertSame(text: string, maxDepth = 100): boolean {
  const slow = answer(() => parseSafeXmlSlowly(text, 'The XFDF body', maxDepth));
  assert.deepEqual(answer(() => parseSafeXml(text, 'The XFDF body', maxDepth)), slow, JSON.stringify(text));
  const plain = readPlain(text, maxDepth);
  if (plain) assert.deepEqual({ tree: plain }, slow, `readPlain took ${JSON.stringify(text)}`);
  return plain !== undefined;
}

describe('readPlain reads what fast-xml-parser reads, and leaves it the rest', () => {
  test('plain bodies: readPlain takes them and builds the same tree', () => {
    for (const text of PLAIN) assert.ok(assertSame(text), `readPlain took ${JSON.stringify(text.slice(0, 80))}`);
    assert.ok(assertSame('<DICT><a><b/></a></DICT>', 3), 'nesting at a smaller limit');
  });

  test('broken, hostile or unusual bodies: readPlain leaves them, the answer is fast-xml-parser\'s', () => {
    for (const text of NOT_PLAIN) assert.equal(assertSame(text), false, JSON.stringify(text));
    assert.equal(assertSame('<DICT><a><b/></a></DICT>', 2), false, 'past a smaller limit');
  });

  test('4,000 damaged copies: the same tree or the same refusal, whichever reader answers', () => {
    const next = random(38);
    let plain = 0;
    for (let n = 0; n < 4000; n++) if (assertSame(damaged(PLAIN[n % PLAIN.length]!, next))) plain++;
    // Most damage breaks the markup; some leaves it plain (in text, or a repeated slice of text), and those count.
    assert.ok(plain > 200, `readPlain took ${plain}`);
  });
});
