/**
 * The one safe-XML check: every XML the service reads (request bodies, XFDF,
 * the XML inside XFDF appearances) is refused before parsing when it declares
 * a DOCTYPE or entities, so no DTD is read and no entity is declared, fetched
 * or expanded (XXE, billion laughs). Each caller words its own error.
 * No MuPDF here, so the main thread may use it.
 */
export function declaresDtd(text: string): boolean {
  return /<!DOCTYPE|<!ENTITY/i.test(text);
}
