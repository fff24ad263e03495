/**
 * The addresses web pages by URL never connect to (operations/conversions/html/web.ts; docs/html.md, "Web pages by
 * URL"), and the test-only resolver setting, which a service started without NODE_ENV=test refuses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isForbiddenAddress } from '../../src/operations/conversions/html/web.js';
import { startServer } from '../helpers/server.js';

describe('web pages by URL: addresses', () => {
  test('loopback, private, shared, link-local, unique-local, multicast, unspecified and reserved addresses are refused, in IPv4, IPv6 and IPv4-mapped IPv6', () => {
    const refused = [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
      '100.64.0.1', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.1', '198.18.0.1',
      '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:0001', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1',
      'fe80::1', 'fc00::1', 'fd12:3456::1', 'fec0::1', 'ff02::1', '64:ff9b::a00:1', '2002:a00:1::1', '2001:db8::1', 'not-an-address', '',
    ];
    for (const address of refused) assert.equal(isForbiddenAddress(address), true, `${address} must be refused`);
  });

  test('public addresses are allowed', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001::200e']) {
      assert.equal(isForbiddenAddress(address), false, `${address} must be allowed`);
    }
  });

  test('PDFSERVICE_URL_TEST_HOSTS stops the service from starting unless NODE_ENV=test, and never exempts a non-loopback address', async () => {
    await assert.rejects(startServer({ env: { NODE_ENV: 'production', PDFSERVICE_URL_TEST_HOSTS: 'site.test=127.0.0.1!' } }), /PDFSERVICE_URL_TEST_HOSTS is for tests only/);
    await assert.rejects(startServer({ env: { NODE_ENV: 'test', PDFSERVICE_URL_TEST_HOSTS: 'meta.test=169.254.169.254!' } }), /only a loopback address can be exempted/);
  });
});
