/** The image types uploads may be, told by their signatures; no MuPDF here, so the main thread may use it. */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/tiff', 'image/gif'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** The types an image stamp may be: drawn as they are, JPEG as DCTDecode, PNG with its alpha as an /SMask. */
export const STAMP_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export type StampImageType = (typeof STAMP_IMAGE_TYPES)[number];
/** What a stamp upload may say it is; application/octet-stream is decided by the content. */
export const DECLARED_STAMP_IMAGE_TYPES = [...STAMP_IMAGE_TYPES, 'application/octet-stream'] as const;
export type DeclaredImageType = (typeof DECLARED_STAMP_IMAGE_TYPES)[number];

export function isStampImageType(v: string | undefined): v is StampImageType {
  return (STAMP_IMAGE_TYPES as readonly (string | undefined)[]).includes(v);
}

export function isDeclaredImageType(v: string): v is DeclaredImageType {
  return (DECLARED_STAMP_IMAGE_TYPES as readonly string[]).includes(v);
}

export function isImageMediaType(v: string): v is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(v);
}

/** The image type named by the file's magic bytes, or undefined. */
export function sniffImageType(b: Uint8Array): ImageMediaType | undefined {
  const starts = (...sig: number[]) => b.length >= sig.length && sig.every((v, i) => b[i] === v);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'image/tiff';
  if (starts(0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || starts(0x47, 0x49, 0x46, 0x38, 0x39, 0x61)) return 'image/gif';
  return undefined;
}
