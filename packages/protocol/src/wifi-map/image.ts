import { LIMITS } from '../enums/limits.ts';
import { Codes, type Failure, fail } from '../errors.ts';

/**
 * Floor plan images (docs/decisions/0053): PNG or JPEG, at most 10 MB (SPEC.md §9), recognised by
 * their magic bytes and measured from their header — never by decoding them — so the server and
 * the browser refuse a file that is not a plan, or whose pixels would not fit in memory, before
 * anything decodes it. Every refusal answers 79 ("Failed to upload") with its reason.
 */

export const PLAN_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export type PlanImageType = (typeof PLAN_IMAGE_TYPES)[number];

export const PLAN_IMAGE_LIMITS = {
  MAX_BYTES: LIMITS.IMAGE_MAX_BYTES,
  /** Longest side in pixels, and the most pixels (40 megapixels ≈ 160 MB decoded as RGBA). */
  MAX_SIDE: 10_000,
  MAX_PIXELS: 40_000_000,
  MIN_SIDE: 16,
  /** The bytes a header is looked for in (a JPEG's SOF may follow up to 64 KB of EXIF and more). */
  HEAD_BYTES: 512 * 1024,
} as const;

export interface PlanImageHeader {
  mime: PlanImageType;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32 = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;

export const isPng = (b: Uint8Array): boolean => b.length >= 8 && PNG_SIGNATURE.every((v, i) => b[i] === v);
export const isJpeg = (b: Uint8Array): boolean =>
  b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** A PNG's size from its IHDR chunk, which must come first. */
function pngSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 24) return null;
  const ihdr = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
  if (u32(b, 8) !== 13 || ihdr !== 'IHDR') return null;
  return { width: u32(b, 16), height: u32(b, 20) };
}

/** Start-of-frame markers (C0–CF) that carry the frame size: not DHT C4, JPG C8 or DAC CC. */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** A JPEG's size from its first start-of-frame segment, walking the segments before it. */
function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0-7, SOI; EOI or SOS before a frame means no size.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = u16(b, i + 2);
    if (length < 2) return null;
    if (isSof(marker)) {
      if (i + 9 > b.length) return null;
      return { height: u16(b, i + 5), width: u16(b, i + 7) };
    }
    i += 2 + length;
  }
  return null;
}

/** The type and size an image's first bytes declare, or the reason it is refused (79). */
export function readPlanImageHeader(head: Uint8Array): PlanImageHeader | Failure {
  let mime: PlanImageType;
  let size: { width: number; height: number } | null;
  if (isPng(head)) {
    mime = 'image/png';
    size = pngSize(head);
  } else if (isJpeg(head)) {
    mime = 'image/jpeg';
    size = jpegSize(head);
  } else {
    return uploadFailure('the file is not a PNG or JPEG image');
  }
  if (!size) return uploadFailure('the image is damaged: its header gives no size');
  const { width, height } = size;
  const L = PLAN_IMAGE_LIMITS;
  if (width < L.MIN_SIDE || height < L.MIN_SIDE) {
    return uploadFailure(`the image must be at least ${L.MIN_SIDE} × ${L.MIN_SIDE} pixels`);
  }
  if (width > L.MAX_SIDE || height > L.MAX_SIDE || width * height > L.MAX_PIXELS) {
    return uploadFailure(
      `the image must be at most ${L.MAX_SIDE.toLocaleString('en-US')} pixels a side and ${L.MAX_PIXELS / 1e6} megapixels`,
    );
  }
  return { mime, width, height };
}

/** 79 with its reason: "Failed to upload: …" (the form shows the reason under the file). */
export function uploadFailure(reason: string): Failure {
  return fail(Codes.UPLOAD_MAP, `Failed to upload: ${reason}`, { file: reason });
}

export const PLAN_TOO_LARGE_REASON = 'the image is larger than 10 MB';

/** The size rule alone (the browser checks it before reading the file). */
export function validatePlanSize(bytes: number): Failure | null {
  if (bytes <= 0) return uploadFailure('the file is empty');
  return bytes > PLAN_IMAGE_LIMITS.MAX_BYTES ? uploadFailure(PLAN_TOO_LARGE_REASON) : null;
}

export const isPlanImageFailure = (v: PlanImageHeader | Failure): v is Failure => 'code' in v;
