/**
 * Media types the service accepts as a document body; DocumentOperations.store decides what each becomes.
 * Declared in the operations layer, which decides, so that it does not import from `http` (docs/architecture.md, Layers).
 */
export const PDF_TYPE = 'application/pdf';
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/tiff', 'image/gif'] as const;
export const WORD_TYPES = [
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;
