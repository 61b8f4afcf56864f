/**
 * Posts `file` as a one-file multipart upload in two writes: the multipart head and the first
 * `splitAt` bytes of the file, then (after a pause that lets the server read the first write to its
 * end) the rest. An upload limit at `splitAt` then meets a read that ends exactly at the limit — the
 * case where the first bytes could be taken for the whole file (src/http/upload.ts).
 */
export async function postSplitUpload(
  url: string,
  cookieToken: string | undefined,
  upload: { file: Uint8Array; filename: string; contentType: string; splitAt: number },
): Promise<{ status: number; code: number }> {
  const boundary = `----beacon${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${upload.filename}"\r\n` +
      `Content-Type: ${upload.contentType}\r\n\r\n`,
  );
  const writes = [
    Buffer.concat([head, upload.file.subarray(0, upload.splitAt)]),
    Buffer.concat([upload.file.subarray(upload.splitAt), Buffer.from(`\r\n--${boundary}--\r\n`)]),
  ];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = writes.shift();
      if (!next) return controller.close();
      if (writes.length === 0) await new Promise((r) => setTimeout(r, 300));
      controller.enqueue(new Uint8Array(next));
    },
  });
  const res = await fetch(url, {
    method: 'POST',
    headers: { cookie: `token=${cookieToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  const json = (await res.json()) as { code: number };
  return { status: res.status, code: json.code };
}
