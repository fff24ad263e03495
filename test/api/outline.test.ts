import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, expectUnchanged, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { encryptPdf, makePdf, qpdfCheck, serializePdf, withTempFile } from '../helpers/pdf.js';
import { QpdfDocument } from '../helpers/qpdf-json.js';
import { signedFieldPdf } from '../helpers/signing.js';
import { serverForSuite } from '../helpers/server.js';
import { corpusDir } from '../../corpus/manifest.js';

const server = serverForSuite();

const getOutline = (doc: string, query = '', accept = 'application/json', headers: Record<string, string> = {}) =>
  call(server, 'GET', `/documents/${doc}/outline${query}`, { headers: { accept, ...headers } });
const putOutline = (doc: string, body: object | string, headers: Record<string, string> = {}) =>
  call(server, 'PUT', `/documents/${doc}/outline`, {
    body: typeof body === 'string' ? Buffer.from(body) : body,
    headers: { accept: 'application/json', ...(typeof body === 'string' ? { 'content-type': 'application/xml' } : {}), ...headers },
  });
const ok = (reply: Reply) => assert.equal(reply.status, 200, reply.text);
const upload = async (doc: string, pdf: Buffer) => {
  const reply = await putPdf(server, doc, pdf);
  assert.equal(reply.status, 201, reply.text);
};

/** An outline item as qpdf sees it: title, 0-based target page (-1: none), open state, children. */
interface QpdfItem {
  title: string;
  page: number;
  open: boolean;
  kids: QpdfItem[];
}

/** The outline according to qpdf --json (independent of the service). */
function qpdfOutline(bytes: Buffer | Uint8Array): QpdfItem[] {
  const json = withTempFile(bytes, (file) => {
    const run = spawnSync('qpdf', ['--json', '--json-key=outlines', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf --json failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as { outlines: { title: string; destpageposfrom1: number | null; open: boolean; kids: unknown[] }[] };
  });
  const map = (items: typeof json.outlines): QpdfItem[] =>
    items.map((i) => ({ title: i.title, page: i.destpageposfrom1 === null ? -1 : i.destpageposfrom1 - 1, open: i.open, kids: map(i.kids as typeof json.outlines) }));
  return map(json.outlines);
}

/** The service's model reduced to what qpdf shows (open only where there are children: qpdf says open for leaves). */
function asQpdf(items: Record<string, any>[]): QpdfItem[] {
  return items.map((i) => ({ title: i.title, page: i.destination?.pageIndex ?? -1, open: i.children ? i.open : true, kids: asQpdf(i.children ?? []) }));
}
const qpdfLeavesOpen = (items: QpdfItem[]): QpdfItem[] => items.map((i) => ({ ...i, open: i.kids.length ? i.open : true, kids: qpdfLeavesOpen(i.kids) }));

const twoPages = () => makePdf({ pages: 3, text: (i) => `Chapter ${i + 1}` });

/** A document of two pages (objects 3 and 4) whose outline root is object 5 and whose items are `items` (objects 6 on). */
function outlinePdf(root: string, items: string[], catalogExtra = '', extra: string[] = []): Buffer {
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R ${catalogExtra} >>`,
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    root,
    ...items,
    ...extra,
  ];
  return serializePdf(objects, '/Root 1 0 R');
}

const tree = [
  {
    title: 'Überblick — 概要 😀',
    open: true,
    bold: true,
    italic: false,
    color: { red: 1, green: 0, blue: 0.5 },
    destination: { pageIndex: 0, fit: 'XYZ', left: 10, top: 700, zoom: 1.5 },
    children: [
      { title: 'Closed section', open: false, bold: false, italic: true, destination: { pageIndex: 1, fit: 'FitH', top: 500 }, children: [{ title: 'Deep', open: false, bold: false, italic: false, destination: { pageIndex: 2, fit: 'Fit' } }, { title: 'Deep 2', open: false, bold: false, italic: false, destination: { pageIndex: 2, fit: 'FitR', left: 1, bottom: 2, right: 3, top: 4 } }] },
      { title: 'Open section', open: true, bold: false, italic: false, destination: { pageIndex: 2, fit: 'Fit' }, children: [{ title: 'Leaf', open: false, bold: false, italic: false, destination: { pageIndex: 1, fit: 'Fit' } }] },
    ],
  },
  { title: 'Website', open: false, bold: false, italic: false, uri: 'https://example.com/a?b=c' },
  { title: 'Heading without a destination', open: false, bold: false, italic: false },
];

describe('reading an outline', () => {
  test('a corpus document with a four-level outline: the same tree, pages and open states as qpdf sees; JSON and XML', { skip: corpusDir() ? false : 'no corpus at PDFSERVICE_CORPUS or ../shared/corpus' }, async () => {
    const CORPUS = corpusDir()!;
    const bytes = readFileSync(path.join(CORPUS, 'qpdf/linearization/c-linearized.pdf'));
    await upload('outline/corpus.pdf', bytes);
    const reply = await getOutline('outline/corpus.pdf');
    ok(reply);
    const model = reply.json();
    const expected = qpdfLeavesOpen(qpdfOutline(bytes));
    assert.ok(expected.length > 0);
    assert.deepEqual(asQpdf(model.items), expected);
    assert.equal(model.itemCount, 11);
    assert.deepEqual(model.warnings, []);
    // The fit types and coordinates of the first items, as qpdf's dest arrays give them.
    assert.deepEqual(model.items[0].destination, { pageIndex: 5, fit: 'XYZ' });
    assert.deepEqual(model.items[0].children[0].destination, { pageIndex: 11, fit: 'Fit' });
    assert.deepEqual(model.items[0].children[0].children[0].destination, { pageIndex: 12, fit: 'FitV', left: 100 });

    const xml = await getOutline('outline/corpus.pdf', '', 'application/xml');
    ok(xml);
    assert.match(xml.text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<Outline>\s*<items>\s*<item>\s*<title>Isís 1 -&gt; 5: \/XYZ {2}null null null<\/title>/);
    assert.match(xml.text, /<children>\s*<child>\s*<title>Amanda 1.1 -&gt; 11: \/Fit<\/title>/);
    assert.match(xml.text, /<itemCount>11<\/itemCount>/);
  });

  test('a document without an outline: no items', async () => {
    await upload('outline/none.pdf', twoPages());
    const reply = await getOutline('outline/none.pdf');
    ok(reply);
    assert.deepEqual(reply.json(), { items: [], itemCount: 0, warnings: [] });
  });

  test('named destinations are resolved to pages: the catalog /Dests dictionary and a /Names tree whose /Kids loop', async () => {
    const pdf = outlinePdf(
      '<< /Type /Outlines /First 6 0 R /Last 7 0 R /Count 2 >>',
      [
        '<< /Title (Old style) /Parent 5 0 R /Next 7 0 R /Dest /old >>',
        '<< /Title (Name tree) /Parent 5 0 R /Prev 6 0 R /A << /S /GoTo /D (chap2) >> >>',
      ],
      '/Dests << /old [4 0 R /XYZ 10 20 0] >> /Names << /Dests 8 0 R >>',
      ['<< /Kids [8 0 R 9 0 R] >>', '<< /Names [(chap2) << /D [3 0 R /FitH 150] >>] >>'],
    );
    await upload('outline/named.pdf', pdf);
    const reply = await getOutline('outline/named.pdf');
    ok(reply);
    const { items } = reply.json();
    assert.deepEqual(items[0].destination, { pageIndex: 1, fit: 'XYZ', left: 10, top: 20, zoom: 0 });
    assert.equal(items[0].namedDestination, 'old');
    assert.deepEqual(items[1].destination, { pageIndex: 0, fit: 'FitH', top: 150 });
    assert.equal(items[1].namedDestination, 'chap2');
  });
});

describe('reading a hostile outline answers 200 with what is sound', { timeout: 120_000 }, () => {
  const read = async (doc: string, pdf: Buffer) => {
    await upload(doc, pdf);
    const reply = await getOutline(doc);
    ok(reply);
    return reply.json();
  };

  test('a cycle in /Next: each item once, and a warning', async () => {
    const model = await read('outline/next-cycle.pdf', outlinePdf('<< /First 6 0 R /Last 7 0 R /Count 2 >>', [
      '<< /Title (A) /Parent 5 0 R /Next 7 0 R /Dest [3 0 R /Fit] >>',
      '<< /Title (B) /Parent 5 0 R /Next 6 0 R /Dest [4 0 R /Fit] >>',
    ]));
    assert.deepEqual(model.items.map((i: { title: string }) => i.title), ['A', 'B']);
    assert.equal(model.itemCount, 2);
    assert.match(model.warnings.join('\n'), /cycle/);
  });

  test('a /First that points back at an ancestor and a /Count that lies', async () => {
    const model = await read('outline/first-cycle.pdf', outlinePdf('<< /First 6 0 R /Last 6 0 R /Count 999999 >>', [
      '<< /Title (Parent) /Parent 5 0 R /First 7 0 R /Last 7 0 R /Count -77 >>',
      '<< /Title (Child) /Parent 6 0 R /First 6 0 R /Count 5000 >>',
    ]));
    assert.equal(model.items.length, 1);
    assert.equal(model.items[0].title, 'Parent');
    assert.equal(model.items[0].open, false);
    assert.deepEqual(model.items[0].children.map((i: { title: string }) => i.title), ['Child']);
    assert.equal(model.items[0].children[0].children, undefined);
    assert.equal(model.itemCount, 2);
    assert.match(model.warnings.join('\n'), /cycle/);
  });

  test('a depth bomb (5,000 levels): 64 levels read, then a warning', async () => {
    const levels = 5000;
    const items = Array.from({ length: levels }, (_, i) => `<< /Title (L${i + 1}) /Parent ${i === 0 ? 5 : 5 + i} 0 R${i + 1 < levels ? ` /First ${7 + i} 0 R /Last ${7 + i} 0 R /Count 1` : ''} /Dest [3 0 R /Fit] >>`);
    const model = await read('outline/deep.pdf', outlinePdf('<< /First 6 0 R /Last 6 0 R /Count 5000 >>', items));
    let depth = 0;
    for (let level = model.items; level?.length; level = level[0].children) depth++;
    assert.equal(depth, 64);
    assert.equal(model.itemCount, 64);
    assert.match(model.warnings.join('\n'), /deeper than 64/);
  });

  test('20,000 siblings: the first 10,000, then a warning', async () => {
    const count = 20_000;
    const items = Array.from({ length: count }, (_, i) => `<< /Title (S${i}) /Parent 5 0 R${i + 1 < count ? ` /Next ${7 + i} 0 R` : ''} >>`);
    const model = await read('outline/wide.pdf', outlinePdf(`<< /First 6 0 R /Last ${5 + count} 0 R /Count ${count} >>`, items));
    assert.equal(model.items.length, 10_000);
    assert.equal(model.items.at(-1).title, 'S9999');
    assert.match(model.warnings.join('\n'), /more than 10000 items/);
  });

  test('dangling destinations (not a page, a missing object, an undefined name, a page number past the end) and items that are not dictionaries', async () => {
    const model = await read('outline/dangling.pdf', outlinePdf('<< /First 6 0 R /Last 10 0 R /Count 5 >>', [
      '<< /Title (Not a page) /Parent 5 0 R /Next 7 0 R /Dest [2 0 R /Fit] >>',
      '<< /Title (Missing object) /Parent 5 0 R /Next 8 0 R /Dest [999 0 R /Fit] >>',
      '<< /Title (Undefined name) /Parent 5 0 R /Next 9 0 R /Dest (nowhere) >>',
      '<< /Title (Page 40) /Parent 5 0 R /Next 10 0 R /Dest [40 /Fit] >>',
      '<< /Title (Good) /Parent 5 0 R /Next 11 0 R /Dest [4 0 R /FitV 30] /C [2 -1 0.5] /F 3 >>',
      '[(not a dictionary)]',
    ]));
    assert.deepEqual(model.items.map((i: { title: string }) => i.title), ['Not a page', 'Missing object', 'Undefined name', 'Page 40', 'Good']);
    for (const item of model.items.slice(0, 4)) assert.equal(item.destination, undefined, item.title);
    assert.equal(model.items[2].namedDestination, 'nowhere');
    assert.deepEqual(model.items[4].destination, { pageIndex: 1, fit: 'FitV', left: 30 });
    // Colour components outside 0..1 are clamped; /F 3 is bold and italic.
    assert.deepEqual(model.items[4].color, { red: 1, green: 0, blue: 0.5 });
    assert.equal(model.items[4].bold, true);
    assert.equal(model.items[4].italic, true);
    assert.equal(model.warnings.filter((w: string) => /left out/.test(w)).length, 4);
    assert.match(model.warnings.join('\n'), /not a dictionary/);
  });

  test('an action other than GoTo and URI is reported by its type', async () => {
    const model = await read('outline/js.pdf', outlinePdf('<< /First 6 0 R /Last 6 0 R /Count 1 >>', ['<< /Title (Script) /Parent 5 0 R /A << /S /JavaScript /JS (app.alert(1)) >> >>']));
    assert.equal(model.items[0].action, 'JavaScript');
    assert.equal(model.items[0].destination, undefined);
  });
});

describe('replacing the outline', () => {
  test('a tree with Unicode titles, views, colours, styles, open and closed items, a URI and a heading: qpdf sees it, --check is clean, /Count and the links are right', async () => {
    const doc = 'outline/write.pdf';
    await upload(doc, twoPages());
    const reply = await putOutline(doc, { items: tree });
    ok(reply);
    const etag = reply.headers.get('etag');
    const head = await call(server, 'HEAD', `/documents/${doc}`);
    assert.equal(etag, head.headers.get('etag'));
    assert.deepEqual(reply.json().items, tree);
    assert.equal(reply.json().itemCount, 8);

    const bytes = await storedBytes(server, doc);
    const check = qpdfCheck(bytes);
    assert.ok(check.ok, check.output);
    assert.doesNotMatch(check.output, /WARNING/);
    assert.deepEqual(qpdfOutline(bytes), asQpdf(tree));

    // The raw dictionaries: /Count per ISO 32000-1 12.3.3, /Parent, /Prev, /Next, /First and /Last consistent.
    const q = new QpdfDocument(bytes);
    const outlines = q.get(q.catalog(), '/Outlines') as Record<string, unknown>;
    // Visible: the three top items, the first's two children (open), the open section's leaf.
    assert.equal(outlines['/Count'], 6);
    const walk = (parentRef: string, parent: Record<string, unknown>): Record<string, unknown>[] => {
      const out: Record<string, unknown>[] = [];
      let prev: string | undefined;
      for (let ref = parent['/First'] as string | undefined; ref; ref = (q.resolve(ref) as Record<string, unknown>)['/Next'] as string | undefined) {
        const item = q.resolve(ref) as Record<string, unknown>;
        assert.equal(item['/Parent'], parentRef);
        assert.equal(item['/Prev'], prev);
        if (!item['/Next']) assert.equal(parent['/Last'], ref);
        prev = ref;
        out.push(item);
      }
      return out;
    };
    const top = walk((q.catalog()['/Outlines'] as string), outlines);
    assert.equal(top.length, 3);
    assert.equal(top[0]!['/Count'], 3);
    assert.deepEqual(top[0]!['/C'], [1, 0, 0.5]);
    assert.equal(top[0]!['/F'], 2);
    assert.equal(top[0]!['/Title'], 'u:Überblick — 概要 😀');
    assert.deepEqual((top[0]!['/Dest'] as unknown[]).slice(1), ['/XYZ', 10, 700, 1.5]);
    const second = walk(outlines['/First'] as string, top[0]!);
    assert.equal(second[0]!['/Count'], -2);
    assert.equal(second[0]!['/F'], 1);
    assert.equal(second[1]!['/Count'], 1);
    assert.equal(top[1]!['/Count'], undefined);
    assert.deepEqual(q.resolve(top[1]!['/A']), { '/S': '/URI', '/URI': 'u:https://example.com/a?b=c' });
    assert.equal(top[2]!['/Dest'], undefined);
    assert.equal(top[2]!['/A'], undefined);

    const again = await getOutline(doc);
    ok(again);
    assert.deepEqual(again.json().items, tree);
  });

  test('an XML body with nested children, and the answer in XML', async () => {
    const doc = 'outline/xml.pdf';
    await upload(doc, twoPages());
    const body = `<?xml version="1.0" encoding="UTF-8"?>
<Outline>
  <items>
    <item>
      <title>Part &amp; one</title>
      <open>true</open>
      <color><red>0</red><green>0.5</green><blue>1</blue></color>
      <destination><pageIndex>1</pageIndex><fit>XYZ</fit><top>100</top></destination>
      <children>
        <child><title>Only child</title><bold>true</bold><destination><pageIndex>2</pageIndex></destination></child>
      </children>
    </item>
    <item><title>Two</title><uri>https://example.org/</uri></item>
  </items>
</Outline>`;
    const reply = await putOutline(doc, body, { accept: 'application/xml' });
    ok(reply);
    assert.match(reply.text, /<Outline>\s*<items>\s*<item>\s*<title>Part &amp; one<\/title>/);
    assert.match(reply.text, /<children>\s*<child>\s*<title>Only child<\/title>/);
    const json = (await getOutline(doc)).json();
    assert.deepEqual(json.items[0].color, { red: 0, green: 0.5, blue: 1 });
    assert.deepEqual(json.items[0].destination, { pageIndex: 1, fit: 'XYZ', top: 100 });
    assert.deepEqual(json.items[0].children, [{ title: 'Only child', open: false, bold: true, italic: false, destination: { pageIndex: 2, fit: 'Fit' } }]);
    assert.equal(json.items[1].uri, 'https://example.org/');
    assert.deepEqual(qpdfOutline(await storedBytes(server, doc)).map((i) => i.title), ['Part & one', 'Two']);
  });

  test('an empty list removes the outline; on a document without one nothing is written', async () => {
    const doc = 'outline/remove.pdf';
    await upload(doc, twoPages());
    ok(await putOutline(doc, { items: tree }));
    const removed = await putOutline(doc, { items: [] });
    ok(removed);
    assert.deepEqual(removed.json(), { items: [], itemCount: 0, warnings: [] });
    const bytes = await storedBytes(server, doc);
    assert.ok(qpdfCheck(bytes).ok);
    assert.deepEqual(qpdfOutline(bytes), []);
    assert.equal(new QpdfDocument(bytes).catalog()['/Outlines'], undefined);
    const before = sha256(bytes);
    ok(await putOutline(doc, { items: [] }));
    assert.equal(sha256(await storedBytes(server, doc)), before);
  });

  test('a GET answer sent back as it is writes the same outline (read-only fields ignored)', async () => {
    // A document of our own with the eight-item tree above (the corpus is not always there: a clean clone has none).
    const doc = 'outline/roundtrip.pdf';
    await upload(doc, twoPages());
    ok(await putOutline(doc, { items: tree }));
    const bytes = await storedBytes(server, doc);
    const read = (await getOutline(doc)).json();
    const named = outlinePdf('<< /First 6 0 R /Last 6 0 R /Count 1 >>', ['<< /Title (N) /Parent 5 0 R /Dest /n /Next 7 0 R >>', '<< /Title (J) /Parent 5 0 R /A << /S /JavaScript /JS (1) >> >>'], '/Dests << /n [4 0 R /Fit] >>');
    await upload('outline/roundtrip-named.pdf', named);
    const namedModel = (await getOutline('outline/roundtrip-named.pdf')).json();
    const written = await putOutline('outline/roundtrip-named.pdf', namedModel);
    ok(written);
    assert.deepEqual(written.json().items, [{ title: 'N', open: false, bold: false, italic: false, destination: { pageIndex: 1, fit: 'Fit' } }, { title: 'J', open: false, bold: false, italic: false }]);
    const reply = await putOutline(doc, read);
    ok(reply);
    assert.deepEqual(reply.json().items, read.items);
    const stored = await storedBytes(server, doc);
    assert.ok(qpdfCheck(stored).ok);
    assert.deepEqual(qpdfLeavesOpen(qpdfOutline(stored)), qpdfLeavesOpen(qpdfOutline(bytes)));
  });

  test('versions: the earlier version keeps its outline, and a kept version cannot be written', async () => {
    const doc = 'outline/versions.pdf';
    await upload(doc, twoPages());
    ok(await putOutline(doc, { items: [{ title: 'First outline', destination: { pageIndex: 0 } }] }));
    ok(await putOutline(doc, { items: [{ title: 'Second outline', destination: { pageIndex: 1 } }] }));
    const versions = await call(server, 'GET', `/documents/${doc}/versions`, { headers: { accept: 'application/json' } });
    ok(versions);
    const list = versions.json().versions as { id: string; operation: string }[];
    assert.deepEqual(list.map((v) => v.operation), ['writeOutline', 'writeOutline', 'upload']);
    const earlier = await getOutline(doc, `?versionId=${list[1]!.id}`);
    ok(earlier);
    assert.deepEqual(earlier.json().items.map((i: { title: string }) => i.title), ['First outline']);
    const original = await getOutline(doc, `?versionId=${list[2]!.id}`);
    assert.deepEqual(original.json().items, []);
    assert.deepEqual((await getOutline(doc)).json().items.map((i: { title: string }) => i.title), ['Second outline']);
    const kept = () => call(server, 'PUT', `/documents/${doc}/outline?versionId=${list[1]!.id}`, { body: { items: [] }, headers: { accept: 'application/json' } });
    await expectUnchanged(server, doc, kept, 400, 'VERSION_READ_ONLY');
  });

  test('a signed document gets the outline appended (its bytes kept before the update); a certified one is refused; an encrypted one needs assembly rights', async () => {
    const signed = signedFieldPdf();
    await upload('outline/signed.pdf', signed);
    ok(await putOutline('outline/signed.pdf', { items: [{ title: 'Signed doc', destination: { pageIndex: 0 } }] }));
    const stored = await storedBytes(server, 'outline/signed.pdf');
    assert.ok(stored.length > signed.length);
    assert.ok(stored.subarray(0, signed.length).equals(signed), 'the signed revision is kept byte for byte');
    assert.deepEqual(qpdfOutline(stored).map((i) => i.title), ['Signed doc']);

    // Certified (a DocMDP signature, level 2): no level allows bookmarks to change.
    const certified = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /SigFlags 3 >> /Perms << /DocMDP 5 0 R >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /FT /Sig /T (Certification) /Rect [0 0 0 0] /P 3 0 R /V 5 0 R >>',
      `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /ByteRange [0 0 0 0] /Contents <${'00'.repeat(64)}> /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P 2 /V /1.2 >> >>] >>`,
    ], '/Root 1 0 R');
    await upload('outline/certified.pdf', certified);
    await expectUnchanged(server, 'outline/certified.pdf', () => putOutline('outline/certified.pdf', { items: [{ title: 'x' }] }), 409, 'DOCUMENT_CERTIFIED');

    const locked = encryptPdf(twoPages(), 'user-pw', 'owner-pw', '256', ['--assemble=n']);
    await upload('outline/locked.pdf', locked);
    await expectUnchanged(server, 'outline/locked.pdf', () => putOutline('outline/locked.pdf', { items: [{ title: 'x' }] }, { 'x-service-documentpassword': 'user-pw' }), 403, 'DOCUMENT_PERMISSION_DENIED');
    ok(await putOutline('outline/locked.pdf', { items: [{ title: 'Owner wrote this', destination: { pageIndex: 2 } }] }, { 'x-service-documentpassword': 'owner-pw' }));
    const read = await getOutline('outline/locked.pdf', '', 'application/json', { 'x-service-documentpassword': 'user-pw' });
    ok(read);
    assert.equal(read.json().items[0].title, 'Owner wrote this');
  });
});

describe('bad input leaves the stored bytes unchanged', () => {
  const doc = 'outline/bad.pdf';
  const nest = (depth: number): Record<string, unknown> => (depth === 1 ? { title: `L${depth}` } : { title: `L${depth}`, children: [nest(depth - 1)] });
  const cases: [string, () => Promise<Reply>, number, string][] = [
    ['a page index past the end', () => putOutline(doc, { items: [{ title: 'x', destination: { pageIndex: 3 } }] }), 400, 'PAGE_OUT_OF_RANGE'],
    ['a nested page index past the end', () => putOutline(doc, { items: [{ title: 'x', children: [{ title: 'y', children: [{ title: 'z', destination: { pageIndex: 99 } }] }] }] }), 400, 'PAGE_OUT_OF_RANGE'],
    ['65 levels', () => putOutline(doc, { items: [nest(65)] }), 400, 'OUTLINE_TOO_LARGE'],
    ['10,001 items', () => putOutline(doc, { items: [{ title: 'a', children: Array.from({ length: 10_000 }, () => ({ title: 'b' })) }] }), 400, 'OUTLINE_TOO_LARGE'],
    ['a colour component over 1, nested', () => putOutline(doc, { items: [{ title: 'x', children: [{ title: 'y', color: { red: 1.5, green: 0, blue: 0 } }] }] }), 400, 'VALIDATION_FAILED'],
    ['a colour component over 1', () => putOutline(doc, { items: [{ title: 'x', color: { red: 1.5, green: 0, blue: 0 } }] }), 400, 'VALIDATION_FAILED'],
    ['a nested item without a title', () => putOutline(doc, { items: [{ title: 'x', children: [{ open: true }] }] }), 400, 'VALIDATION_FAILED'],
    ['a nested unknown field', () => putOutline(doc, { items: [{ title: 'x', children: [{ title: 'y', colour: 'red' }] }] }), 400, 'VALIDATION_FAILED'],
    ['a destination and a URI', () => putOutline(doc, { items: [{ title: 'x', children: [{ title: 'y', uri: 'https://a/', destination: { pageIndex: 0 } }] }] }), 400, 'VALIDATION_FAILED'],
    ['a URI with a space', () => putOutline(doc, { items: [{ title: 'x', children: [{ title: 'y', uri: 'https://a/ b' }] }] }), 400, 'VALIDATION_FAILED'],
    ['a negative nested page index', () => putOutline(doc, { items: [{ title: 'x', children: [{ title: 'y', destination: { pageIndex: -1 } }] }] }), 400, 'VALIDATION_FAILED'],
    ['an unknown fit type', () => putOutline(doc, { items: [{ title: 'x', children: [{ title: 'y', destination: { pageIndex: 0, fit: 'Zoom' } }] }] }), 400, 'VALIDATION_FAILED'],
    ['a title with a lone surrogate', () => putOutline(doc, { items: [{ title: 'x', children: [{ title: 'bad \ud800' }] }] }), 400, 'VALIDATION_FAILED'],
    ['children that are not a list', () => putOutline(doc, { items: [{ title: 'x', children: 'none' }] }), 400, 'VALIDATION_FAILED'],
    ['no items', () => putOutline(doc, {}), 400, 'VALIDATION_FAILED'],
    ['an If-Match that is not the current ETag', () => putOutline(doc, { items: [{ title: 'late' }] }, { 'if-match': '"not-the-etag"' }), 412, 'PRECONDITION_FAILED'],
    ['an XML body with another root', () => putOutline(doc, '<Bookmarks><items/></Bookmarks>'), 400, 'VALIDATION_FAILED'],
    ['an XML body with a colour that is not a number', () => putOutline(doc, '<Outline><items><item><title>a</title><children><child><title>b</title><color><red>x</red><green>0</green><blue>0</blue></color></child></children></item></items></Outline>'), 400, 'VALIDATION_FAILED'],
  ];
  test('setup', async () => {
    await upload(doc, twoPages());
    ok(await putOutline(doc, { items: [{ title: 'Kept', destination: { pageIndex: 1 } }] }));
  });
  for (const [name, request, status, code] of cases) {
    test(`${name}: ${status} ${code}`, async () => {
      await expectUnchanged(server, doc, request, status, code);
    });
  }
  test('the outline is the one written before', async () => {
    assert.deepEqual((await getOutline(doc)).json().items.map((i: { title: string }) => i.title), ['Kept']);
  });
});

describe('the PUT body is checked by the route schema at every level (OutlineItemRequest refers to itself)', () => {
  const doc = 'outline/schema.pdf';
  const detail = async (body: object | string) => {
    const reply = await putOutline(doc, body);
    assert.equal(reply.status, 400, reply.text);
    return { code: reply.json().code as string, detail: reply.json().detail as string };
  };
  test('setup', async () => {
    await upload(doc, twoPages());
    ok(await putOutline(doc, { items: [{ title: 'Kept' }] }));
  });

  test('a nested problem is named by its place, in the standard 400', async () => {
    const deep = (leaf: object) => ({ items: [{ title: 'a', children: [{ title: 'b' }, { title: 'c', children: [leaf] }] }] });
    const colour = await detail(deep({ title: 'd', color: { red: 2, green: 0, blue: 0 } }));
    assert.equal(colour.code, 'VALIDATION_FAILED');
    assert.match(colour.detail, /items\.0\.children\.1\.children\.0\.color\.red/);
    assert.match((await detail(deep({ title: 'd', colour: 'red' }))).detail, /items\.0\.children\.1\.children\.0\.colour: unknown field/);
    assert.match((await detail(deep({ title: 'd', uri: 'https://a/', destination: { pageIndex: 0 } }))).detail, /items\.0\.children\.1\.children\.0: give destination or uri, not both/);
    assert.match((await detail(deep({ title: 'bad \ud800' }))).detail, /children\.0\.title: must be well-formed Unicode/);
    assert.match((await detail(deep({ open: true }))).detail, /children\.0\.title: required field is missing/);
  });

  test('a body nested far past 64 levels is 400 OUTLINE_TOO_LARGE (checked before the schema, without recursion)', async () => {
    // Written as text: JSON.stringify itself recurses.
    const depth = 20_000;
    const body = `{"items":[${'{"title":"L","children":['.repeat(depth)}{"title":"leaf"}${']}'.repeat(depth)}]}`;
    const reply = await call(server, 'PUT', `/documents/${doc}/outline`, { body: Buffer.from(body), headers: { 'content-type': 'application/json', accept: 'application/json' } });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json().code, 'OUTLINE_TOO_LARGE');
    assert.match(reply.json().detail, /deeper than 64 levels/);
  });

  test('XML: empty <children/> is no children, and <items/> removes the outline', async () => {
    ok(await putOutline(doc, '<Outline><items><item><title>Only</title><children/></item></items></Outline>'));
    assert.deepEqual((await getOutline(doc)).json().items, [{ title: 'Only', open: false, bold: false, italic: false }]);
    const removed = await putOutline(doc, '<Outline><items/></Outline>');
    ok(removed);
    assert.deepEqual(removed.json(), { items: [], itemCount: 0, warnings: [] });
  });

  test('OpenAPI describes the tree: the request\'s items and every item\'s children are OutlineItemRequest', async () => {
    const spec = (await call(server, 'GET', '/openapi.json')).json();
    const item = spec.components.schemas.OutlineItemRequest;
    assert.equal(item.properties.children.items.$ref, '#/components/schemas/OutlineItemRequest');
    assert.deepEqual(item.required, ['title']);
    const put = spec.paths['/pdfservice/v1/documents/{filePath}.pdf/outline']?.put ?? Object.entries(spec.paths as Record<string, any>).find(([k]) => k.endsWith('/outline'))![1].put;
    const body = put.requestBody.content['application/json'].schema;
    const request = body.$ref ? spec.components.schemas[body.$ref.split('/').pop()] : body;
    assert.equal(request.properties.items.items.$ref, '#/components/schemas/OutlineItemRequest');
  });
});
