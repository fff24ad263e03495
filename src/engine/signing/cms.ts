/**
 * CMS SignedData (RFC 5652) for PDF signatures: made detached over a digest
 * of the signed byte ranges, and read back and checked for the integrity
 * report. pkijs and asn1js give the ASN.1 structures; Node's crypto hashes,
 * signs and verifies (synchronously, inside the engine worker).
 */
import { createHash, sign, verify, X509Certificate, constants, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsassaPss: '1.2.840.113549.1.1.10',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

/** Digest algorithms by OID, as Node's crypto names them. */
const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '1.2.840.113549.2.5': 'md5',
};
const SHA256 = '2.16.840.1.101.3.4.2.1';

/** Signature algorithms that name their digest (RSA PKCS#1 v1.5 and ECDSA with SHA-x). */
const SIGNATURE_DIGESTS: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.14': 'sha224',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.1': 'sha224',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

function attribute(type: string, value: asn1js.AsnType): pkijs.Attribute {
  return new pkijs.Attribute({ type, values: [value] });
}

/** ESS signing-certificate-v2 (RFC 5035): the signer certificate's SHA-256 hash and issuer/serial, binding it to the signature (PAdES). */
function signingCertificateV2(cert: pkijs.Certificate, der: Buffer): asn1js.Sequence {
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }),
    serialNumber: cert.serialNumber,
  });
  // hashAlgorithm is SHA-256, the DEFAULT, so DER leaves it out.
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: toArrayBuffer(createHash('sha256').update(der).digest()) }), issuerSerial.toSchema()] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

export interface CmsRequest {
  /** SHA-256 of the signed byte ranges. */
  digest: Buffer;
  key: KeyObject;
  /** Signer first, then its issuers. */
  chain: X509Certificate[];
  signingTime: Date;
  /** ETSI.CAdES.detached (PAdES baseline B): signing-certificate-v2, and no signing-time attribute (the time is the dictionary's /M). */
  pades: boolean;
}

/**
 * A detached SignedData over a digest, DER-encoded: SHA-256, the signed
 * attributes content-type, message-digest and signing-time (or, for PAdES,
 * signing-certificate-v2 instead of signing-time), the signer identified by
 * issuer and serial number, and the whole chain embedded. RSA keys sign with
 * PKCS#1 v1.5, EC keys with ECDSA.
 */
export function createCms(request: CmsRequest): Buffer {
  const ders = request.chain.map((c) => c.raw);
  const certs = ders.map((d) => pkijs.Certificate.fromBER(toArrayBuffer(d)));
  const signer = certs[0]!;
  const attributes = [
    attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
    ...(request.pades ? [] : [attribute(OID.signingTime, new asn1js.UTCTime({ valueDate: request.signingTime }))]),
    attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: toArrayBuffer(request.digest) })),
    ...(request.pades ? [attribute(OID.signingCertificateV2, signingCertificateV2(signer, ders[0]!))] : []),
  ];
  // DER orders a SET OF by the encodings of its elements.
  const encoded = attributes.map((a) => ({ a, der: Buffer.from(a.toSchema().toBER(false)) })).sort((x, y) => Buffer.compare(x.der, y.der));
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: encoded.map((e) => e.a) });
  const setOf = encodeSet(encoded.map((e) => e.der));
  const ec = request.key.asymmetricKeyType === 'ec';
  const signature = sign('sha256', setOf, request.key);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256, algorithmParams: new asn1js.Null() }),
    signedAttrs,
    signatureAlgorithm: ec
      ? new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 })
      : new pkijs.AlgorithmIdentifier({ algorithmId: OID.rsaEncryption, algorithmParams: new asn1js.Null() }),
    signature: new asn1js.OctetString({ valueHex: toArrayBuffer(signature) }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: SHA256, algorithmParams: new asn1js.Null() })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: certs,
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}

/** DER of a SET whose elements are already encoded (and ordered). */
function encodeSet(elements: Buffer[]): Buffer {
  const body = Buffer.concat(elements);
  return Buffer.concat([Buffer.from([0x31]), derLength(body.length), body]);
}

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** The length of the DER element at the start of `bytes` (header and content), or undefined when it is not one. */
function derElementLength(bytes: Uint8Array): number | undefined {
  if (bytes.length < 2) return undefined;
  const first = bytes[1]!;
  if (first < 0x80) return 2 + first;
  const count = first & 0x7f;
  if (count === 0 || count > 4 || bytes.length < 2 + count) return undefined;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + bytes[2 + i]!;
  return 2 + count + length;
}

export interface CmsCheck {
  /** The digest over the signed bytes matches the signed one, and the signature verifies with the signer certificate's key. */
  integrity: boolean;
  /** Why integrity is false. */
  reason?: string;
  /** The signer certificate's subject, as "CN=..., O=..." (RFC 4514 order as the certificate lists it). */
  signer?: string;
  signerCommonName?: string;
  /** The signing-time signed attribute, when present. */
  signingTime?: Date;
  digestAlgorithm?: string;
  /** The certificates the CMS carries (the signer's first when found). */
  certificates: X509Certificate[];
  /** A signing-certificate(-v2) attribute is present and names the signer certificate (PAdES). */
  signingCertificateAttribute?: boolean;
}

function subjectOf(cert: X509Certificate): { subject: string; commonName?: string } {
  const parts = cert.subject.split('\n').filter(Boolean);
  const cn = parts.find((p) => p.startsWith('CN='));
  return { subject: parts.join(', '), ...(cn ? { commonName: cn.slice(3) } : {}) };
}

function sameBytes(a: ArrayBuffer, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

/** The signer's certificate among the CMS's: by issuer and serial number, or by subject key identifier. */
function findSigner(signerInfo: pkijs.SignerInfo, certs: { pki: pkijs.Certificate; x509: X509Certificate }[]): { pki: pkijs.Certificate; x509: X509Certificate } | undefined {
  const sid = signerInfo.sid as unknown;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certs.find((c) => c.pki.issuer.isEqual(sid.issuer) && c.pki.serialNumber.isEqual(sid.serialNumber));
  }
  if (sid instanceof asn1js.Constructed || sid instanceof asn1js.Primitive) {
    const raw = sid instanceof asn1js.Primitive ? sid.valueBlock.valueHexView : (sid.valueBlock.value[0] as asn1js.OctetString | undefined)?.valueBlock.valueHexView;
    if (!raw) return undefined;
    return certs.find((c) => {
      const ski = c.pki.extensions?.find((e) => e.extnID === '2.5.29.14');
      const value = ski?.parsedValue as asn1js.OctetString | undefined;
      return value !== undefined && Buffer.compare(Buffer.from(value.valueBlock.valueHexView), Buffer.from(raw)) === 0;
    });
  }
  return undefined;
}

/**
 * Verifies a detached CMS signature over `signed` (the concatenated byte
 * ranges): computes the digest with the signer's digest algorithm, compares
 * it with the message-digest attribute, and verifies the signature over the
 * signed attributes (or, without them, over the content) with the public key
 * of the signer certificate carried in the CMS. Certificate trust, validity
 * and revocation are not judged here.
 */
export function checkCms(cmsBytes: Uint8Array, signed: Uint8Array[]): CmsCheck {
  const fail = (reason: string, partial: Partial<CmsCheck> = {}): CmsCheck => ({ integrity: false, reason, certificates: [], ...partial });
  const length = derElementLength(cmsBytes);
  if (!length || length > cmsBytes.length) return fail('the signature value is not a DER-encoded CMS object');
  let signedData: pkijs.SignedData;
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(toArrayBuffer(cmsBytes.subarray(0, length)));
    if (contentInfo.contentType !== OID.signedData) return fail('the signature value is not CMS SignedData');
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch {
    return fail('the signature value is not a readable CMS SignedData');
  }
  const certs: { pki: pkijs.Certificate; x509: X509Certificate }[] = [];
  for (const c of signedData.certificates ?? []) {
    if (!(c instanceof pkijs.Certificate)) continue;
    try {
      certs.push({ pki: c, x509: new X509Certificate(Buffer.from(c.toSchema().toBER(false))) });
    } catch {
      /* a certificate Node cannot read */
    }
  }
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) return fail('the CMS has no signer', { certificates: certs.map((c) => c.x509) });
  const signer = findSigner(signerInfo, certs);
  const result: CmsCheck = { integrity: false, certificates: signer ? [signer.x509, ...certs.filter((c) => c !== signer).map((c) => c.x509)] : certs.map((c) => c.x509) };
  if (signer) {
    const { subject, commonName } = subjectOf(signer.x509);
    result.signer = subject;
    if (commonName !== undefined) result.signerCommonName = commonName;
  }
  const digestName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  if (!digestName) return { ...result, reason: `unsupported digest algorithm ${signerInfo.digestAlgorithm.algorithmId}` };
  result.digestAlgorithm = digestName.toUpperCase().replace('SHA', 'SHA-');
  const hash = createHash(digestName);
  for (const part of signed) hash.update(part);
  const digest = hash.digest();

  let data: Buffer;
  const attrs = signerInfo.signedAttrs?.attributes ?? [];
  if (signerInfo.signedAttrs) {
    const md = attrs.find((a) => a.type === OID.messageDigest)?.values[0] as asn1js.OctetString | undefined;
    const time = attrs.find((a) => a.type === OID.signingTime)?.values[0] as asn1js.UTCTime | asn1js.GeneralizedTime | undefined;
    if (time && 'toDate' in time) result.signingTime = time.toDate();
    const certAttr = attrs.find((a) => a.type === OID.signingCertificateV2 || a.type === OID.signingCertificate);
    if (certAttr) result.signingCertificateAttribute = signer !== undefined && signingCertificateNames(certAttr, signer.x509);
    if (!md) return { ...result, reason: 'the signed attributes have no message digest' };
    if (!sameBytes(toArrayBuffer(digest), md.valueBlock.valueHexView)) return { ...result, reason: 'the digest of the signed byte ranges does not match the signed digest: the document was changed' };
    data = Buffer.from(signerInfo.signedAttrs.encodedValue);
  } else {
    data = Buffer.concat(signed.map((s) => Buffer.from(s.buffer, s.byteOffset, s.byteLength)));
  }
  if (!signer) return { ...result, reason: 'the signer certificate is not in the signature' };
  const signature = Buffer.from(signerInfo.signature.valueBlock.valueHexView);
  const algorithm = signerInfo.signatureAlgorithm.algorithmId;
  let ok: boolean;
  try {
    if (algorithm === OID.rsassaPss) {
      const params = new pkijs.RSASSAPSSParams({ schema: signerInfo.signatureAlgorithm.algorithmParams });
      const pssDigest = DIGESTS[params.hashAlgorithm.algorithmId] ?? 'sha1';
      ok = verify(pssDigest, data, { key: signer.x509.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: params.saltLength }, signature);
    } else {
      ok = verify(SIGNATURE_DIGESTS[algorithm] ?? digestName, data, signer.x509.publicKey, signature);
    }
  } catch {
    return { ...result, reason: `the signature could not be checked (algorithm ${algorithm})` };
  }
  if (!ok) return { ...result, reason: 'the signature does not verify with the signer certificate\'s public key' };
  return { ...result, integrity: true };
}

/** Whether a signing-certificate(-v2) attribute's first ESSCertID hashes the signer certificate. */
function signingCertificateNames(attr: pkijs.Attribute, cert: X509Certificate): boolean {
  try {
    const value = attr.values[0] as asn1js.Sequence;
    const first = (value.valueBlock.value[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence;
    const items = first.valueBlock.value;
    let digest = attr.type === OID.signingCertificate ? 'sha1' : 'sha256';
    let hashItem = items[0]!;
    if (hashItem instanceof asn1js.Sequence) {
      digest = DIGESTS[new pkijs.AlgorithmIdentifier({ schema: hashItem }).algorithmId] ?? digest;
      hashItem = items[1]!;
    }
    const expected = createHash(digest).update(cert.raw).digest();
    return hashItem instanceof asn1js.OctetString && sameBytes(toArrayBuffer(expected), hashItem.valueBlock.valueHexView);
  } catch {
    return false;
  }
}
