import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderDeviceGuide } from './device-guide.ts';

describe('docs/protocol/device-guide.md', () => {
  it('is what the protocol package generates', async () => {
    const file = new URL('../../../docs/protocol/device-guide.md', import.meta.url);
    const text = await readFile(file, 'utf8');
    expect(text, 'run npm run device-guide -w @beacon/agent').toBe(await renderDeviceGuide());
  });
});
