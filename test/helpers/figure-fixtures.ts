/** Tagged documents with figures, written byte for byte (test/api/figures.test.ts; the fuzzer's tagged document, scripts/schemathesis.sh). */
import { PdfObjects } from './pdf-writer.js';

/**
 * Two pages: page 1 a Figure with a Layout attribute (/A /BBox), page 2 an /Image (role-mapped to Figure) drawing an
 * image at 72 300 (100 x 50), and a Figure whose marked content is named through the page's /Properties and draws a
 * path. `tagged: false`: the same pages without a structure tree.
 */
export function taggedPdf({ tagged }: { tagged: boolean }): Buffer {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pagesNode = o.reserve();
  const image = o.stream('/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8', Buffer.from([128]));
  const root = o.reserve();
  const doc = o.reserve();
  const figs = [o.reserve(), o.reserve(), o.reserve()];
  const c1 = o.stream('', '/Figure << /MCID 0 >> BDC 0 0 1 rg 100 500 100 100 re f EMC');
  const c2 = o.stream('', 'q /Image << /MCID 0 >> BDC 100 0 0 50 72 300 cm /Im0 Do EMC Q /Figure /MC1 BDC 1 0 0 RG 300 300 m 340 360 l S EMC');
  const p1 = o.add(`<< /Type /Page /Parent ${pagesNode} 0 R /MediaBox [0 0 612 792] /Contents ${c1} 0 R /StructParents 0 >>`);
  const p2 = o.add(`<< /Type /Page /Parent ${pagesNode} 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 ${image} 0 R >> /Properties << /MC1 << /MCID 1 >> >> >> /Contents ${c2} 0 R /StructParents 1 >>`);
  o.set(figs[0]!, `<< /Type /StructElem /S /Figure /P ${doc} 0 R /Pg ${p1} 0 R /K 0 /Alt (Logo) /A << /O /Layout /BBox [100 500 200 600] /Placement /Block >> >>`);
  o.set(figs[1]!, `<< /Type /StructElem /S /Image /P ${doc} 0 R /Pg ${p2} 0 R /K 0 >>`);
  o.set(figs[2]!, `<< /Type /StructElem /S /Figure /P ${doc} 0 R /K << /Type /MCR /Pg ${p2} 0 R /MCID 1 >> >>`);
  o.set(doc, `<< /Type /StructElem /S /Document /P ${root} 0 R /K [${figs.map((f) => `${f} 0 R`).join(' ')}] >>`);
  const parentTree = o.add(`<< /Nums [0 [${figs[0]} 0 R] 1 [${figs[1]} 0 R ${figs[2]} 0 R]] >>`);
  o.set(root, `<< /Type /StructTreeRoot /K ${doc} 0 R /ParentTree ${parentTree} 0 R /ParentTreeNextKey 2 /RoleMap << /Image /Figure >> >>`);
  o.setPageTree(catalog, pagesNode, [p1, p2]);
  o.set(catalog, tagged ? `<< /Type /Catalog /Pages ${pagesNode} 0 R /StructTreeRoot ${root} 0 R /MarkInfo << /Marked true >> >>` : `<< /Type /Catalog /Pages ${pagesNode} 0 R >>`);
  return o.finish(`/Root ${catalog} 0 R`);
}
