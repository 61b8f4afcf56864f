import { describe, expect, it } from 'vitest';
import { checkImageFile, formatGmtOffset } from './format.ts';

describe('formatters', () => {
  it('formats GMT offsets', () => {
    expect(formatGmtOffset(480)).toBe('GMT+08:00');
    expect(formatGmtOffset(-210)).toBe('GMT-03:30');
    expect(formatGmtOffset(0)).toBe('GMT+00:00');
    expect(formatGmtOffset(345)).toBe('GMT+05:45');
  });
  it('checks avatar images before upload', () => {
    expect(checkImageFile({ name: 'a.PNG', size: 100 })).toBeNull();
    expect(checkImageFile({ name: 'a.webp', size: 100 })).toBe('account.avatarType');
    expect(checkImageFile({ name: 'png', size: 100 })).toBe('account.avatarType');
    expect(checkImageFile({ name: 'a.jpg', size: 10 * 1024 * 1024 + 1 })).toBe('account.avatarSize');
  });
});
