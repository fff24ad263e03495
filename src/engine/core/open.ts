import { inflateSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import { pageOutOfRangeDetail } from '../../errors.js';
import { EngineError } from '../errors.js';
import { deref, name } from './mupdf-objects.js';
import { readAll, readAt, sourceSize, streamReader, type PdfSource } from './pdf-source.js';
import { prepareUnicode } from './passwords.js';
import { requirePermission, type Need } from './access.js';
import { emptyOwnerPasswordOpens, encryptionFacts, needsPassword as needsPasswordOf, ownerPasswordIsEmpty, type EncryptionFacts } from './encryption.js';
import { decryptAes256, fileKeyOf, permsMatch } from './standard-security.js';
import { filledBuffer } from './wasm.js';

export type Access = 'full' | 'user' | 'owner';

export interface OpenedPdf {
  doc: mupdf.PDFDocument;
  encrypted: boolean;
  /** `full`: not encrypted; `user`/`owner`: which password opened it. */
  access: Access;
  /** The password that opened it, as MuPDF took it (after SASLprep where that was needed): see programPassword. */
  password: string | undefined;
  /** Whether it needed a password to open (its user password is not empty). */
  needsPassword: boolean;
  /**
   * Whether its permissions (owner) password is empty, when the open already knows it (withReopenedEncryption's
   * native check of the owner password): passwordSecurity then runs no hash of the empty string to ask.
   */
  ownerPasswordEmpty?: boolean;
}

/**
 * Documents larger than this are opened through a stream that MuPDF reads as
 * it needs, instead of a copy of the whole file in its WebAssembly memory
 * (which never shrinks, and grows by doubling): a 200 MB file otherwise costs
 * a 200 MB copy and up to 512 MB of heap per worker that opened it. Small
 * files are copied (an open file read whole here): that is faster to parse.
 */
const STREAM_OPEN_BYTES = 16 * 1024 * 1024;

function streamOver(source: PdfSource): mupdf.Stream {
  return new mupdf.Stream({
    fileSize: () => sourceSize(source),
    read: streamReader(source),
    close: () => undefined,
  });
}

/** Bits returned by authenticatePassword (MuPDF: 1 none needed, 2 user, 4 owner). */
const AUTH_USER = 2;
const AUTH_OWNER = 4;

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * MuPDF's answer for a password; for AES-256 handlers the SASLprep'd form is
 * tried as well when it differs (MuPDF does not normalise: a password typed
 * in decomposed form would otherwise fail).
 */
function authenticate(doc: mupdf.PDFDocument, password: string): { result: number; password: string } {
  const result = doc.authenticatePassword(password);
  if (result !== 0) return { result, password };
  const prepared = prepareUnicode(password);
  if (prepared !== undefined && prepared !== password) {
    const again = doc.authenticatePassword(prepared);
    if (again !== 0) return { result: again, password: prepared };
  }
  return { result, password };
}

/**
 * The password to give an external program that reads the document (qpdf,
 * veraPDF): the one the engine authenticated with, so SASLprep'd when that
 * is what opened it (an AES-256 password sent in decomposed or compatibility
 * form, or with a no-break space), and as sent otherwise (revisions 2-4 hash
 * PDFDocEncoding bytes, which SASLprep would change: a no-break space is a
 * character of its own there). Undefined for a document that is not
 * encrypted. The one rule for every program: tasks that run before one
 * answer this, and the operations layer passes it on (docs/api.md, "Document
 * passwords").
 */
export function programPassword(opened: OpenedPdf): string | undefined {
  return opened.encrypted ? opened.password : undefined;
}

/** The size of the file each document was opened from: what a full save of it is expected to write (core/save.ts). */
const sourceBytes = new WeakMap<mupdf.PDFDocument, number>();

/** The size of the file `doc` was opened from; undefined for a document made in memory. */
export function openedSize(doc: mupdf.PDFDocument): number | undefined {
  return sourceBytes.get(doc);
}

/** Documents whose file begins with its `%PDF-` header (nothing before it): the ones an update can be appended to. */
const headerFirst = new WeakSet<mupdf.PDFDocument>();

/**
 * Whether the file `doc` was opened from begins with its `%PDF-` header. A file with bytes before it (junk a mailer or
 * a generator left: readers count offsets from the header) gets an appended update whose offsets MuPDF counts from
 * the file's start, which qpdf then finds damaged (the corpus's leading-junk files): such a file is rewritten in full.
 */
export function opensAtHeader(doc: mupdf.PDFDocument): boolean {
  return headerFirst.has(doc);
}

/**
 * MuPDF's document over the source, nothing looked at yet (no password, permission or page tree): openPdf's first step.
 * A MuPDF buffer is the caller's (withReopenedEncryption's): opened where it is, and left to the caller to destroy.
 */
function openUnchecked(source: PdfSource | mupdf.Buffer): mupdf.PDFDocument {
  try {
    const given = source instanceof mupdf.Buffer;
    const streamed = !given && sourceSize(source) > STREAM_OPEN_BYTES;
    const from = given ? source : streamed ? streamOver(source) : inMemory(source);
    let opened;
    try {
      opened = mupdf.Document.openDocument(from, 'application/pdf');
    } finally {
      // The document keeps its own reference to a buffer (MuPDF's stream over it); ours goes now, not at a collection.
      if (!given && from instanceof mupdf.Buffer) from.destroy();
    }
    const pdf = opened.asPDF();
    if (!pdf) throw new Error('not a PDF');
    if (given) {
      noteSource(pdf, source.asUint8Array());
      return pdf;
    }
    sourceBytes.set(pdf, sourceSize(source));
    const head = new Uint8Array(5);
    if (readAt(source, head, 0, 5, 0) === 5 && String.fromCharCode(...head) === '%PDF-') headerFirst.add(pdf);
    return pdf;
  } catch (err) {
    throw classifyOpenError(err);
  }
}

/** openedSize's and opensAtHeader's facts for a document opened from bytes in memory. */
function noteSource(doc: mupdf.PDFDocument, bytes: Uint8Array): void {
  sourceBytes.set(doc, bytes.length);
  if (String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-') headerFirst.add(doc);
}

/** The whole source in MuPDF's memory: an open file read straight there (wasm.ts, filledBuffer), bytes copied once. */
function inMemory(source: PdfSource): mupdf.Buffer | Uint8Array {
  if (source instanceof Uint8Array) return source;
  const size = sourceSize(source);
  const pointer = filledBuffer(size, (memory, offset) => {
    for (let done = 0; done < size;) {
      const n = readAt(source, memory, offset + done, size - done, done);
      if (n === 0) throw new EngineError('MALFORMED_PDF', 'The file ended before its expected size');
      done += n;
    }
  });
  // A pointer MuPDF.js types by brand; this one is a fz_buffer.
  return pointer === undefined ? readAll(source) : new mupdf.Buffer(pointer as unknown as ConstructorParameters<typeof mupdf.Buffer>[0]);
}

/**
 * The whole source as a MuPDF buffer, read once (an open file straight into MuPDF's memory): for a task that opens the
 * document again and again (the split, engine/split/split.ts), each open then parses it where it is. The caller destroys it.
 */
export function sourceBuffer(source: PdfSource): mupdf.Buffer {
  const held = inMemory(source);
  return held instanceof mupdf.Buffer ? held : new mupdf.Buffer(held);
}

function isEncryptedDoc(doc: mupdf.PDFDocument): boolean {
  const method = doc.getMetaData(mupdf.Document.META_ENCRYPTION);
  return method !== undefined && method !== 'None';
}

/**
 * The document opened as openPdf opens it when it is encrypted, undefined when it is not, from its trailer alone: a
 * document that is not encrypted allows every need, and for it no password is tried and neither the page tree nor any
 * page is read (the access check, core/tasks.ts). An encrypted one is parsed once, not once to ask and again to open.
 */
export function openIfEncrypted(source: PdfSource, password: string | undefined, need: Need): OpenedPdf | undefined {
  const doc = openUnchecked(source);
  if (!isEncryptedDoc(doc)) {
    doc.destroy();
    return undefined;
  }
  return openedFor(doc, password, need);
}

export function openPdf(source: PdfSource, password: string | undefined, need: Need): OpenedPdf {
  return openedFor(openUnchecked(source), password, need);
}

/** openPdf's checks on the document openUnchecked gave: the password, the page tree, the permission. Takes `doc` over. */
function openedFor(doc: mupdf.PDFDocument, password: string | undefined, need: Need): OpenedPdf {
  const encrypted = isEncryptedDoc(doc);
  let access: Access = encrypted ? 'user' : 'full';
  let used: string | undefined;
  // Asked once, before authenticating: MuPDF answers by trying the empty password, which spoils the keys of a document
  // opened with another (encryption.ts answers AES-256 without MuPDF).
  const needsPassword = needsPasswordOf(doc);
  if (needsPassword) {
    const { result, password: tried } = authenticate(doc, password ?? '');
    const given = password !== undefined && password !== '';
    if (result !== 0) {
      access = result & AUTH_OWNER ? 'owner' : 'user';
      used = tried;
    } else if (!given && emptyOwnerPasswordOpens(doc)) {
      // The empty string is the owner password (pypdf/encryption/r5-user-password.pdf): MuPDF checked it and keeps
      // the keys it gives, but answers 0, as Acrobat does (it asks for the user password then). qpdf and pypdf open
      // such a file as its owner, and so does the service (docs/api.md, document passwords).
      access = 'owner';
      used = '';
    } else {
      doc.destroy();
      throw given
        ? new EngineError('DOCUMENT_PASSWORD_INVALID', 'The document password is wrong')
        : new EngineError('DOCUMENT_PASSWORD_REQUIRED', 'The document is encrypted: send its password in X-Service-DocumentPassword');
    }
  } else if (encrypted && password !== undefined && password !== '') {
    // Opened with the empty user password; a given password may be the owner's.
    const { result, password: tried } = authenticate(doc, password);
    if (result & AUTH_OWNER) access = 'owner';
    else if (!(result & AUTH_USER) && result !== 1) {
      doc.destroy();
      throw new EngineError('DOCUMENT_PASSWORD_INVALID', 'The document password is wrong');
    }
    used = tried;
  }
  // An empty permissions password protects nothing: whoever opens the document is its owner.
  // (Acrobat and MuPDF refuse an empty owner password while the user password is set; the
  // PermissionsModel reports such a file as having no permissions password, and acts on that.)
  if (access === 'user' && ownerPasswordIsEmpty(doc, needsPassword, used)) access = 'owner';
  return checkOpened({ doc, encrypted, access, password: used, needsPassword }, need);
}

/** openedFor's checks of what it opened: the page tree's bound, a repair now for edits, the pages, the need; the document destroyed when one fails. */
function checkOpened(opened: OpenedPdf, need: Need): OpenedPdf {
  const { doc } = opened;
  try {
    // Before anything walks the tree the way MuPDF does (its page lookup costs the square of the depth).
    checkPageTree(doc);
    if (!READ_ONLY_NEEDS.has(need)) repairNow(doc);
    // Touch the page tree now so a broken file fails here, not midway through an operation.
    doc.countPages();
    requirePermission(opened, need);
  } catch (err) {
    doc.destroy();
    throw classifyOpenError(err);
  }
  return opened;
}

/**
 * The check that the service opens a document it has just encrypted, before the bytes are written anywhere
 * (setPasswordPermissions): opened as openPdf opens it for its owner, with the passwords it was encrypted with. MuPDF
 * opens the bytes (its security handler must accept the encryption dictionary, and the page tree and every object must
 * load, as in openPdf). For AES-256 (revisions 5-6) the passwords are then checked against the dictionary here, in
 * native crypto, and not by MuPDF's authentication: revision 6's hash costs 10-12 ms each time in MuPDF's WebAssembly
 * and authenticating the owner runs it twice, after MuPDF's save ran it four times to write the dictionary (issue 38:
 * the check was most of a 1-page encryption). The check is the handler's in full: the permissions password is the
 * owner's, the open password the user's (Algorithms 12 and 11), the file keys they give through /OE and /UE are the
 * same, and /Perms decrypts with it to the /P and /EncryptMetadata written (Algorithm 13). MuPDF then holds no keys
 * for the document (unless the open password is empty): `read` may read its structure and encryption dictionary,
 * never a string or stream. The bytes checked are the password's UTF-8 as given, which is what MuPDF hashes (its
 * pdf_saslprep_from_utf8 copies); a password that SASLprep changes, which openPdf would try in both forms, is
 * authenticated by MuPDF as openPdf does, and so are the other revisions (MD5 and RC4, cheap in MuPDF).
 */
export function withReopenedEncryption<T>(source: Uint8Array | mupdf.Buffer, passwords: { open: string; permissions: string }, read: (opened: OpenedPdf) => T): T {
  // The bytes in MuPDF's memory, in a buffer only this check reads (openedWithEncryptionHidden renames a key in it): a
  // buffer the caller has there, or a copy of the caller's bytes (setPasswordPermissions's, encrypted in node), the copy
  // MuPDF's open makes anyway.
  const own = source instanceof mupdf.Buffer ? source : new mupdf.Buffer(source);
  try {
    const hidden = openedWithEncryptionHidden(own, passwords);
    if (hidden) {
      try {
        return read(hidden.opened);
      } finally {
        hidden.opened.doc.destroy();
        hidden.restore();
      }
    }
    const doc = openUnchecked(own);
    let native: OpenedPdf | undefined;
    try {
      native = verifiedNatively(doc, passwords);
    } catch (err) {
      doc.destroy();
      throw classifyOpenError(err);
    }
    const opened = native ? checkOpened(native, 'owner') : openedFor(doc, passwords.permissions, 'owner');
    try {
      return read(opened);
    } finally {
      opened.doc.destroy();
    }
  } finally {
    if (own !== source) own.destroy();
  }
}

/** The name the trailer's /Encrypt is given while MuPDF parses the bytes (openedWithEncryptionHidden): as long, so no offset moves. */
const HIDDEN_ENCRYPT = 'Xncrypt';

/**
 * withReopenedEncryption without MuPDF's security handler, for an AES-256 dictionary MuPDF has just written (issue 38):
 * MuPDF's open tries the empty password as user and owner, two more runs of revision 6's hash in its WebAssembly (a
 * third of the task on one page), and its keys would then serve nothing, since the passwords are checked natively and
 * `read` reads no string or stream. So MuPDF parses the bytes with their trailer's /Encrypt named /Xncrypt (as long:
 * no offset moves): the same objects, xref and page tree, loaded and checked as openPdf does, with no handler. The
 * rename is made in `own`, the buffer withReopenedEncryption gave the check alone (MuPDF's open reads from it, not a
 * copy, for as long as the document lives), and undone by `restore`, which withReopenedEncryption calls once the
 * document is destroyed: no other reader ever sees it, and the bytes leave as MuPDF wrote them. The dictionary, put
 * back under /Encrypt in MuPDF's trailer, is then checked here as a handler would: the standard filter, V 5 with
 * AESV3 and R 5 or 6 (what MuPDF's handler requires of it), both passwords, one file key, /Perms; and the first page's
 * content stream decrypts with that key (whole padding, and whole Flate data when so filtered), which shows the
 * streams were written with the key the passwords give (no check before did). Undefined, the bytes as they were, where
 * they are not so (a trailer not as MuPDF's full save writes it, another method, a password SASLprep changes) or
 * MuPDF cannot open them so: withReopenedEncryption then opens them with the handler, as before.
 */
function openedWithEncryptionHidden(own: mupdf.Buffer, passwords: { open: string; permissions: string }): { opened: OpenedPdf; restore: () => void } | undefined {
  if (prepareUnicode(passwords.open) !== passwords.open || prepareUnicode(passwords.permissions) !== passwords.permissions) return undefined;
  // A view into MuPDF's memory: taken again after anything MuPDF allocates (its memory may grow and move).
  const source = own.asUint8Array();
  const at = trailerEncryptName(source);
  if (at === undefined) return undefined;
  const original = source.slice(at, at + HIDDEN_ENCRYPT.length);
  const restore = () => own.asUint8Array().set(original, at);
  source.set(Buffer.from(HIDDEN_ENCRYPT, 'latin1'), at);
  let opened: OpenedPdf | undefined;
  try {
    opened = openedHidden(own, passwords);
  } finally {
    if (!opened) restore();
  }
  return opened && { opened, restore };
}

/** openedWithEncryptionHidden's open of the renamed bytes and its checks; undefined where the handler is to open them. */
function openedHidden(own: mupdf.Buffer, passwords: { open: string; permissions: string }): OpenedPdf | undefined {
  let doc: mupdf.PDFDocument | undefined;
  try {
    doc = mupdf.Document.openDocument(own, 'application/pdf').asPDF() ?? undefined;
  } catch {
    return undefined;
  }
  if (!doc) return undefined;
  let facts: EncryptionFacts | undefined;
  try {
    const trailer = doc.getTrailer();
    const dictionary = trailer.get(HIDDEN_ENCRYPT);
    if (dictionary.isDictionary() && trailer.get('Encrypt').isNull()) {
      trailer.put('Encrypt', dictionary);
      trailer.delete(HIDDEN_ENCRYPT);
      facts = encryptionFacts(doc);
    }
  } catch {
    facts = undefined;
  }
  if (facts?.handler !== 'Standard' || facts.version !== 5 || facts.encryptType !== 3 || (facts.revision !== 5 && facts.revision !== 6)) {
    doc.destroy();
    return undefined;
  }
  const key = encryptionProblem(facts, passwords);
  if (typeof key === 'string') {
    doc.destroy();
    throw new EngineError('PROCESSING_FAILED', `The encrypted document failed its check: ${key}`);
  }
  noteSource(doc, own.asUint8Array());
  let checked: OpenedPdf;
  try {
    // checkOpened destroys the document when it fails.
    checked = checkOpened({ doc, encrypted: true, access: 'owner', password: passwords.permissions, needsPassword: passwords.open !== '', ownerPasswordEmpty: passwords.permissions === '' }, 'owner');
  } catch {
    return undefined;
  }
  let decrypts: boolean;
  try {
    decrypts = contentDecrypts(doc, key);
  } catch {
    decrypts = false;
  }
  if (!decrypts) {
    doc.destroy();
    throw new EngineError('PROCESSING_FAILED', "The encrypted document failed its check: its first page's content does not decrypt with its key");
  }
  return checked;
}

/** Where the name of the trailer's /Encrypt begins (after its slash) in a file MuPDF saved in full, or undefined. */
function trailerEncryptName(bytes: Uint8Array): number | undefined {
  // MuPDF's full save writes one xref table, then the trailer's dictionary up to startxref (the encryption dictionary
  // in it): its last few KB.
  const from = Math.max(0, bytes.length - 16 * 1024);
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + from, bytes.length - from).toString('latin1');
  const start = tail.lastIndexOf('\ntrailer');
  const end = tail.lastIndexOf('startxref');
  if (start < 0 || end < start) return undefined;
  const dictionary = tail.slice(start, end);
  // The key with a direct dictionary, as MuPDF writes it (not /EncryptMetadata inside it); exactly once, and no key
  // already named as it is hidden.
  const found = [...dictionary.matchAll(/\/Encrypt(?=\s*<<)/g)];
  if (found.length !== 1 || dictionary.includes(`/${HIDDEN_ENCRYPT}`)) return undefined;
  return from + start + found[0]!.index + 1;
}

/**
 * Whether the first page's first content stream decrypts with `fileKey` (AES-256): its padding whole, and its data
 * inflating when it is Flate-encoded. True when there is no such stream, or it is empty.
 */
function contentDecrypts(doc: mupdf.PDFDocument, fileKey: Uint8Array): boolean {
  // Not resolved: MuPDF knows a stream by its reference.
  let contents = doc.findPage(0).get('Contents');
  if (contents.isArray()) contents = contents.length > 0 ? contents.get(0) : contents;
  if (!contents.isStream()) return true;
  const raw = contents.readRawStream();
  const data = raw.asUint8Array().slice();
  raw.destroy();
  if (data.length === 0) return true;
  const plain = decryptAes256(fileKey, data);
  if (!plain) return false;
  const filter = deref(contents.get('Filter'));
  const first = filter.isArray() ? (filter.length > 0 ? name(filter.get(0)) : undefined) : name(filter);
  if (first !== 'FlateDecode') return true;
  try {
    inflateSync(plain);
    return true;
  } catch {
    return false;
  }
}

/** withReopenedEncryption's native check; undefined where MuPDF is to authenticate (see there). */
function verifiedNatively(doc: mupdf.PDFDocument, passwords: { open: string; permissions: string }): OpenedPdf | undefined {
  const facts = encryptionFacts(doc);
  if (facts?.handler !== 'Standard' || (facts.revision !== 5 && facts.revision !== 6)) return undefined;
  if (prepareUnicode(passwords.open) !== passwords.open || prepareUnicode(passwords.permissions) !== passwords.permissions) return undefined;
  const problem = encryptionProblem(facts, passwords);
  if (typeof problem === 'string') throw new EngineError('PROCESSING_FAILED', `The encrypted document failed its check: ${problem}`);
  // The open password is the user's; another string, the empty one included, is not (SHA-2 does not collide).
  // Likewise the owner's: the empty string is it only when it is the permissions password checked above.
  return { doc, encrypted: true, access: 'owner', password: passwords.permissions, needsPassword: passwords.open !== '', ownerPasswordEmpty: passwords.permissions === '' };
}

/** What is wrong with an AES-256 dictionary for these passwords (withReopenedEncryption's check), or the file key they give. */
function encryptionProblem(facts: EncryptionFacts, passwords: { open: string; permissions: string }): string | Uint8Array {
  const utf8 = (password: string) => new Uint8Array(Buffer.from(password, 'utf8'));
  const ownerKey = fileKeyOf(facts.standard, utf8(passwords.permissions), 'owner');
  if (!ownerKey) return 'it does not open with its new permissions password';
  const userKey = fileKeyOf(facts.standard, utf8(passwords.open), 'user');
  if (!userKey) return 'it does not open with its new open password';
  if (Buffer.compare(ownerKey, userKey) !== 0) return 'its two passwords give different keys';
  if (!permsMatch(facts.standard, ownerKey, facts.permissionBits, facts.encryptMetadata)) return 'its /Perms does not hold its permissions';
  return ownerKey;
}

/**
 * The deepest page tree the service opens: levels of /Pages nodes from the root to a page. Real files have a few
 * (a balanced tree of 1,000 levels would hold more pages than any file can); MuPDF's page lookup takes time in the
 * square of the depth (a tree 2,000 deep: 0.4 s to load its page, 100,000 deep: 18 s), and other readers recurse.
 */
const MAX_PAGE_TREE_DEPTH = 1000;

/**
 * The page tree's bound (docs/robustness.md): walks /Pages and /Kids with an explicit stack (no recursion, so no
 * depth reaches a call stack) and refuses with MALFORMED_PDF a tree deeper than MAX_PAGE_TREE_DEPTH, or a /Pages node
 * reached twice (a loop, or a node shared by two parents: a page tree is a tree, each node has one /Parent). Each node
 * is visited once, so the walk is linear in the tree's size. Pages (the leaves) are not followed further. Its cost is
 * loading each page object once (measured: 6,000 pages, about 0.6 s on a loaded 2-core machine, like MuPDF's own lookup
 * of the last page); the objects stay loaded for the task, and repairNow loads them all anyway for edits.
 */
function checkPageTree(doc: mupdf.PDFDocument): void {
  const rootRef = deref(doc.getTrailer().get('Root')).get('Pages');
  const root = deref(rootRef);
  if (!root.isDictionary()) return; // no tree: countPages() says so
  const seen = new Set<number>();
  if (rootRef.isIndirect()) seen.add(rootRef.asIndirect());
  const stack: { node: mupdf.PDFObject; depth: number }[] = [{ node: root, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const kids = node.get('Kids');
    if (!kids.isArray()) continue;
    if (depth > MAX_PAGE_TREE_DEPTH) {
      throw new EngineError('MALFORMED_PDF', `The page tree is nested more than ${MAX_PAGE_TREE_DEPTH} levels deep`);
    }
    for (let i = 0; i < kids.length; i++) {
      // As few calls per kid as can be (a page, the common kid, costs three): MuPDF resolves references itself here.
      const kid = kids.get(i);
      if (!kid.isDictionary() || !kid.get('Kids').isArray()) continue;
      if (kid.isIndirect()) {
        const num = kid.asIndirect();
        if (seen.has(num)) throw new EngineError('MALFORMED_PDF', 'The page tree loops, or names one of its nodes twice');
        seen.add(num);
      }
      stack.push({ node: kid, depth: depth + 1 });
    }
  }
}

/** Needs of tasks that only read: they have no edits a late repair could drop, so they skip loading every object (50 ms for the 200-page bench document). */
const READ_ONLY_NEEDS: ReadonlySet<Need> = new Set<Need>(['view', 'copy', 'accessibility', 'print']);

/** Objects that fail to load are skipped; past this many failures the walk stops (each error thrown out of MuPDF wears its WASM heap). */
const MAX_LOAD_FAILURES = 20;

/**
 * Loads every object once, so that a damaged cross-reference table is
 * repaired now, before anything is edited. MuPDF repairs lazily, when it
 * first meets an object that is not where the table says; the repair
 * rebuilds the table from the file and drops every edit made so far. If
 * that first meeting is the save (which loads every object), the document
 * is written as it was read, without the changes, and the task reports
 * success (corpus: pdfjs/annotations/annotation-polyline-polygon.pdf
 * flattened to itself). MuPDF repairs a document at most once, so the walk
 * stops there. Loaded objects stay cached for the save, which costs about
 * 10 ms per 1,000 objects.
 */
export function repairNow(doc: mupdf.PDFDocument): void {
  const count = doc.countObjects();
  let failures = 0;
  for (let num = 1; num < count && !doc.wasRepaired(); num++) {
    try {
      doc.newIndirect(num).resolve();
    } catch {
      if (++failures > MAX_LOAD_FAILURES) return;
    }
  }
}

function classifyOpenError(err: unknown): EngineError {
  if (err instanceof EngineError) return err;
  const message = describe(err);
  if (/crypt|security handler|encryption/i.test(message)) {
    return new EngineError('UNSUPPORTED_ENCRYPTION', 'The document uses an encryption method the service cannot open');
  }
  return new EngineError('MALFORMED_PDF', 'The file is not a PDF that can be opened or repaired');
}

/**
 * The one page-index check of the engine: PAGE_OUT_OF_RANGE past either end
 * (400; 404 with `inPath`, when the index is part of the URL path).
 */
export function checkPageIndex(doc: mupdf.PDFDocument, pageIndex: number | undefined, origin: { inPath?: boolean } = {}): void {
  if (pageIndex === undefined) return;
  const count = doc.countPages();
  if (pageIndex < 0 || pageIndex >= count) throw new EngineError('PAGE_OUT_OF_RANGE', pageOutOfRangeDetail(pageIndex, count), undefined, origin);
}
