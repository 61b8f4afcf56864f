import { crc32, deflateSync } from 'node:zlib';

/** A chunk of a PNG: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real, decodable RGB PNG of `width` × `height`, each pixel coloured by `paint` (white by
 * default): for uploads in tests and the e2e's floor plan.
 */
export function buildPng(
  width: number,
  height: number,
  paint: (x: number, y: number) => [number, number, number] = () => [255, 255, 255],
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A floor plan drawing: a grey outline and a few rooms on white (for the e2e and screenshots). */
export function floorPlanPng(width = 1000, height = 600): Buffer {
  const wall = (x: number, y: number) =>
    x < 6 ||
    y < 6 ||
    x >= width - 6 ||
    y >= height - 6 ||
    (Math.abs(y - height * 0.45) < 3 && (x < width * 0.4 || x > width * 0.5)) ||
    (Math.abs(x - width * 0.3) < 3 && y < height * 0.45) ||
    (Math.abs(x - width * 0.65) < 3 && (y < height * 0.2 || y > height * 0.3));
  return buildPng(width, height, (x, y) => (wall(x, y) ? [90, 90, 90] : [250, 250, 248]));
}
