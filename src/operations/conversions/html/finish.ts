import type { Engine } from '../../execution.js';
import type { HtmlMetadata } from './options.js';

/**
 * The post-processing of Chromium's PDF, between the browser and the service's output check (docs/html.md, "Tagged
 * output"): the place where the tagged PDF is finished. For now it writes the metadata options through the metadata
 * task (Info dictionary, XMP packet and /Lang together, docs/metadata.md); the engine task that completes the tagged
 * output (XMP dc:title, alt text onto Figures, PDF/UA fixes; issue 41) goes here.
 */
export async function finishHtmlPdf(engine: Engine, pdf: Uint8Array, metadata: HtmlMetadata): Promise<Uint8Array> {
  const change = Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== undefined));
  if (Object.keys(change).length === 0) return pdf;
  const { bytes } = await engine.run('writeMetadata', { pdf, change, replace: false });
  return bytes;
}
