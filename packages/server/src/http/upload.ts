import { AppError, Codes, hasNul, NUL_MESSAGE } from '@beacon/protocol';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';

/**
 * The whole content of an uploaded file (`request.file({ limits: { fileSize } })`); a file larger
 * than its `fileSize` limit rejects with @fastify/multipart's code FST_REQ_FILE_TOO_LARGE (413), as
 * `toBuffer()` does — except that `toBuffer()` alone misses one case. It checks the limit as it takes
 * each piece of the file; when the pieces read so far end exactly at the limit, the parser (busboy)
 * drops the rest of the file without handing over another piece and only marks the stream
 * `truncated`, and `toBuffer()` returns the first `fileSize` bytes as if they were the whole file.
 * How the network splits the request body decides it (account.test.ts forces that split).
 */
async function uploadedBytes(file: MultipartFile): Promise<Buffer> {
  // The file name is a string of the request like any other (validation.ts): no NUL.
  if (hasNul(file.filename)) throw new AppError(Codes.FORM_DATA, NUL_MESSAGE, { file: NUL_MESSAGE });
  const bytes = await file.toBuffer();
  if (file.file.truncated) {
    throw Object.assign(new Error('request file too large'), {
      code: 'FST_REQ_FILE_TOO_LARGE',
      statusCode: 413,
    });
  }
  return bytes;
}

export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

export interface UploadRules {
  maxBytes: number;
  /** The refusal of a file over `maxBytes` (5017 for images, 5040 otherwise). */
  tooLarge: () => AppError;
  /** What the form says when no file was sent ("Choose an image file"). */
  choose: string;
}

const formError = (message: string, field = message) =>
  new AppError(Codes.FORM_DATA, message, { file: field });

/**
 * The one file of a multipart upload, in the field `file`, checked before anything parses it: a
 * request that is not multipart, has no boundary, is cut short or malformed, carries no file, a
 * field instead of it, or more than one part answers 16; an empty file 20; a file over the limit
 * the rule's code. Nothing here answers 500: every failure while reading the body is the client's.
 */
export async function readOneFile(request: FastifyRequest, rules: UploadRules): Promise<UploadedFile> {
  const contentType = request.headers['content-type'] ?? '';
  if (!request.isMultipart() || !/;\s*boundary=/i.test(contentType)) {
    throw formError('Upload the file as multipart/form-data, field "file"', rules.choose);
  }
  let found: UploadedFile | undefined;
  let extra = false;
  try {
    // One more file and a few fields than allowed, so that a second part is seen and refused here
    // rather than silently dropped by the parser.
    const parts = request.parts({ limits: { fileSize: rules.maxBytes, files: 2, fields: 2, parts: 3 } });
    for await (const part of parts) {
      if (part.type === 'file' && part.fieldname === 'file' && !found) {
        found = { filename: part.filename, bytes: await uploadedBytes(part) };
      } else {
        extra = true;
        if (part.type === 'file') part.file.resume();
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw rules.tooLarge();
    throw formError('The upload could not be read', rules.choose);
  }
  if (!found) throw formError(rules.choose);
  if (extra) throw formError('Send one file, in the field "file"', rules.choose);
  if (found.bytes.length === 0)
    throw new AppError(Codes.FILE, 'The file is empty', { file: 'The file is empty' });
  return found;
}
