import { storage } from '../../storage/storage.ts';

/**
 * Saves a streamed file. Web access: a plain link carries the cookie and the browser saves the file
 * as it comes. OpenAPI access signs with its token in a header, which a link cannot carry: fetch,
 * then save (as the log downloads do).
 */
export async function saveFile(url: string, fileName: string): Promise<boolean> {
  const a = document.createElement('a');
  a.download = fileName;
  const token = storage.getAccessType() === 'openapi' ? storage.getToken() : null;
  let blobUrl: string | null = null;
  if (token) {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) return false;
      blobUrl = URL.createObjectURL(await res.blob());
    } catch {
      return false;
    }
  }
  a.href = blobUrl ?? url;
  document.body.append(a);
  a.click();
  a.remove();
  if (blobUrl) setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
  return true;
}
