import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { documentPathFromBody, type StoredPath } from '../../src/storage/paths.js';
import type { DocumentStore } from '../../src/storage/store.js';
import { sha256 } from '../helpers/http.js';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { operationsUnderTest, type OperationsUnderTest } from '../helpers/operations.js';

/**
 * A set numbered by PageNumbersAction's `documents` is all or nothing also when a write fails midway: the documents
 * already written are put back (docs/page-numbers.md, "A set of documents"). The failure is a store that refuses
 * PageNumbersAction's write of one document, on the operations layer with a real engine: the memory store (no
 * versions: the bytes read are written back) and the filesystem store with versions (the kept version restored).
 */

const at = (p: string) => documentPathFromBody(p, 'path');
const A = at('set/a.pdf');
const B = at('set/b.pdf');
const C = at('set/c.pdf');
const ctx = { principal: null };

/** `store` whose PageNumbersAction write of `failing` throws, as a full disk or a lost connection would. */
function failingWrites(store: DocumentStore, failing: StoredPath): DocumentStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'writeDocument') {
        return (p: StoredPath, content: Uint8Array, options: { provenance?: { operation?: string } }) => {
          if (p.equals(failing) && options.provenance?.operation === 'PageNumbersAction') return Promise.reject(new Error('the store failed this write'));
          return target.writeDocument(p, content, options as never);
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function withSet(kind: 'memory' | 'filesystem', failing: StoredPath, run: (under: OperationsUnderTest, before: Map<string, string>) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pdfservice-set-'));
  let fs: FilesystemStore | undefined;
  if (kind === 'filesystem') {
    fs = new FilesystemStore(dataDir);
    await fs.init();
  }
  const under = await operationsUnderTest([], {}, (memory) => {
    const wrapped = failingWrites(fs ?? memory, failing);
    return { for: () => wrapped };
  });
  try {
    const before = new Map<string, string>();
    for (const [p, pages] of [[A, 2], [B, 3], [C, 1]] as const) {
      const bytes = makePdf({ pages, text: (i) => `${p.name} ${i + 1}` });
      await under.ops.documents.transform({ target: p, conflict: 'overwrite', ctx, operation: 'upload', work: async () => ({ content: bytes, result: undefined }) });
      before.set(p.toString(), sha256(bytes));
    }
    await run(under, before);
  } finally {
    await under.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The stored bytes, as the operations layer reads them. */
const stored = (under: OperationsUnderTest, p: StoredPath) => under.ops.documents.read(p, ctx, (s) => s.bytes());

const body = { PageNumbersAction: { prefix: 'SET-', digits: 4, documents: [{ filePath: B.toString() }, { filePath: C.toString() }] } };

for (const kind of ['memory', 'filesystem'] as const) {
  describe(`a set whose write fails midway (${kind} store)`, () => {
    test('the third document\'s write fails: the second, already written, is put back byte for byte; the first was never written', async () => {
      await withSet(kind, C, async (under, before) => {
        await assert.rejects(under.ops.actions.run(A, body, 'pages', [], ctx), /the store failed this write/);
        for (const p of [A, B, C]) assert.equal(sha256(await stored(under, p)), before.get(p.toString()), `${p.toString()} as it was`);
        assert.doesNotMatch(pdftotext(await stored(under, B)), /SET-/);
        if (kind === 'filesystem') {
          // History is not rewritten: B's numbered version and its restore are kept, the restore current.
          const { versions } = await under.ops.documents.versionsFor(ctx).list(B, { offset: 0, limit: 10 });
          assert.deepEqual(versions.map((v) => v.operation), ['restore', 'PageNumbersAction', 'upload']);
        }
      });
    });

    test('the write of the document posted to (the last) fails: every other document is put back', async () => {
      await withSet(kind, A, async (under, before) => {
        await assert.rejects(under.ops.actions.run(A, body, 'pages', [], ctx), /the store failed this write/);
        for (const p of [A, B, C]) assert.equal(sha256(await stored(under, p)), before.get(p.toString()), `${p.toString()} as it was`);
      });
    });

    test('no failure: every document numbered, one sequence', async () => {
      await withSet(kind, at('set/none.pdf'), async (under) => {
        const answer = await under.ops.actions.run(A, body, 'pages', [], ctx);
        assert.equal(answer.kind, 'document');
        assert.match(pdftotext(await stored(under, A)), /SET-0001[\s\S]*SET-0002/);
        assert.match(pdftotext(await stored(under, B)), /SET-0003[\s\S]*SET-0004[\s\S]*SET-0005/);
        assert.match(pdftotext(await stored(under, C)), /SET-0006/);
      });
    });
  });
}
