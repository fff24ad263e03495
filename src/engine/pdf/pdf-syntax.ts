/**
 * The PDF object parser lives in ../pdf-syntax.ts: it uses no MuPDF, and FDF
 * files (../fdf.ts) are read with it outside this folder, which only modules
 * that load MuPDF belong in. Re-exported so this folder imports it as before.
 */
export * from '../pdf-syntax.js';
