import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Hand-made zip archives for hostile-upload tests: entries whose declared sizes may lie, and
 * deflate streams that inflate to gigabytes without the test ever holding them.
 */

export interface ZipEntry {
  name: string;
  /** The raw deflate stream. */
  deflated: Buffer;
  /** What the central directory says it unpacks to. */
  size: number;
  crc?: number;
}

export const deflated = (name: string, content: string | Buffer): ZipEntry => {
  const data = typeof content === 'string' ? Buffer.from(content) : content;
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
};

/** A deflate stream of `mib` MiB of zeros, about 1 KB per MiB: the same flushed block repeated. */
export function zerosDeflated(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1 << 20), { finishFlush: constants.Z_SYNC_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([...Array.from({ length: mib }, () => block), end]);
}

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(0, 6);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(e.crc ?? 0, 14);
    head.writeUInt32LE(e.deflated.length, 18);
    head.writeUInt32LE(e.size, 22);
    head.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc ?? 0, 16);
    central.writeUInt32LE(e.deflated.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, name, e.deflated);
    centrals.push(central, name);
    offset += head.length + name.length + e.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** The parts of a one-sheet xlsx around a given sheet (the worksheet's own entry, and extras). */
export function xlsxParts(sheet: ZipEntry, extra: ZipEntry[] = []): Buffer {
  return zip([
    deflated(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    deflated(
      '_rels/.rels',
      `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    deflated(
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Devices" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    deflated(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    sheet,
    ...extra,
  ]);
}

/** A worksheet entry whose rows are the given XML. */
export const sheetOf = (rowsXml: string): ZipEntry =>
  deflated(
    'xl/worksheets/sheet1.xml',
    `<worksheet xmlns="${MAIN}"><sheetData>${rowsXml}</sheetData></worksheet>`,
  );
