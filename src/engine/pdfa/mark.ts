import * as mupdf from 'mupdf';
import { editPdf } from '../core/document-task.js';
import type { PdfSource } from '../core/pdf-source.js';
import type { PdfaFinding } from './model.js';

/** A report longer than this is cut (the answer's JSON has all of it). */
const MAX_LINES = 400;
const LINES_PER_PAGE = 56;
/** Notes added at most, over all pages. */
const MAX_NOTES = 100;

/**
 * The `pdfaMark` task: a failed PDF/A conversion's report put into the
 * document that is written instead (PDFAConvertAction `appendReport`,
 * `addAnnots`; docs/pdfa.md): pages with the failed rules appended at the
 * end, and/or a note (Text annotation) at the top left of each page a rule
 * failed on, saying which. The document is the source as it was (its
 * encryption kept), never a conversion: nothing in it claims PDF/A.
 */
export function pdfaMark(input: { pdf: PdfSource; password?: string | undefined; profile: string; findings: PdfaFinding[]; appendReport: boolean; addAnnots: boolean }): { bytes: Uint8Array; pagesAdded: number; notesAdded: number } {
  return editPdf(input, 'edit', (doc, edit) => {
    let notesAdded = 0;
    if (input.addAnnots) {
      const pageCount = doc.countPages();
      const perPage = new Map<number, string[]>();
      for (const finding of input.findings) {
        for (const location of finding.locations) {
          if (location.pageIndex === undefined || location.pageIndex >= pageCount) continue;
          const list = perPage.get(location.pageIndex) ?? [];
          list.push(`${finding.clause}-${finding.testNumber}: ${finding.description} (${location.context})`);
          perPage.set(location.pageIndex, list);
        }
      }
      for (const [pageIndex, notes] of [...perPage].sort((a, b) => a[0] - b[0])) {
        const page = doc.loadPage(pageIndex);
        try {
          const [x0, , , y1] = page.getBounds();
          for (const [i, note] of notes.entries()) {
            if (notesAdded >= MAX_NOTES) break;
            const annot = page.createAnnotation('Text');
            const top = y1 - 24 - 22 * (i % 20);
            annot.setRect([x0 + 4 + 22 * Math.floor(i / 20), top, x0 + 24 + 22 * Math.floor(i / 20), top + 20]);
            annot.setContents(`PDF/A (${input.profile}) not met: ${note}`);
            annot.setAuthor('pdfservice PDFAConvertAction');
            annot.setColor([1, 0, 0]);
            annot.update();
            notesAdded++;
          }
        } finally {
          page.destroy();
        }
      }
    }
    let pagesAdded = 0;
    if (input.appendReport) {
      const lines = reportLines(input.profile, input.findings);
      const font = doc.addSimpleFont(new mupdf.Font('Helvetica'), 'Latin');
      for (let start = 0; start < lines.length; start += LINES_PER_PAGE) {
        const chunk = lines.slice(start, start + LINES_PER_PAGE);
        const content = ['BT', '/F1 9 Tf', '11 TL', '40 800 Td', ...chunk.map((line) => `(${escape(line)}) '`), 'ET'].join('\n');
        const pageObj = doc.addPage([0, 0, 595, 842], 0, { Font: { F1: font } }, content);
        doc.insertPage(-1, pageObj);
        pagesAdded++;
      }
    }
    if (!notesAdded && !pagesAdded) return { bytes: new Uint8Array(), pagesAdded, notesAdded };
    return { bytes: edit.save(), pagesAdded, notesAdded };
  });
}

function reportLines(profile: string, findings: PdfaFinding[]): string[] {
  const lines = [`PDF/A conversion report: the document does not meet ${profile}.`, `${findings.length} rule(s) failed. This document is not PDF/A.`, ''];
  for (const finding of findings) {
    lines.push(...wrap(`${finding.specification} ${finding.clause}-${finding.testNumber} (${finding.failedChecks} time(s)): ${finding.description}`, 110));
    for (const location of finding.locations) {
      const where = [location.pageIndex !== undefined ? `page ${location.pageIndex + 1}` : undefined, location.objectNumber !== undefined ? `object ${location.objectNumber}` : undefined].filter(Boolean).join(', ');
      lines.push(...wrap(`    ${where ? `${where}: ` : ''}${location.context}`, 110));
    }
    lines.push('');
    if (lines.length > MAX_LINES) {
      lines.length = MAX_LINES;
      lines.push('(cut: the action\'s answer lists every rule)');
      break;
    }
  }
  return lines;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(' ', width);
    if (cut <= 0) cut = width;
    out.push(rest.slice(0, cut));
    rest = `      ${rest.slice(cut).trimStart()}`;
  }
  out.push(rest);
  return out;
}

/** A PDF literal string in the font's Latin (WinAnsi) encoding: what it cannot show becomes "?". */
function escape(line: string): string {
  return line.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
}
