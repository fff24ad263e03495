/**
 * The DOCX writer's choice (issue 43; Decisions table, docs/architecture.md): the `docx` library (src/engine/export/docx.ts)
 * against WordprocessingML written by hand, both from the same export model of 100 and 1,000 pages (a heading, two
 * paragraphs, a list, a 4x5 table and a link per page; no images, which the hand-written peer leaves out). Timed in
 * this process, interleaved repetition by repetition (ours, peer, ours, peer...), with the load average; each output is
 * checked by python-docx (Debian's python3-docx) and LibreOffice for validity. Not part of run.ts: a one-off measurement,
 * run as `node dist/bench/docx-writer.js [--quick]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { strToU8, zipSync } from 'fflate';
import { toDocx } from '../src/engine/export/docx.js';
import type { ExportBlock, ExportModel, TextBlock } from '../src/engine/export/model.js';
import { median } from './lib.js';

const font = { name: 'LiberationSerif', size: 12, bold: false, italic: false };
const rect = { x: 72, y: 72, width: 400, height: 20 };

function model(pages: number): ExportModel {
  const text = (type: TextBlock['type'], t: string, extra: Partial<TextBlock> = {}): TextBlock => ({ type, text: t, font, rectangle: rect, ...extra });
  return {
    pageCount: pages,
    removed: { runningLines: 0 },
    warnings: [],
    pages: Array.from({ length: pages }, (_, i) => ({
      pageIndex: i,
      width: 612,
      height: 792,
      source: 'layout' as const,
      blocks: [
        text('heading', `Chapter ${i + 1}`, { level: 1 }),
        text('paragraph', `Paragraph one of page ${i + 1}: ${'words that fill a line of running text '.repeat(6)}see the source.`, { links: [{ text: 'the source', uri: `https://example.org/${i}` }] }),
        ...['First point', 'Second point', 'Third point'].map((t) => text('listItem', t, { ordered: i % 2 === 0 })),
        { type: 'table', rectangle: rect, rows: Array.from({ length: 5 }, (_, r) => Array.from({ length: 4 }, (_, c) => ({ text: r === 0 ? `Column ${c + 1}` : `${r * c + i}`, rowSpan: 1, colSpan: 1 }))) },
        text('paragraph', `Paragraph two of page ${i + 1}.`),
      ] as ExportBlock[],
    })),
  };
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** The peer: the same document as WordprocessingML strings, zipped by fflate (which the docx library uses too). */
function handWritten(m: ExportModel): Uint8Array {
  const rels: string[] = [];
  const body: string[] = [];
  const run = (t: string) => `<w:r><w:t xml:space="preserve">${esc(t)}</w:t></w:r>`;
  const runs = (b: TextBlock) => {
    let out = '';
    let at = 0;
    for (const l of b.links ?? []) {
      const found = b.text.indexOf(l.text, at);
      if (found < 0) continue;
      rels.push(`<Relationship Id="rIdL${rels.length}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${esc(l.uri)}" TargetMode="External"/>`);
      out += run(b.text.slice(at, found)) + `<w:hyperlink r:id="rIdL${rels.length - 1}">${run(l.text)}</w:hyperlink>`;
      at = found + l.text.length;
    }
    return out + run(b.text.slice(at));
  };
  for (const [n, page] of m.pages.entries()) {
    let first = n > 0;
    const pPr = (inner: string) => {
      const s = `<w:pPr>${inner}${first ? '<w:pageBreakBefore/>' : ''}</w:pPr>`;
      first = false;
      return s;
    };
    for (const b of page.blocks) {
      if (b.type === 'table') {
        if (first) body.push(`<w:p>${pPr('')}</w:p>`);
        const cols = b.rows[0]!.length;
        body.push(
          `<w:tbl><w:tblPr><w:tblW w:w="${cols * 2000}" w:type="dxa"/><w:tblBorders><w:top w:val="single"/><w:bottom w:val="single"/><w:insideH w:val="single"/><w:insideV w:val="single"/></w:tblBorders></w:tblPr><w:tblGrid>${'<w:gridCol w:w="2000"/>'.repeat(cols)}</w:tblGrid>` +
            b.rows.map((r, i) => `<w:tr>${i === 0 ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${r.map((c) => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr><w:p>${run(c.text)}</w:p></w:tc>`).join('')}</w:tr>`).join('') +
            '</w:tbl>',
        );
      } else if (b.type === 'heading') body.push(`<w:p>${pPr(`<w:pStyle w:val="Heading${b.level ?? 1}"/>`)}${runs(b)}</w:p>`);
      else if (b.type === 'listItem') body.push(`<w:p>${pPr(`<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="${b.ordered ? 2 : 1}"/></w:numPr>`)}${runs(b)}</w:p>`);
      else if (b.type === 'paragraph') body.push(`<w:p>${pPr('')}${runs(b)}</w:p>`);
    }
  }
  const heading = (k: number) => `<w:style w:type="paragraph" w:styleId="Heading${k}"><w:name w:val="heading ${k}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:outlineLvl w:val="${k - 1}"/></w:pPr><w:rPr><w:b/><w:sz w:val="${36 - 4 * k}"/></w:rPr></w:style>`;
  const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${W}><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>${[1, 2, 3, 4, 5, 6].map(heading).join('')}<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/></w:style></w:styles>`;
  const level = (fmt: string, text: string) => `<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${text}"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl>`;
  const numbering = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering ${W}><w:abstractNum w:abstractNumId="1">${level('bullet', '•')}</w:abstractNum><w:abstractNum w:abstractNumId="2">${level('decimal', '%1.')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="2"/></w:num></w:numbering>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body.join('')}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`;
  const docRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rIdN" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>${rels.join('')}</Relationships>`;
  const types = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/></Types>`;
  const root = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
  return zipSync({ '[Content_Types].xml': strToU8(types), _rels: { '.rels': strToU8(root) }, word: { 'document.xml': strToU8(document), 'styles.xml': strToU8(styles), 'numbering.xml': strToU8(numbering), _rels: { 'document.xml.rels': strToU8(docRels) } } });
}

/** Whether python-docx reads the file (its paragraph and table counts) and LibreOffice prints it (its page count); the PDF LibreOffice printed. */
function validity(docx: Uint8Array): { line: string; pdf?: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'docx-bench-'));
  try {
    const file = path.join(dir, 'out.docx');
    writeFileSync(file, docx);
    const py = execFileSync('/usr/bin/python3', ['-c', 'import sys, docx; d = docx.Document(sys.argv[1]); print(f"python-docx: {len(d.paragraphs)} paragraphs, {len(d.tables)} tables, styles {sorted({p.style.name for p in d.paragraphs})}")', file]).toString().trim();
    execFileSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', dir, file], { stdio: 'ignore', timeout: 300_000 });
    const pages = /Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path.join(dir, 'out.pdf')]).toString())?.[1];
    return { line: `${py}; LibreOffice: ${pages} pages`, pdf: readFileSync(path.join(dir, 'out.pdf')) };
  } catch (err) {
    return { line: `invalid: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const quick = process.argv.includes('--quick');
for (const pages of [100, 1000]) {
  const m = model(pages);
  const reps = quick ? 3 : pages >= 1000 ? 5 : 11;
  const ours: number[] = [];
  const peer: number[] = [];
  const ratios: number[] = [];
  const load = loadavg()[0]!;
  let a: Uint8Array = new Uint8Array();
  let b: Uint8Array = new Uint8Array();
  // One untimed run of each first (compilation).
  await toDocx(m, 'bench');
  handWritten(m);
  for (let i = 0; i < reps; i++) {
    let t = performance.now();
    a = await toDocx(m, 'bench');
    ours.push(performance.now() - t);
    t = performance.now();
    b = handWritten(m);
    peer.push(performance.now() - t);
    ratios.push(ours[i]! / peer[i]!);
  }
  const r = [...ratios].sort((x, y) => x - y);
  console.log(
    `${pages} pages: docx ${median(ours).toFixed(0)} ms (${Math.min(...ours).toFixed(0)}-${Math.max(...ours).toFixed(0)}), ${a.byteLength} bytes; ` +
      `by hand ${median(peer).toFixed(0)} ms (${Math.min(...peer).toFixed(0)}-${Math.max(...peer).toFixed(0)}), ${b.byteLength} bytes; ` +
      `ratio ${median(ratios).toFixed(2)}x (${r[0]!.toFixed(2)}-${r[r.length - 1]!.toFixed(2)}); load ${load.toFixed(1)}->${loadavg()[0]!.toFixed(1)}`,
  );
  if (pages === 100) {
    const ofOurs = validity(a);
    console.log(`  docx: ${ofOurs.line}`);
    console.log(`  by hand: ${validity(b).line}`);
    if (ofOurs.pdf) await wholeExport(ofOurs.pdf);
  }
}

/**
 * The whole export task (MuPDF's reading, the layout analysis, the writer) of the 100-page PDF LibreOffice printed of
 * the DOCX above, as DOCX against Markdown, interleaved: the writer's share of an export.
 */
async function wholeExport(pdf: Buffer): Promise<void> {
  const { exportDocument } = await import('../src/engine/export/export.js');
  const run = async (format: 'docx' | 'markdown') => {
    const t = performance.now();
    await exportDocument({ pdf: new Uint8Array(pdf), format, title: 'bench' });
    return performance.now() - t;
  };
  await run('docx');
  await run('markdown');
  const docx: number[] = [];
  const md: number[] = [];
  const load = loadavg()[0]!;
  for (let i = 0; i < (quick ? 2 : 5); i++) {
    docx.push(await run('docx'));
    md.push(await run('markdown'));
  }
  console.log(
    `  whole export task, 100 pages: DOCX ${median(docx).toFixed(0)} ms (${Math.min(...docx).toFixed(0)}-${Math.max(...docx).toFixed(0)}), ` +
      `Markdown ${median(md).toFixed(0)} ms (${Math.min(...md).toFixed(0)}-${Math.max(...md).toFixed(0)}); load ${load.toFixed(1)}->${loadavg()[0]!.toFixed(1)}`,
  );
}

