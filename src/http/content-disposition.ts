/**
 * Reads a Content-Disposition-style value ("attachment; filename=\"a.csv\";
 * filename*=UTF-8''%C3%A4.csv"), RFC 6266: filename* wins over filename.
 */
export function parseContentDisposition(value: string): { fileName?: string } {
  const params = new Map<string, string>();
  const re = /;\s*([^\s=;]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]*)/g;
  for (const m of `;${value.replace(/^[^;]*/, '')}`.matchAll(re)) {
    const raw = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : (m[2] ?? '').trim();
    params.set(m[1]!.toLowerCase(), raw);
  }
  const extended = params.get('filename*');
  if (extended) {
    const ext = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(extended);
    if (ext && ext[1]!.toLowerCase() === 'utf-8') {
      try {
        return { fileName: decodeURIComponent(ext[2]!) };
      } catch {
        /* fall back to filename */
      }
    }
  }
  const plain = params.get('filename');
  return plain ? { fileName: plain } : {};
}
