/**
 * How qpdf, an independent reader of the standard security handler, sees a
 * file's encryption, and the PermissionsModel flag each of its capabilities
 * corresponds to. Shared by the unit and corpus permission suites.
 */
import { execFileSync } from 'node:child_process';
import { withTempFile } from './pdf.js';

export const FLAGS = [
  'printAllowed',
  'printHighResolutionAllowed',
  'changeDocumentAllowed',
  'assembleDocumentAllowed',
  'extractTextAllowed',
  'extractTextForAccessibilityAllowed',
  'fillFormFieldsAllowed',
  'modifyAnnotationsAllowed',
] as const;
export type Flag = (typeof FLAGS)[number];

/** qpdf's name for each of the eight booleans (`qpdf --json --json-key=encrypt`, encrypt.capabilities). */
export const QPDF_CAPABILITY: Record<Flag, string> = {
  printAllowed: 'printlow',
  printHighResolutionAllowed: 'printhigh',
  changeDocumentAllowed: 'modifyother',
  assembleDocumentAllowed: 'modifyassembly',
  extractTextAllowed: 'extract',
  extractTextForAccessibilityAllowed: 'accessibility',
  fillFormFieldsAllowed: 'modifyforms',
  modifyAnnotationsAllowed: 'modifyannotations',
};

/** What qpdf says about a file opened with a password; null when the password opens nothing. */
export interface QpdfEncryption {
  encrypted: boolean;
  userMatched: boolean;
  ownerMatched: boolean;
  recoveredUserPassword: string | null;
  R: number;
  V: number;
  P: number;
  bits: number;
  /** --show-encryption's "stream/string/file encryption method" lines (absent for V1/V2 handlers). */
  methods: { stream?: string; string?: string; file?: string };
  capabilities: Record<string, boolean>;
}

export function runQpdf(args: string[]): { ok: boolean; out: string } {
  try {
    return { ok: true, out: execFileSync('qpdf', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string };
    // 3: succeeded with warnings (damaged files qpdf repairs); the answer is still on stdout.
    if (e.status === 3) return { ok: true, out: e.stdout ?? '' };
    return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

export function qpdfEncryption(bytes: Buffer | Uint8Array, password: string): QpdfEncryption | null {
  return withTempFile(bytes, (file) => {
    const json = runQpdf(['--json', '--json-key=encrypt', `--password=${password}`, file]);
    if (!json.ok) {
      if (/invalid password/.test(json.out)) return null;
      throw new Error(`qpdf --json failed: ${json.out.slice(0, 300)}`);
    }
    const encrypt = (JSON.parse(json.out) as { encrypt: Record<string, any> }).encrypt;
    // qpdf 11.3's JSON names a crypt filter of method None "RC4": the methods come from --show-encryption.
    const shown = runQpdf(['--show-encryption', `--password=${password}`, file]).out;
    const method = (which: string) => new RegExp(`^${which} encryption method: (\\S+)`, 'm').exec(shown)?.[1];
    const methods: QpdfEncryption['methods'] = {};
    for (const [key, label] of [['stream', 'stream'], ['string', 'string'], ['file', 'file']] as const) {
      const m = method(label);
      if (m !== undefined) methods[key] = m;
    }
    const p = encrypt['parameters'] as { R: number; V: number; P: number; bits: number };
    return {
      encrypted: encrypt['encrypted'] as boolean,
      userMatched: encrypt['userpasswordmatched'] as boolean,
      ownerMatched: encrypt['ownerpasswordmatched'] as boolean,
      recoveredUserPassword: (encrypt['recovereduserpassword'] as string | null) ?? null,
      R: p.R,
      V: p.V,
      P: p.P,
      bits: p.bits,
      methods,
      capabilities: encrypt['capabilities'] as Record<string, boolean>,
    };
  });
}

