import { describe, expect, it } from 'vitest';
import { isPlanImageFailure, readPlanImageHeader, validatePlanSize } from './image.ts';

/** A PNG header (signature + IHDR) of the given size. */
export function pngHeader(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return b;
}

/** A JPEG with an APP0 segment, then a SOF0 of the given size. */
function jpegHeader(width: number, height: number, marker = 0xc0): Uint8Array {
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    marker,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
  ]);
}

describe('readPlanImageHeader', () => {
  it('reads a PNG and a JPEG (baseline and progressive) by magic bytes and header', () => {
    expect(readPlanImageHeader(pngHeader(1500, 900))).toEqual({
      mime: 'image/png',
      width: 1500,
      height: 900,
    });
    expect(readPlanImageHeader(jpegHeader(2000, 1200))).toEqual({
      mime: 'image/jpeg',
      width: 2000,
      height: 1200,
    });
    expect(readPlanImageHeader(jpegHeader(640, 480, 0xc2))).toEqual({
      mime: 'image/jpeg',
      width: 640,
      height: 480,
    });
  });
  it('refuses what is not a PNG or JPEG with 79 and the reason', () => {
    for (const bytes of [
      new TextEncoder().encode('GIF89a....'),
      new TextEncoder().encode('%PDF-1.7'),
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    ]) {
      const r = readPlanImageHeader(bytes);
      expect(isPlanImageFailure(r) && r.code).toBe(79);
      expect(isPlanImageFailure(r) && r.message).toBe(
        'Failed to upload: the file is not a PNG or JPEG image',
      );
    }
  });
  it('refuses a header without a size, and sizes outside the limits, before any decoding', () => {
    const cut = readPlanImageHeader(pngHeader(100, 100).slice(0, 12));
    expect(isPlanImageFailure(cut) && cut.message).toMatch(/no size/);
    const bomb = readPlanImageHeader(pngHeader(50_000, 50_000));
    expect(isPlanImageFailure(bomb) && bomb.code).toBe(79);
    expect(isPlanImageFailure(bomb) && bomb.message).toMatch(
      /at most 10,000 pixels a side and 40 megapixels/,
    );
    const many = readPlanImageHeader(pngHeader(8000, 8000));
    expect(isPlanImageFailure(many)).toBe(true);
    const tiny = readPlanImageHeader(jpegHeader(8, 8));
    expect(isPlanImageFailure(tiny) && tiny.message).toMatch(/at least 16/);
  });
  it('checks the size rule of 10 MB', () => {
    expect(validatePlanSize(10 * 1024 * 1024)).toBeNull();
    expect(validatePlanSize(10 * 1024 * 1024 + 1)?.message).toBe(
      'Failed to upload: the image is larger than 10 MB',
    );
    expect(validatePlanSize(0)?.code).toBe(79);
  });
});
