import type { Engine } from '../../execution.js';
import type { HtmlMetadata } from './options.js';

/**
 * The post-processing of Chromium's PDF, between the browser and the service's output check (docs/html.md, "Tagged
 * output (PDF/UA)"). A tagged print is finished by the finishTaggedPdf task (metadata in Info and XMP, /Lang, link
 * descriptions, role map, list bodies, artifacts; pdfuaid only where it holds); an untagged one (tagged=false) only
 * gets the metadata options, through the metadata task (docs/metadata.md).
 */
export async function finishHtmlPdf(engine: Engine, pdf: Uint8Array, tagged: boolean, metadata: HtmlMetadata): Promise<Uint8Array> {
  if (tagged) return (await engine.run('finishTaggedPdf', { pdf, metadata })).bytes;
  const change = Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== undefined));
  if (Object.keys(change).length === 0) return pdf;
  const { bytes } = await engine.run('writeMetadata', { pdf, change, replace: false });
  return bytes;
}
