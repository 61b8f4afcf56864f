import { storage } from '../storage/storage.ts';

/**
 * Saves a file the server answers. Web access: a plain link (the cookie goes with it). OpenAPI
 * access signs with a header a link cannot carry: fetch, then save the blob.
 */
export async function saveFile(url: string, fileName: string): Promise<boolean> {
  const a = document.createElement('a');
  a.download = '';
  const token = storage.getAccessType() === 'openapi' ? storage.getToken() : null;
  let blobUrl: string | null = null;
  if (token) {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) return false;
      blobUrl = URL.createObjectURL(await res.blob());
      a.download = fileName;
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
