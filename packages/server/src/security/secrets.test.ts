import { describe, expect, it } from 'vitest';
import { isSealed, Secrets } from './secrets.ts';

describe('Secrets', () => {
  const secrets = new Secrets('test-key');

  it('seals every secret of a document and opens it again; others are left alone', () => {
    const doc = {
      name: 'ap',
      wan: { password: 'pppoe-pass' },
      wifi: [{ ssid: 's', password: 'k3yk3yk3y' }, { password: '' }],
    };
    const sealed = secrets.sealDocument(doc);
    expect(sealed.name).toBe('ap');
    expect(isSealed(sealed.wan.password)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('pppoe-pass');
    expect(JSON.stringify(sealed)).not.toContain('k3yk3yk3y');
    expect(sealed.wifi[1].password).toBe('');
    expect(secrets.openDocument(sealed)).toEqual(doc);
    // Sealing twice changes nothing; every seal has its own nonce.
    expect(secrets.sealDocument(sealed)).toEqual(sealed);
    expect(secrets.seal('x')).not.toBe(secrets.seal('x'));
  });

  it('refuses a value sealed under another key', () => {
    const sealed = secrets.seal('secret');
    expect(() => new Secrets('other-key').open(sealed)).toThrow();
  });
});
