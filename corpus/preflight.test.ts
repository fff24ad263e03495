import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { call, putPdf } from '../test/helpers/http.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir } from './manifest.js';

/**
 * PDF/A preflight against veraPDF's own test corpus (the folders verapdf/PDF_A-1a to PDF_A-4f in
 * ../shared/corpus): every file is uploaded and checked through
 * GET .../preflight-results with the flavour its folder names (PDF_A-2b:
 * pdfa2b), and the verdict compared with the one its name states ("-pass-" or
 * "-fail-"). A disagreement is an integration bug (flavour selection,
 * options), never a veraPDF matter: at least 99% must agree per flavour.
 */
const corpus = corpusDir();
const MIN_AGREEMENT = 0.99;

interface Case {
  flavour: string;
  profile: string;
  file: string;
  expected: boolean;
}

function cases(dir: string): Case[] {
  const root = path.join(dir, 'verapdf');
  const found: Case[] = [];
  for (const folder of readdirSync(root).filter((name) => /^PDF_A-\d[a-z]?$/.test(name)).sort()) {
    const profile = `pdfa${folder.slice('PDF_A-'.length)}`;
    for (const name of readdirSync(path.join(root, folder)).filter((n) => n.endsWith('.pdf')).sort()) {
      const verdict = /-(pass|fail)-/.exec(name)?.[1];
      if (!verdict) continue;
      found.push({ flavour: folder, profile, file: path.join(root, folder, name), expected: verdict === 'pass' });
    }
  }
  return found;
}

describe('PDF/A preflight agrees with the veraPDF corpus', { skip: corpus ? false : 'no corpus (../shared/corpus or PDFSERVICE_CORPUS)' }, () => {
  const server = serverForSuite();

  test('every verapdf/PDF_A-* file gets the verdict its name states, for at least 99% of each flavour', { timeout: 20 * 60_000 }, async () => {
    const all = cases(corpus!);
    assert.ok(all.length > 100, `${all.length} corpus files`);
    const byFlavour = new Map<string, { agreed: number; total: number; refused: number; disagreements: string[] }>();
    for (const [i, c] of all.entries()) {
      const tally = byFlavour.get(c.flavour) ?? { agreed: 0, total: 0, refused: 0, disagreements: [] };
      byFlavour.set(c.flavour, tally);
      const doc = `verapdf/${i}-${path.basename(c.file)}`;
      const put = await putPdf(server, doc, readFileSync(c.file));
      tally.total++;
      let verdict: string;
      if (put.status !== 201) {
        // Refused on upload: the service cannot store it, so it cannot be called compliant.
        verdict = `upload ${put.status} ${put.json().code}`;
        tally.refused++;
        if (!c.expected) tally.agreed++;
        else tally.disagreements.push(`${path.basename(c.file)}: expected pass, ${verdict}`);
        continue;
      }
      const reply = await call(server, 'GET', `/documents/${doc}/preflight-results?profile=${c.profile}`);
      assert.equal(reply.status, 200, `${c.file}: ${reply.text}`);
      const result = reply.json() as { compliant: boolean; rules: { clause: string; testNumber: number }[] };
      if (result.compliant === c.expected) tally.agreed++;
      else tally.disagreements.push(`${path.basename(c.file)}: expected ${c.expected ? 'pass' : 'fail'}, got ${result.compliant ? 'pass' : `fail (${result.rules.map((r) => `${r.clause}/${r.testNumber}`).join(', ')})`}`);
      assert.equal((await call(server, 'DELETE', `/documents/${doc}`)).status, 204);
    }
    const rows = [...byFlavour].map(([flavour, t]) => `${flavour.padEnd(10)} ${String(t.agreed).padStart(4)}/${String(t.total).padEnd(4)} ${((100 * t.agreed) / t.total).toFixed(1).padStart(5)}%${t.refused ? `  (${t.refused} refused at upload)` : ''}`);
    console.log(['PDF/A preflight vs the veraPDF corpus (flavour, agreed/total; a file the upload refuses counts as not compliant):', ...rows].join('\n'));
    for (const [flavour, t] of byFlavour) {
      if (t.disagreements.length) console.log(`${flavour} disagreements:\n  ${t.disagreements.join('\n  ')}`);
      assert.ok(t.agreed / t.total >= MIN_AGREEMENT, `${flavour}: ${t.agreed}/${t.total} agree; ${t.disagreements.join('; ')}`);
    }
  });
});
