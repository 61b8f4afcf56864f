import { AppError, Codes, hasNul, NUL_MESSAGE } from '@beacon/protocol';
import type { MultipartFile } from '@fastify/multipart';

/**
 * The whole content of an uploaded file (`request.file({ limits: { fileSize } })`); a file larger
 * than its `fileSize` limit rejects with @fastify/multipart's code FST_REQ_FILE_TOO_LARGE (413), as
 * `toBuffer()` does — except that `toBuffer()` alone misses one case. It checks the limit as it takes
 * each piece of the file; when the pieces read so far end exactly at the limit, the parser (busboy)
 * drops the rest of the file without handing over another piece and only marks the stream
 * `truncated`, and `toBuffer()` returns the first `fileSize` bytes as if they were the whole file.
 * How the network splits the request body decides it (account.test.ts forces that split).
 */
export async function uploadedBytes(file: MultipartFile): Promise<Buffer> {
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
