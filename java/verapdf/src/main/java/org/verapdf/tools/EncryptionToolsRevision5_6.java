package org.verapdf.tools;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES-256 (revisions 5 and 6) password checks of veraPDF's parser, written anew for pdfservice: this class
 * takes the place of the parser's own of the same name (the helper's jar comes first on the class path, see
 * src/tools/verapdf.ts) with the same public methods.
 *
 * Why: veraPDF 1.30.2 ends revision 6's hash loop (ISO 32000-2, Algorithm 2.B) one round late. It stops when the last
 * byte of E is at most the number of rounds done less 33, where the algorithm (and qpdf, MuPDF, pdf.js, PDFBox) stops
 * at less 32; when that byte is exactly the rounds done less 32 veraPDF hashes on and judges the right password wrong.
 * That is about one AES-256 file in forty, whatever wrote it: preflight then said "encrypted and could not be
 * decrypted with the password given" for a password the service had just opened the document with (veraPDF-library
 * issue 1632, fixed in its development line, in no release on Maven Central as of 29 Nov 2026). Remove this class
 * when pom.xml moves to a release with the fix; test/tools/preflight.test.ts holds a file that shows the bug.
 */
public class EncryptionToolsRevision5_6 {

  private static final int HASH_BYTES = 32;

  /**
   * The file key that {@code password} (UTF-8, SASLprep'd by the caller, at most 127 bytes) gives: through /OE when it
   * is the owner password, through /UE when it is the user password (Algorithm 2.A). Null when the string to decrypt is
   * absent; a GeneralSecurityException when the password is neither.
   */
  public static byte[] getFileEncryptionKey(byte[] password, byte[] o, byte[] u, byte[] oe, byte[] ue, long revision)
      throws GeneralSecurityException {
    boolean owner = Arrays.equals(hash(password, slice(o, 32, 40), u, revision), slice(o, 0, HASH_BYTES));
    if (!owner && !Arrays.equals(hash(password, slice(u, 32, 40), null, revision), slice(u, 0, HASH_BYTES))) {
      throw new GeneralSecurityException("Incorrect password: failed check of owner hash.");
    }
    byte[] wrapped = owner ? oe : ue;
    if (wrapped == null) return null;
    byte[] intermediate = owner ? hash(password, slice(o, 40, 48), u, revision) : hash(password, slice(u, 40, 48), null, revision);
    enableAES256();
    Cipher aes = Cipher.getInstance("AES/CBC/NoPadding");
    aes.init(Cipher.DECRYPT_MODE, new SecretKeySpec(intermediate, "AES"), new IvParameterSpec(new byte[16]));
    return aes.doFinal(wrapped);
  }

  /**
   * Java 9 and later allow 256-bit AES keys unless a policy file says otherwise; this says so plainly instead of
   * failing later in the cipher.
   */
  public static void enableAES256() throws GeneralSecurityException {
    if (Cipher.getMaxAllowedKeyLength("AES") < 256) {
      throw new GeneralSecurityException("This JVM's crypto policy does not allow 256-bit AES keys");
    }
  }

  /**
   * The hash of revision 5 (SHA-256 of password, salt and, for the owner, the 48-byte /U) and revision 6 (Algorithm
   * 2.B: that SHA-256, then rounds of AES-128 and SHA-2 until at least 64 are done and the last byte of the round's
   * output is at most the number of rounds done less 32).
   */
  private static byte[] hash(byte[] password, byte[] salt, byte[] userString, long revision) throws GeneralSecurityException {
    byte[] extra = userString == null ? new byte[0] : userString;
    byte[] k = digest("SHA-256", password, salt, extra);
    if (revision <= 5) return Arrays.copyOf(k, HASH_BYTES);
    Cipher aes = Cipher.getInstance("AES/CBC/NoPadding");
    for (int rounds = 1; ; rounds++) {
      byte[] once = concat(password, k, extra);
      byte[] k1 = new byte[once.length * 64];
      for (int i = 0; i < 64; i++) System.arraycopy(once, 0, k1, i * once.length, once.length);
      aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(Arrays.copyOf(k, 16), "AES"), new IvParameterSpec(Arrays.copyOfRange(k, 16, 32)));
      byte[] e = aes.doFinal(k1);
      // The first 16 bytes of E as a big-endian number, modulo 3: 256 is 1 modulo 3, so the sum of the bytes is.
      int sum = 0;
      for (int i = 0; i < 16; i++) sum += e[i] & 0xff;
      k = digest(sum % 3 == 0 ? "SHA-256" : sum % 3 == 1 ? "SHA-384" : "SHA-512", e);
      if (rounds >= 64 && (e[e.length - 1] & 0xff) <= rounds - 32) return Arrays.copyOf(k, HASH_BYTES);
    }
  }

  private static byte[] digest(String algorithm, byte[]... parts) throws GeneralSecurityException {
    MessageDigest md = MessageDigest.getInstance(algorithm);
    for (byte[] part : parts) md.update(part);
    return md.digest();
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] part : parts) length += part.length;
    byte[] out = new byte[length];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, out, at, part.length);
      at += part.length;
    }
    return out;
  }

  /** bytes[from, to), zeros past the end of a short (damaged) string, as the parser's own class read them. */
  private static byte[] slice(byte[] bytes, int from, int to) {
    return from > bytes.length ? new byte[to - from] : Arrays.copyOfRange(bytes, from, to);
  }
}
