import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Hosts of namespace and schema URIs, which name vocabularies and are never fetched as links. */
const NAMESPACE_HOSTS = /(^|\.)(openxmlformats\.org|microsoft\.com|w3\.org|purl\.org|oasis-open\.org|openoffice\.org|libreoffice\.org|adobe\.com)$/i;

/**
 * A copy of a hostile file whose external http(s) URLs point at the listener and whose file links (file:// URLs and
 * relative external relationship targets) at the canaries; null when it has none. ZIP packages are rewritten part by
 * part by Python's zipfile; other files (a BIFF8 workbook's external reference) get same-length replacements, so
 * their length-prefixed strings stay valid.
 */
export function retarget(file: string, port: number, canaries: string): { bytes: Buffer; count: number } | null {
  const bytes = readFileSync(file);
  if (bytes.subarray(0, 4).equals(Buffer.from('504b0304', 'hex'))) {
    const script = String.raw`
import io, json, re, sys, zipfile
port, canaries, namespaces = sys.argv[1], sys.argv[2], re.compile(sys.argv[3], re.I)
count = 0
def ext(url):
    m = re.search(r'\.([A-Za-z0-9]{1,4})$', url.split('#')[0].split("'")[0])
    return m.group(1).lower() if m else 'bin'
def canary(url):
    e = ext(url)
    return 'file://%s/canary.%s' % (canaries, e if e in ('docx','txt','xlsx','xls','csv','rtf','odt','ods','png') else ('png' if e in ('jpg','jpeg','gif','wmf','emf','bmp') else 'bin'))
def http(m):
    global count
    if namespaces.search(m.group(2)): return m.group(0)
    count += 1
    return 'http://127.0.0.1:%s/r%d.%s' % (port, count, ext(m.group(0)))
def file(m):
    global count
    count += 1
    return canary(m.group(0))
def rel(m):
    global count
    target = m.group(2)
    if re.match(r'[a-z]+:', target, re.I): return m.group(0)
    count += 1
    return m.group(1) + canary(target) + m.group(3)
src = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))
out = io.BytesIO()
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(('.xml', '.rels')):
            text = data.decode('utf-8')
            text = re.sub(r'(https?)://([^/"\'<>\s\\]+)[^"\'<>\s\\]*', http, text)
            text = re.sub(r'file:/[^"\'<>\s\\]+', file, text)
            if info.filename.endswith('.rels'):
                text = re.sub(r'(<Relationship\b(?=[^>]*TargetMode="External")[^>]*\bTarget=")([^"]*)("[^>]*>)', rel, text)
            data = text.encode('utf-8')
        z.writestr(info.filename, data, zipfile.ZIP_STORED if info.filename == 'mimetype' else zipfile.ZIP_DEFLATED)
sys.stdout.write(json.dumps({'count': count}) + '\n')
sys.stdout.flush()
sys.stdout.buffer.write(out.getvalue())
`;
    const out = execFileSync('python3', ['-c', script, String(port), canaries, NAMESPACE_HOSTS.source], { input: bytes, maxBuffer: 256 * 1024 * 1024 });
    const newline = out.indexOf(0x0a);
    const { count } = JSON.parse(out.subarray(0, newline).toString('utf8')) as { count: number };
    return count ? { bytes: out.subarray(newline + 1), count } : null;
  }
  let count = 0;
  const text = bytes.toString('latin1').replace(/https?:\/\/([A-Za-z0-9.-]+)[\x21-\x7e]*/g, (match: string, host: string, offset: number, whole: string) => {
    // BIFF8's encoded path puts the URL's length just before it: the printable bytes after it belong to the record.
    const length = whole.charCodeAt(offset - 1);
    const url = length <= match.length && length > 10 ? match.slice(0, length) : match;
    const replacement = `http://127.0.0.1:${port}/`;
    if (NAMESPACE_HOSTS.test(host) || url.length < replacement.length + 1) return match;
    count++;
    return replacement + 'x'.repeat(url.length - replacement.length) + match.slice(url.length);
  });
  return count ? { bytes: Buffer.from(text, 'latin1'), count } : null;
}
