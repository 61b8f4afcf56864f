import { describe, expect, it } from 'vitest';
import { remoteOpenReplySchema, remotePageBase, validateRemoteDeviceUrl } from './remote.ts';

describe('the remote page address a device returns', () => {
  it.each([
    'http://127.0.0.1:8081/',
    'https://10.0.0.5/ui/index.html',
    'http://[::1]:9000/',
    'http://device.example.net/',
  ])('accepts %s', (url) => expect(validateRemoteDeviceUrl(url)).toBeNull());

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'ftp://127.0.0.1/',
    'http://u:p@127.0.0.1/',
    'http://127.0.0.1/?a=1',
    'http://127.0.0.1/#x',
    'http://169.254.169.254/latest/',
    'http://[fe80::1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    `http://127.0.0.1/${'a'.repeat(2100)}`,
    '//127.0.0.1/',
  ])('refuses %s with 5023', (url) => expect(validateRemoteDeviceUrl(url)?.code).toBe(5023));

  it('the base is the page directory', () => {
    expect(remotePageBase('http://h:1/ui/index.html').href).toBe('http://h:1/ui/');
    expect(remotePageBase('http://h:1').href).toBe('http://h:1/');
  });

  it('the reply needs a printable token', () => {
    const url = 'http://127.0.0.1:1/';
    expect(remoteOpenReplySchema.safeParse({ url, token: 'abc' }).success).toBe(true);
    expect(remoteOpenReplySchema.safeParse({ url, token: 'a\r\nb' }).success).toBe(false);
    expect(remoteOpenReplySchema.safeParse({ url }).success).toBe(false);
  });
});
