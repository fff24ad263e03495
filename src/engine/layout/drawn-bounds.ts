import * as mupdf from 'mupdf';

/**
 * The bounds of what a page's content draws, in MuPDF page space: a device
 * that adds up the bounds of every fill, stroke, text and image (MuPDF's
 * bbox device is not in MuPDF.js), each cut to the clips in force. Text
 * drawn invisibly (an OCR layer) does not count; shadings count to their
 * clip. Annotations are not run. Empty when the page draws nothing.
 */
export function drawnBounds(page: mupdf.PDFPage): mupdf.Rect {
  let bounds: mupdf.Rect = [Infinity, Infinity, -Infinity, -Infinity];
  const clips: mupdf.Rect[] = [[-Infinity, -Infinity, Infinity, Infinity]];
  let tiles = 0;
  const clipTop = () => clips[clips.length - 1]!;
  const intersect = (a: mupdf.Rect, b: mupdf.Rect): mupdf.Rect => [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  const add = (r: mupdf.Rect) => {
    if (tiles > 0) return;
    const c = intersect(r, clipTop());
    if (c[2] <= c[0] || c[3] <= c[1]) return;
    bounds = [Math.min(bounds[0], c[0]), Math.min(bounds[1], c[1]), Math.max(bounds[2], c[2]), Math.max(bounds[3], c[3])];
  };
  const clip = (r: mupdf.Rect) => clips.push(intersect(r, clipTop()));
  const unit = (ctm: mupdf.Matrix) => mupdf.Rect.transform([0, 0, 1, 1], ctm);
  const device = new mupdf.Device({
    fillPath: (path, _evenOdd, ctm) => add(path.getBounds(null as unknown as mupdf.StrokeState, ctm)),
    strokePath: (path, stroke, ctm) => add(path.getBounds(stroke, ctm)),
    fillText: (text, ctm) => add(text.getBounds(null as unknown as mupdf.StrokeState, ctm)),
    strokeText: (text, stroke, ctm) => add(text.getBounds(stroke, ctm)),
    fillImage: (_image, ctm) => add(unit(ctm)),
    fillImageMask: (_image, ctm) => add(unit(ctm)),
    fillShade: () => add(clipTop()),
    clipPath: (path, _evenOdd, ctm) => clip(path.getBounds(null as unknown as mupdf.StrokeState, ctm)),
    clipStrokePath: (path, stroke, ctm) => clip(path.getBounds(stroke, ctm)),
    clipText: (text, ctm) => clip(text.getBounds(null as unknown as mupdf.StrokeState, ctm)),
    clipStrokeText: (text, stroke, ctm) => clip(text.getBounds(stroke, ctm)),
    clipImageMask: (_image, ctm) => clip(unit(ctm)),
    // A soft mask is popped as a clip: it limits nothing here.
    endMask: () => clips.push(clipTop()),
    popClip: () => void (clips.length > 1 && clips.pop()),
    // A tiling pattern fills its area (already in device space); what one tile draws is not added on its own.
    beginTile: (area) => {
      add(area);
      tiles++;
      return 0;
    },
    endTile: () => void tiles--,
  });
  try {
    page.runPageContents(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  return bounds;
}
