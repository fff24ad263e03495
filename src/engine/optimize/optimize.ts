import * as mupdf from 'mupdf';
import type { PdfInput } from '../core/document-task.js';
import { withPdf } from '../core/document-task.js';
import { refuseIfSigned, saveOptimized } from '../core/save.js';
import { sourceSize } from '../core/pdf-source.js';
import { requirePermission } from '../core/access.js';
import { needsPassword } from '../core/encryption.js';
import type { TaskContext } from '../task-context.js';
import type { OptimizeSettings } from './model.js';
import { rewriteImages, type ImageStats } from './images.js';
import { recompressFlateStreams, recompressImages } from './recompress.js';
import { writtenImageStreams } from './scan.js';
import { discardAnnotations, discardUnusedResources, hasEmptyStateNames, keepFontWidths, sizeCategories, type SizeCategories } from './objects.js';

export interface OptimizeInput extends PdfInput {
  settings: OptimizeSettings;
}

/** OptimizeAction's report (docs/optimize.md#optimizeaction). */
export interface OptimizeReport {
  /** False: the result was not smaller than the document, which is left as it was (nothing written). */
  changed: boolean;
  bytesBefore: number;
  bytesAfter: number;
  encrypted: boolean;
  /** `recompressed`: images no handler covers whose lossless coding was replaced by a smaller one (same samples). */
  images: { examined: number; changed: number; downsampled: number; keptLarger: number; recompressed: number; count: number; bytesBefore: number; bytesAfter: number };
  fonts: { count: number; countAfter: number; bytesBefore: number; bytesAfter: number; subset: boolean };
  /** `flateRecompressed`: other streams (content, fonts, files) whose Flate was redone at level 9 because that was smaller. */
  otherObjects: { bytesBefore: number; bytesAfter: number; unusedResourcesRemoved: number; annotationsRemoved: number; flateRecompressed: number };
  /** What was left as it was and why (a bi-level image above its target, a colour-key masked image). */
  notes: string[];
}

/**
 * The `optimize` task: OptimizeAction's engine work, in one worker. The
 * document must allow changes (the file is rewritten) and carry no
 * signature (409 DOCUMENT_SIGNED: a full rewrite invalidates it). Images
 * first (images.ts), then annotations and unused resources (objects.ts),
 * font subsetting, and the save with deduplication, maximum Flate and object
 * streams (core/save.ts). Answers no bytes when the result is not smaller.
 */
export function optimize(input: OptimizeInput, ctx: TaskContext): { bytes?: Uint8Array; report: OptimizeReport; summary?: { encrypted: boolean; pageCount: number; repaired: false } } {
  return withPdf(input, 'view', (doc, opened) => {
    requirePermission(opened, 'edit');
    refuseIfSigned(doc, 'optimizing rewrites the whole file, which invalidates its signatures');
    const { settings } = input;
    const bytesBefore = sourceSize(input.pdf);
    const before = sizeCategories(doc);
    // Without an image handler no image is rewritten: the survey (every page run through a device) is skipped.
    const handlers = settings.colorImageHandler !== undefined || settings.grayImageHandler !== undefined || settings.bwImageHandler !== undefined;
    const images: ImageStats = handlers
      ? rewriteImages(doc, settings, (done, total) => ctx.progress({ done, total, unit: 'images', stage: 'images' }))
      : { examined: 0, changed: 0, downsampled: 0, keptLarger: 0, skipped: [], freed: new Set() };
    const recompressed = recompressImages(doc, settings, before.imageObjects);
    const annotationsRemoved = settings.discardAnnotations ? discardAnnotations(doc) : 0;
    const unusedResourcesRemoved = settings.discardUnusedResources !== false ? discardUnusedResources(doc) : 0;
    let subset = false;
    // Subsetting runs every page's content: not when there is no embedded font program to subset.
    if (settings.mergeDuplicateFonts !== false && before.fonts.count > 0) {
      const restoreWidths = keepFontWidths(doc);
      try {
        doc.subsetFonts();
        restoreWidths();
        subset = true;
      } catch {
        // A font MuPDF cannot subset stays whole; duplicates are still merged at the save.
      }
    }
    // After subsetting, which writes font programs anew (MuPDF compresses those at the save).
    const streams = recompressFlateStreams(doc);
    // MuPDF's deduplication compares every object with every other (3.7 s on the 200-page bench document, whose 200
    // images are one image 200 times): asked for only when some image or font program has a twin, which is what the
    // profile's options are about.
    // Without font programs and without handlers (which may turn inline images into new objects) the twins can only be
    // among the document's own images: only those are looked at.
    const merge = settings.mergeDuplicateImages !== false || settings.mergeDuplicateFonts !== false;
    let objectStreams = settings.compressObjectsIntoStreams !== false;
    if (objectStreams && hasEmptyStateNames(doc)) {
      objectStreams = false;
      images.skipped.push('written without object streams: the form uses empty names as appearance states, which MuPDF would corrupt in an object stream');
    }
    const bytes = saveOptimized(doc, { deduplicate: merge && sizeCategories(doc, { freed: images.freed, duplicates: true, ...(before.fonts.count === 0 && !handlers ? { only: before.imageObjects } : {}) }).duplicates > 0, objectStreams });
    const after = measure(bytes, input.password, before.fonts.count > 0);
    const report: OptimizeReport = {
      changed: bytes.length < bytesBefore,
      bytesBefore,
      bytesAfter: bytes.length < bytesBefore ? bytes.length : bytesBefore,
      encrypted: opened.encrypted,
      images: { examined: images.examined, changed: images.changed, downsampled: images.downsampled, keptLarger: images.keptLarger, recompressed: recompressed.recompressed, count: before.images.count, bytesBefore: before.images.bytes, bytesAfter: after.images.bytes },
      fonts: { count: before.fonts.count, countAfter: after.fonts.count, bytesBefore: before.fonts.bytes, bytesAfter: after.fonts.bytes, subset },
      otherObjects: {
        bytesBefore: bytesBefore - before.images.bytes - before.fonts.bytes,
        bytesAfter: bytes.length - after.images.bytes - after.fonts.bytes,
        unusedResourcesRemoved,
        annotationsRemoved,
        flateRecompressed: streams.recompressed,
      },
      notes: images.skipped,
    };
    if (!report.changed) {
      report.images.bytesAfter = before.images.bytes;
      report.fonts.bytesAfter = before.fonts.bytes;
      report.fonts.countAfter = before.fonts.count;
      report.otherObjects.bytesAfter = report.otherObjects.bytesBefore;
      return { report };
    }
    // What the runner would otherwise open the output again for: the pages and the encryption are those of the document saved.
    return { bytes, report, summary: { encrypted: opened.encrypted, pageCount: doc.countPages(), repaired: false } };
  });
}

/**
 * The categories of the written file, read back (object streams and deduplication change what the document held).
 * MuPDF's /Length entries are exact, so no stream is read: the walk costs about what the save did not.
 */
function measure(bytes: Uint8Array, password: string | undefined, fonts: boolean): SizeCategories {
  // Without font programs (nothing adds one) the images are all there is to measure, and reading the bytes finds them.
  const images = fonts ? undefined : writtenImageStreams(bytes);
  if (images) return { images, fonts: { count: 0, bytes: 0 }, duplicates: 0, imageObjects: [] };
  const doc = new mupdf.PDFDocument(bytes);
  try {
    // Not MuPDF's needsPassword(): for AES-256 it runs the slow hash of the empty password again (core/encryption.ts).
    if (needsPassword(doc) && password !== undefined) doc.authenticatePassword(password);
    return sizeCategories(doc, { trustLength: true });
  } finally {
    doc.destroy();
  }
}
