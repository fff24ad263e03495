import MarkdownIt, { type StateCore, type Token } from 'markdown-it';

/**
 * Markdown uploads (docs/html.md, "Markdown"): the Markdown made into one complete HTML page that Chromium prints like
 * any HTML upload. markdown-it (MIT; docs/architecture.md, Decisions): CommonMark, with GFM's tables, strikethrough and
 * autolinks (linkify-it). Raw HTML in the Markdown is kept, as CommonMark says: the page is rendered offline with
 * JavaScript off, exactly as an HTML upload would be, so escaping it would take away markup (a <br>, a <figure>, an
 * <abbr>) and protect nothing the HTML upload does not already allow. No MuPDF, no I/O: pure text work.
 */

export interface MarkdownPageOptions {
  /** The user's style sheet, placed after the default one (so it wins where both set something). */
  css?: string | undefined;
  /** The page's <title> (the PDF's title); the first heading's text by default. */
  title?: string | undefined;
  /** The page's language (<html lang>, the PDF's /Lang), a BCP 47 tag; none by default. */
  lang?: string | undefined;
  /** Whether the default @page rule (A4 and its margins) is written; true by default. */
  page?: boolean | undefined;
}

/**
 * The default page: A4 with margins for a printed text. Left out when the upload gives its own paper or margins
 * (options.page false), which Chromium then takes from the print options.
 */
export const MARKDOWN_PAGE_CSS = '@page { size: A4; margin: 20mm 18mm 22mm 18mm; }\n';

/**
 * The default print style sheet (after MARKDOWN_PAGE_CSS): a serif body and sans-serif headings that Debian's font packages
 * install (fonts-noto-core, fonts-dejavu-core, fonts-liberation: fc-list), then the generic families. Headings stay
 * with what follows them, table rows and code blocks are not cut by a page break where they fit on one page, a
 * table's header row repeats on each page it spans, images never overflow the text width. Backgrounds of table
 * headers and code are printed whatever `printBackground` says (print-color-adjust).
 */
export const DEFAULT_MARKDOWN_CSS = `html { font-family: "Noto Serif", "DejaVu Serif", "Liberation Serif", serif; font-size: 11pt; line-height: 1.45; color: #1a1a1a; }
body { margin: 0; }
h1, h2, h3, h4, h5, h6 { font-family: "Noto Sans", "DejaVu Sans", "Liberation Sans", sans-serif; line-height: 1.2; margin: 1.3em 0 0.45em; break-after: avoid; page-break-after: avoid; break-inside: avoid; }
h1 { font-size: 21pt; margin-top: 0; }
h2 { font-size: 15.5pt; padding-bottom: 2pt; border-bottom: 0.5pt solid #9a9a9a; }
h3 { font-size: 13pt; }
h4 { font-size: 11.5pt; }
h5, h6 { font-size: 10.5pt; }
h6 { color: #444; }
p, ul, ol, dl, blockquote, pre, table, figure { margin: 0 0 0.8em; }
p, li, dd { orphans: 3; widows: 3; }
ul, ol { padding-left: 1.6em; }
li > ul, li > ol { margin-bottom: 0; }
a { color: #174a87; }
strong { font-weight: 700; }
del, s { color: #555; }
code, kbd, samp, pre { font-family: "DejaVu Sans Mono", "Liberation Mono", "Noto Sans Mono", monospace; font-size: 9.2pt; }
code { background: #f2f2f2; padding: 0.05em 0.25em; border-radius: 2pt; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
pre { background: #f6f6f6; border: 0.5pt solid #c8c8c8; border-radius: 3pt; padding: 6pt 8pt; line-height: 1.35; white-space: pre-wrap; overflow-wrap: anywhere; break-inside: avoid; page-break-inside: avoid; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
pre code { background: none; padding: 0; border-radius: 0; }
blockquote { margin-left: 0; margin-right: 0; padding: 0 0 0 10pt; border-left: 3pt solid #bdbdbd; color: #3d3d3d; }
table { border-collapse: collapse; max-width: 100%; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
th, td { border: 0.5pt solid #8c8c8c; padding: 3pt 6pt; vertical-align: top; text-align: left; }
th { background: #ececec; font-weight: 700; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
img { max-width: 100%; height: auto; break-inside: avoid; }
hr { border: 0; border-top: 0.5pt solid #9a9a9a; margin: 1.2em 0; }
`;

// One instance for the process: rendering keeps its state in the call's env, not in the instance.
const md = new MarkdownIt('default', { html: true, linkify: true, typographer: false });
md.core.ruler.push('heading_ids', headingIds);
// Header cells name what they head (scope="col"), so a table's structure is plain to assistive technology.
md.renderer.rules.th_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet('scope', 'col');
  return self.renderToken(tokens, idx, options);
};

// A type, not an interface: markdown-it's Env is an index signature, which only an object type literal meets.
type RenderEnv = {
  /** Ids given so far, for unique ones. */
  taken?: Set<string>;
  /** The next number to try after an id, per id. */
  next?: Map<string, number>;
  /** The first heading's text. */
  firstHeading?: string;
};

/** A heading's id: its text in lower case, runs of anything but letters, digits, "_" and "-" made one "-" (GitHub's kind). */
export function headingSlug(text: string): string {
  const slug = text.normalize('NFC').toLowerCase().replace(/[^\p{L}\p{M}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '');
  return slug || 'section';
}

/** Gives each heading an id (for links to it and for the PDF outline's destinations), unique in the page: "intro", "intro-1", ... */
function headingIds(state: StateCore): void {
  const env = state.env as RenderEnv;
  const taken = (env.taken ??= new Set());
  const next = (env.next ??= new Map());
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== 'heading_open') continue;
    const inline = tokens[i + 1];
    const text = inline?.type === 'inline' ? plainText(inline.children ?? []) : '';
    if (env.firstHeading === undefined && text.trim() !== '') env.firstHeading = text.trim();
    if (token.attrGet('id') !== null) continue;
    const base = headingSlug(text);
    let n = next.get(base) ?? 0;
    let id = n === 0 ? base : `${base}-${n}`;
    while (taken.has(id)) id = `${base}-${++n}`;
    next.set(base, n + 1);
    taken.add(id);
    token.attrSet('id', id);
  }
}

/** The text a heading shows: its text and code spans, and images' alt text; markup left out. */
function plainText(children: Token[]): string {
  let out = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline') out += child.content;
    else if (child.type === 'image') out += plainText(child.children ?? []);
    else if (child.type === 'softbreak' || child.type === 'hardbreak') out += ' ';
  }
  return out;
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Markdown into a complete HTML page: doctype, <html lang>, UTF-8, <title>, the default print style sheet, then the
 * user's (in a <style> element of its own, where "</" cannot end the element), then the body.
 */
export function markdownToHtml(markdown: string, options: MarkdownPageOptions = {}): string {
  const env: RenderEnv = {};
  const body = md.render(markdown, env);
  const title = options.title ?? env.firstHeading;
  const css = options.css === undefined || options.css.trim() === '' ? '' : `<style>\n${options.css.replace(/<\//g, '<\\/')}\n</style>\n`;
  return (
    '<!DOCTYPE html>\n' +
    `<html${options.lang ? ` lang="${escapeHtml(options.lang)}"` : ''}>\n<head>\n<meta charset="utf-8">\n` +
    (title !== undefined ? `<title>${escapeHtml(title)}</title>\n` : '') +
    `<style>\n${options.page === false ? '' : MARKDOWN_PAGE_CSS}${DEFAULT_MARKDOWN_CSS}</style>\n${css}</head>\n<body>\n${body}</body>\n</html>\n`
  );
}
